package physics

import (
	"math"
	"slices"
	"testing"

	"softgrasp/physics/collide"
	"softgrasp/physics/mesh"
)

// budgetPair is a pair of the selection's table test: its group and depth.
type budgetPair struct {
	group uint64
	d     float64
}

// TestSelectDeepest checks the contact budget's selection on small sets:
// every pair kept within the budget, one pair per group (the deepest, the
// first on ties) in the pairs' order, and when the groups outnumber the
// budget the deepest representatives (ties to the first pair).
func TestSelectDeepest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pairs  []budgetPair
		budget int
		want   []int // indices kept, in order
		groups int   // groups reported (0: every pair kept)
	}{
		{name: "within the budget", budget: 3,
			pairs: []budgetPair{{0, 1}, {0, 0}, {0, 2}},
			want:  []int{0, 1, 2}},
		{name: "deepest per group, in order", budget: 2,
			pairs: []budgetPair{{0, 3e-4}, {1, 1e-4}, {0, -2e-4}, {1, 2e-4}},
			want:  []int{1, 2}, groups: 2},
		{name: "ties go to the first", budget: 1,
			pairs: []budgetPair{{5, 1e-4}, {5, 1e-4}},
			want:  []int{0}, groups: 1},
		{name: "the deepest groups stay", budget: 2,
			pairs: []budgetPair{{0, 3e-4}, {1, 1e-4}, {2, -1e-4}, {1, 0}, {3, 2e-4}},
			want:  []int{2, 3}, groups: 4},
		{name: "ties between groups go to the first pair", budget: 2,
			pairs: []budgetPair{{0, 1e-4}, {1, 1e-4}, {2, 1e-4}},
			want:  []int{0, 1}, groups: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pairs := make([]collide.Pair, len(tc.pairs))
			key := make([]uint64, len(tc.pairs))
			depth := make([]float64, len(tc.pairs))
			for i, p := range tc.pairs {
				pairs[i] = collide.Pair{Point: i, Distance: p.d}
				key[i], depth[i] = p.group, p.d
			}
			var b budgetScratch
			var kept []collide.Pair
			groups := 0
			if len(pairs) > tc.budget {
				kept, groups = b.selectDeepest(pairs, key, depth, tc.budget, 0, 0)
			} else {
				kept = pairs
			}
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
			if groups != tc.groups {
				t.Fatalf("%d groups, want %d", groups, tc.groups)
			}
		})
	}
}

// TestBudgetShare checks that the budget is shared among the bodies before
// the deepest representatives are taken: each body keeps min(its groups,
// L), L the largest level that fits, the units left over going one each to
// the bodies above L in body order; so five deep floor groups cannot take
// a budget of four from two jaws.
func TestBudgetShare(t *testing.T) {
	for _, tc := range []struct {
		name   string
		soft   int   // representatives of soft–soft pairs (Body −1)
		groups []int // representatives per rigid body
		budget int
		want   []int // quota of the soft–soft pairs, then per body
	}{
		{"level 1, one unit left", 0, []int{5, 2, 2}, 4, []int{0, 2, 1, 1}},
		{"a small body keeps all", 0, []int{1, 5}, 4, []int{0, 1, 3}},
		{"exact fit", 0, []int{3, 3}, 6, []int{0, 3, 3}},
		{"two units left", 0, []int{4, 4, 4}, 5, []int{0, 2, 2, 1}},
		{"soft–soft pairs get their share first", 4, []int{4, 1}, 6, []int{3, 2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b budgetScratch
			var pairs []collide.Pair
			add := func(body, n int) {
				for range n {
					b.reps = append(b.reps, int32(len(pairs)))
					pairs = append(pairs, collide.Pair{Body: body})
				}
			}
			add(-1, tc.soft)
			for body, n := range tc.groups {
				add(body, n)
			}
			b.share(pairs, tc.budget)
			if len(b.quota) != len(tc.want) {
				t.Fatalf("quotas %v, want %v", b.quota, tc.want)
			}
			for i := range tc.want {
				if b.quota[i] != tc.want[i] {
					t.Fatalf("quotas %v, want %v", b.quota, tc.want)
				}
			}
		})
	}
	// Through the selection: the floor's (body 0) five groups are the
	// deepest, yet the jaws (bodies 1 and 2) keep their deepest group each.
	depths := []float64{-1e-4, -1e-4, -1e-4, -1e-4, -1e-4, 1.5e-4, 1e-4, 2e-4, 3e-4}
	bodies := []int{0, 0, 0, 0, 0, 1, 1, 2, 2}
	pairs := make([]collide.Pair, len(depths))
	key := make([]uint64, len(depths))
	for i := range pairs {
		pairs[i] = collide.Pair{Body: bodies[i], Point: i, Distance: depths[i]}
		key[i] = uint64(i)
	}
	var b budgetScratch
	kept, groups := b.selectDeepest(pairs, key, depths, 4, 0, 0)
	var got []int
	for _, pr := range kept {
		got = append(got, pr.Point)
	}
	if want := []int{0, 1, 6, 7}; groups != 9 || !slices.Equal(got, want) {
		t.Fatalf("kept %v of %d groups, want %v of 9", got, groups, want)
	}
}

