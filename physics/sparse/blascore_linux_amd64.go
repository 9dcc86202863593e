package sparse

import (
	"os"
	"syscall"

	"golang.org/x/sys/cpu"
)

func init() { pinBLASCore() }

// pinBLASCore starts the program again with OPENBLAS_CORETYPE set to
// pinnedCore (blascore.go says why) when the variable is unset and the
// processor runs those kernels. The new image keeps the arguments, the
// rest of the environment and the open files; if it cannot be started,
// the program goes on with OpenBLAS's own choice.
func pinBLASCore() {
	if _, set := os.LookupEnv("OPENBLAS_CORETYPE"); set || !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		return
	}
	env := append(os.Environ(), "OPENBLAS_CORETYPE="+pinnedCore)
	_ = syscall.Exec("/proc/self/exe", os.Args, env)
}
