package physics

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
)

// The contact budget (docs/method.md, "Contact budget"): on a surface
// mapped onto the mesh, the pairs a step finds follow the surface's detail,
// and so do the c×c products and PGS; the budget keeps c within
// Settings.ContactBudget whatever that detail.

// budgetScratch is the selection's scratch: the depth of each pair for
// the choice, an open-addressing table from a group's key to its deepest
// pair, and the representatives. It grows with the pairs and is reused,
// so that a warm step allocates nothing.
type budgetScratch struct {
	key        []uint64  // each pair's group (groupKey)
	depth      []float64 // each pair's depth for the choice (Distance, less a preference)
	slotKey    []uint64
	slotPair   []int32 // index of the group's deepest pair + 1; 0: empty
	slotSecond []int32 // index of its second deepest + 1 (soft-vertex groups); 0: none
	rank       []uint8 // per pair: 0 its group's deepest, 1 the second
	reps       []int32 // the groups' deepest pairs
	keep       []bool
	quota      []int // representatives each body may keep (share)
	// node is each pair's heaviest mesh node (heaviestNode; −1: none), and
	// covered[body·nodes + node] == stamp marks a node already covered
	// by a kept representative of that body in this selection; skipped
	// are the representatives passed over for it.
	node    []int32
	covered []uint32
	stamp   uint32
	skipped []int32
}

// heaviestNode returns the mesh node that carries the largest weight of a
// surface point mapped onto the mesh: the node its pair mostly holds.
func heaviestNode(w *mesh.NodeWeights) int32 {
	best := 0
	for i := 1; i < w.Count; i++ {
		if w.Weights[i] > w.Weights[best] {
			best = i
		}
	}
	return int32(w.Nodes[best])
}

// share sets the quota of representatives of each body (the bodies of the
// representatives in reps) so that they sum to budget (fewer than the
// representatives): every body may keep min(its representatives, L), L
// the largest level that fits, and the bodies still above L get the units
// left over one each, in body order. A resting contact with many groups
// (the floor under a long object) thus cannot take the jaws' share.
func (b *budgetScratch) share(pairs []collide.Pair, budget int) {
	clear(b.quota)
	for _, a := range b.reps {
		body := quotaSlot(&pairs[a])
		for len(b.quota) <= body {
			b.quota = append(b.quota, 0)
		}
		b.quota[body]++
	}
	level, used := 0, 0
	for { // raise the level while every body below it still fits
		next := 0
		for _, n := range b.quota {
			next += min(n, level+1)
		}
		if next > budget || next == used {
			break
		}
		level, used = level+1, next
	}
	left := budget - used
	for body, n := range b.quota {
		b.quota[body] = min(n, level)
		if n > level && left > 0 {
			b.quota[body]++
			left--
		}
	}
}

// quotaSlot is the place of a pair's body among the quotas: the rigid
// bodies after slot 0, which holds the soft–soft pairs between the soft
// body's parts.
func quotaSlot(pr *collide.Pair) int { return pr.Body + 1 }

// groupKey packs a pair's group: its body (20 bits), its kind (1 bit) and
// 32 bits naming what it stands for. A soft-vertex pair stands for its
// surface point's support (the group of surface points mapped onto the
// same mesh nodes, Model.support): those follow the surface's detail,
// and the deepest of a support meet the rigid surface first (each keeps
// two: selectDeepest).
// A rigid-vertex pair stands for its rigid sample alone (Vertex): the
// samples follow the rigid shape, not the soft surface, so they need no
// thinning by the surface's detail, and on a coarse soft surface, whose
// large triangles each meet many samples, grouping them by support kept
// one of a row of jaw-edge samples and let the others sink (docs/method.md,
// "Contact budget").
func (m *Model) groupKey(pr *collide.Pair) uint64 {
	id := uint32(pr.Vertex)
	if !pr.Kind.Info().OnTriangle { // SoftVertex, SoftSoft: by the soft point's support
		id = uint32(m.support[pr.Point])
	}
	key := uint64(pr.Body)&(1<<20-1)<<1 | uint64(pr.Kind&1)
	return key<<32 | uint64(id)
}

