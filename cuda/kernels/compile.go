//go:build cuda

package kernels

import (
	"fmt"
	"strings"

	"gorgonia.org/cu/nvrtc"
)

// Compile compiles the CUDA C source (named name in diagnostics) to PTX
// for the virtual architecture a with CompileOptions. NVRTC runs on the
// CPU: no device or driver is needed. A failed compilation's error carries
// NVRTC's log.
func Compile(source, name, a string) (string, error) {
	prog, err := nvrtc.CreateProgram(source, name)
	if err != nil {
		return "", fmt.Errorf("nvrtc: creating program %s: %w", name, err)
	}
	defer prog.Destroy()
	if err := prog.Compile(CompileOptions(a)...); err != nil {
		log, _ := prog.GetLog()
		return "", fmt.Errorf("nvrtc: compiling %s for %s: %w\n%s", name, a, err, strings.TrimSpace(log))
	}
	ptx, err := prog.GetPTX()
	if err != nil {
		return "", fmt.Errorf("nvrtc: PTX of %s: %w", name, err)
	}
	return ptx, nil
}

// CompilePGS compiles the PGS kernel for a device of compute capability
// major.minor, trying ArchCandidates in order, and returns the PTX and the
// architecture it was compiled for.
func CompilePGS(major, minor int) (ptx, arch string, err error) {
	archs, err := ArchCandidates(major, minor)
	if err != nil {
		return "", "", err
	}
	var errs []string
	for _, a := range archs {
		ptx, err := Compile(PGS, PGSName, a)
		if err == nil {
			return ptx, a, nil
		}
		errs = append(errs, err.Error())
	}
	return "", "", fmt.Errorf("the PGS kernel compiles for none of %v:\n%s", archs, strings.Join(errs, "\n"))
}
