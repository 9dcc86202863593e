package collide

// Thinning makes Detect keep, on a surface mapped onto a coarser mesh,
// one soft-vertex pair per body and support (the set of mesh nodes a
// surface point follows): within a support the fine surface moves
// affinely with the same nodes, so the deepest of its points near a body
// is the one that meets that body first, and the others add rows to the
// contact problem but no freedom to constrain. Keeping one pair per
// support in detection, instead of building every pair of a fine surface
// and thinning them afterwards, spares the step thousands of pair
// records (docs/method.md, "Contact budget"); the mesh nodes the kept
// pairs reach are those every pair would reach.
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
	// Found counts, after each Detect, the soft-vertex pairs within the
	// alarm distance before the thinning kept one per support.
	Found int

	pair []Pair   // per support: its deepest pair so far
	best []int32  // per support: that pair's surface position
	gen  []uint32 // per support: cur when pair is this body's
	cur  uint32
}

// SetThinning turns the thinning of soft-vertex pairs on (t) or off
// (nil). A Thinning whose Support or Pushed is shorter than the
// positions the surface references turns it off.
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
	t.pair = make([]Pair, groups)
	t.best = make([]int32, groups)
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
}

// depth is the selection depth of surface position v's pair with body
// body at distance dist.
func (t *Thinning) depth(v, body int, dist float64) float64 {
	if body < 64 && t.Pushed[v]&(1<<uint(body)) != 0 {
		return dist - t.Bonus
	}
	return dist
}

// keep offers pr, the pair of surface position v with body: it becomes
// its support's pair when it is the first of the support or deeper than
// the support's pair so far (the first on ties).
func (t *Thinning) keep(pr *Pair, v, body int) {
	t.Found++
	g := t.Support[v]
	if t.gen[g] != t.cur || t.depth(v, body, pr.Distance) < t.depth(int(t.best[g]), body, t.pair[g].Distance) {
		t.gen[g], t.best[g], t.pair[g] = t.cur, int32(v), *pr
	}
}

// emit appends to out the pairs kept for the body, in the order of their
// surface positions (vertices, increasing): each where it stands among
// the pairs that every vertex would give.
func (t *Thinning) emit(out []Pair, vertices []int) []Pair {
	for _, v := range vertices {
		if g := t.Support[v]; t.gen[g] == t.cur && int(t.best[g]) == v {
			out = append(out, t.pair[g])
		}
	}
	return out
}
