package ui

import (
	"math"
	"math/rand"
	"testing"

	"softgrasp/physics/frame"
)

func TestDecimateKeepsEachBinsMaximum(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, c := range []struct{ n, bins int }{{10, 20}, {100, 7}, {1000, 160}, {5, 5}} {
		r := NewRing(c.n)
		for i := 0; i < c.n; i++ {
			r.Push(float32(rng.Float64()))
		}
		got := Decimate(nil, r, c.bins)
		if c.n <= c.bins {
			if len(got) != c.n {
				t.Fatalf("n=%d bins=%d: %d values, want every sample", c.n, c.bins, len(got))
			}
			continue
		}
		if len(got) != c.bins {
			t.Fatalf("n=%d bins=%d: %d values", c.n, c.bins, len(got))
		}
		// Every sample lies in exactly one bin, and no bin exceeds it.
		all := r.Values(nil)
		var overall float32
		for _, v := range all {
			overall = max(overall, v)
		}
		var top float32
		for _, v := range got {
			top = max(top, v)
		}
		if top != overall {
			t.Fatalf("n=%d bins=%d: largest bin %g, largest sample %g", c.n, c.bins, top, overall)
		}
		first := all[:c.n/c.bins]
		var m float32
		for _, v := range first {
			m = max(m, v)
		}
		if got[0] != m {
			t.Fatalf("n=%d bins=%d: first bin %g, want %g", c.n, c.bins, got[0], m)
		}
	}
}

func TestNiceCeil(t *testing.T) {
	tests := []struct{ v, want float64 }{
		{0.7, 1}, {1, 1}, {1.01, 2}, {3, 5}, {7, 10}, {0.012, 0.02}, {450, 500},
		{0, 1}, {-2, 1}, {math.NaN(), 1}, {math.Inf(1), 1},
	}
	for _, tc := range tests {
		if got := NiceCeil(tc.v); math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("NiceCeil(%g) = %g, want %g", tc.v, got, tc.want)
		}
	}
}

func TestStepSegmentsAddUpToTheStep(t *testing.T) {
	st := frame.Stats{NewtonIterations: 3}
	st.MS.BuildWH, st.MS.RebuildW, st.MS.PGS, st.MS.Corr, st.MS.Step = 2, 0.5, 1, 0.25, 20
	segs := StepSegments(&st)
	sum := 0.0
	for _, s := range segs {
		sum += s.Value
	}
	if math.Abs(sum-st.MS.Step) > 1e-12 {
		t.Fatalf("segments sum to %g ms, the step took %g ms", sum, st.MS.Step)
	}
	// Hand-computed: 3 iterations of 1.75 ms plus 2 ms of W_H leave 12.75 ms.
	if other := segs[len(segs)-1].Value; math.Abs(other-12.75) > 1e-12 {
		t.Fatalf("other = %g ms, want 12.75", other)
	}
}

func TestAxisLabel(t *testing.T) {
	tests := []struct {
		v    float32
		want string
	}{{1000, "1000"}, {5, "5"}, {0.5, "0.5"}, {0.02, "0.02"}, {2e6, "2e+06"}, {12.5, "12.5"}}
	for _, tc := range tests {
		if got := AxisLabel(tc.v); got != tc.want {
			t.Errorf("AxisLabel(%g) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
