package main

import (
	"flag"
	"fmt"
	"runtime"

	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
)

// The process's thread policy.
//
// -threads N is the cores a run's own work may use: the Go scheduler's
// (runtime.GOMAXPROCS), which sizes the element pass's worker pool
// (fem.Model) and the surface mapping's, and caps OpenBLAS's threads. 0,
// the default, is every core of the machine.
//
// OpenBLAS runs the dense kernels of the sparse factorisation and of the
// compliance. Its threads wait for work by spinning, so on a machine with
// few cores every thread it holds is a core taken from the others, and a
// second one does not speed the factorisation here (docs/results.md, "Two
// threads against one"):
//   - headless runs and replays give it one thread (-blas-threads), the
//     benchmark OpenBLAS's own default unless told;
//   - the asynchronous solver's background worker takes one core and the
//     step the other: OpenBLAS gets one thread, whatever was asked;
//   - the viewer leaves one core to the renderer.

// threadFlags are the -threads and -blas-threads of a command.
type threadFlags struct {
	cores, blas int
	blasLeast   int // the least -blas-threads (0: OpenBLAS's default allowed)
}

// register declares the flags; blas is -blas-threads' default, and 0 a
// value it takes for OpenBLAS's default.
func (t *threadFlags) register(fs *flag.FlagSet, blas int) {
	t.blasLeast = min(blas, 1)
	fs.IntVar(&t.cores, "threads", 0, "cores the run uses (the element pass's worker pool, the surface mapping; OpenBLAS's threads are capped by it); 0 = all of the machine's")
	usage := "OpenBLAS threads for the sparse kernels (1 leaves the second core to the background refactorisation; the asynchronous solver always uses 1; docs/headless.md)"
	if blas == 0 {
		usage = "OpenBLAS threads for the sparse kernels; 0 = leave OpenBLAS's default (the asynchronous solver always uses 1)"
	}
	fs.IntVar(&t.blas, "blas-threads", blas, usage)
}

// validate refuses a negative -threads and a -blas-threads below its least.
func (t *threadFlags) validate() error {
	if t.cores < 0 {
		return fmt.Errorf("-threads = %d: must be ≥ 0 (0: every core)", t.cores)
	}
	if t.blas < t.blasLeast {
		return fmt.Errorf("-blas-threads = %d: must be ≥ %d", t.blas, t.blasLeast)
	}
	return nil
}

// apply sets the process's cores and OpenBLAS's threads for a run of the
// solver; call it before the scene is built (its worker pool is sized
// then).
func (t *threadFlags) apply(solver settings.Solver) {
	if t.cores > 0 {
		runtime.GOMAXPROCS(t.cores)
	}
	blas := t.blas
	if blas == 0 { // OpenBLAS's own default: every core the run has
		if t.cores == 0 && solver != settings.AsyncSolver {
			return
		}
		blas = t.cores
	}
	blas = blasThreads(solver, blas)
	if t.cores > 0 {
		blas = min(blas, t.cores)
	}
	setBLASThreads(blas)
}

// blasThreads returns the OpenBLAS thread count for a run of the given
// solver that would otherwise use requested threads.
func blasThreads(solver settings.Solver, requested int) int {
	if solver == settings.AsyncSolver {
		return 1
	}
	return max(requested, 1)
}

// viewerBLASThreads returns the viewer's thread count for a solver: all
// cores but the renderer's.
func viewerBLASThreads(solver settings.Solver) int {
	return blasThreads(solver, runtime.NumCPU()-1)
}

// setBLASThreads applies a thread count process-wide.
func setBLASThreads(n int) { sparse.SetBLASThreads(n) }
