package physics

import (
	"fmt"

	"softgrasp/physics/m3"

	"softgrasp/physics/collide"
	"softgrasp/physics/contact"
	"softgrasp/physics/stage"
)

// standardScheme is the recursive corrective motion with the standard
// update of the constraint matrices (Algorithm 2): every iteration k
//
//	J_k = C_k·H_k,  W_k = J_k·A⁻¹·J_kᵀ                 (Rebuild W)
//	λ_k = PGS(δ_free(C_k) + h²·W_k·λ)                  (PGS)
//	x_k = A⁻¹·J_kᵀ·λ_k,  q_{k+1} = q_free + h²·x_k,
//	p_{k+1} = G(q_{k+1})                               (Corr.)
//
// and H_{k+1} is re-evaluated at q_{k+1}: rigid-vertex pairs re-find the
// closest point of their soft triangle (unless the mapping is frozen). W_k is
// computed the best known way, by sparse forward solves with the columns
// of J_kᵀ on the supernodal factor and a symmetric product, so that the
// comparison with the fast scheme is fair. Its steps factor A exactly
// (step.refactor), so J needs no change of frame, unless Newton on the
// whole residual warps the factor to the iterate within the step
// (linsolve.Solver.SetWarp): then W_k is built from the rows J_k·Q (the
// directions C_k·R, linsolve.Solver.FrameDirections) and x_k by the
// warped factor, as the fast scheme does.
type standardScheme struct {
	pgs contact.PGS
	qK  []float64 // q_k, 3N
	w32 []float32 // W_k in single precision for PGS (step.singleW)
}

// prepare sizes W and starts the iterations at q_free (timed with the
// Newton iterations: the standard scheme has no Build W_H).
func (sc *standardScheme) prepare(c *step) (stage.Stage, error) {
	ws := c.ws
	ct := &ws.ct
	n := len(ct.pairs)
	ct.W = grow(ct.W, 9*n*n)
	sc.pgs.MaxIterations, sc.pgs.Tolerance = c.set.PGSIterations, c.set.PGSTolerance
	sc.qK = grow(sc.qK, len(ws.qFree))
	copy(ct.p, ct.pFree)
	copy(sc.qK, ws.qFree)
	return stage.Newton, nil
}

// relinearise re-evaluates H at q_k (unless the mapping is frozen) and turns the
// normals at p_k.
func (sc *standardScheme) relinearise(c *step, reach float64) (float64, error) {
	if !c.freezeMapping {
		sc.refindMapping(c)
	}
	return c.relinearise(reach), nil
}

// rebuildW writes J_k = C_k·H and W_k = J_k·A⁻¹·J_kᵀ (with J_k·Q in
// place of J_k when the factor is warped).
func (sc *standardScheme) rebuildW(c *step) error {
	ct := &c.ws.ct
	ct.buildJ(c.model.DOFs(), c.solver.FrameDirections(ct.C))
	if err := c.solver.Compliance(&ct.J, ct.W); err != nil {
		return c.diverged(fmt.Sprintf("building W failed: %v", err))
	}
	c.addRigidW(ct.W)
	return nil
}

// solvePGS solves the contact problem on W_k, read in single precision
// where the compliance products are (step.singleW; never because of the
// asynchronous solver alone, whose standard steps factor exactly).
func (sc *standardScheme) solvePGS(c *step, h2, tol float64) (contact.Result, error) {
	ct := &c.ws.ct
	n := len(ct.pairs)
	sc.pgs.Tolerance, sc.pgs.Bilateral = tol, ct.bilateral
	if c.singleW(n, false) {
		sc.w32 = grow(sc.w32, 9*n*n)
		if err := contact.NarrowLower(sc.w32, ct.W, n); err != nil {
			return contact.Result{}, err
		}
		return sc.pgs.SolveSingle(sc.w32, n, h2, ct.dFree, c.mu, ct.lambda)
	}
	return sc.pgs.Solve(ct.W, n, h2, ct.dFree, c.mu, ct.lambda)
}

