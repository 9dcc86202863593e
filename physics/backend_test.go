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
