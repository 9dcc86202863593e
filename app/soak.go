package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"softgrasp/physics/soak"
)

// soakFlags are the flags of `softgrasp soak`.
type soakFlags struct {
	minutes float64
	seed    uint64
	dofs    int
	meshes  string
	record  string
	json    bool
}

// register declares the soak's flags.
func (f *soakFlags) register(fs *flag.FlagSet) {
	fs.Float64Var(&f.minutes, "minutes", 1, "how long to soak, minutes")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the command sequence")
	fs.IntVar(&f.dofs, "dofs", 600, "mechanical DOF budget of the scenes")
	fs.StringVar(&f.meshes, "meshes", "physics/meshfile/testdata/*.*,assets/*.msh", "mesh files the scene commands load, good and bad (comma-separated globs)")
	fs.StringVar(&f.record, "record", "", "also write the soak's recording to this file (softgrasp replay reads it)")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
}

// runSoak drives the physics loop with random commands for a while and
// checks its invariants (physics/soak); it exits 1 when one failed.
func runSoak(args []string, stdout, stderr io.Writer) int {
	var f soakFlags
	_, code, done := parseCommand("softgrasp soak", f.register, args, stdout, stderr)
	if done {
		return code
	}
	if !(f.minutes > 0) {
		fmt.Fprintf(stderr, "softgrasp soak: -minutes %g: must be positive\n", f.minutes)
		return 2
	}
	// One OpenBLAS thread, as headless and replay run: with more, the
	// factorisation's sums may come out in another order from run to run,
	// and the replay could not be identical.
	setBLASThreads(1)
	var meshes []string
	for _, pattern := range strings.Split(f.meshes, ",") {
		m, err := filepath.Glob(pattern)
		if err != nil {
			fmt.Fprintf(stderr, "softgrasp soak: -meshes %q: %v\n", pattern, err)
			return 2
		}
		meshes = append(meshes, m...)
	}
	opt := soak.Options{Duration: time.Duration(f.minutes * float64(time.Minute)), Seed: f.seed, DOFs: f.dofs, Meshes: meshes,
		Progress: func(d time.Duration) { fmt.Fprintf(stderr, "\rsoak %v / %.1f min", d.Round(time.Second), f.minutes) }}
	if f.record != "" {
		file, err := os.Create(f.record)
		if err != nil {
			fmt.Fprintln(stderr, "softgrasp soak: -record:", err)
			return 1
		}
		defer file.Close()
		opt.Recording = file
	}
	// SIGINT or SIGTERM ends the soak early, with the report of what ran
	// (signals.go).
	intr := catchInterrupts()
	defer intr.stop()
	opt.Stop = func() bool { _, stop := intr.received(); return stop }
	rep, err := soak.Run(opt)
	fmt.Fprintln(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp soak:", oneLine(err))
		return 1
	}
	if f.json {
		_ = writeJSON(stdout, rep)
	} else {
		fmt.Fprintf(stdout, "soak, seed %d: %.0f s, %d steps, %d frames, %d commands (%d refused with a message), %d mesh files\n",
			rep.Seed, rep.Seconds, rep.Steps, rep.Frames, rep.Commands, rep.Refused, len(meshes))
		fmt.Fprintf(stdout, "the loop stepped in %d of %d checks\n", rep.Stepped, rep.Checks)
		fmt.Fprintf(stdout, "divergences %d, recovered %d; bad frames %d; goroutines %d -> %d; live heap %.1f -> %.1f MB (%+.1f %%)\n",
			rep.Diverged, rep.Recovered, rep.BadFrames, rep.Goroutines[0], rep.Goroutines[1],
			float64(rep.HeapBytes[0])/1e6, float64(rep.HeapBytes[1])/1e6, 100*rep.HeapGrowth)
		if rep.Stopped {
			fmt.Fprintln(stdout, rep.ReplayDetail)
		} else {
			fmt.Fprintf(stdout, "replay of the recording (%d steps): identical %v %s\n", rep.ReplaySteps, rep.ReplayEqual, rep.ReplayDetail)
		}
		for k, n := range rep.Mix {
			fmt.Fprintf(stdout, "  %-22s %d\n", k, n)
		}
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(stderr, "softgrasp soak:", p)
	}
	if sig, stopped := intr.received(); stopped && rep.Stopped {
		fmt.Fprintf(stderr, "softgrasp soak: stopped by %s after %.0f s\n", signalName(sig), rep.Seconds)
		return exitStatus(sig)
	}
	if len(rep.Problems) > 0 {
		return 1
	}
	return 0
}
