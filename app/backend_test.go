package main

import (
	"strings"
	"testing"

	"softgrasp/physics"
	"softgrasp/physics/frame"
)

// TestSwitchBackend: the physics loop's hook puts a simulation on the
// CPU, and on the GPU when this binary has it and a device opens; without
// either it stays on the CPU and says so in one line.
func TestSwitchBackend(t *testing.T) {
	sim := &physics.Simulation{}
	defer sim.Close()
	got, err := switchBackend(sim, frame.BackendCPU)
	if err != nil || got != frame.BackendCPU || sim.Backend().Name() != "cpu" {
		t.Fatalf("cpu: got %q, err %v, backend %v", got, err, sim.Backend())
	}
	got, err = switchBackend(sim, frame.BackendGPU)
	if err == nil {
		if !gpuAvailable || got != frame.BackendGPU {
			t.Fatalf("gpu opened as %q in a binary with gpuAvailable = %v", got, gpuAvailable)
		}
		t.Logf("GPU backend opened: %s", sim.Backend().Name())
		return
	}
	if got != frame.BackendCPU || sim.Backend().Name() != "cpu" {
		t.Fatalf("a GPU that did not open left %q (backend %s), want the CPU", got, sim.Backend().Name())
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "staying on the CPU") {
		t.Fatalf("fallback message %q: want one line that says it stays on the CPU", msg)
	}
}
