// Command softgrasp is an interactive visualizer of finite-element soft
// bodies in frictional contact, after Zeng & Courtecuisse, "An efficient
// implicit constraint resolution scheme for interactive FE simulations".
//
// Usage:
//
//	softgrasp [viewer flags]       open the grasp-and-rotate demo
//	softgrasp headless [flags]     run a scenario without a window
//	softgrasp bench [flags]        reproduce the paper's Table 1
//	softgrasp replay FILE [flags]  re-run a recording (-record) without a window
//	softgrasp soak [flags]         random commands against the loop, invariants checked
//	softgrasp grasp-set [flags]    grasp and rotate every mesh of a folder, a verdict each
//
// Run a subcommand with -h for its flags.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// commands are the subcommands by name; anything else opens the viewer.
var commands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"headless": runHeadless, "bench": runBench, "accuracy": runAccuracy,
	"replay": runReplay, "soak": runSoak, "grasp-set": runGraspSet,
}

// run dispatches to a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runViewer(args, stdout, stderr)
	}
	if cmd, ok := commands[args[0]]; ok {
		return cmd(args[1:], stdout, stderr)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(stdout, usage)
		printViewerFlags(stdout)
		return 0
	}
	return runViewer(args, stdout, stderr)
}

const usage = `softgrasp — real-time FE soft bodies in frictional contact

  softgrasp [-frames N -screenshot FILE]   open the grasp-and-rotate demo
  softgrasp headless [flags]               run a scenario without a window
  softgrasp bench [flags]                  reproduce the paper's Table 1
  softgrasp accuracy [flags]               contact accuracy against a fine-step reference
  softgrasp replay FILE [-json] [-csv F]   re-run a recording (-record FILE) and compare its final state
  softgrasp soak [-minutes N -seed S]      random commands against the physics loop, invariants checked
  softgrasp grasp-set [-dir D -runs N]     grasp and rotate every mesh of a folder, a verdict each

Run a subcommand with -h for its flags. The demo takes the scene flags of
softgrasp headless -h (-mesh, -dofs, -mu, -grip-force, ...) and these:`

// printViewerFlags lists the demo's own flags: those of its command line
// that the headless runner does not have.
func printViewerFlags(w io.Writer) {
	var hf headlessFlags
	scene := flag.NewFlagSet("scene", flag.ContinueOnError)
	hf.register(scene)
	var vf viewerFlags
	fs := flag.NewFlagSet("softgrasp", flag.ContinueOnError)
	vf.register(fs)
	fs.VisitAll(func(f *flag.Flag) {
		if scene.Lookup(f.Name) != nil {
			return
		}
		fmt.Fprintf(w, "  -%s\n    \t%s", f.Name, f.Usage)
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}
