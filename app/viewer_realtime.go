package main

import (
	"fmt"
	"math"
	"time"
)

// The viewer's real-time check: on two cores under Xvfb the renderer takes
// CPU from the physics, and a scene that runs in real time headless can
// run in slow motion with the window open. Rather than let that go
// unsaid, the viewer measures the physics' real-time factor over the last
// seconds (speedStatus), a status line of the Stats panel that follows
// the rate as it changes (a scheme switched, another process on the
// cores); the first time it has a whole window and the physics falls
// short of -pace, it also says so in one line on stdout with the
// resolution that would keep up (realtimeNotice). Unless the user chose
// the budget (-dofs, a scene file's dofs, the DOFs field), it then
// rebuilds the scene at the largest budget that keeps up (autoDOFs), and
// says so.

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

// realtimeNotice is the line the viewer says once, on stdout, when the
// speed status first has a whole window (realtimeWarmup, then
// realtimeWindow of wall time): "" when a factor r at pace keeps up, else
// how slow the scene of dofs DOFs runs and, when believable, the DOFs that
// would keep up.
func realtimeNotice(r, pace float64, dofs int) string {
	n, slow := keepUp(r, pace, dofs)
	switch {
	case !slow:
		return ""
	case n == 0:
		return fmt.Sprintf("%d DOFs run at %.2f× real time here with the window open: far too slow for an estimate of the DOFs that would keep up",
			dofs, r)
	}
	return fmt.Sprintf("%d DOFs run at %.2f× real time here with the window open; about %d DOFs would keep up (-dofs %d, an estimate)",
		dofs, r, n, n)
}

// keepUp says whether a scene of dofs DOFs that runs at r falls short of
// pace by more than the slack and, when it does and the shortfall is
// believable, the DOFs that would keep up (0 when it is not).
func keepUp(r, pace float64, dofs int) (n int, slow bool) {
	if pace <= 0 || r >= realtimeSlack*pace {
		return 0, false
	}
	if r/pace < believable {
		return 0, true
	}
	return realtimeDOFs(dofs, r/pace), true
}

// realtimeDOFs estimates the DOFs that run r⁻¹ times faster than dofs
// (r < 1: the measured factor over -pace), from rate ∝ DOFs^-α, rounded
// down to hundreds.
func realtimeDOFs(dofs int, r float64) int {
	n := float64(dofs) * math.Pow(r, 1/realtimeExponent)
	return max(100, int(n/100)*100)
}

// speedStatus measures the real-time factor over the last realtimeWindow
// of wall time, once realtimeWarmup has passed since the scene started or
// the loop last paused: the factor, and below -pace by more than the
// slack, the DOFs that would keep up (offered only down to believable,
// past which the estimate's extrapolation says nothing worth trying).
type speedStatus struct {
	pace    float64
	version uint64 // the scene measured
	start   time.Time
	samples []speedSample
	// factor and over are the last factor measured and the wall time it
	// was measured over (s), zero while warming up.
	factor, over float64
}

type speedSample struct {
	at  time.Time
	sim float64
}

// observe takes the newest frame's simulated time; it returns the
// measured factor with its window ("" while warming up), what to do when
// the physics falls behind ("" when it keeps up), and whether it does.
func (m *speedStatus) observe(now time.Time, version uint64, simTime float64, paused bool, dofs int) (line, advice string, slow bool) {
	if m.pace <= 0 {
		return "", "", false
	}
	if paused || version != m.version || m.start.IsZero() {
		m.version, m.start, m.samples = version, now, m.samples[:0]
		m.factor, m.over = 0, 0
		return "", "", false
	}
	if now.Sub(m.start) < realtimeWarmup {
		return "", "", false
	}
	m.samples = append(m.samples, speedSample{now, simTime})
	for len(m.samples) > 2 && now.Sub(m.samples[1].at) >= realtimeWindow {
		m.samples = m.samples[1:]
	}
	first := m.samples[0]
	wall := now.Sub(first.at).Seconds()
	if wall < realtimeWindow.Seconds()/4 {
		return "", "", false
	}
	r := (simTime - first.sim) / wall
	m.factor, m.over = r, wall
	line = fmt.Sprintf("real-time factor %.2f (last %.0f s)", r, wall)
	switch n, slow := keepUp(r, m.pace, dofs); {
	case !slow:
		return line, "", false
	case n == 0:
		return line, "far too slow", true
	default:
		return line, fmt.Sprintf("try -dofs %d", n), true
	}
}

