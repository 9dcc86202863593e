package physics

import (
	"runtime"
	"syscall"
)

// lowerThreadPriority locks the calling goroutine to its OS thread and
// gives that thread the lowest scheduling priority (nice 19), so that the
// kernel runs it only on a core the step's own goroutines leave free. It
// reports whether the priority was changed.
func lowerThreadPriority() bool {
	runtime.LockOSThread()
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19) == nil
}
