package sparse

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// blasCoreChild marks the child process of TestBLASCoreVectorised.
const blasCoreChild = "SOFTGRASP_BLASCORE_CHILD"

// TestBLASCoreVectorised checks that the test binary, like every program
// linking this package, runs OpenBLAS kernels that use the processor's
// vector units when it has AVX2 and FMA (the package's init restarted it
// with OPENBLAS_CORETYPE set if OpenBLAS chose generic ones), or the
// kernels a caller asked for. When the caller asked (make test sets
// OPENBLAS_CORETYPE), it runs itself again in a child process without
// the variable, where the package's own choice is tested.
func TestBLASCoreVectorised(t *testing.T) {
	got := BLASCore()
	_, child := os.LookupEnv(blasCoreChild)
	if want, set := os.LookupEnv("OPENBLAS_CORETYPE"); set && !child {
		if got != want {
			t.Fatalf("OpenBLAS runs %q, OPENBLAS_CORETYPE is %q", got, want)
		}
		env := []string{blasCoreChild + "=1"}
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "OPENBLAS_CORETYPE=") {
				env = append(env, kv)
			}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestBLASCoreVectorised$", "-test.count=1", "-test.v")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("without OPENBLAS_CORETYPE: %v\n%s", err, out)
		}
		t.Logf("without OPENBLAS_CORETYPE:\n%s", out)
		return
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" || !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		t.Skipf("no choice made on %s/%s without AVX2 and FMA: OpenBLAS runs %s", runtime.GOOS, runtime.GOARCH, got)
	}
	if !slices.Contains(vectorCores, got) {
		t.Fatalf("OpenBLAS runs %q on a processor with AVX2 and FMA: the restart did not happen", got)
	}
	t.Logf("OpenBLAS runs %s (OPENBLAS_CORETYPE %q)", got, os.Getenv("OPENBLAS_CORETYPE"))
}
