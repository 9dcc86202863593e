//go:build cuda

package cuda

import (
	"testing"

	"softgrasp/physics/backendtest"
)

// TestGPUBackendConformance runs the shared backend suite on the GPU
// backend: the device layer of gpu.go through gorgonia.org/cu, the PGS
// kernel compiled by NVRTC and launched with its real parameters, cuBLAS.
// Without a GPU it runs on the CPU stand-in (cuda/standin, make
// cuda-test), which executes the same pgs.cu source.
func TestGPUBackendConformance(t *testing.T) {
	for _, threads := range []int{32, 96, pgsThreads} {
		t.Run(threadsName(threads), func(t *testing.T) {
			b, err := New(Options{Threads: threads})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("device: %s", b.(*GPU).Device())
			backendtest.Run(t, b)
		})
	}
}

// BenchmarkGPUBackend times the GPU backend's stages on the problems of
// physics' BenchmarkCPUBackend (30 sweeps). On the stand-in these are CPU
// emulation times, not GPU ones.
func BenchmarkGPUBackend(b *testing.B) {
	be, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("device: %s", be.(*GPU).Device())
	backendtest.Bench(b, be, 30)
}
