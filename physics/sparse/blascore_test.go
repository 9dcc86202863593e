package sparse

import (
	"os"
	"runtime"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestBLASCorePinned checks that the test binary, like every program
// linking this package, runs OpenBLAS's pinned kernels on a processor that
// has them (the package's init restarted it with OPENBLAS_CORETYPE set),
// or the kernels a caller asked for.
func TestBLASCorePinned(t *testing.T) {
	want, set := os.LookupEnv("OPENBLAS_CORETYPE")
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" || !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		if !set {
			t.Skipf("no pinning on %s/%s without AVX2 and FMA: OpenBLAS runs %s", runtime.GOOS, runtime.GOARCH, BLASCore())
		}
	}
	if !set {
		t.Fatalf("OPENBLAS_CORETYPE is not set: the restart did not happen (OpenBLAS runs %s)", BLASCore())
	}
	if got := BLASCore(); got != want {
		t.Fatalf("OpenBLAS runs %q, OPENBLAS_CORETYPE is %q", got, want)
	}
}
