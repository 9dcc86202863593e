package main

import (
	"math"
	"testing"
	"time"
)

func TestRedrawPolicy(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	cases := []struct {
		name  string
		steps []policyStep
	}{
		{"the first iteration draws", []policyStep{{ms(0), redrawCause{}, true}}},
		{"nothing new is skipped", []policyStep{
			{ms(0), redrawCause{}, true}, {ms(33), redrawCause{}, false}, {ms(66), redrawCause{}, false}}},
		{"a new physics frame draws", []policyStep{
			{ms(0), redrawCause{}, true}, {ms(33), redrawCause{fresh: true}, true}, {ms(66), redrawCause{}, false}}},
		{"a forced frame draws", []policyStep{
			{ms(0), redrawCause{}, true}, {ms(33), redrawCause{forced: true}, true}}},
		{"an input draws, then settles for a few frames", []policyStep{
			{ms(0), redrawCause{}, true}, {ms(33), redrawCause{events: 1}, true},
			{ms(66), redrawCause{}, true}, {ms(99), redrawCause{}, true}, {ms(132), redrawCause{}, false}}},
		{"the heartbeat draws after a quiet half second", []policyStep{
			{ms(0), redrawCause{}, true}, {ms(499), redrawCause{}, false}, {ms(500), redrawCause{}, true},
			{ms(501), redrawCause{}, false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkPolicy(t, newFramePolicy(), c.steps) })
	}
}

// policyStep is one loop iteration of a redrawPolicy test: at, what it
// saw, and whether it must draw.
type policyStep struct {
	at    time.Time
	cause redrawCause
	want  bool
}

func checkPolicy(t *testing.T, p redrawPolicy, steps []policyStep) {
	t.Helper()
	for i, s := range steps {
		if got := p.due(s.cause, s.at); got != s.want {
			t.Fatalf("step %d (%+v): due = %v, want %v", i, s.cause, got, s.want)
		}
	}
}

func TestFrameLimiterSchedule(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	l := frameLimiter{fps: 10} // 100 ms period
	cases := []struct {
		name     string
		now, due time.Time
	}{
		{"the first frame is due at once", ms(0), ms(0)},
		{"a fast frame waits for the period", ms(20), ms(100)},
		{"a frame that ran over its period is made up at once", ms(250), ms(200)},
		{"the next one is back on the schedule", ms(260), ms(300)},
		{"a loop more than a period behind starts again", ms(550), ms(550)},
		{"from the new start", ms(560), ms(650)},
	}
	for _, c := range cases {
		if got := l.advance(c.now); !got.Equal(c.due) {
			t.Fatalf("%s: due %v after t0, want %v", c.name, got.Sub(t0), c.due.Sub(t0))
		}
	}
}

func TestPanelPolicy(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	cases := []struct {
		name  string
		steps []policyStep
	}{
		{"the first frame redraws the panels", []policyStep{{ms(0), redrawCause{fresh: true}, true}}},
		{"new physics frames reuse them for a tenth of a second", []policyStep{
			{ms(0), redrawCause{fresh: true}, true}, {ms(33), redrawCause{fresh: true}, false},
			{ms(66), redrawCause{fresh: true}, false}, {ms(99), redrawCause{fresh: true}, false},
			{ms(100), redrawCause{fresh: true}, true}, {ms(133), redrawCause{fresh: true}, false}}},
		{"an input redraws them, then for a few frames", []policyStep{
			{ms(0), redrawCause{}, true}, {ms(33), redrawCause{events: 2}, true},
			{ms(40), redrawCause{fresh: true}, true}, {ms(50), redrawCause{fresh: true}, true},
			{ms(60), redrawCause{fresh: true}, false}}},
		{"a forced frame redraws them", []policyStep{
			{ms(0), redrawCause{}, true}, {ms(33), redrawCause{forced: true}, true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkPolicy(t, newPanelPolicy(), c.steps) })
	}
}

func TestFPSMeter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var m fpsMeter
	var rate float64
	for i := 0; i <= 50; i++ { // frames 25 ms apart
		rate = m.tick(t0.Add(time.Duration(i) * 25 * time.Millisecond))
		if i < 40 && rate != 0 {
			t.Fatalf("frame %d: rate %g before a whole second", i, rate)
		}
		if i == 40 && math.Abs(rate-40) > 1e-9 {
			t.Fatalf("rate %g after one second of frames 25 ms apart, want 40", rate)
		}
	}
}
