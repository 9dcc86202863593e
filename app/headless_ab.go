package main

import (
	"fmt"
	"io"

	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// runAB runs cfg as A and with the -ab changes as B, step for step with
// the same script (scenario.RunAB), and reports both and their divergence.
func runAB(cfg settings.Scenario, spec string, steps int, asJSON bool, stdout, stderr io.Writer) int {
	cfgB, err := settings.ApplyAB(cfg, spec)
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp headless: -ab:", oneLine(err))
		return 2
	}
	rep, err := scenario.RunAB(cfg, cfgB, spec, steps)
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp headless:", oneLine(err))
		return 1
	}
	writeAB(stdout, asJSON, rep)
	return 0
}

// writeAB prints the report of runAB, or its JSON.
func writeAB(w io.Writer, asJSON bool, rep scenario.ABReport) {
	if asJSON {
		_ = writeJSON(w, rep)
		return
	}
	fmt.Fprintln(w, "A:")
	printSummary(w, rep.A)
	fmt.Fprintf(w, "B (%s):\n", rep.BChanges)
	printSummary(w, rep.B)
	d := rep.Divergence
	fmt.Fprintf(w, "divergence over %d steps: largest node distance %.4f mm at t = %.3f s, %.4f mm at the end; max penetration A %.4f mm, B %.4f mm\n",
		d.Steps, 1e3*d.MaxNodeDistance, d.MaxAt, 1e3*d.FinalNodeDistance, 1e3*rep.A.MaxPenetration, 1e3*rep.B.MaxPenetration)
}
