package main

import (
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// interrupts catches SIGINT (Ctrl+C) and SIGTERM for the length of a run,
// so that a headless run, a replay or the viewer stops between two steps
// (or frames) and ends as a finished one does: the summary of what ran,
// the recording's footer, the video closed; the process then exits with
// the shell's status for the signal, 128 + its number (130, 143). Asking
// for the signals also undoes an inherited "ignore" (a background job
// started by a non-interactive shell ignores SIGINT).
type interrupts struct {
	ch  chan os.Signal
	sig atomic.Int32 // the first signal received, 0 before
}

// catchInterrupts starts catching; stop ends it.
func catchInterrupts() *interrupts {
	in := &interrupts{ch: make(chan os.Signal, 2)}
	signal.Notify(in.ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range in.ch {
			if n, ok := s.(syscall.Signal); ok {
				in.sig.CompareAndSwap(0, int32(n))
			}
		}
	}()
	return in
}

// stop restores the signals' default actions.
func (in *interrupts) stop() {
	signal.Stop(in.ch)
	close(in.ch)
}

// received returns the first signal caught, ok false before any.
func (in *interrupts) received() (sig syscall.Signal, ok bool) {
	if in == nil {
		return 0, false
	}
	n := in.sig.Load()
	return syscall.Signal(n), n != 0
}

// exitStatus is the status a run stopped by sig exits with.
func exitStatus(sig syscall.Signal) int { return 128 + int(sig) }

// interruptNote is the line a stopped headless run prints on stderr.
func interruptNote(cmd string, sig syscall.Signal, steps int) string {
	return fmt.Sprintf("%s: stopped by %s after %d steps", cmd, signalName(sig), steps)
}

// signalName is SIGINT or SIGTERM (the signal's number otherwise).
func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return fmt.Sprintf("signal %d", int(sig))
}
