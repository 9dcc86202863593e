package cuda

import (
	"testing"

	"softgrasp/physics/backendtest"
)

// TestEmulatedBackendConformance runs the shared backend suite on the GPU
// backend with the GPU emulated: the plans on the cuBLAS emulator, PGS on
// the reference solver. The cuda-tagged TestGPUBackendConformance runs it
// on the device layer and the kernel itself.
func TestEmulatedBackendConformance(t *testing.T) {
	backendtest.Run(t, newEmulatedBackend())
}
