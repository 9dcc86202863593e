//go:build cuda

package kernels

import (
	"strings"
	"testing"

	"gorgonia.org/cu/nvrtc"
)

// TestCompilePGS compiles the PGS kernel with NVRTC for the architectures
// the backend may pick. It needs the NVRTC library, not a GPU: make
// cuda-build runs it on any machine.
func TestCompilePGS(t *testing.T) {
	major, minor, err := nvrtc.Version()
	if err != nil {
		t.Fatalf("NVRTC version: %v", err)
	}
	t.Logf("NVRTC %d.%d", major, minor)
	for _, a := range []string{"compute_52", "compute_60", "compute_70", "compute_80", "compute_86"} {
		t.Run(a, func(t *testing.T) {
			ptx, err := Compile(PGS, PGSName, a)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(ptx, ".entry "+PGSEntry) {
				t.Fatalf("PTX for %s has no entry %s", a, PGSEntry)
			}
			if want := ".target sm_" + strings.TrimPrefix(a, "compute_"); !strings.Contains(ptx, want) {
				t.Fatalf("PTX for %s lacks %q", a, want)
			}
		})
	}
}

// TestCompileFmadOff checks that --fmad=false is in force: the kernel's
// PTX has fewer fused multiply-adds than the same source compiled with
// contraction, only the explicit fma() calls.
func TestCompileFmadOff(t *testing.T) {
	off, err := Compile(PGS, PGSName, "compute_70")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := nvrtc.CreateProgram(PGS, PGSName)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Destroy()
	if err := prog.Compile("--gpu-architecture=compute_70", "--fmad=true"); err != nil {
		t.Fatal(err)
	}
	on, err := prog.GetPTX()
	if err != nil {
		t.Fatal(err)
	}
	nOff, nOn := strings.Count(off, "fma.rn.f64"), strings.Count(on, "fma.rn.f64")
	if nOff == 0 || nOff >= nOn {
		t.Fatalf("fma.rn.f64: %d with --fmad=false, %d with contraction: want 0 < off < on", nOff, nOn)
	}
}

// TestCompileReportsErrors checks that a broken source fails with NVRTC's
// log in the error.
func TestCompileReportsErrors(t *testing.T) {
	_, err := Compile("extern \"C\" __global__ void k() { undeclared(); }", "broken.cu", "compute_60")
	if err == nil || !strings.Contains(err.Error(), "undeclared") {
		t.Fatalf("broken source: error %v, want NVRTC's log naming the undeclared identifier", err)
	}
}