// TestGroupKey checks the budget's groups: points mapped onto the same
// nodes share a support whatever the order the nodes are listed in, a
// rigid-vertex pair takes the support of its triangle's heaviest corner,
// and bodies and kinds are never merged.
func TestGroupKey(t *testing.T) {
	pts := []mesh.NodeWeights{
		{Count: 4, Nodes: [4]int{0, 1, 2, 3}, Weights: [4]float64{0.25, 0.25, 0.25, 0.25}},
		{Count: 4, Nodes: [4]int{3, 2, 1, 0}, Weights: [4]float64{0.1, 0.2, 0.3, 0.4}},
		{Count: 4, Nodes: [4]int{1, 2, 3, 4}, Weights: [4]float64{0.25, 0.25, 0.25, 0.25}},
		{Count: 3, Nodes: [4]int{1, 2, 3}, Weights: [4]float64{0.5, 0.25, 0.25}},
	}
	m := &Model{support: supports(pts)}
	if m.support[0] != m.support[1] || m.support[0] == m.support[2] || m.support[3] == m.support[2] {
		t.Fatalf("supports %v: want points 0 and 1 together, 2 and 3 apart from them and each other", m.support)
	}
	soft := func(body, pt int) *collide.Pair {
		return &collide.Pair{Kind: collide.SoftVertex, Body: body, Count: 1, Point: pt}
	}
	rigid := func(body, vertex int, tri [3]int, w [3]float64) *collide.Pair {
		pr := &collide.Pair{Kind: collide.RigidVertex, Body: body, Count: 3, Point: -1, Vertex: vertex}
		copy(pr.Nodes[:3], tri[:])
		copy(pr.Weights[:3], w[:])
		return pr
	}
	for _, tc := range []struct {
		name string
		a, b *collide.Pair
		same bool
	}{
		{"one support", soft(0, 0), soft(0, 1), true},
		{"two supports", soft(0, 0), soft(0, 2), false},
		{"two bodies", soft(0, 0), soft(1, 0), false},
		{"two kinds", soft(0, 2), rigid(0, 2, [3]int{2, 0, 3}, [3]float64{0.6, 0.2, 0.2}), false},
		{"one triangle, two samples", rigid(0, 4, [3]int{2, 0, 3}, [3]float64{0.2, 0.7, 0.1}), rigid(0, 5, [3]int{2, 0, 3}, [3]float64{0.2, 0.7, 0.1}), false},
		{"one sample", rigid(0, 4, [3]int{2, 0, 3}, [3]float64{0.2, 0.7, 0.1}), rigid(0, 4, [3]int{1, 3, 2}, [3]float64{0.5, 0.3, 0.2}), true},
		{"one sample, two bodies", rigid(0, 4, [3]int{2, 0, 3}, [3]float64{0.2, 0.7, 0.1}), rigid(1, 4, [3]int{2, 0, 3}, [3]float64{0.2, 0.7, 0.1}), false},
	} {
		if got := m.groupKey(tc.a) == m.groupKey(tc.b); got != tc.same {
			t.Errorf("%s: same group %v, want %v", tc.name, got, tc.same)
		}
	}
}

