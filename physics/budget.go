package physics

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
)

// The contact budget (docs/method.md, "Contact budget"): on a surface
// mapped onto the mesh, the pairs a step finds follow the surface's detail,
// and so do the c×c products and PGS; the budget keeps c within
// Settings.ContactBudget whatever that detail.

// budgetFirstCell is the side of the first cells tried, in mean edge
// lengths of the mesh, budgetGrowth the factor by which the cells grow from
// one try to the next, and budgetTries bounds the tries.
const (
	budgetFirstCell = 0.25
	budgetGrowth    = 1.25
	budgetTries     = 200
)

// budgetScratch is the selection's scratch: an open-addressing table from
// a cell's key to the deepest pair in it, and the pairs kept. It grows
// with the pairs and is reused, so that a warm step allocates nothing.
type budgetScratch struct {
	at       []r3.Vec  // where each pair sits in its grid's frame
	depth    []float64 // each pair's depth for the choice (Distance, less a preference)
	slotKey  []uint64
	slotPair []int32 // index of the cell's deepest pair + 1; 0: empty
	keep     []bool
}

// budgetPoint returns where pair pr sits in its grid's frame: a
// soft-vertex pair at its surface point's rest position (cells of the
// body's material), a rigid-vertex pair at its rigid sample in the rigid
// body's frame (cells of the jaw). Both frames follow what the pair is
// made of, so that a cell keeps its pairs from step to step while the
// object moves or turns.
func (m *Model) budgetPoint(pr *collide.Pair) r3.Vec {
	if pr.Kind == collide.SoftVertex {
		return point(m.pRest, pr.Point)
	}
	return pr.RigidLocal
}

// applyBudget thins the step's pairs to ContactBudget on a surface mapped
// onto the mesh (selectDeepest, the first cells a quarter of the mesh's
// mean edge length), before they are spread onto the nodes. A pair that
// pushed in the previous step (a warm start with λn > 0) counts as deeper
// by the contact distance, so that a cell keeps its pair, and the force
// carried over, while the others are no deeper than the gap the contact
// law keeps. It records the pairs found and the cell size in the stats
// (0: every pair kept). The mesh's own boundary, a budget of 0 and a count
// within the budget keep every pair.
func (c *step) applyBudget() {
	ws := c.ws
	pairs := ws.ct.pairs
	ws.stats.Found, ws.stats.BudgetCell = len(pairs), 0
	budget := c.set.ContactBudget
	if c.model.emb == nil || budget <= 0 || len(pairs) <= budget {
		return
	}
	// Pairs that cannot close within the step go first: their distance
	// exceeds alarmMargin times the relative motion of their two points
	// over the step (the rule of the alarm distance, pair by pair), plus
	// the contact distance. A pair that pushed in the previous step stays,
	// and counts as deeper by the contact distance in the selection.
	b := &ws.detection.budget
	b.at = grow(b.at, len(pairs))
	b.depth = grow(b.depth, len(pairs))
	kept := 0
	for a := range pairs {
		pr := &pairs[a]
		depth := pr.Distance
		if w, ok := c.state.warm[pr.Key()]; ok && w.lambda[0] > 0 {
			depth -= c.set.ContactDistance
		} else if !c.canClose(pr) {
			continue
		}
		b.at[kept], b.depth[kept] = c.model.budgetPoint(pr), depth
		pairs[kept] = *pr
		kept++
	}
	pairs = pairs[:kept]
	ws.ct.pairs = pairs
	if len(pairs) <= budget {
		return
	}
	ws.ct.pairs, ws.stats.BudgetCell = b.selectDeepest(pairs, b.at[:kept], b.depth[:kept], c.model.edge*budgetFirstCell, budget)
}

