package physics

import (
	"fmt"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
)

// newtonStandard runs the recursive corrective motion with the standard
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
// comparison with the fast scheme is fair.
func (s *Simulation) newtonStandard(sw *stopwatch) error {
	c := len(s.pairs)
	s.W = grow(s.W, 9*c*c)
	s.pgs.MaxIterations, s.pgs.Tolerance = s.set.PGSIterations, s.set.PGSTolerance
	h2 := s.set.TimeStep * s.set.TimeStep
	copy(s.p, s.pFree)
	copy(s.qK, s.qFree)
	for k := 0; k < s.set.NewtonIterations; k++ {
		var rec NewtonRecord
		if k > 0 {
			triPos := s.qK
			if s.set.FreezeMapping {
				triPos = nil // as the fast scheme: no re-evaluation of G
			} else {
				s.refindMapping()
			}
			rec.DirectionChange = s.relinearise(triPos)
			if s.set.NewtonTolerance > 0 && rec.DirectionChange <= s.set.NewtonTolerance {
				s.stats.Converged = true
				break
			}
			s.acceptLinearisation()
		}
		s.gaps()
		t := time.Now()
		s.buildJ()
		if err := s.lin.Compliance(&s.J, s.W); err != nil {
			return s.diverged(fmt.Sprintf("building W failed: %v", err))
		}
		rec.RebuildW = time.Since(t)
		t = time.Now()
		res, err := s.pgs.Solve(s.W, c, h2, s.dFree, s.set.Friction, s.lambda)
		if err != nil {
			return s.diverged(fmt.Sprintf("contact solve failed: %v", err))
		}
		rec.PGS = time.Since(t)
		rec.PGSIterations, rec.PGSError = res.Iterations, res.Error
		t = time.Now()
		if err := s.correctQ(h2); err != nil {
			return err
		}
		rec.Corr = time.Since(t)
		rec.PositionChange = maxPointMove(s.p, s.pPrev)
		s.addNewton(rec)
	}
	s.states = s.pgs.States
	sw.lap(StageNewton)
	return nil
}

// buildJ writes J = C·H: the row (a, d) of J is C_a's row d times pair a's
// block of H, non-zero at the pair's nodes only (at most 9 entries). The
// standard scheme factors every A exactly (Simulation.refactor), so J needs
// no warp.
func (s *Simulation) buildJ() {
	s.J.Reset(3*len(s.pairs), len(s.q))
	var cols [9]int
	var vals [9]float64
	for a := range s.pairs {
		pr := &s.pairs[a]
		for d := 0; d < 3; d++ {
			dir := s.C[a].Row(d)
			m := 0
			for i := 0; i < pr.Count; i++ {
				w, base := pr.Weights[i], 3*pr.Nodes[i]
				cols[m], cols[m+1], cols[m+2] = base, base+1, base+2
				vals[m], vals[m+1], vals[m+2] = w*dir.X, w*dir.Y, w*dir.Z
				m += 3
			}
			s.J.Append(cols[:m], vals[:m])
		}
	}
}

// correctQ applies the full corrective motion of iteration k:
// x = A⁻¹·J_kᵀ·λ_k, q_{k+1} = q_free + h²·x, p_{k+1} = H·q_{k+1}.
func (s *Simulation) correctQ(h2 float64) error {
	s.J.MulVecT(s.rhs, s.lambda)
	if err := s.solve(s.x, s.rhs); err != nil {
		return s.diverged(fmt.Sprintf("corrective solve failed: %v", err))
	}
	for i := range s.qK {
		s.qK[i] = s.qFree[i] + h2*s.x[i]
	}
	copy(s.pPrev, s.p)
	s.H.MulVec(s.p, s.qK)
	return nil
}

// refindMapping re-evaluates G at q_k: each rigid-vertex pair moves its
// soft point to the point of its triangle closest to the rigid vertex at
// the end pose, which changes its barycentric weights, hence H, p_t,
// p_free and p.
func (s *Simulation) refindMapping() {
	changed := false
	for a := range s.pairs {
		pr := &s.pairs[a]
		if pr.Kind != collide.RigidVertex {
			continue
		}
		tri := s.surf.Tris[pr.Tri]
		_, w := collide.ClosestOnTriangle(s.rEnd[a], node(s.qK, tri[0]), node(s.qK, tri[1]), node(s.qK, tri[2]))
		pr.Weights = w
		changed = true
	}
	if !changed {
		return
	}
	s.buildH()
	s.H.MulVec(s.pT, s.q)
	s.H.MulVec(s.pFree, s.qFree)
	s.H.MulVec(s.p, s.qK)
}

// node returns node i of a flat position vector.
func node(q []float64, i int) r3.Vec {
	return r3.Vec{X: q[3*i], Y: q[3*i+1], Z: q[3*i+2]}
}
