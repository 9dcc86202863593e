package main

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestRealtimeNotice: real time and a factor within the slack say
// nothing; slow motion says so with the DOFs that would keep up; below
// half of the pace no DOF figure is offered.
func TestRealtimeNotice(t *testing.T) {
	for _, c := range []struct {
		r      float64
		notice string // substring, "" = no notice
	}{
		{1.0, ""},
		{0.98, ""},
		{0.8, "3000 DOFs run at 0.80× real time here with the window open; about 1400 DOFs would keep up"},
		{0.3, "far too slow for an estimate"},
	} {
		got := realtimeNotice(c.r, 1, 3000)
		if c.notice == "" && got != "" || !strings.Contains(got, c.notice) {
			t.Errorf("factor %g: notice %q, want %q", c.r, got, c.notice)
		}
	}
	if got := realtimeNotice(0.1, 0, 3000); got != "" {
		t.Errorf("unpaced: notice %q", got)
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
