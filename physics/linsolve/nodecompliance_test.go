package linsolve

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"softgrasp/physics/collide"
)

// syntheticCompliance returns a node compliance over m nodes with a
// random symmetric G and c pairs on the first u of them: soft-vertex pairs
// and, every third, a rigid-vertex pair on three nodes.
func syntheticCompliance(rng *rand.Rand, m, u, c int) (*nodeCompliance, []collide.Pair) {
	g := &nodeCompliance{valid: true}
	g.slot = make([]int, m)
	for i := range g.slot {
		g.slot[i] = i
		g.nodes = append(g.nodes, i)
	}
	n := 3 * m
	g.G = make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			x := rng.NormFloat64()
			g.G[i*n+j], g.G[j*n+i] = x, x
		}
	}
	pairs := make([]collide.Pair, c)
	for a := range pairs {
		pr := &pairs[a]
		pr.Count = 1
		if a%3 == 2 {
			pr.Count = 3
		}
		for i := 0; i < pr.Count; i++ {
			pr.Nodes[i] = rng.IntN(u)
			pr.Weights[i] = rng.Float64()
		}
	}
	return g, pairs
}

// TestNodeComplianceAssemble checks the lower block triangle of the W_H
// gathered from G against the definition
// (W_H)_ab = Σ_i Σ_j w_ai·w_bj·G(n_ai, n_bj), and that the upper one is
// left alone, over a sequence of calls with different pair sets: the
// same set again, a subset, sets that bring new nodes (within Gu's room
// and beyond it), and a set after a rebuild of G (forget) with a new G.
func TestNodeComplianceAssemble(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g, pairs := syntheticCompliance(rng, 200, 190, 300)
	c, stride := len(pairs), 3*len(g.nodes)
	n := 3 * c
	var scratch []float64
	for call, ps := range [][]collide.Pair{pairs[:20], pairs[:20], pairs[5:15], pairs[10:40], pairs[30:300], pairs[1:2], nil, pairs[7:60]} {
		if call == 6 { // a rebuild: new values of G
			for i := range g.G {
				g.G[i] *= 2
			}
			g.forget()
			continue
		}
		WH := make([]float64, n*n)
		for i := range WH {
			WH[i] = -7
		}
		g.assemble(WH, ps, &scratch)
		n := 3 * len(ps)
		for a := range ps {
			for b := range ps {
				for r := 0; r < 3; r++ {
					for q := 0; q < 3; q++ {
						got := WH[(3*a+r)*n+3*b+q]
						if b > a {
							if got != -7 {
								t.Fatalf("call %d: upper block (%d,%d) written", call, a, b)
							}
							continue
						}
						want := 0.0
						for i := 0; i < ps[a].Count; i++ {
							for j := 0; j < ps[b].Count; j++ {
								si, sj := 3*ps[a].Nodes[i], 3*ps[b].Nodes[j]
								want += ps[a].Weights[i] * ps[b].Weights[j] * g.G[(si+r)*stride+sj+q]
							}
						}
						if d := got - want; d > 1e-12 || d < -1e-12 {
							t.Fatalf("call %d: (W_H)_(%d,%d)[%d,%d] = %g, want %g", call, a, b, r, q, got, want)
						}
					}
				}
			}
		}
	}
}

// BenchmarkNodeComplianceAssemble gathers W_H for c pairs on u nodes out
// of the m nodes of S, the sizes of the default 3k-DOF grasp.
func BenchmarkNodeComplianceAssemble(b *testing.B) {
	for _, sz := range []struct{ m, u, c int }{{600, 200, 195}, {640, 144, 257}} {
		b.Run(fmt.Sprintf("m=%d/u=%d/c=%d", sz.m, sz.u, sz.c), func(b *testing.B) {
			g, pairs := syntheticCompliance(rand.New(rand.NewPCG(5, 6)), sz.m, sz.u, sz.c)
			WH := make([]float64, 9*sz.c*sz.c)
			var scratch []float64
			b.ReportAllocs()
			for b.Loop() {
				g.assemble(WH, pairs, &scratch)
			}
		})
	}
}
