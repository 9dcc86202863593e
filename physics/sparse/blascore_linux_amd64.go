package sparse

import (
	"os"
	"slices"
	"syscall"

	"golang.org/x/sys/cpu"
)

func init() { pinBLASCore() }

// pinBLASCore starts the program again with OPENBLAS_CORETYPE set when
// OpenBLAS chose generic kernels for a processor with AVX2 and FMA
// (blascore.go says why). The new image keeps the arguments, the rest of
// the environment and the open files; if it cannot be started, the
// program goes on with OpenBLAS's own choice.
func pinBLASCore() {
	if core := betterCore(); core != "" {
		env := append(os.Environ(), "OPENBLAS_CORETYPE="+core)
		_ = syscall.Exec("/proc/self/exe", os.Args, env)
	}
}

// betterCore returns the kernels to ask OpenBLAS for, or "" to keep its
// choice: a variable already set, a processor without AVX2 and FMA, or
// kernels that use them already.
func betterCore() string {
	if _, set := os.LookupEnv("OPENBLAS_CORETYPE"); set || !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		return ""
	}
	if slices.Contains(vectorCores, BLASCore()) {
		return ""
	}
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512DQ {
		return avx512Core
	}
	return avxCore
}
