package collide

import "slices"

// Thinning makes Detect keep, on a surface mapped onto a coarser mesh,
// the PerSupport deepest soft-vertex pairs of each body and support (the
// set of mesh nodes a surface point follows): within a support the fine
// surface moves affinely with the same nodes, so its deepest points near
// a body are those that meet it first, and the others add rows to the
// contact problem but no freedom to constrain. Keeping them in detection,
// instead of building every pair of a fine surface and thinning them
// afterwards, spares the step thousands of pair records (docs/method.md,
// "Contact budget"); the mesh nodes the kept pairs reach are those every
// pair would reach.
//
// The physics goroutine owns a Thinning and refreshes Pushed before each
// Detect; the detector keeps its scratch.
type Thinning struct {
	// Support numbers the support of each surface position.
	Support []int32
	// Pushed holds, per surface position, bit b set when the position's
	// pair with body b (b < 64) pushed in the previous step: it counts as
	// deeper by Bonus, so that a group keeps the pair that carries its
	// force rather than change representative from step to step.
	Pushed []uint64
	Bonus  float64
	// Dropped counts, after each Detect, the soft-vertex pairs within the
	// alarm distance that the thinning left out.
	Dropped int

	// PerSupport is how many pairs each support keeps, its deepest (1 to
	// 4; 0 is taken as 1). Set it before SetThinning.
	PerSupport int

	// per support g, its pairs so far, deepest first, at k·g … k·g+n[g]−1
	// (k = PerSupport): the pair, its surface position and its depth.
	pair []Pair
	best []int32 // the index of the pair's position in Surface.Vertices
	dep  []float64
	n    []uint8
	gen  []uint32 // per support: cur when its pairs are this body's
	cur  uint32
	k    int // PerSupport as SetThinning read it
	// touched lists the supports that hold this body's pairs, and kept is
	// emit's scratch.
	touched []int32
	kept    []int32
}

// SetThinning turns the thinning of soft-vertex pairs on (t) or off
// (nil); t's PerSupport is read here, once. A Thinning whose Support or
// Pushed is shorter than the positions the surface references turns it
// off.
func (d *Detector) SetThinning(t *Thinning) {
	d.thin = nil
	if t == nil || d.err != nil || len(t.Support) < d.nNodes || len(t.Pushed) < d.nNodes {
		return
	}
	groups := int32(0)
	for _, g := range t.Support[:d.nNodes] {
		if g < 0 {
			return
		}
		groups = max(groups, g+1)
	}
	t.k = min(max(t.PerSupport, 1), 4)
	k := int32(t.k)
	t.pair = make([]Pair, k*groups)
	t.best = make([]int32, k*groups)
	t.dep = make([]float64, k*groups)
	t.n = make([]uint8, groups)
	t.gen = make([]uint32, groups)
	t.cur = 0
	d.thin = t
}

// begin starts the selection of one body's pairs.
func (t *Thinning) begin() {
	t.cur++
	if t.cur == 0 { // wrapped: forget every old slot
		clear(t.gen)
		t.cur = 1
	}
	t.touched = t.touched[:0]
}

// depth is the selection depth of surface position v's pair with body
// at distance dist.
func (t *Thinning) depth(v, body int, dist float64) float64 {
	if body < 64 && t.Pushed[v]&(1<<uint(body)) != 0 {
		return dist - t.Bonus
	}
	return dist
}

// has reports whether the support of surface position v holds a pair of
// the body being selected.
func (t *Thinning) has(v int) bool { return t.gen[t.Support[v]] == t.cur }

// reserve offers the pair of surface position v (Surface.Vertices[i])
// with body at distance dist: it joins its support's pairs when the
// support has fewer than PerSupport or it is deeper than the shallowest of
// them (the first on ties), in depth order. It returns the slot of
// t.pair where the caller writes the pair, or −1 when it is not kept, so
// that the pair is built only for the positions kept so far.
func (t *Thinning) reserve(v, i, body int, dist float64) int {
	t.Dropped++ // until emit takes it
	g := int(t.Support[v])
	if t.gen[g] != t.cur {
		t.gen[g], t.n[g] = t.cur, 0
		t.touched = append(t.touched, int32(g))
	}
	k := t.k
	base, n, d := k*g, int(t.n[g]), t.depth(v, body, dist)
	j := n // the slot the pair takes, then moved up past shallower ones
	if n == k {
		if !(d < t.dep[base+k-1]) {
			return -1
		}
		j = k - 1
	} else {
		t.n[g]++
	}
	for ; j > 0 && d < t.dep[base+j-1]; j-- {
		t.pair[base+j], t.best[base+j], t.dep[base+j] = t.pair[base+j-1], t.best[base+j-1], t.dep[base+j-1]
	}
	t.best[base+j], t.dep[base+j] = int32(i), d
	return base + j
}

// emit appends to out the pairs kept for the body, in the order of their
// surface positions in Surface.Vertices: each where it stands among the
// pairs that every vertex would give. Only the supports that hold pairs
// are visited.
func (t *Thinning) emit(out []Pair) []Pair {
	t.kept = t.kept[:0]
	for _, g := range t.touched {
		base := int32(t.k) * g
		for j := int32(0); j < int32(t.n[g]); j++ {
			t.kept = append(t.kept, base+j)
		}
	}
	slices.SortFunc(t.kept, func(a, b int32) int { return int(t.best[a]) - int(t.best[b]) })
	for _, s := range t.kept {
		out = append(out, t.pair[s])
	}
	t.Dropped -= len(t.kept)
	return out
}