// selectDeepest keeps at most budget of pairs (budget ≥ 1), in place and
// in their order, and returns them with the cell size it used. Pair a sits
// at at[a] with depth depth[a] (its Distance, less a preference); a grid
// of cubic cells of side s, with a corner at the origin, divides the pairs
// by cell, rigid body and kind, and each group keeps its deepest pair
// (smallest depth; the first on ties). s starts at cell0 and grows by
// budgetGrowth until the groups number at most budget. If even cells
// larger than twice the pairs' extent and distance from the origin leave
// more groups than budget (a budget below 8 groups per body and kind), the
// shallowest of those representatives go until budget remain. With no
// more pairs than budget, every pair is kept and s is 0.
func (b *budgetScratch) selectDeepest(pairs []collide.Pair, at []r3.Vec, depth []float64, cell0 float64, budget int) ([]collide.Pair, float64) {
	if len(pairs) <= budget {
		return pairs, 0
	}
	lo, hi := at[0], at[0]
	for _, x := range at[1:] {
		lo = r3.Vec{X: math.Min(lo.X, x.X), Y: math.Min(lo.Y, x.Y), Z: math.Min(lo.Z, x.Z)}
		hi = r3.Vec{X: math.Max(hi.X, x.X), Y: math.Max(hi.Y, x.Y), Z: math.Max(hi.Z, x.Z)}
	}
	span := r3.Sub(hi, lo)
	// Cells of twice the extent plus the distance from the origin put
	// every pair of a group in one cell or two per axis.
	far := 2 * (math.Max(span.X, math.Max(span.Y, span.Z)) +
		math.Max(r3.Norm(lo), r3.Norm(hi)))
	s := cell0
	if !(s > 0) || math.IsInf(s, 0) {
		s = far / 1024
	}
	if !(far > 0) || math.IsInf(far, 0) {
		far = s // all pairs at one point
	}
	b.size(len(pairs))
	n := 0
	for try := 0; ; try++ {
		if s >= far || try == budgetTries {
			n = b.group(pairs, at, depth, s, len(pairs))
			break
		}
		if n = b.group(pairs, at, depth, s, budget); n <= budget {
			break
		}
		s *= budgetGrowth
	}
	keep := b.keep[:len(pairs)]
	clear(keep)
	for _, sp := range b.slotPair {
		if sp != 0 {
			keep[sp-1] = true
		}
	}
	for ; n > budget; n-- {
		worst := -1
		for a, k := range keep {
			if k && (worst < 0 || !(depth[a] < depth[worst])) {
				worst = a
			}
		}
		keep[worst] = false
	}
	kept := 0
	for a := range pairs {
		if keep[a] {
			pairs[kept] = pairs[a]
			kept++
		}
	}
	return pairs[:kept], s
}

// size makes room for c pairs: a table of a power of two slots, at least
// twice c.
func (b *budgetScratch) size(c int) {
	n := 16
	for n < 2*c {
		n *= 2
	}
	if len(b.slotKey) < n {
		b.slotKey = make([]uint64, 2*n)
		b.slotPair = make([]int32, 2*n)
	}
	b.keep = grow(b.keep, c)
}

// group fills the table with the deepest pair of each group for cells of
// side s and returns the number of groups, stopping as soon as it exceeds
// limit.
func (b *budgetScratch) group(pairs []collide.Pair, at []r3.Vec, depth []float64, s float64, limit int) int {
	clear(b.slotPair)
	mask := uint64(len(b.slotPair) - 1)
	n := 0
	for a := range pairs {
		pr := &pairs[a]
		key := cellKey(pr, at[a], s)
		i := (key * 0x9E3779B97F4A7C15) >> 32 & mask
		for {
			sp := b.slotPair[i]
			if sp == 0 {
				b.slotKey[i], b.slotPair[i] = key, int32(a+1)
				n++
				break
			}
			if b.slotKey[i] == key {
				if depth[a] < depth[sp-1] {
					b.slotPair[i] = int32(a + 1)
				}
				break
			}
			i = (i + 1) & mask
		}
		if n > limit {
			return n
		}
	}
	return n
}

// cellKey packs a pair's group: its body (20 bits), its kind (1 bit) and
// the cell of side s that holds x (14 bits per axis, wrapped: cells 2¹⁴
// apart share a key, far beyond any object the grid divides).
func cellKey(pr *collide.Pair, x r3.Vec, s float64) uint64 {
	const bits, mask = 14, 1<<14 - 1
	cx := uint64(int64(math.Floor(x.X/s))) & mask
	cy := uint64(int64(math.Floor(x.Y/s))) & mask
	cz := uint64(int64(math.Floor(x.Z/s))) & mask
	key := uint64(pr.Body)&(1<<20-1)<<1 | uint64(pr.Kind&1)
	return key<<(3*bits) | cx<<(2*bits) | cy<<bits | cz
}

// canClose reports whether pair pr, found at the start of the step, can
// reach contact within it: its distance is at most alarmMargin times the
// relative motion of its soft point (h·v + h²·g, v mapped from the nodes)
// and of its rigid material point (from the body's start to its end pose),
// plus the contact distance.
func (c *step) canClose(pr *collide.Pair) bool {
	h := c.set.TimeStep
	var v r3.Vec
	for i := 0; i < pr.Count; i++ {
		v = r3.Add(v, r3.Scale(pr.Weights[i], c.model.surfacePoint(c.state.v, pr.Nodes[i])))
	}
	soft := r3.Add(r3.Scale(h, v), r3.Scale(h*h, c.set.Gravity))
	b := &c.bodies[pr.Body]
	rigid := r3.Sub(b.End.Apply(pr.RigidLocal), b.Start.Apply(pr.RigidLocal))
	rel := r3.Norm(r3.Sub(soft, rigid))
	return pr.Distance <= alarmMargin*rel+c.set.ContactDistance
}
