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
	// assemble's numbering of the pair nodes it has met since the last
	// build: used lists their slots in S in the order met, and local
	// numbers them 0…u−1 (−1 elsewhere). Gu holds their blocks of G,
	// row-major with room for guCap nodes, of which the first guDone are
	// copied; off and wt are the step's pairs' nodes as offsets into a
	// row of Gu and weights (pair a: off[pairOff[a]:pairOff[a+1]]).
	used, local   []int
	Gu            []float64
	guCap, guDone int
	off, pairOff  []int
	wt            []float64
	X             sparse.CSR
	valid         bool
	builds        int // calls of build (the tests count them)
}

// build computes G for the given nodes with the factor f, in single
// precision or in double.
func (g *nodeCompliance) build(f *sparse.Factor, nodes []int, nNodes int, single bool) error {
	g.builds++
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
	g.forget()
	g.valid = false
	if m == 0 {
		g.valid = true
		return nil
	}
	if err := compliance(f, single, &g.X, g.G); err != nil {
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
// nodes the pairs use, and G is far larger than the caches, so those
// nodes are numbered (compact) and their blocks of G copied into a dense
// 3u×3u matrix Gu. The numbering and the copies are kept from call to
// call until the next build: the pairs of consecutive steps share most of
// their nodes, and only a new node's row and column are copied. Row block
// a is then formed once as the weighted sum of its nodes' three rows of
// Gu (tmp, 3×3u), and every block (a, b ≤ a) gathers b's columns from
// it: W_H is written row-wise.
func (g *nodeCompliance) assemble(WH []float64, pairs []collide.Pair, scratch *[]float64) {
	u := g.compact(pairs)
	g.copyBlocks(u)
	n, width, stride := 3*len(pairs), 3*u, 3*g.guCap
	*scratch = grow(*scratch, 3*width)
	tmp := *scratch
	t0, t1, t2 := tmp[:width], tmp[width:2*width], tmp[2*width:]
	for a := range pairs {
		clear(tmp)
		for k := g.pairOff[a]; k < g.pairOff[a+1]; k++ {
			w, li := g.wt[k], g.off[k]
			floats.AddScaled(t0, w, g.Gu[li*stride:li*stride+width])
			floats.AddScaled(t1, w, g.Gu[(li+1)*stride:(li+1)*stride+width])
			floats.AddScaled(t2, w, g.Gu[(li+2)*stride:(li+2)*stride+width])
		}
		rows := WH[3*a*n : (3*a+3)*n]
		r0, r1, r2 := rows[:n], rows[n:2*n], rows[2*n:]
		for b := range pairs[:a+1] {
			var b00, b01, b02, b10, b11, b12, b20, b21, b22 float64
			for k := g.pairOff[b]; k < g.pairOff[b+1]; k++ {
				w, o := g.wt[k], g.off[k]
				x, y, z := t0[o:o+3:o+3], t1[o:o+3:o+3], t2[o:o+3:o+3]
				b00, b01, b02 = b00+w*x[0], b01+w*x[1], b02+w*x[2]
				b10, b11, b12 = b10+w*y[0], b11+w*y[1], b12+w*y[2]
				b20, b21, b22 = b20+w*z[0], b21+w*z[1], b22+w*z[2]
			}
			d0, d1, d2 := r0[3*b:3*b+3:3*b+3], r1[3*b:3*b+3:3*b+3], r2[3*b:3*b+3:3*b+3]
			d0[0], d0[1], d0[2] = b00, b01, b02
			d1[0], d1[1], d1[2] = b10, b11, b12
			d2[0], d2[1], d2[2] = b20, b21, b22
		}
	}
}

// forget drops assemble's numbering and copies, which belong to the
// previous G: the next compact numbers from scratch.
func (g *nodeCompliance) forget() {
	g.local, g.used, g.guDone = g.local[:0], g.used[:0], 0
}

// compact numbers the pairs' nodes not met since the last build
// u0…u−1 in the order met (local, indexed by slot in S; used lists the
// slots), lists each pair's nonzero weights with their offsets into a row
// of Gu (off, wt, pairOff), and returns u.
func (g *nodeCompliance) compact(pairs []collide.Pair) int {
	if len(g.local) != len(g.nodes) { // S changed (build): number from scratch
		g.local = grow(g.local, len(g.nodes))
		for i := range g.local {
			g.local[i] = -1
		}
		g.used = g.used[:0]
	}
	g.off, g.wt, g.pairOff = g.off[:0], g.wt[:0], append(g.pairOff[:0], 0)
	for a := range pairs {
		pr := &pairs[a]
		for i := 0; i < pr.Count; i++ {
			sl := g.slot[pr.Nodes[i]]
			if g.local[sl] < 0 {
				g.local[sl] = len(g.used)
				g.used = append(g.used, sl)
			}
			if w := pr.Weights[i]; w != 0 {
				g.off = append(g.off, 3*g.local[sl])
				g.wt = append(g.wt, w)
			}
		}
		g.pairOff = append(g.pairOff, len(g.off))
	}
	return len(g.used)
}

// copyBlocks copies the blocks of G between the first u numbered nodes
// into Gu that are not there yet: all of them when Gu had to grow (its
// row stride changes), else the rows and columns of the nodes numbered
// since the last call.
func (g *nodeCompliance) copyBlocks(u int) {
	if u > g.guCap {
		g.guCap = min(len(g.nodes), max(2*u, 64))
		g.Gu = grow(g.Gu, 9*g.guCap*g.guCap)
		g.guDone = 0
	}
	stride, src := 3*g.guCap, 3*len(g.nodes)
	for i := g.guDone; i < u; i++ {
		si := g.used[i]
		for r := 0; r < 3; r++ {
			row := g.G[(3*si+r)*src : (3*si+r+1)*src]
			dst := g.Gu[(3*i+r)*stride : (3*i+r)*stride+3*u]
			for j, sj := range g.used[:u] {
				d, s := dst[3*j:3*j+3:3*j+3], row[3*sj:3*sj+3:3*sj+3]
				d[0], d[1], d[2] = s[0], s[1], s[2]
			}
		}
		// Column i for the rows copied before (G is symmetric: the
		// block (j, i) is the transpose of (i, j), copied from G as is).
		for j, sj := range g.used[:g.guDone] {
			for r := 0; r < 3; r++ {
				row := g.G[(3*sj+r)*src : (3*sj+r+1)*src]
				d, s := g.Gu[(3*j+r)*stride+3*i:(3*j+r)*stride+3*i+3], row[3*si:3*si+3:3*si+3]
				d[0], d[1], d[2] = s[0], s[1], s[2]
			}
		}
	}
	g.guDone = u
}
