package main

import (
	"fmt"
	"io"

	"softgrasp/physics"
	"softgrasp/physics/frame"
)

// The -backend flag: where the fast scheme's per-Newton-iteration work
// (rebuild W, PGS, correction) runs. "cpu" is the reference backend of
// package physics; "gpu" is the CUDA backend of package cuda, present only
// in binaries built with -tags cuda (make run-cuda, bin/softgrasp-cuda).
// Without it, or without a usable device, the run says so in one line on
// stderr and goes on on the CPU.
//
// The viewer's Simulation panel switches live between the two
// (frame.SetBackend): the physics loop calls switchBackend on its own
// goroutine, so that package loop never links a device.
const (
	backendCPU = frame.BackendCPU
	backendGPU = frame.BackendGPU
)

// checkBackend validates the value of -backend (frame.CheckBackend, the
// check of the panel's toggle).
func checkBackend(name string) error {
	if frame.CheckBackend(name) != nil {
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

// switchBackend is the physics loop's Options.SetBackend: it puts sim on
// the backend named name and returns the one it runs on. The loop asks
// for the GPU only when the simulation runs on the CPU, so a GPU that
// cannot be opened leaves it there, and the error says so in one line
// (the viewer shows it in the frame's message).
func switchBackend(sim *physics.Simulation, name string) (string, error) {
	if name != backendGPU {
		sim.SetBackend(physics.NewCPUBackend())
		return backendCPU, nil
	}
	b, err := newGPUBackend()
	if err != nil {
		return backendCPU, fmt.Errorf("GPU backend unavailable (%s); staying on the CPU", oneLine(err))
	}
	sim.SetBackend(b)
	return backendGPU, nil
}
