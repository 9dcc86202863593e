package cuda

import (
	"testing"

	"softgrasp/physics/backendtest"
)

// TestEmulatedBackendConformance runs the shared backend suite on the GPU
// backend with the GPU emulated: the plans on the cuBLAS emulator, PGS on
// the kernel's mirror, for several block sizes.
func TestEmulatedBackendConformance(t *testing.T) {
	for _, threads := range []int{32, 96, pgsThreads} {
		t.Run(threadsName(threads), func(t *testing.T) {
			b, err := newEmulatedBackend(threads)
			if err != nil {
				t.Fatal(err)
			}
			backendtest.Run(t, b)
		})
	}
}
