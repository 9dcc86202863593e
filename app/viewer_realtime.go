package main

import (
	"fmt"
	"math"
	"time"
)

// The viewer's real-time check: on two cores under Xvfb the renderer takes
// CPU from the physics, and a scene that runs in real time headless can
// run in slow motion with the window open. Rather than let that go
// unsaid, the viewer measures the physics' real-time factor over its first
// seconds and, when it falls short of -pace, says so in one line (stdout
// and the message banner) with the resolution that would keep up. It
// never changes the resolution itself.

const (
	// realtimeWarmup is the start-up the measurement leaves out: the first,
	// synchronous factorisation, the settling steps and the jaws closing,
	// whose lost time a paced loop never makes up. On the default scene
	// under Xvfb the first 2 s of simulated time run at 0.75× real time,
	// about 2.7 s of wall time; every 2 s after that at 0.997–1.002.
	realtimeWarmup = 3 * time.Second
	realtimeWindow = 8 * time.Second // the measurement: the grasp's first seconds run slower than its average
	// realtimeSlack is how far under -pace the factor may fall before the
	// viewer speaks: a paced loop achieves pace at most, and the factor
	// varies by a few per cent from run to run.
	realtimeSlack = 0.97
	// realtimeExponent is how the viewer's physics rate falls with the
	// DOFs, rate ∝ DOFs^-α, fitted to viewer runs on this machine (2
	// cores, Xvfb, 30 fps): real time at 1.5k DOFs, 0.88–0.92 at 2.2k,
	// 0.78–0.88 at 3k. It is flatter than the headless step cost (α ≈ 0.6
	// from 1k to 3k DOFs) because the renderer's share does not shrink with
	// the mesh; elsewhere it is a rough guess, hence "an estimate".
	realtimeExponent = 0.3
)

// realtimeCheck measures the real-time factor once, over realtimeWindow of
// wall time after realtimeWarmup of running; a pause starts it again.
type realtimeCheck struct {
	pace    float64
	start   time.Time // when the current attempt started, zero before
	t0      float64   // simulated time at the start of the window
	inside  bool      // past the warm-up, measuring
	done    bool
	measure float64 // the factor measured, once done
}

// observe takes the newest frame's simulated time and whether the loop is
// paused; once the window is over it returns the notice ("" when the
// physics keeps up), and nothing after that.
func (c *realtimeCheck) observe(now time.Time, simTime float64, paused bool, dofs int) (notice string, ready bool) {
	if c.done || c.pace <= 0 {
		return "", false
	}
	if paused || c.start.IsZero() {
		c.start, c.inside = now, false
		if paused {
			c.start = time.Time{}
		}
		return "", false
	}
	if !c.inside {
		if now.Sub(c.start) >= realtimeWarmup {
			c.start, c.t0, c.inside = now, simTime, true
		}
		return "", false
	}
	wall := now.Sub(c.start)
	if wall < realtimeWindow {
		return "", false
	}
	c.done = true
	c.measure = (simTime - c.t0) / wall.Seconds()
	if c.measure >= realtimeSlack*c.pace {
		return "", true
	}
	n := realtimeDOFs(dofs, c.measure/c.pace)
	return fmt.Sprintf("%d DOFs run at %.2f× real time here with the window open; about %d DOFs would keep up (-dofs %d, an estimate)",
		dofs, c.measure, n, n), true
}

// realtimeDOFs estimates the DOFs that run r⁻¹ times faster than dofs
// (r < 1: the measured factor over -pace), from rate ∝ DOFs^-α, rounded
// down to hundreds.
func realtimeDOFs(dofs int, r float64) int {
	n := float64(dofs) * math.Pow(r, 1/realtimeExponent)
	return max(100, int(n/100)*100)
}

// checkRealtime feeds the check with the newest frame and reports its
// notice, once.
func (v *viewer) checkRealtime() {
	if v.frame == nil {
		return
	}
	notice, ready := v.realtime.observe(time.Now(), v.simulated.total, v.frame.Stats.Paused, v.sceneDOFs)
	if ready && notice != "" {
		fmt.Fprintln(v.stdout, "softgrasp:", notice)
		v.state.Warn(notice)
	}
}
