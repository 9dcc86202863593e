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
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "headless":
			return runHeadless(args[1:], stdout, stderr)
		case "bench":
			return runBench(args[1:], stdout, stderr)
		case "accuracy":
			return runAccuracy(args[1:], stdout, stderr)
		case "replay":
			return runReplay(args[1:], stdout, stderr)
		case "soak":
			return runSoak(args[1:], stdout, stderr)
		case "grasp-set":
			return runGraspSet(args[1:], stdout, stderr)
		case "help", "-h", "-help", "--help":
			fmt.Fprintln(stdout, usage)
			return 0
		}
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

Run a subcommand with -h for its flags.`
