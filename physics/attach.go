package physics

import (
	"fmt"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/sparse"
)

// Attachments (docs/method.md, "Attachments"): soft nodes held to the
// world or to a kinematic rigid body, whose motion they then follow, as
// an organ is held by its ligaments or a soft fingertip by its finger.
//
// An attached node's velocity is prescribed: v_{t+h} = (x_{t+h} − q_t)/h
// with x_{t+h} its place at the end of the step (fixed in the world, or
// carried by the body's end pose). The step's system A·Δv = b keeps the
// prescribed Δv at those DOFs: their rows and columns of A are cleared
// but for the diagonal, b there is A_ii·Δv_i, and the free rows take the
// prescribed motion's coupling to the right-hand side (b_r −= A_rc·Δv_c).
// A⁻¹ then leaves the attached DOFs apart from the others, and a contact
// force spread onto an attached node moves nothing: the pairs' weights at
// attached nodes are kept out of H (the compliance and the corrective
// motion) and held apart per pair (fixedPart, the rows of Hfix), which
// only places the proximity points (p = H·q + Hfix·q). A pair all of whose weight lies on attached nodes
// cannot move and is dropped.
//
// A node attached to a dynamic body cannot be prescribed: the body's motion
// is not known before the contact problem is solved. Such a node stays
// free and is held to the body's material point by a bilateral pair
// (collide.Attached, made each step by heldPairs): three rows along the
// world axes, gap δ = p − r, whose force PGS solves as an equality and
// which, like a contact, couples the body's compliance K into W (Eq. 16)
// and moves the body by −λ. A contact pair between that body and soft
// points all on nodes held to it is dropped.

// Attachment holds soft mesh nodes in place.
type Attachment struct {
	// Nodes are mesh nodes (indices into the mesh's nodes).
	Nodes []int
	// Body is the rigid body the nodes follow (an index into the
	// simulation's bodies), or −1 for the world.
	Body int
}

// attachments are a simulation's attached nodes, ready for the steps.
type attachments struct {
	fixed []bool   // per mesh node
	nodes []int    // the attached nodes
	body  []int    // per attached node: its body, −1 for the world
	local []r3.Vec // per attached node: its place in its body's frame (the world's for −1)
	// entries are the positions in A's values of the entries in an
	// attached DOF's row or column (A's pattern does not change).
	entries []fixedEntry
	dv      []float64 // the prescribed Δv at each attached DOF, 3N
	// held lists the nodes attached to a dynamic body (bilateral pairs),
	// and heldTo gives each mesh node's body, −1 for none.
	held   []heldNode
	heldTo []int
	list   []Attachment // as given, for SetDynamic to sort them again
}

// heldNode is a node held to a dynamic body's material point local (in
// the body's frame).
type heldNode struct {
	node, body int
	local      r3.Vec
}

// fixedEntry is an entry (row, col) of A's lower triangle at Val[pos].
type fixedEntry struct{ pos, row, col int }

// SetAttachments attaches the given nodes from now on, each where it is
// now: to the world, or to its body at the body's current end pose (the
// pose the next step starts from). An empty list detaches every node. A
// node index out of range, a body that does not exist or a node attached
// twice is an error, and the attachments stay as they were.
func (s *Simulation) SetAttachments(list []Attachment) error {
	nNodes := s.model.DOFs() / 3
	at := &attachments{fixed: make([]bool, nNodes), dv: make([]float64, s.model.DOFs()), heldTo: make([]int, nNodes)}
	for i := range at.heldTo {
		at.heldTo[i] = -1
	}
	for k, a := range list {
		if a.Body < -1 || a.Body >= len(s.bodies) {
			return fmt.Errorf("attachment %d: body %d does not exist (%d bodies; −1 is the world)", k, a.Body, len(s.bodies))
		}
		dynamic := a.Body >= 0 && a.Body < len(s.dyn) && s.dyn[a.Body] != nil
		for _, n := range a.Nodes {
			if n < 0 || n >= nNodes {
				return fmt.Errorf("attachment %d: node %d is not a mesh node (0…%d)", k, n, nNodes-1)
			}
			if at.fixed[n] || at.heldTo[n] >= 0 {
				return fmt.Errorf("attachment %d: node %d is attached twice", k, n)
			}
			x := point(s.state.q, n)
			if a.Body >= 0 {
				x = s.bodies[a.Body].End.ApplyInverse(x)
			}
			if dynamic {
				at.heldTo[n] = a.Body
				at.held = append(at.held, heldNode{node: n, body: a.Body, local: x})
				continue
			}
			at.fixed[n] = true
			at.nodes, at.body, at.local = append(at.nodes, n), append(at.body, a.Body), append(at.local, x)
		}
	}
	if len(at.nodes) == 0 && len(at.held) == 0 {
		s.attach = nil
		return nil
	}
	at.list = append([]Attachment(nil), list...)
	A := s.solver.Matrix()
	for j := 0; j < A.N; j++ {
		for p := A.ColPtr[j]; p < A.ColPtr[j+1]; p++ {
			if i := A.RowIdx[p]; at.fixed[i/3] || at.fixed[j/3] {
				at.entries = append(at.entries, fixedEntry{pos: p, row: i, col: j})
			}
		}
	}
	s.attach = at
	return nil
}

// Attached reports whether mesh node n is attached (prescribed, or held
// to a dynamic body).
func (s *Simulation) Attached(n int) bool {
	return s.attach != nil && n >= 0 && n < len(s.attach.fixed) && (s.attach.fixed[n] || s.attach.heldTo[n] >= 0)
}