// correct applies the full corrective motion of iteration k:
// x = A⁻¹·J_kᵀ·λ_k, q_{k+1} = q_free + h²·x, p_{k+1} = H·q_{k+1}. The x of
// the last iteration is the final corrective motion's.
func (sc *standardScheme) correct(c *step, h2 float64) error {
	ws := c.ws
	ct := &ws.ct
	if _, warped := c.solver.Warp(); warped {
		// J holds the warped rows: the force is Hᵀ·Cᵀ·λ, solved by the
		// warped factor.
		ct.applyCt(ct.force)
		ct.H.MulVecT(ws.rhs, ct.force)
		if err := c.solver.FactorSolve(ws.x, ws.rhs); err != nil {
			return c.diverged(fmt.Sprintf("corrective solve failed: %v", err))
		}
	} else {
		ct.J.MulVecT(ws.rhs, ct.lambda)
		if err := c.solve(ws.x, ws.rhs); err != nil {
			return c.diverged(fmt.Sprintf("corrective solve failed: %v", err))
		}
	}
	for i := range sc.qK {
		sc.qK[i] = ws.qFree[i] + h2*ws.x[i]
	}
	ct.positions(ct.p, sc.qK)
	c.shiftRigid(ct.p, h2)
	return nil
}

// states returns the contact states of the last PGS.
func (sc *standardScheme) states(*step) []contact.State { return sc.pgs.States }

// finish has nothing left to do: x is the last correction's.
func (sc *standardScheme) finish(*step) error { return nil }

// buildJ writes J = C·H for a body of dofs degrees of freedom and the
// directions C (ct.C, or those frames in the factor's frame): the row
// (a, d) of J is C_a's row d times pair a's block of H, non-zero at the
// pair's nodes only (at most 3·collide.MaxNodes entries).
func (ct *contactState) buildJ(dofs int, C []m3.Mat3) {
	ct.J.Reset(3*len(ct.pairs), dofs)
	var cols [3 * collide.MaxNodes]int
	var vals [3 * collide.MaxNodes]float64
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		for d := 0; d < 3; d++ {
			dir := C[a].Row(d)
			m := 0
			for i := 0; i < pr.Count; i++ {
				w, base := pr.Weights[i], 3*pr.Nodes[i]
				cols[m], cols[m+1], cols[m+2] = base, base+1, base+2
				vals[m], vals[m+1], vals[m+2] = w*dir.X, w*dir.Y, w*dir.Z
				m += 3
			}
			ct.J.Append(cols[:m], vals[:m])
		}
	}
}

// refindMapping re-evaluates G at q_k: each rigid-vertex pair moves its
// soft point to the point of its triangle closest to the rigid vertex at
// the end pose, which changes its barycentric weights, hence H, p_t,
// p_free and p. On a mapped surface the triangle's corners are G(q_k) and
// the new weights are spread onto the nodes again.
func (sc *standardScheme) refindMapping(c *step) {
	ws := c.ws
	ct := &ws.ct
	m := c.model
	changed := false
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		if !pr.Kind.Info().OnTriangle {
			continue
		}
		tri := m.surf.Tris[pr.Tri]
		_, w := collide.ClosestOnTriangle(ct.rEnd[a], m.surfacePoint(sc.qK, tri[0]), m.surfacePoint(sc.qK, tri[1]), m.surfacePoint(sc.qK, tri[2]))
		before := *pr
		pr.Count = 3
		copy(pr.Nodes[:3], tri[:])
		copy(pr.Weights[:3], w[:])
		pr.Bary = w
		m.mapPair(pr)
		if c.attach != nil && !c.attach.splitFixed(pr, &ct.fix[a]) {
			// The point moved onto attached nodes only: it would have no
			// compliance; it keeps its place on the triangle.
			*pr = before
			c.attach.splitFixed(pr, &ct.fix[a])
		}
		changed = true
	}
	if !changed {
		return
	}
	ct.buildH(c.model.DOFs())
	ct.positions(ct.pT, c.state.q)
	ct.positions(ct.pFree, ws.qFree)
	ct.positions(ct.p, sc.qK)
	h := c.set.TimeStep
	c.shiftRigid(ct.p, h*h)
}