// applyBudget thins the step's pairs to ContactBudget on a surface mapped
// onto the mesh (selectDeepest over the groups of groupKey), before they
// are spread onto the nodes. A pair that pushed in the previous step (a
// warm start with λn > 0) counts as deeper by the contact distance, so
// that a group keeps its pair, and the force carried over, while the
// others are no deeper than the gap the contact law keeps. It records the
// pairs found and the groups they formed in the stats (Groups 0: every
// pair kept). The mesh's own boundary, a budget of 0 and a count within
// the budget keep every pair.
func (c *step) applyBudget() {
	ws := c.ws
	pairs := ws.ct.pairs
	// The pairs found: those kept, and the soft-vertex pairs the detector's
	// thinning left out.
	found := len(pairs)
	if ws.detection.thinning {
		found += ws.detection.thin.Dropped
	}
	ws.stats.Found, ws.stats.Groups = found, 0
	if !c.budgetBinds(found) {
		return
	}
	budget := c.set.ContactBudget
	// Pairs that cannot close within the step go first: their distance
	// exceeds alarmMargin times the relative motion of their two points
	// over the step (the rule of the alarm distance, pair by pair), plus
	// the contact distance. A pair that pushed in the previous step stays,
	// and counts as deeper by the contact distance in the selection; one
	// that closes by more than closingFloor over the step counts as deeper
	// by that motion (the points of a face landing fast meet the floor in
	// the order of their distance at the end of the step, not at its
	// start).
	b := &ws.detection.budget
	b.key = grow(b.key, len(pairs))
	b.depth = grow(b.depth, len(pairs))
	b.node = grow(b.node, len(pairs))
	kept := 0
	for a := range pairs {
		pr := &pairs[a]
		closing, reach := c.closing(pr)
		depth := pr.Distance
		if closing > closingFloor {
			depth -= closing
		}
		if w, ok := c.state.warm[pr.Key()]; ok && w.lambda[0] > 0 {
			depth -= c.set.ContactDistance
		} else if pr.Distance > alarmMargin*reach+c.set.ContactDistance {
			continue
		}
		b.key[kept], b.depth[kept] = c.model.groupKey(pr), depth
		b.node[kept] = -1
		if pr.Kind.Info().SurfacePoint && c.model.emb != nil {
			b.node[kept] = heaviestNode(&c.model.emb.Points[pr.Point])
		}
		pairs[kept] = *pr
		kept++
	}
	pairs = pairs[:kept]
	ws.ct.pairs = pairs
	if len(pairs) <= budget {
		return
	}
	nodes := len(c.state.q) / 3
	if need := nodes * (len(c.bodies) + 1); len(b.covered) < need { // every quota slot (quotaSlot)
		b.covered = make([]uint32, need)
	}
	ws.ct.pairs, ws.stats.Groups = b.selectDeepest(pairs, b.key[:kept], b.depth[:kept], budget, c.set.ContactDistance, nodes)
}

// budgetBinds reports whether the contact budget thins a step that found
// found pairs: on a mapped surface, with a budget, above it. Only then
// does applyBudget drop the pairs that cannot close within the step.
func (c *step) budgetBinds(found int) bool {
	return c.model.emb != nil && c.set.ContactBudget > 0 && found > c.set.ContactBudget
}