// heldPairs appends one bilateral pair per node held to a dynamic body
// (collide.Attached), after detection, the contact budget, the mapping and
// splitPairs (which dropped the contacts on held nodes only): they are
// never thinned. It marks the bilateral pairs for PGS
// (contactState.bilateral; empty when there are none).
func (c *step) heldPairs() {
	at, ct := c.attach, &c.ws.ct
	ct.bilateral = ct.bilateral[:0]
	if at == nil || len(at.held) == 0 {
		return
	}
	for _, hn := range at.held {
		pr := collide.Pair{Kind: collide.Attached, Body: hn.body, Count: 1, Point: -1, Tri: -1, Vertex: -1,
			Other: -1, RigidLocal: hn.local, Normal: r3.Vec{X: 1}}
		pr.Nodes[0], pr.Weights[0] = hn.node, 1
		ct.pairs = append(ct.pairs, pr)
		ct.fix = append(ct.fix, fixedPart{}) // splitPairs sized it to the pairs
	}
	ct.bilateral = grow(ct.bilateral, len(ct.pairs))
	for a := range ct.pairs {
		ct.bilateral[a] = ct.pairs[a].Kind.Info().Bilateral
	}
}

// heldOnly reports whether pair pr is a contact with a rigid body all of
// whose weight (what splitFixed left of it) lies on nodes held to that
// body: such a pair is dropped (soft–soft pairs have no body, Body −1;
// rigid–rigid ones no soft node).
func (at *attachments) heldOnly(pr *collide.Pair) bool {
	return pr.Body >= 0 && !pr.Kind.Info().BetweenRigid && len(at.held) > 0 && at.allHeldTo(pr, pr.Body)
}

// allHeldTo reports whether every node that carries weight in pair pr is
// held to body b.
func (at *attachments) allHeldTo(pr *collide.Pair, b int) bool {
	some := false
	for i := 0; i < pr.Count; i++ {
		if pr.Weights[i] == 0 {
			continue
		}
		if at.heldTo[pr.Nodes[i]] != b {
			return false
		}
		some = true
	}
	return some
}

// holdAttached prescribes the attached nodes' motion in the step's system
// A·Δv = b (attach.go), after assembly.
func (c *step) holdAttached() {
	at := c.attach
	if at == nil {
		return
	}
	q, v, h := c.state.q, c.state.v, c.set.TimeStep
	for k, n := range at.nodes {
		x := at.local[k]
		if b := at.body[k]; b >= 0 {
			x = c.bodies[b].End.Apply(x)
		}
		for d, xd := range [3]float64{x.X, x.Y, x.Z} {
			i := 3*n + d
			at.dv[i] = (xd-q[i])/h - v[i]
		}
	}
	A, b := c.solver.Matrix(), c.ws.b
	clearAttached(A, b, at)
}

// clearAttached clears the attached DOFs' rows and columns of A but for
// their diagonal, sets b = A_ii·Δv_i at them and moves the coupling of the
// free rows to the prescribed Δv into b.
func clearAttached(A *sparse.SymCSC, b []float64, at *attachments) {
	for _, e := range at.entries {
		a := A.Val[e.pos]
		fr, fc := at.fixed[e.row/3], at.fixed[e.col/3]
		switch {
		case e.row == e.col:
			b[e.row] = a * at.dv[e.row]
			continue
		case fr && fc:
		case fc:
			b[e.row] -= a * at.dv[e.col]
		default: // the row is attached, the column free
			b[e.col] -= a * at.dv[e.row]
		}
		A.Val[e.pos] = 0
	}
}

// prescribe writes the attached DOFs' exact values into a solution of
// the step's system: the prescribed Δv into the free motion (free), zero
// into a corrective motion. The solves give them only to the tolerance
// of the asynchronous solver's conjugate gradient.
func (c *step) prescribe(x []float64, free bool) {
	at := c.attach
	if at == nil {
		return
	}
	for _, n := range at.nodes {
		for i := 3 * n; i < 3*n+3; i++ {
			if free {
				x[i] = at.dv[i]
			} else {
				x[i] = 0
			}
		}
	}
}

// fixedPart is the share of a pair's soft point carried by attached nodes
// (attach.go): their nodes and weights, which H leaves out.
type fixedPart struct {
	count   int
	nodes   [collide.MaxNodes]int
	weights [collide.MaxNodes]float64
}

// splitFixed moves the weights of pair pr's attached nodes into part,
// leaving zeros in pr.Weights, and reports whether the pair keeps any
// compliance: a weight left on a free node, or no soft node at all (a
// rigid–rigid pair, whose compliance is the dynamic body's).
func (at *attachments) splitFixed(pr *collide.Pair, part *fixedPart) bool {
	part.count = 0
	free := false
	for i := 0; i < pr.Count; i++ {
		if w := pr.Weights[i]; at.fixed[pr.Nodes[i]] {
			part.nodes[part.count], part.weights[part.count] = pr.Nodes[i], w
			part.count++
			pr.Weights[i] = 0
		} else if w != 0 {
			free = true
		}
	}
	return free || pr.Count == 0
}

// splitPairs splits every pair's attached weights (splitFixed) and drops
// the pairs left without a free node, and the contacts left on nodes held
// to their body only (heldOnly), keeping the order (and the rigid–rigid
// pairs, which have no soft node).
func (c *step) splitPairs() {
	at, ct := c.attach, &c.ws.ct
	if at == nil {
		ct.fix = ct.fix[:0]
		return
	}
	ct.fix = grow(ct.fix, len(ct.pairs))
	kept := 0
	for a := range ct.pairs {
		if at.splitFixed(&ct.pairs[a], &ct.fix[kept]) && !at.heldOnly(&ct.pairs[a]) {
			ct.pairs[kept] = ct.pairs[a]
			kept++
		}
	}
	ct.pairs, ct.fix = ct.pairs[:kept], ct.fix[:kept]
}