// TestSelectDeepestAllocatesNothingWarm checks that a selection whose
// scratch has grown allocates nothing.
func TestSelectDeepestAllocatesNothingWarm(t *testing.T) {
	const n = 2000
	src := make([]collide.Pair, n)
	key := make([]uint64, n)
	depth := make([]float64, n)
	for i := range src {
		src[i] = collide.Pair{Point: i, Distance: math.Sin(float64(i))}
		depth[i] = src[i].Distance
		key[i] = uint64(i / 3)
	}
	pairs := make([]collide.Pair, n)
	var b budgetScratch
	run := func() {
		copy(pairs, src)
		if kept, _ := b.selectDeepest(pairs, key, depth, 300, 0, 0); len(kept) > 300 {
			t.Fatalf("%d kept", len(kept))
		}
	}
	run()
	if a := testing.AllocsPerRun(20, run); a != 0 {
		t.Fatalf("%v allocations per selection", a)
	}
}

// TestSelectDeepestSeconds: a group of soft-vertex pairs keeps its two
// deepest (the points detection keeps of a support), and over the budget a
// group's second counts as shallower by the penalty: it stays ahead of
// another group's deepest only when deeper than it by more than the
// penalty, so that equally deep groups are each covered first.
func TestSelectDeepestSeconds(t *testing.T) {
	const pen = 1e-5
	for _, tc := range []struct {
		name string
		dB   float64 // the depth of group B's only pair
		want []int
	}{
		{"the other group's deepest first", 1.5e-5, []int{0, 2}},
		{"a second much deeper than another group's deepest", 3e-5, []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			depth := []float64{0, 1e-5, tc.dB} // A's two pairs, then B's
			key := []uint64{7, 7, 8}
			pairs := make([]collide.Pair, len(depth))
			for i := range pairs {
				pairs[i] = collide.Pair{Kind: collide.SoftVertex, Point: i, Distance: depth[i]}
			}
			var b budgetScratch
			kept, groups := b.selectDeepest(pairs, key, depth, 2, pen, 0)
			var got []int
			for _, pr := range kept {
				got = append(got, pr.Point)
			}
			if groups != 2 || !slices.Equal(got, tc.want) {
				t.Fatalf("kept %v of %d groups, want %v of 2", got, groups, tc.want)
			}
		})
	}
	// Rigid-vertex pairs keep one per group.
	pairs := []collide.Pair{{Kind: collide.RigidVertex, Point: 0}, {Kind: collide.RigidVertex, Point: 1}, {Kind: collide.RigidVertex, Point: 2}}
	var b budgetScratch
	kept, _ := b.selectDeepest(pairs, []uint64{3, 3, 4}, []float64{0, 1e-6, 5e-6}, 2, pen, 0)
	if len(kept) != 2 || kept[0].Point != 0 || kept[1].Point != 2 {
		t.Fatalf("rigid-vertex pairs kept %+v, want points 0 and 2", kept)
	}
}

// TestSelectDeepestCoversNodes: over the budget, a body's representatives
// are taken one per mesh node first: of four groups on one floor, three
// mostly on node 7 and the shallowest on node 8, a budget of two keeps
// the deepest of node 7 and the one of node 8; without the nodes, the two
// deepest.
func TestSelectDeepestCoversNodes(t *testing.T) {
	depth := []float64{0, 1e-6, 2e-6, 3e-6}
	key := []uint64{1, 2, 3, 4}
	pairs := make([]collide.Pair, len(depth))
	for i := range pairs {
		pairs[i] = collide.Pair{Kind: collide.SoftVertex, Body: 0, Point: i, Distance: depth[i]}
	}
	for _, tc := range []struct {
		nodes int
		want  []int
	}{{9, []int{0, 3}}, {0, []int{0, 1}}} {
		b := budgetScratch{node: []int32{7, 7, 7, 8}, covered: make([]uint32, 2*9)} // quota slots 0 and 1 (body 0)
		in := slices.Clone(pairs)
		kept, _ := b.selectDeepest(in, key, depth, 2, 1e-5, tc.nodes)
		var got []int
		for _, pr := range kept {
			got = append(got, pr.Point)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%d nodes: kept %v, want %v", tc.nodes, got, tc.want)
		}
	}
}
