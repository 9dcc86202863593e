package collide

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// thinByHand selects from every pair what Thinning should keep: for each
// body and support, the k soft-vertex pairs of smallest Distance less the
// bonus of a pushed pair (the first found on ties), in the order found;
// the other pairs as found.
func thinByHand(all []Pair, support []int32, pushed []uint64, bonus float64, k int) []Pair {
	type key struct {
		body int
		g    int32
	}
	depth := func(p *Pair) float64 {
		if pushed[p.Point]&(1<<uint(p.Body)) != 0 {
			return p.Distance - bonus
		}
		return p.Distance
	}
	members := map[key][]int{}
	for a := range all {
		if p := &all[a]; p.Kind == SoftVertex {
			kk := key{p.Body, support[p.Point]}
			members[kk] = append(members[kk], a)
		}
	}
	keep := map[int]bool{}
	for _, m := range members {
		slices.SortStableFunc(m, func(x, y int) int { return cmp.Compare(depth(&all[x]), depth(&all[y])) })
		for _, a := range m[:min(k, len(m))] {
			keep[a] = true
		}
	}
	var out []Pair
	for a, p := range all {
		if p.Kind != SoftVertex || keep[a] {
			out = append(out, p)
		}
	}
	return out
}

// randomSupports groups n consecutive positions into supports of 1 to 6.
func randomSupports(rng *rand.Rand, n int) []int32 {
	support := make([]int32, n)
	g := int32(0)
	for i := 0; i < n; {
		for k, size := 0, 1+rng.IntN(6); k < size && i < n; k++ {
			support[i] = g
			i++
		}
		g++
	}
	return support
}

// TestThinningKeepsDeepestPerSupport checks the detector's thinning
// against a selection from every pair, on the perturbed round-jaw scenes
// with random supports (groups of 1 to 6 vertices) and random pushed
// marks, with and without a bonus large enough to change the choice.
func TestThinningKeepsDeepestPerSupport(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		s := perturbedRoundScene(seed)
		rng := rand.New(rand.NewPCG(seed, 7))
		n := len(s.q) / 3
		support := randomSupports(rng, n)
		pushed := make([]uint64, n)
		for i := range pushed {
			if rng.IntN(4) == 0 {
				pushed[i] = uint64(rng.IntN(8))
			}
		}
		const alarm = 1.5 * mm
		all := NewDetector(s.surf).Detect(s.q, s.bodies, alarm, nil)
		if slices.Equal(thinByHand(all, support, pushed, 0, 1), thinByHand(all, support, pushed, 0.3*mm, 1)) {
			t.Fatalf("seed %d: the bonus changes no choice; the test needs it to", seed)
		}
		for _, tc := range []struct {
			bonus float64
			k     int
		}{{0, 1}, {0.3 * mm, 1}, {0, 2}, {0.3 * mm, 2}, {0.3 * mm, 3}} {
			bonus := tc.bonus
			want := thinByHand(all, support, pushed, bonus, tc.k)
			det := NewDetector(s.surf)
			det.SetThinning(&Thinning{Support: support, Pushed: pushed, Bonus: bonus, PerSupport: tc.k})
			got := det.Detect(s.q, s.bodies, alarm, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d bonus %g, %d per support: thinning kept %d pairs, the selection by hand %d (or they differ)", seed, bonus, tc.k, len(got), len(want))
			}
			if len(got) >= len(all) {
				t.Fatalf("seed %d: thinning kept %d of %d pairs: the supports do not group", seed, len(got), len(all))
			}
			// A second call reuses the scratch and gives the same pairs.
			if again := det.Detect(s.q, s.bodies, alarm, nil); !slices.Equal(again, got) {
				t.Fatalf("seed %d: a second Detect differs", seed)
			}
		}
	}
}

// TestThinningOff checks that a Thinning too short for the surface, and
// nil, leave every pair.
func TestThinningOff(t *testing.T) {
	s := perturbedRoundScene(1)
	all := NewDetector(s.surf).Detect(s.q, s.bodies, 1.5*mm, nil)
	for _, th := range []*Thinning{nil, {Support: make([]int32, 3), Pushed: make([]uint64, 3)}} {
		det := NewDetector(s.surf)
		det.SetThinning(th)
		if got := det.Detect(s.q, s.bodies, 1.5*mm, nil); !slices.Equal(got, all) {
			t.Fatalf("thinning %v: %d pairs, want every one of %d", th, len(got), len(all))
		}
	}
}

// TestDetectSupportsReachesDetectsSupports checks that DetectSupports,
// with a Thinning, gives per body one soft-vertex pair for each support
// that Detect's pairs reach, the first in vertex order, and Detect's
// rigid-vertex pairs unchanged; without one, Detect's pairs.
func TestDetectSupportsReachesDetectsSupports(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		s := perturbedRoundScene(seed)
		n := len(s.q) / 3
		support := randomSupports(rand.New(rand.NewPCG(seed, 9)), n)
		const alarm = 1.5 * mm
		all := NewDetector(s.surf).Detect(s.q, s.bodies, alarm, nil)
		if got := NewDetector(s.surf).DetectSupports(s.q, s.bodies, alarm, nil); !slices.Equal(got, all) {
			t.Fatalf("seed %d: without a Thinning DetectSupports differs from Detect", seed)
		}
		// The first pair of each body and support, by hand, from all.
		var want []Pair
		seen := map[[2]int]bool{}
		for _, pr := range all {
			if pr.Kind == SoftVertex {
				key := [2]int{pr.Body, int(support[pr.Point])}
				if seen[key] {
					continue
				}
				seen[key] = true
			}
			want = append(want, pr)
		}
		det := NewDetector(s.surf)
		det.SetThinning(&Thinning{Support: support, Pushed: make([]uint64, n), PerSupport: 2})
		thinned := det.Detect(s.q, s.bodies, alarm, nil)
		got := det.DetectSupports(s.q, s.bodies, alarm, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: DetectSupports gave %d pairs, the first per support by hand %d (or they differ)", seed, len(got), len(want))
		}
		if len(got) >= len(thinned) {
			t.Fatalf("seed %d: %d pairs against the thinning's %d: the supports do not group", seed, len(got), len(thinned))
		}
		// Detect afterwards is as before (the mode does not stick).
		if again := det.Detect(s.q, s.bodies, alarm, nil); !slices.Equal(again, thinned) {
			t.Fatalf("seed %d: Detect after DetectSupports differs", seed)
		}
	}
}
