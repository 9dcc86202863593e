package physics_test

import (
	"testing"

	"softgrasp/physics"
	"softgrasp/physics/backendtest"
)

// TestCPUBackendConformance runs the shared backend suite on the CPU
// reference backend; a GPU backend runs the same suite.
func TestCPUBackendConformance(t *testing.T) {
	backendtest.Run(t, physics.NewCPUBackend())
}

// BenchmarkCPUBackend times the reference backend's stages at the shared
// sizes (30 sweeps, as Table 1); BenchmarkGPUBackend in package cuda times
// a device's on the same problems.
func BenchmarkCPUBackend(b *testing.B) {
	backendtest.Bench(b, physics.NewCPUBackend(), 30)
}
