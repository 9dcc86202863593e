package ui

import (
	"math"
	"math/rand"
	"testing"

	"softgrasp/physics/frame"
)

func TestRingMatchesASliceModel(t *testing.T) {
	for _, capacity := range []int{1, 3, 16} {
		rng := rand.New(rand.NewSource(int64(capacity)))
		r := NewRing(capacity)
		var model []float32
		for i := 0; i < 5*capacity+7; i++ {
			v := float32(rng.NormFloat64())
			r.Push(v)
			model = append(model, v)
			if len(model) > capacity {
				model = model[1:]
			}
			got := r.Values(nil)
			if len(got) != len(model) || r.Len() != len(model) {
				t.Fatalf("capacity %d after %d pushes: %d values, want %d", capacity, i+1, len(got), len(model))
			}
			for j := range model {
				if got[j] != model[j] || r.At(j) != model[j] {
					t.Fatalf("capacity %d after %d pushes: sample %d = %g, want %g", capacity, i+1, j, got[j], model[j])
				}
			}
			if r.Last() != model[len(model)-1] {
				t.Fatalf("Last = %g, want %g", r.Last(), model[len(model)-1])
			}
		}
		r.Clear()
		if r.Len() != 0 || r.Last() != 0 {
			t.Fatalf("capacity %d: %d samples after Clear", capacity, r.Len())
		}
	}
}

func TestObserveRecordsEachStepOnce(t *testing.T) {
	s, _ := newTestState()
	cfg := &frame.Config{Version: 1, Scenario: s.Config}
	mk := func(version, seq uint64, scheme string, stepMS float64) *frame.Frame {
		f := &frame.Frame{Seq: seq, SceneVersion: version, ConfigVersion: cfg.Version}
		f.Stats.Scheme, f.Stats.MS.Step = scheme, stepMS
		return f
	}
	steps := []struct {
		f     *frame.Frame
		fresh bool
		want  int // steps recorded after it
	}{
		{mk(1, 0, "", 0), true, 0},          // the scene before its first step
		{mk(1, 1, "fast", 4), true, 1},      // a step
		{mk(1, 1, "fast", 4), true, 1},      // republished while paused
		{mk(1, 2, "fast", 5), false, 1},     // not fresh: already seen
		{mk(1, 3, "standard", 12), true, 2}, // the scheme switch, no reset
		{mk(2, 1, "standard", 11), true, 1}, // a reset starts over
	}
	for i, st := range steps {
		s.Observe(st.f, cfg, st.fresh)
		if got := s.History.Len(); got != st.want {
			t.Fatalf("after frame %d: %d steps recorded, want %d", i, got, st.want)
		}
	}
	s2, _ := newTestState()
	s2.Observe(mk(1, 1, "fast", 4), cfg, true)
	s2.Observe(mk(1, 2, "standard", 12), cfg, true)
	if a, b := s2.History.Standard.At(0), s2.History.Standard.At(1); a != 0 || b != 1 {
		t.Fatalf("scheme marks %g, %g: want 0 for fast then 1 for standard", a, b)
	}
	if got := s2.History.Step.Last(); got != 12 {
		t.Fatalf("last step time %g ms, want 12", got)
	}
}

func TestRingQuantile(t *testing.T) {
	r := NewRing(200)
	// 1 … 100 in a shuffled order, then junk that must be ignored.
	rng := rand.New(rand.NewSource(3))
	for _, i := range rng.Perm(100) {
		r.Push(float32(i + 1))
	}
	r.Push(float32(math.NaN()))
	r.Push(float32(math.Inf(1)))
	tests := []struct {
		q    float64
		want float32
	}{{0, 1}, {0.5, 50}, {0.98, 98}, {1, 100}}
	var scratch []float32
	for _, tc := range tests {
		var got float32
		got, scratch = r.Quantile(tc.q, scratch)
		if got != tc.want {
			t.Errorf("Quantile(%g) = %g, want %g", tc.q, got, tc.want)
		}
	}
	if got, _ := NewRing(4).Quantile(0.5, nil); got != 0 {
		t.Errorf("quantile of an empty ring = %g, want 0", got)
	}
}
