package loop

import (
	"fmt"
	"time"

	"softgrasp/physics"
	"softgrasp/physics/frame"
	"softgrasp/physics/stage"
)

// This file moves the fast scheme between the CPU and the GPU on the
// physics goroutine (frame.SetBackend, Options.SetBackend) and measures
// the device's share of each step when the backend reports it
// (physics.DeviceTimer).

// setBackend puts the running scene on the backend named name through
// Options.SetBackend (a frame.SetBackend, Options.Backend, a rebuilt
// scene), or leaves it where it is, with the reason, when that backend
// cannot be opened.
func (r *Runner) setBackend(name string) error {
	if err := frame.CheckBackend(name); err != nil {
		return err
	}
	if name == r.backend {
		return nil
	}
	if r.opt.SetBackend == nil {
		return fmt.Errorf("backend %s is not available here; staying on the %s", name, r.backend)
	}
	got, err := r.opt.SetBackend(r.sc.Sim, name)
	if got != "" {
		r.backend = got
	}
	return err
}

// deviceClock keeps the last reading of a device's summed times, so that
// each step shows its own share.
type deviceClock struct {
	timer            physics.DeviceTimer
	kernel, transfer time.Duration
}

// fillDevice writes the step's device times into s when the backend
// measures them, and leaves DeviceTimed false otherwise.
func (r *Runner) fillDevice(s *frame.Stats) {
	t, ok := r.sc.Sim.Backend().(physics.DeviceTimer)
	if !ok {
		r.device = deviceClock{}
		return
	}
	k, x := t.DeviceTimes()
	if t != r.device.timer { // a backend opened since the last step: its sums start at its opening
		r.device = deviceClock{timer: t}
	}
	s.DeviceTimed = true
	s.DeviceKernel = stage.Millis(k - r.device.kernel)
	s.DeviceTransfer = stage.Millis(x - r.device.transfer)
	r.device.kernel, r.device.transfer = k, x
}
