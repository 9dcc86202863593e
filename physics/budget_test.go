package physics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
)

// budgetPair is a pair of the selection's table test: its body, kind,
// depth and where it sits.
type budgetPair struct {
	body int
	kind collide.Kind
	d    float64
	at   r3.Vec
}

// TestSelectDeepest checks the contact budget's selection on small sets:
// every pair kept within the budget, one pair per cell (the deepest, the
// first on ties) in the pairs' order, bodies and kinds never merged, the
// cells grown by budgetGrowth until the groups fit, and a budget below
// what the coarsest grid leaves met by dropping the shallowest.
func TestSelectDeepest(t *testing.T) {
	mm := func(x, y, z float64) r3.Vec { return r3.Vec{X: x * 1e-3, Y: y * 1e-3, Z: z * 1e-3} }
	line := func(n int) []budgetPair { // n pairs 1 mm apart on x, deeper towards x = 0
		ps := make([]budgetPair, n)
		for i := range ps {
			ps[i] = budgetPair{d: float64(i) * 1e-4, at: mm(float64(i)+0.5, 0.5, 0.5)}
		}
		return ps
	}
	for _, tc := range []struct {
		name   string
		pairs  []budgetPair
		cell0  float64
		budget int
		want   []int   // indices kept, in order
		cell   float64 // the cell used (0: every pair kept)
	}{
		{name: "within the budget", cell0: 1e-3, budget: 3,
			pairs: []budgetPair{{d: 1, at: mm(0.1, 0, 0)}, {d: 0, at: mm(0.2, 0, 0)}, {d: 2, at: mm(0.3, 0, 0)}},
			want:  []int{0, 1, 2}},
		{name: "deepest per cell, in order", cell0: 1e-3, budget: 2,
			pairs: []budgetPair{
				{d: 3e-4, at: mm(0.1, 0.1, 0.1)}, {d: 1e-4, at: mm(1.5, 0.5, 0.5)},
				{d: -2e-4, at: mm(0.9, 0.9, 0.9)}, {d: 2e-4, at: mm(1.2, 0.2, 0.2)}},
			want: []int{1, 2}, cell: 1e-3},
		{name: "ties go to the first", cell0: 1e-3, budget: 1,
			pairs: []budgetPair{{d: 1e-4, at: mm(0.2, 0.2, 0.2)}, {d: 1e-4, at: mm(0.7, 0.7, 0.7)}},
			want:  []int{0}, cell: 1e-3},
		{name: "bodies and kinds apart", cell0: 1e-3, budget: 3,
			pairs: []budgetPair{
				{body: 0, d: 1e-4, at: mm(0.2, 0.2, 0.2)}, {body: 1, d: 0, at: mm(0.3, 0.3, 0.3)},
				{body: 0, kind: collide.RigidVertex, d: 2e-4, at: mm(0.4, 0.4, 0.4)},
				{body: 0, d: 0, at: mm(0.5, 0.5, 0.5)}},
			want: []int{1, 2, 3}, cell: 1e-3},
		{name: "cells grow until the groups fit", cell0: 1e-3, budget: 4, pairs: line(10),
			// pairs at 0.5, 1.5, … 9.5 mm: cells of 1, 1.25, 1.5625 and
			// 1.953 mm hold 10, 8, 7 and 5 groups; 1.25⁴ mm = 2.441 mm
			// holds 4, {0, 1}, {2, 3, 4}, {5, 6}, {7, 8, 9}, led by their
			// first (deepest) pairs.
			want: []int{0, 2, 5, 7}, cell: 1e-3 * math.Pow(budgetGrowth, 4)},
		{name: "below the coarsest grid: the shallowest go", cell0: 1e-3, budget: 1,
			pairs: []budgetPair{{body: 0, d: 2e-4, at: mm(1, 1, 1)}, {body: 1, d: 1e-4, at: mm(1, 1, 1)}, {body: 2, d: 3e-4, at: mm(1, 1, 1)}},
			want:  []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pairs := make([]collide.Pair, len(tc.pairs))
			at := make([]r3.Vec, len(tc.pairs))
			depth := make([]float64, len(tc.pairs))
			for i, p := range tc.pairs {
				pairs[i] = collide.Pair{Kind: p.kind, Body: p.body, Point: i, Distance: p.d}
				at[i], depth[i] = p.at, p.d
			}
			var b budgetScratch
			kept, cell := b.selectDeepest(pairs, at, depth, tc.cell0, tc.budget)
			var got []int
			for _, pr := range kept {
				got = append(got, pr.Point)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("kept %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("kept %v, want %v", got, tc.want)
				}
			}
			if tc.cell != 0 && math.Abs(cell-tc.cell) > 1e-12 {
				t.Fatalf("cell %.6g m, want %.6g m", cell, tc.cell)
			}
			if len(kept) > tc.budget {
				t.Fatalf("%d pairs kept, budget %d", len(kept), tc.budget)
			}
		})
	}
}

// TestSelectDeepestAllocatesNothingWarm checks that a selection whose
// scratch has grown allocates nothing.
func TestSelectDeepestAllocatesNothingWarm(t *testing.T) {
	const n = 2000
	src := make([]collide.Pair, n)
	at := make([]r3.Vec, n)
	depth := make([]float64, n)
	for i := range src {
		x := float64(i%50) * 1e-3
		y := float64(i/50) * 1e-3
		src[i] = collide.Pair{Point: i, Distance: math.Sin(float64(i))}
		depth[i] = src[i].Distance
		at[i] = r3.Vec{X: x, Y: y}
	}
	pairs := make([]collide.Pair, n)
	var b budgetScratch
	run := func() {
		copy(pairs, src)
		if kept, _ := b.selectDeepest(pairs, at, depth, 1e-3, 300); len(kept) > 300 {
			t.Fatalf("%d kept", len(kept))
		}
	}
	run()
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Fatalf("%v allocations per selection", a)
	}
}
