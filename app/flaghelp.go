package main

import (
	"flag"
	"fmt"
	"io"
	"slices"

	"softgrasp/physics/settings"
)

// A command's -h lists its everyday flags when it has many: the parameter
// table's everyday settings (settings.Param.Everyday) and the hand-declared
// flags below; -help-all lists every flag. Every flag works whichever list
// shows it.

// everydayFlags are the hand-declared flags of the short help: the scene,
// what a run writes, and the viewer's window.
var everydayFlags = map[string]bool{
	"scenario": true, "scene": true, "mesh": true, "mesh-units": true, "object": true, "attach": true,
	"steps": true, "json": true, "csv": true, "record": true, "contacts": true, "ab": true,
	"frames": true, "screenshot": true, "shot-time": true, "pace": true, "width": true, "height": true,
	"max-fps": true, "video": true, "vsync": true,
}

// shortHelpFlags is the most flags a command's -h lists in full; one with
// more lists its everyday ones.
const shortHelpFlags = 25

// helpAll is the flag that lists every flag.
const helpAll = "help-all"

// everyday reports whether the flag name is listed by a short help.
func everyday(name string) bool {
	if p := settings.ParamByKey(name); p != nil && p.Flag {
		return p.Everyday
	}
	return everydayFlags[name]
}

// wantsHelpAll reports whether args ask for every flag.
func wantsHelpAll(args []string) bool {
	return slices.Contains(args, "-"+helpAll) || slices.Contains(args, "--"+helpAll)
}

// printHelp writes fs's usage: every flag, or with short and more than
// shortHelpFlags of them the everyday ones and how to list the rest.
func printHelp(w io.Writer, fs *flag.FlagSet, short bool) {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	short = short && n > shortHelpFlags
	fmt.Fprintf(w, "Usage of %s:\n", fs.Name())
	printFlags(w, fs, func(f *flag.Flag) bool { return !short || everyday(f.Name) })
	if short {
		fmt.Fprintf(w, "\nThese are the everyday flags; %s -%s lists all %d (the solver's research and tuning switches among them).\n", fs.Name(), helpAll, n)
	}
}

// copyFlag declares f on fs: the same value, usage and default.
func copyFlag(fs *flag.FlagSet, f *flag.Flag) {
	fs.Var(f.Value, f.Name, f.Usage)
	fs.Lookup(f.Name).DefValue = f.DefValue
}

// printFlags writes the flags of fs that keep selects, as PrintDefaults
// writes them.
func printFlags(w io.Writer, fs *flag.FlagSet, keep func(*flag.Flag) bool) {
	sub := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		if keep(f) {
			copyFlag(sub, f)
		}
	})
	sub.SetOutput(w)
	sub.PrintDefaults()
}
