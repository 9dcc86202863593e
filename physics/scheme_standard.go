package physics

import (
	"fmt"

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
// closest point of their soft triangle (unless FreezeMapping). W_k is
// computed the best known way, by sparse forward solves with the columns
// of J_kᵀ on the supernodal factor and a symmetric product, so that the
// comparison with the fast scheme is fair. Its steps factor A exactly
// (Simulation.refactor), so J needs no change of frame.
type standardScheme struct {
	sim *Simulation
	pgs contact.PGS
	qK  []float64 // q_k, 3N
}

// prepare sizes W and starts the iterations at q_free (timed with the
// Newton iterations: the standard scheme has no Build W_H).
func (st *standardScheme) prepare() (stage.Stage, error) {
	s, ct := st.sim, &st.sim.ct
	c := len(ct.pairs)
	ct.W = grow(ct.W, 9*c*c)
	st.pgs.MaxIterations, st.pgs.Tolerance = s.set.PGSIterations, s.set.PGSTolerance
	st.qK = grow(st.qK, len(s.qFree))
	copy(ct.p, ct.pFree)
	copy(st.qK, s.qFree)
	return stage.Newton, nil
}

// relinearise re-evaluates H at q_k (unless FreezeMapping) and turns the
// normals at p_k.
func (st *standardScheme) relinearise(reach float64) float64 {
	if !st.sim.set.FreezeMapping {
		st.refindMapping()
	}
	return st.sim.relinearise(reach)
}

// rebuildW writes J_k = C_k·H and W_k = J_k·A⁻¹·J_kᵀ.
func (st *standardScheme) rebuildW() error {
	s, ct := st.sim, &st.sim.ct
	ct.buildJ(len(s.q))
	if err := s.solver.Compliance(&ct.J, ct.W); err != nil {
		return s.diverged(fmt.Sprintf("building W failed: %v", err))
	}
	return nil
}

// solvePGS solves the contact problem on W_k.
func (st *standardScheme) solvePGS(h2, mu float64) (contact.Result, error) {
	ct := &st.sim.ct
	return st.pgs.Solve(ct.W, len(ct.pairs), h2, ct.dFree, mu, ct.lambda)
}

// correct applies the full corrective motion of iteration k:
// x = A⁻¹·J_kᵀ·λ_k, q_{k+1} = q_free + h²·x, p_{k+1} = H·q_{k+1}. The x of
// the last iteration is the final corrective motion's.
func (st *standardScheme) correct(h2 float64) error {
	s, ct := st.sim, &st.sim.ct
	ct.J.MulVecT(s.rhs, ct.lambda)
	if err := s.solve(s.x, s.rhs); err != nil {
		return s.diverged(fmt.Sprintf("corrective solve failed: %v", err))
	}
	for i := range st.qK {
		st.qK[i] = s.qFree[i] + h2*s.x[i]
	}
	ct.H.MulVec(ct.p, st.qK)
	return nil
}

// states returns the contact states of the last PGS.
func (st *standardScheme) states() []contact.State { return st.pgs.States }

// finish has nothing left to do: x is the last correction's.
func (st *standardScheme) finish() error { return nil }

// buildJ writes J = C·H for a body of dofs degrees of freedom: the row
// (a, d) of J is C_a's row d times pair a's block of H, non-zero at the
// pair's nodes only (at most 9 entries).
func (ct *contactState) buildJ(dofs int) {
	ct.J.Reset(3*len(ct.pairs), dofs)
	var cols [9]int
	var vals [9]float64
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		for d := 0; d < 3; d++ {
			dir := ct.C[a].Row(d)
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
// p_free and p.
func (st *standardScheme) refindMapping() {
	s, ct := st.sim, &st.sim.ct
	changed := false
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		if pr.Kind != collide.RigidVertex {
			continue
		}
		tri := s.surf.Tris[pr.Tri]
		_, w := collide.ClosestOnTriangle(ct.rEnd[a], point(st.qK, tri[0]), point(st.qK, tri[1]), point(st.qK, tri[2]))
		pr.Weights = w
		changed = true
	}
	if !changed {
		return
	}
	ct.buildH(len(s.q))
	ct.H.MulVec(ct.pT, s.q)
	ct.H.MulVec(ct.pFree, s.qFree)
	ct.H.MulVec(ct.p, st.qK)
}
