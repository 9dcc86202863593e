package ui

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestLog10Values(t *testing.T) {
	tests := []struct {
		name   string
		values []float32
		floor  float32
		want   []float32
	}{
		{"decades", []float32{1e-3, 1, 100}, 1e-12, []float32{-3, 0, 2}},
		{"zero and negative go to the floor", []float32{0, -5, 10}, 1e-6, []float32{-6, -6, 1}},
		{"NaN goes to the floor", []float32{float32(math.NaN()), 1e-2}, 1e-4, []float32{-4, -2}},
		{"non-positive floor defaults to 1e-12", []float32{0}, 0, []float32{-12}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, lo, hi := Log10Values(nil, tc.values, tc.floor)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			wlo, whi := float32(math.Inf(1)), float32(math.Inf(-1))
			for i := range got {
				if math.Abs(float64(got[i]-tc.want[i])) > 1e-5 {
					t.Errorf("value %d: log10 = %v, want %v", i, got[i], tc.want[i])
				}
				wlo, whi = min(wlo, tc.want[i]), max(whi, tc.want[i])
			}
			if math.Abs(float64(lo-wlo)) > 1e-5 || math.Abs(float64(hi-whi)) > 1e-5 {
				t.Errorf("range [%v, %v], want [%v, %v]", lo, hi, wlo, whi)
			}
		})
	}
	t.Run("reuses dst", func(t *testing.T) {
		dst := make([]float32, 0, 8)
		got, _, _ := Log10Values(dst, []float32{10, 100}, 0)
		if &got[0] != &dst[:1][0] {
			t.Error("Log10Values allocated instead of reusing dst")
		}
	})
}

func TestDecadeRange(t *testing.T) {
	tests := []struct {
		lo, hi, wantLo, wantHi float32
	}{
		{-3.2, -0.5, -4, 0},
		{-2, -2, -2, -1}, // a constant series still gets one decade
		{1, 3, 1, 3},
		{2, 1, 0, 1}, // empty (lo > hi) from an empty series
		{float32(math.Inf(1)), float32(math.Inf(-1)), 0, 1},
	}
	for _, tc := range tests {
		lo, hi := DecadeRange(tc.lo, tc.hi)
		if lo != tc.wantLo || hi != tc.wantHi {
			t.Errorf("DecadeRange(%v, %v) = (%v, %v), want (%v, %v)", tc.lo, tc.hi, lo, hi, tc.wantLo, tc.wantHi)
		}
	}
}

func TestStackWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	t.Run("proportional and summing to the width", func(t *testing.T) {
		for trial := 0; trial < 20; trial++ {
			values := make([]float64, 1+rng.IntN(6))
			total := 0.0
			for i := range values {
				values[i] = rng.Float64() * 10
				total += values[i]
			}
			width := float32(50 + rng.Float64()*400)
			got := StackWidths(nil, values, width)
			sum := float32(0)
			for i, w := range got {
				want := float32(values[i]/total) * width
				if math.Abs(float64(w-want)) > 1e-3 {
					t.Fatalf("segment %d width %v, want %v", i, w, want)
				}
				sum += w
			}
			if math.Abs(float64(sum-width)) > 1e-3 {
				t.Fatalf("widths sum to %v, want %v", sum, width)
			}
		}
	})
	t.Run("negative, NaN and +Inf count as zero", func(t *testing.T) {
		got := StackWidths(nil, []float64{-1, math.NaN(), 3, math.Inf(1), 1}, 100)
		want := []float32{0, 0, 75, 0, 25}
		for i := range want {
			if math.Abs(float64(got[i]-want[i])) > 1e-4 {
				t.Fatalf("widths %v, want %v", got, want)
			}
		}
	})
	t.Run("all zero gives zero widths", func(t *testing.T) {
		for _, w := range StackWidths(nil, []float64{0, 0}, 100) {
			if w != 0 {
				t.Fatalf("width %v for a zero value", w)
			}
		}
	})
}

func TestSegmentAt(t *testing.T) {
	widths := []float32{10, 0, 30, 20}
	tests := []struct {
		x    float32
		want int
	}{{-1, -1}, {0, 0}, {9.9, 0}, {10, 2}, {39.9, 2}, {40, 3}, {59.9, 3}, {60, -1}}
	for _, tc := range tests {
		if got := segmentAt(widths, tc.x); got != tc.want {
			t.Errorf("segmentAt(%v) = %d, want %d", tc.x, got, tc.want)
		}
	}
}
