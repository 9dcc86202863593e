package main

import (
	"flag"
	"runtime"
	"strings"
	"testing"

	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
)

// TestThreadFlags: -threads N sets the cores the process schedules on and
// caps OpenBLAS's threads; the asynchronous solver keeps OpenBLAS at one;
// -threads 0 leaves the cores alone; bad values are named.
func TestThreadFlags(t *testing.T) {
	procs, blas := runtime.GOMAXPROCS(0), sparse.BLASThreads()
	defer func() { runtime.GOMAXPROCS(procs); sparse.SetBLASThreads(blas) }()
	for _, tc := range []struct {
		name        string
		blasDefault int
		args        []string
		solver      settings.Solver
		procs, blas int // want; procs 0: unchanged
		invalid     string
	}{
		{"one core", 1, []string{"-threads", "1", "-blas-threads", "2"}, settings.ExactSolver, 1, 1, ""},
		{"two cores, two BLAS threads", 1, []string{"-threads", "2", "-blas-threads", "2"}, settings.ExactSolver, 2, 2, ""},
		{"async keeps one BLAS thread", 1, []string{"-threads", "2", "-blas-threads", "2"}, settings.AsyncSolver, 2, 1, ""},
		{"all cores, headless default", 1, nil, settings.ExactSolver, 0, 1, ""},
		{"bench: OpenBLAS's default capped by the cores", 0, []string{"-threads", "1"}, settings.ExactSolver, 1, 1, ""},
		{"negative cores", 1, []string{"-threads", "-1"}, settings.ExactSolver, 0, 0, "-threads = -1"},
		{"no BLAS thread", 1, []string{"-blas-threads", "0"}, settings.ExactSolver, 0, 0, "-blas-threads = 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GOMAXPROCS(procs)
			var tf threadFlags
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			tf.register(fs, tc.blasDefault)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			err := tf.validate()
			if tc.invalid != "" {
				if err == nil || !strings.Contains(err.Error(), tc.invalid) {
					t.Fatalf("validate: %v; want %q", err, tc.invalid)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tf.apply(tc.solver)
			want := tc.procs
			if want == 0 {
				want = procs
			}
			if got := runtime.GOMAXPROCS(0); got != want {
				t.Errorf("GOMAXPROCS %d, want %d", got, want)
			}
			if got := sparse.BLASThreads(); got != tc.blas {
				t.Errorf("OpenBLAS threads %d, want %d", got, tc.blas)
			}
		})
	}
}