// selectDeepest keeps at most budget of pairs (budget ≥ 1), in place and
// in their order, and returns them with the number of groups they formed.
// Pair a belongs to group key[a] and has depth depth[a] (its Distance,
// less a preference); each group keeps its deepest pair (smallest depth;
// the first on ties) and, a group of soft-vertex pairs, its second
// deepest too (pointsPerSupport, the pairs detection kept of a support).
// When those representatives outnumber the budget, every group's deepest
// comes before any group's second, and within each rank the deepest stay
// (ties to the first pair), the budget shared among the bodies.
//
// Within a group the soft points follow the same nodes, affinely, so the
// deepest of them is the one that meets the rigid surface first; the
// groups left out are the farthest from contact.
//
// Over the budget, each body's representatives are first taken one per
// mesh node (node[a], the pair's heaviest node, among nodes mesh nodes;
// −1 or nodes 0: not counted; covered must hold nodes entries per quota
// slot, as applyBudget sizes it), deepest first, and only then the deepest
// of those left: when a whole face lands at once, far more supports than
// the budget, the pairs kept then hold every node of it rather than the
// deepest corner's elements twice over (docs/method.md, "Contact
// budget").
func (b *budgetScratch) selectDeepest(pairs []collide.Pair, key []uint64, depth []float64, budget int, penalty float64, nodes int) ([]collide.Pair, int) {
	b.size(len(pairs))
	clear(b.slotPair)
	clear(b.slotSecond)
	mask := uint64(len(b.slotPair) - 1)
	b.reps = b.reps[:0]
	for a := range pairs {
		i := (key[a] * 0x9E3779B97F4A7C15) >> 32 & mask
		for {
			sp := b.slotPair[i]
			if sp == 0 {
				b.slotKey[i], b.slotPair[i] = key[a], int32(a+1)
				b.reps = append(b.reps, int32(i))
				break
			}
			if b.slotKey[i] == key[a] {
				second := pairs[a].Kind.Info().SurfacePoint && pointsPerSupport > 1
				switch s2 := b.slotSecond[i]; {
				case depth[a] < depth[sp-1]:
					if second {
						b.slotSecond[i] = sp
					}
					b.slotPair[i] = int32(a + 1)
				case second && (s2 == 0 || depth[a] < depth[s2-1]):
					b.slotSecond[i] = int32(a + 1)
				}
				break
			}
			i = (i + 1) & mask
		}
	}
	groups := len(b.reps)
	b.rank = grow(b.rank, len(pairs))
	for k, slot := range b.reps { // slots → representative pairs, then the seconds
		b.reps[k] = b.slotPair[slot] - 1
		b.rank[b.reps[k]] = 0
		if s2 := b.slotSecond[slot]; s2 != 0 {
			b.reps = append(b.reps, s2-1)
			b.rank[s2-1] = 1
		}
	}
	if len(b.reps) > budget {
		b.share(pairs, budget)
		// A group's second counts as shallower by the penalty.
		at := func(a int32) float64 { return depth[a] + float64(b.rank[a])*penalty }
		slices.SortFunc(b.reps, func(x, y int32) int {
			if c := cmp.Compare(at(x), at(y)); c != 0 {
				return c
			}
			return cmp.Compare(x, y)
		})
		// First the representatives that cover a mesh node no deeper
		// representative of their body covers yet, then the others, each
		// pass deepest first.
		b.stamp++
		b.skipped = b.skipped[:0]
		kept := 0
		for _, a := range b.reps {
			body := quotaSlot(&pairs[a])
			if b.quota[body] == 0 {
				continue
			}
			if nodes > 0 && b.node[a] >= 0 {
				at := body*nodes + int(b.node[a])
				if b.covered[at] == b.stamp {
					b.skipped = append(b.skipped, a)
					continue
				}
				b.covered[at] = b.stamp
			}
			b.quota[body]--
			b.reps[kept] = a
			kept++
		}
		for _, a := range b.skipped {
			if body := quotaSlot(&pairs[a]); b.quota[body] > 0 {
				b.quota[body]--
				b.reps[kept] = a
				kept++
			}
		}
		b.reps = b.reps[:kept]
	}
	keep := b.keep[:len(pairs)]
	clear(keep)
	for _, a := range b.reps {
		keep[a] = true
	}
	kept := 0
	for a := range pairs {
		if keep[a] {
			pairs[kept] = pairs[a]
			kept++
		}
	}
	return pairs[:kept], groups
}

// size makes room for c pairs: a table of a power of two slots, at least
// twice c.
func (b *budgetScratch) size(c int) {
	n := 16
	for n < 2*c {
		n *= 2
	}
	if len(b.slotKey) < n {
		b.slotKey = make([]uint64, n)
		b.slotPair = make([]int32, n)
		b.slotSecond = make([]int32, n)
	}
	b.keep = grow(b.keep, c)
	if cap(b.reps) < c {
		b.reps = make([]int32, 0, c)
		b.skipped = make([]int32, 0, c)
	}
}

