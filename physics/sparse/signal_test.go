//go:build linux && amd64

package sparse

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"unsafe"
)

// kernelSigaction is the kernel's struct sigaction on linux/amd64, as the
// rt_sigaction system call reads and writes it.
type kernelSigaction struct {
	handler, flags, restorer uintptr
	mask                     uint64
}

// sigactionFlags returns the flags of the action installed for sig.
func sigactionFlags(t *testing.T, sig syscall.Signal) uintptr {
	t.Helper()
	var old kernelSigaction
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), 0, uintptr(unsafe.Pointer(&old)), 8, 0, 0); errno != 0 {
		t.Fatalf("rt_sigaction(%v): %v", sig, errno)
	}
	return old.flags
}

// TestAnalyzeKeepsSignalHandlers: the METIS ordering traps SIGABRT and
// SIGTERM with signal() and puts the previous handlers back without their
// flags (SA_RESETHAND and SA_NODEFER instead of SA_ONSTACK and
// SA_SIGINFO); the Go runtime's handler without SA_ONSTACK then kills the
// process on a SIGTERM that arrives while a goroutine runs ("non-Go code
// set up signal handler without SA_ONSTACK flag"). With Go's handlers
// installed before the analysis, their flags must be the same after it.
func TestAnalyzeKeepsSignalHandlers(t *testing.T) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGABRT)
	defer signal.Stop(ch)
	const onStack, resetHand = 0x08000000, 0x80000000 // SA_ONSTACK, SA_RESETHAND
	before := map[syscall.Signal]uintptr{}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGABRT} {
		before[sig] = sigactionFlags(t, sig)
		if before[sig]&onStack == 0 {
			t.Fatalf("%v: Go's handler has no SA_ONSTACK before the analysis (flags %#x)", sig, before[sig])
		}
	}
	f, err := analyze(benchMatrix(benchGrids[3000]), orderingMETIS)
	if err != nil {
		t.Fatal(err)
	}
	f.Free()
	for sig, want := range before {
		if got := sigactionFlags(t, sig); got != want || got&resetHand != 0 {
			t.Errorf("%v: flags %#x after the analysis, %#x before", sig, got, want)
		}
	}
}