// believable is the least factor over -pace from which the DOFs that
// would keep up are estimated: below it the estimate extrapolates the
// fitted rate far beyond the runs it was fitted to (another process on
// the cores, once, had it advise 100 DOFs).
const believable = 0.5

// checkRealtime feeds the speed status with the newest frame, for the
// Stats panel, and says its first whole window's notice on stdout, once.
func (v *viewer) checkRealtime() {
	if v.frame == nil {
		return
	}
	v.state.SpeedStatus, v.state.SpeedAdvice, v.state.SpeedSlow = v.speed.observe(time.Now(), v.frame.SceneVersion, v.simulated.total, v.frame.Stats.Paused, v.sceneDOFs)
	if !v.realtimeSaid && v.speed.over >= realtimeWindow.Seconds() {
		v.realtimeSaid = true
		if notice := realtimeNotice(v.speed.factor, v.speed.pace, v.sceneDOFs); notice != "" {
			fmt.Fprintln(v.stdout, "softgrasp:", notice)
		}
	}
	// The factor is watched over the last seconds of each scene, phase by
	// phase (an approach costs less than a grasp); once it falls behind,
	// the scene is rebuilt, and the measurement starts again with it.
	if v.state.DOFsChosen || v.speed.over < autoWindow.Seconds() || v.autoFrom == v.frame.SceneVersion {
		return
	}
	r := v.speed.factor / v.speed.pace
	if n := autoDOFs(v.sceneDOFs, r); n > 0 {
		v.autoFrom = v.frame.SceneVersion // until the rebuilt scene's frames arrive
		note := fmt.Sprintf("%d DOFs ran at %.2f× real time here: rebuilt at %d DOFs to keep up (-dofs N chooses the budget)", v.sceneDOFs, v.speed.factor, n)
		if err := v.state.SetAutoDOFs(n, note, v.runner); err == nil {
			v.state.DOFsNote = note
			fmt.Fprintln(v.stdout, "softgrasp:", note)
		}
	}
}

const (
	// autoWindow is the wall time over which the viewer measures the
	// factor before it lowers the budget (after realtimeWarmup): the
	// status line's whole window. Over 3 s the default box's looping demo
	// dipped below the slack as the jaws closed and was rebuilt at 2400
	// DOFs although it keeps real time over 8 s (0.99–1.00).
	autoWindow = realtimeWindow
	// minAutoDOFs is the least budget it lowers to.
	minAutoDOFs = 500
)

// autoSlack is how far under -pace the factor must fall before the viewer
// rebuilds the scene, which restarts it: further than the status line's
// amber (realtimeSlack). The default box's looping demo runs at 0.95–0.99
// over 8 s windows on two cores, and is better kept than restarted.
const autoSlack = 0.9

// autoDOFs returns the budget to rebuild a scene of dofs DOFs at that ran
// at r of its pace: below autoSlack, the estimate that keeps up
// (realtimeDOFs), cut by at most half at a time and to no fewer than
// minAutoDOFs; 0 to keep the scene (it keeps up, or cannot go lower).
func autoDOFs(dofs int, r float64) int {
	if !(r < autoSlack) || dofs <= minAutoDOFs {
		return 0
	}
	n := max(realtimeDOFs(dofs, r), dofs/2, minAutoDOFs)
	if n >= dofs {
		return 0
	}
	return n
}
