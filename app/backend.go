package main

import (
	"fmt"
	"io"

	"softgrasp/physics"
)

// The -backend flag: where the fast scheme's per-Newton-iteration work
// (rebuild W, PGS, correction) runs. "cpu" is the reference backend of
// package physics; "gpu" is the CUDA backend of package cuda, present only
// in binaries built with -tags cuda (make run-cuda, bin/softgrasp-cuda).
// Without it, or without a usable device, the run says so in one line on
// stderr and goes on on the CPU.
const (
	backendCPU = "cpu"
	backendGPU = "gpu"
)

// checkBackend validates the value of -backend.
func checkBackend(name string) error {
	if name != backendCPU && name != backendGPU {
		return fmt.Errorf("-backend = %q: want %s or %s", name, backendCPU, backendGPU)
	}
	return nil
}

// useBackend puts sim on the backend named name and returns the name of
// the one it runs on: gpu, or cpu when the GPU backend cannot be opened
// (reported on stderr).
func useBackend(sim *physics.Simulation, name string, stderr io.Writer) string {
	if name != backendGPU {
		return backendCPU
	}
	b, err := newGPUBackend()
	if err != nil {
		fmt.Fprintf(stderr, "softgrasp: GPU backend unavailable (%s); falling back to the CPU\n", oneLine(err))
		return backendCPU
	}
	sim.SetBackend(b)
	return backendGPU
}
