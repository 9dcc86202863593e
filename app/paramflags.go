package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"

	"softgrasp/physics/settings"
)

// paramFlag is the command-line flag of one setting of the parameter
// table (settings.Param with Flag set): a float64, an int or a name, in
// the flag's unit (-incline in degrees), with the table's usage text.
type paramFlag struct {
	p    *settings.Param
	real float64
	n    int
	name string
	// def is the default the flag was declared with; a command that gives
	// it another one (setDefault: the viewer's solver) applies it like a
	// value given on the command line.
	def string
}

// registerParams declares the flags of the table's parameters on fs, with
// their values in def as defaults. A parameter whose flag is declared by
// hand (Usage "": -mesh-scale) is left out.
func registerParams(fs *flag.FlagSet, def settings.Scenario) []*paramFlag {
	var out []*paramFlag
	for _, p := range settings.Params() {
		if !p.Flag || p.Usage == "" {
			continue
		}
		pf := &paramFlag{p: p}
		v := p.Get(&def)
		switch p.Kind {
		case settings.Real:
			fs.Float64Var(&pf.real, p.Key, v*p.FlagFactor(), p.Usage)
		case settings.Integer:
			fs.IntVar(&pf.n, p.Key, int(v), p.Usage)
		case settings.Choice:
			fs.StringVar(&pf.name, p.Key, p.Format(v), p.Usage)
		}
		pf.def = pf.text()
		out = append(out, pf)
	}
	return out
}

// registerParamsOf declares the table's flags of keys on fs, with their
// values in def as defaults: a command that takes a few of the scene's
// settings (bench, accuracy) declares them from the table, with its help
// and range.
func registerParamsOf(fs *flag.FlagSet, def settings.Scenario, keys ...string) []*paramFlag {
	all := flag.NewFlagSet("table", flag.ContinueOnError)
	var out []*paramFlag
	for _, pf := range registerParams(all, def) {
		if slices.Contains(keys, pf.p.Key) {
			copyFlag(fs, all.Lookup(pf.p.Key))
			out = append(out, pf)
		}
	}
	return out
}

// applyChecked applies the flags to cfg (apply) and checks each one's
// range, naming the flag of the first out of range.
func applyChecked(flags []*paramFlag, cfg *settings.Scenario, given map[string]bool) error {
	for _, pf := range flags {
		if err := pf.apply(cfg, given); err != nil {
			return err
		}
		if err := pf.p.Check(cfg); err != nil {
			return fmt.Errorf("-%s: %w", pf.p.Key, err)
		}
	}
	return nil
}

// text is the flag's current value as the flag package writes it.
func (pf *paramFlag) text() string {
	switch pf.p.Kind {
	case settings.Real:
		return strconv.FormatFloat(pf.real, 'g', -1, 64)
	case settings.Integer:
		return strconv.Itoa(pf.n)
	}
	return pf.name
}

// setDefault gives the flag another default (fs's DefValue too, for the
// help), which config then applies like a value given.
func (pf *paramFlag) setDefault(fs *flag.FlagSet, value string) error {
	if err := fs.Set(pf.p.Key, value); err != nil {
		return err
	}
	fs.Lookup(pf.p.Key).DefValue = value
	return nil
}

// apply stores the flag's value in cfg when the command line gave it or
// the command changed its default; otherwise cfg keeps its scenario's
// value (fast-spin's preset ω, h and DOFs).
func (pf *paramFlag) apply(cfg *settings.Scenario, given map[string]bool) error {
	p := pf.p
	if !given[p.Key] && pf.text() == pf.def {
		return nil
	}
	switch p.Kind {
	case settings.Real:
		p.Set(cfg, pf.real/p.FlagFactor())
	case settings.Integer:
		p.Set(cfg, float64(pf.n))
	case settings.Choice:
		v, err := p.Parse(pf.name)
		if err != nil {
			return &choiceError{key: p.Key, err: err}
		}
		p.Set(cfg, v)
	}
	return nil
}

// choiceError is a choice flag's value that names none of its choices.
type choiceError struct {
	key string
	err error
}

func (e *choiceError) Error() string { return "-" + e.key + ": " + e.err.Error() }
func (e *choiceError) Unwrap() error { return e.err }

// paramFlagOf returns the flag of the parameter key among fs, or nil.
func paramFlagOf(fs []*paramFlag, key string) *paramFlag {
	for _, pf := range fs {
		if pf.p.Key == key {
			return pf
		}
	}
	return nil
}
