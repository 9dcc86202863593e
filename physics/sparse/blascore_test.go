package sparse

import (
	"os"
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestBLASCoreVectorised checks that the test binary, like every program
// linking this package, runs OpenBLAS kernels that use the processor's
// vector units when it has AVX2 and FMA (the package's init restarted it
// with OPENBLAS_CORETYPE set if OpenBLAS chose generic ones), or the
// kernels a caller asked for.
func TestBLASCoreVectorised(t *testing.T) {
	got := BLASCore()
	if want, set := os.LookupEnv("OPENBLAS_CORETYPE"); set {
		if got != want {
			t.Fatalf("OpenBLAS runs %q, OPENBLAS_CORETYPE is %q", got, want)
		}
		return
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" || !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		t.Skipf("no choice made on %s/%s without AVX2 and FMA: OpenBLAS runs %s", runtime.GOOS, runtime.GOARCH, got)
	}
	if !slices.Contains(vectorCores, got) {
		t.Fatalf("OpenBLAS runs %q on a processor with AVX2 and FMA: the restart did not happen", got)
	}
}
