package main

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestRealtimeCheck(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	verdict := (realtimeWarmup + realtimeWindow).Seconds() // from the start of running
	cases := []struct {
		name   string
		rate   float64 // simulated seconds per wall second
		pause  float64 // wall time of a pause (0.5 s long), 0 = none
		notice string  // substring of the notice, "" = none
		readyS float64 // wall time the verdict comes
	}{
		{"real time says nothing", 1.0, 0, "", verdict},
		{"within the slack says nothing", 0.98, 0, "", verdict},
		{"slow motion says so", 0.8, 0, "3000 DOFs run at 0.80× real time here", verdict},
		{"a pause starts the measurement again", 0.8, 2, "run at 0.80×", 2.5 + verdict},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			chk := realtimeCheck{pace: 1}
			sim := 0.0
			for s := 0.0; s < 20; s += 0.05 {
				paused := c.pause > 0 && s >= c.pause && s < c.pause+0.5
				if !paused {
					sim += 0.05 * c.rate
				}
				notice, ready := chk.observe(at(s), sim, paused, 3000)
				if !ready {
					continue
				}
				if s < c.readyS-0.06 || s > c.readyS+0.06 {
					t.Errorf("verdict at %.2f s, want %.2f s", s, c.readyS)
				}
				if c.notice == "" && notice != "" || !strings.Contains(notice, c.notice) {
					t.Errorf("notice %q, want %q", notice, c.notice)
				}
				return
			}
			t.Fatal("no verdict")
		})
	}
}

func TestRealtimeDOFs(t *testing.T) {
	cases := []struct {
		dofs int
		r    float64
		want int
	}{
		{3000, 1, 3000},
		{3000, 0.8, 1400}, // 3000 · 0.8^(1/0.3) = 1428
		{3000, 0.01, 100},
	}
	for _, c := range cases {
		if got := realtimeDOFs(c.dofs, c.r); got != c.want {
			t.Errorf("realtimeDOFs(%d, %g) = %d, want %d", c.dofs, c.r, got, c.want)
		}
	}
}

// TestSimClock checks the summary's simulated time across a reset and a
// new scene: each adds the time it ran from 0, never a negative advance.
func TestSimClock(t *testing.T) {
	var c simClock
	for _, f := range []struct {
		version uint64
		t, want float64
	}{
		{1, 0.50, 0},    // the first frame is the origin
		{1, 0.75, 0.25}, // the same scene advances
		{1, 0.75, 0.25}, // a paused frame adds nothing
		{1, 0.10, 0.35}, // a reset: its time restarts from 0
		{2, 0.20, 0.55}, // a new scene, also from 0
		{2, 1.20, 1.55},
	} {
		c.observe(f.version, f.t)
		if math.Abs(c.total-f.want) > 1e-12 {
			t.Fatalf("after (%d, %g): total %g, want %g", f.version, f.t, c.total, f.want)
		}
	}
}

// TestSpeedStatus: the status follows the rate over the last window: real
// time says so in the plain, a drop to 0.6 is said within the window with
// the DOFs that would keep up, a drop below half of real time offers no
// DOF figure, and a pause or a new scene starts it again.
func TestSpeedStatus(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	m := speedStatus{pace: 1}
	sim, line, slow := 0.0, "", false
	run := func(from, to, rate float64, version uint64) {
		for s := from; s < to; s += 0.05 {
			sim += 0.05 * rate
			var advice string
			line, advice, slow = m.observe(at(s), version, sim, false, 3000)
			line += "; " + advice
		}
	}
	run(0, 2, 1, 1)
	if line != "; " {
		t.Fatalf("during the warm-up: %q", line)
	}
	run(2, 12, 1, 1)
	if !strings.Contains(line, "real-time factor 1.00 (last 8 s); ") || !strings.HasSuffix(line, "; ") || slow {
		t.Fatalf("at real time: %q, slow %v", line, slow)
	}
	run(12, 12+realtimeWindow.Seconds()+0.1, 0.6, 1)
	if !strings.Contains(line, "real-time factor 0.60") || !strings.Contains(line, "try -dofs") || !slow {
		t.Fatalf("at 0.6: %q, slow %v", line, slow)
	}
	run(22, 22+realtimeWindow.Seconds()+0.1, 0.3, 1)
	if !strings.Contains(line, "real-time factor 0.30") || !strings.Contains(line, "far too slow") || !slow {
		t.Fatalf("at 0.3: %q, slow %v", line, slow)
	}
	if line, _, _ = m.observe(at(40), 2, sim, false, 3000); line != "" {
		t.Fatalf("a new scene kept the status %q", line)
	}
}

// TestAutoDOFs: the automatic budget keeps a scene that keeps up, lowers
// one that does not to the estimate that would, by at most half at a
// time, never below minAutoDOFs.
func TestAutoDOFs(t *testing.T) {
	for _, tc := range []struct {
		dofs int
		r    float64
		want int
	}{
		{3000, 1.0, 0},
		{3000, 0.98, 0},
		{3000, 0.92, 0}, // amber in the status line, not rebuilt
		{3000, 0.85, realtimeDOFs(3000, 0.85)},
		{3000, 0.6, 1500}, // the estimate (0.55 of 3000 → 500) is cut to half
		{3000, 0.1, 1500},
		{800, 0.5, 500},
		{500, 0.5, 0},
		{3000, math.NaN(), 0},
	} {
		if got := autoDOFs(tc.dofs, tc.r); got != tc.want {
			t.Errorf("autoDOFs(%d, %g) = %d, want %d", tc.dofs, tc.r, got, tc.want)
		}
	}
	if n := realtimeDOFs(3000, 0.85); n <= 1500 || n >= 3000 {
		t.Errorf("realtimeDOFs(3000, 0.85) = %d: the table above assumes it between half and all", n)
	}
}
