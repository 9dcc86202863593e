package main

import (
	"runtime"

	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
)

// The process's thread policy for OpenBLAS, which runs the dense kernels
// of the sparse factorisation and of the compliance. Its threads wait for
// work by spinning, so on a machine with few cores every thread it holds
// is a core taken from the others:
//   - the asynchronous solver's background worker takes one core and the
//     step the other: OpenBLAS gets one thread, whatever was asked;
//   - the viewer leaves one core to the renderer;
//   - headless runs and the benchmark take the -threads flag.

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
