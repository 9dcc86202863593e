package linsolve

import (
	"gonum.org/v1/gonum/floats"

	"softgrasp/physics/collide"
	"softgrasp/physics/sparse"
)

// nodeCompliance is G = S·P⁻¹·Sᵀ for a set of soft nodes S (3 unit rows
// per node) and one factor P: the 3×3 blocks of P⁻¹ between those nodes.
// Every proximity pair's row block of H is a weighted sum of unit node
// blocks, so
//
//	(W_H)_ab = Σ_i Σ_j w_ai·w_bj·G(n_ai, n_bj)
//
// for any pairs whose nodes lie in S. The asynchronous solver's worker
// computes G right after each background factorisation, for the nodes near
// the rigid bodies when the job started; the step then assembles W_H from
// G in O(c²) instead of running the sparse compliance on its own core.
type nodeCompliance struct {
	nodes []int     // the soft nodes of S
	slot  []int     // mesh node → index in nodes, −1 when absent
	G     []float64 // (3m)×(3m), row-major
	// used lists the slots in S of the step's pair nodes, and local
	// numbers them 0…u−1 (−1 elsewhere), for assemble.
	used  []int
	local []int
	X     sparse.CSR
	valid bool
}

// build computes G for the given nodes with the factor f.
func (g *nodeCompliance) build(f *sparse.Factor, nodes []int, nNodes int) error {
	if len(g.slot) != nNodes {
		g.slot = make([]int, nNodes)
	}
	for i := range g.slot {
		g.slot[i] = -1
	}
	g.nodes = g.nodes[:0]
	for _, n := range nodes {
		if g.slot[n] < 0 {
			g.slot[n] = len(g.nodes)
			g.nodes = append(g.nodes, n)
		}
	}
	m := len(g.nodes)
	g.X.Reset(3*m, 3*nNodes)
	var col [1]int
	one := []float64{1}
	for _, n := range g.nodes {
		for d := 0; d < 3; d++ {
			col[0] = 3*n + d
			g.X.Append(col[:], one)
		}
	}
	g.G = grow(g.G, 9*m*m)
	// assemble's numbering belongs to the old S: compact starts afresh.
	g.local, g.used = g.local[:0], g.used[:0]
	g.valid = false
	if m == 0 {
		g.valid = true
		return nil
	}
	if err := f.Compliance(&g.X, g.G); err != nil {
		return err
	}
	g.valid = true
	return nil
}

// covers reports whether every node of every pair is in S.
func (g *nodeCompliance) covers(pairs []collide.Pair) bool {
	if !g.valid {
		return false
	}
	for a := range pairs {
		pr := &pairs[a]
		for i := 0; i < pr.Count; i++ {
			if g.slot[pr.Nodes[i]] < 0 {
				return false
			}
		}
	}
	return true
}

// assemble writes the lower block triangle of W_H (3c×3c, row-major: the
// blocks (a, b) with b ≤ a, all that RebuildW, PGS and CorrectP read of
// it) for pairs all covered by S. The strict upper block triangle is left
// as it was.
//
// S holds every node near the rigid bodies, usually several times the u
// nodes the pairs use, so those are numbered first (compact) and their
// blocks of G copied into a dense 3u×3u matrix Gu. Row block a is then
// formed once as the weighted sum of its nodes' three rows of Gu (tmp,
// 3×3u), and every block (a, b ≤ a) gathers b's columns from it: W_H is
// written row-wise.
func (g *nodeCompliance) assemble(WH []float64, pairs []collide.Pair, scratch *[]float64) {
	u := g.compact(pairs)
	n, stride, width := 3*len(pairs), 3*len(g.nodes), 3*u
	*scratch = grow(*scratch, 3*width+width*width)
	tmp, Gu := (*scratch)[:3*width], (*scratch)[3*width:]
	for i, si := range g.used {
		for r := 0; r < 3; r++ {
			row := g.G[(3*si+r)*stride : (3*si+r+1)*stride]
			dst := Gu[(3*i+r)*width : (3*i+r+1)*width]
			for j, sj := range g.used {
				d, src := dst[3*j:3*j+3:3*j+3], row[3*sj:3*sj+3:3*sj+3]
				d[0], d[1], d[2] = src[0], src[1], src[2]
			}
		}
	}
	for a := range pairs {
		pa := &pairs[a]
		clear(tmp)
		for i := 0; i < pa.Count; i++ {
			w, li := pa.Weights[i], 3*g.local[g.slot[pa.Nodes[i]]]
			if w == 0 {
				continue
			}
			for r := 0; r < 3; r++ {
				floats.AddScaled(tmp[r*width:(r+1)*width], w, Gu[(li+r)*width:(li+r+1)*width])
			}
		}
		rows := WH[3*a*n : (3*a+3)*n]
		for b := range pairs[:a+1] {
			pb := &pairs[b]
			var blk [9]float64
			for j := 0; j < pb.Count; j++ {
				w, sj := pb.Weights[j], 3*g.local[g.slot[pb.Nodes[j]]]
				for r := 0; r < 3; r++ {
					t := tmp[r*width+sj : r*width+sj+3]
					blk[3*r] += w * t[0]
					blk[3*r+1] += w * t[1]
					blk[3*r+2] += w * t[2]
				}
			}
			for r := 0; r < 3; r++ {
				d := rows[r*n+3*b : r*n+3*b+3 : r*n+3*b+3]
				d[0], d[1], d[2] = blk[3*r], blk[3*r+1], blk[3*r+2]
			}
		}
	}
}

// compact numbers the nodes of the pairs 0…u−1 in the order met (local,
// indexed by slot in S; used lists the slots) and returns u.
func (g *nodeCompliance) compact(pairs []collide.Pair) int {
	if len(g.local) != len(g.nodes) { // S changed (build): number from scratch
		g.local = grow(g.local, len(g.nodes))
		for i := range g.local {
			g.local[i] = -1
		}
	}
	for _, sl := range g.used { // undo the previous call's numbering
		g.local[sl] = -1
	}
	g.used = g.used[:0]
	for a := range pairs {
		pr := &pairs[a]
		for i := 0; i < pr.Count; i++ {
			if sl := g.slot[pr.Nodes[i]]; g.local[sl] < 0 {
				g.local[sl] = len(g.used)
				g.used = append(g.used, sl)
			}
		}
	}
	return len(g.used)
}