// towardBody returns the part of gravity's one-step fall gh2 that drives a
// point towards a body whose outward normal there is n: its component
// along −n, zero when it points away or along the surface. A point held
// beside a jaw does not fall into it, while one over the floor does
// (docs/method.md, "Contact budget", "Gravity along the normal"). The
// budget's reach and, with AlarmFallMargin below 1.5, the alarm
// (stepAlarm) use it.
func towardBody(n, gh2 r3.Vec) r3.Vec {
	if g := r3.Dot(n, gh2); g < 0 {
		return r3.Scale(g, n)
	}
	return r3.Vec{}
}

// closingFloor is the least closing motion over a step that makes a pair
// count as deeper by it in the selection, m: ten contact distances, a
// closing speed of 10 mm/s at h = 10 ms. Below it, the motion of points
// resting in contact (micrometres, noise) would reorder them from step to
// step, and a new representative starts from a zero force.
const closingFloor = 1e-4

// unforeseenFall is the fraction of gravity's one-step fall that the
// budget's reach counts, with FallLastStep, beyond the fall the
// body's last velocity change predicts: what a step may change of its
// motion unforeseen (a squeeze pressing a body into the floor, a grip
// let go). At h = 10 ms it is 0.1 mm, the closing motion the selection
// already counts as noise (closingFloor).
const unforeseenFall = 0.1

// closing returns how far pair pr, found at the start of the step, closes
// over it and its reach (pairMotion.closing) from the step's state.
func (c *step) closing(pr *collide.Pair) (closing, reach float64) {
	pm := pairMotion{h: c.set.TimeStep, gravity: c.set.Gravity, v: c.state.v, model: c.model, bodies: c.bodies}
	if c.hasLastStep() {
		pm.dvLast = c.state.dvLast
	}
	return pm.closing(pr)
}

// pairMotion is what a pair's motion over a step is predicted from: the
// step's h and gravity, the node velocities v and their change over the
// last step dvLast (nil without a last step), the bodies at their start
// and end poses. The step reads its own state; the solver's worker, its
// copies (nearJob).
type pairMotion struct {
	h       float64
	gravity r3.Vec
	v       []float64
	dvLast  []float64
	model   *Model
	bodies  []rigid.Body
}

// closing returns how far pair pr, found at the start of the step, closes
// over it (the relative motion of its soft point, h·v with v mapped from
// the nodes, and of its rigid material point, from the body's start to
// its end pose, along the normal; 0 when they separate) and reach, the
// length of that relative motion with a fall's part that points against
// the normal (towardBody): a pair can reach contact within the step when
// its distance is at most alarmMargin·reach plus the contact distance.
// The fall counts only where it drives the point towards the body (a
// face over the floor), not where it slides it along the body (the sides
// of an object held between jaws, whose support cancels it):
// docs/method.md, "Contact budget", "Gravity along the normal". It is the
// soft point's own velocity change of the last step times h (h²·g in free
// fall, about nothing for a body at rest on the floor) and unforeseenFall
// of h²·g: "The fall the reach counts". A state without a last step (the
// first, one set by SetState) counts the whole fall.
func (pm *pairMotion) closing(pr *collide.Pair) (closing, reach float64) {
	h := pm.h
	// A soft–soft pair's weights already make v the relative velocity.
	v := pm.atPair(pm.v, pr)
	var rigid r3.Vec
	if pr.Body >= 0 {
		b := &pm.bodies[pr.Body]
		rigid = r3.Sub(b.End.Apply(pr.RigidLocal), b.Start.Apply(pr.RigidLocal))
	}
	move := r3.Sub(r3.Scale(h, v), rigid)
	fall := r3.Scale(h*h, pm.gravity)
	if pm.dvLast != nil {
		fall = fallAt(h, pm.atPair(pm.dvLast, pr), fall)
	}
	reach = r3.Norm(r3.Add(move, towardBody(pr.Normal, fall)))
	return math.Max(0, -r3.Dot(pr.Normal, move)), reach
}

// atPair returns the weighted sum of the per-node field x (3 per mesh
// node: a velocity, a velocity change) over pair pr's surface points,
// found before the pair is spread onto the nodes: Σ_i w_i·G_i(x).
func (pm *pairMotion) atPair(x []float64, pr *collide.Pair) r3.Vec {
	var s r3.Vec
	for i := 0; i < pr.Count; i++ {
		s = r3.Add(s, r3.Scale(pr.Weights[i], pm.model.surfacePoint(x, pr.Nodes[i])))
	}
	return s
}
