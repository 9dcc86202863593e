//go:build cuda

package kernels

import (
	"fmt"
	"strings"
	"testing"

	"gorgonia.org/cu/nvrtc"
)

// oldestArch is the oldest virtual architecture NVRTC of major version
// nvrtcMajor accepts: CUDA 13 dropped compute capabilities below 7.5
// (NVRTC 13.0 answers "invalid value for --gpu-architecture" for
// compute_52, _60 and _70; measured with an H200's CUDA 13.0, docs/gpu.md).
func oldestArch(nvrtcMajor int) int {
	if nvrtcMajor >= 13 {
		return 75
	}
	return 52
}

// TestCompilePGS compiles the PGS kernel with NVRTC for the architectures
// the backend may pick, and checks that the ones this NVRTC no longer
// supports are refused rather than compiled. It needs the NVRTC library,
// not a GPU.
func TestCompilePGS(t *testing.T) {
	major, minor, err := nvrtc.Version()
	if err != nil {
		t.Fatalf("NVRTC version: %v", err)
	}
	t.Logf("NVRTC %d.%d", major, minor)
	for _, cc := range []int{52, 60, 70, 75, 80, 86, 90} {
		a := fmt.Sprintf("compute_%d", cc)
		t.Run(a, func(t *testing.T) {
			ptx, err := Compile(PGS, PGSName, a)
			if cc < oldestArch(major) {
				if err == nil {
					t.Fatalf("NVRTC %d compiled for %s, which it was expected to refuse", major, a)
				}
				t.Logf("refused, as expected of NVRTC %d: %v", major, firstLine(err))
				return
			}
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

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// TestCompileFmadOff checks that --fmad=false is in force: the kernel's
// PTX has fewer fused multiply-adds than the same source compiled with
// contraction, only the explicit fma() calls.
func TestCompileFmadOff(t *testing.T) {
	off, err := Compile(PGS, PGSName, "compute_75")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := nvrtc.CreateProgram(PGS, PGSName)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Destroy()
	if err := prog.Compile("--gpu-architecture=compute_75", "--fmad=true"); err != nil {
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
	_, err := Compile("extern \"C\" __global__ void k() { undeclared(); }", "broken.cu", "compute_75")
	if err == nil || !strings.Contains(err.Error(), "undeclared") {
		t.Fatalf("broken source: error %v, want NVRTC's log naming the undeclared identifier", err)
	}
}
