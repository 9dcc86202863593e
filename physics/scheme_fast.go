package physics

import (
	"fmt"

	"softgrasp/physics/contact"
	"softgrasp/physics/m3"
	"softgrasp/physics/stage"
)

// fastScheme is the recursive corrective motion with the fast update of
// the constraint matrices (Algorithm 3). With the mapping H and A held
// over the step (Eq. schur reformulated),
//
//	W_H = H·A⁻¹·Hᵀ                          once per step (prepare)
//	W_k = C_k·W_H·C_kᵀ                      per iteration (Rebuild W)
//	λ_k = PGS(δ_free(C_k) + h²·W_k·λ)       per iteration
//	p_{k+1} = p_free + h²·W_H·C_kᵀ·λ_k      per iteration (Corr.)
//
// the last line being Eq. recursive motion correction 7 in the total-force
// form of METHOD.md. The per-iteration work runs on the Backend.
//
// W_H comes from the linear solver's factor in that factor's frame
// (linsolve.Solver.PairCompliance), so the directions given to the
// backend are C_k in that frame too (FrameDirections).
//
// Glossary: h time step, H mapping Jacobian, C_k direction frames, W_H
// mapping compliance, W compliance (Delassus), λ constraint forces, p
// proximity positions.
type fastScheme struct {
	sim     *Simulation
	backend Backend
	C       []m3.Mat3 // C_k as given to the backend (in the factor's frame)
}

// prepare builds W_H and loads it on the backend (Build W_H).
func (f *fastScheme) prepare() (stage.Stage, error) {
	s, ct := f.sim, &f.sim.ct
	c := len(ct.pairs)
	ct.WH = grow(ct.WH, 9*c*c)
	if err := s.solver.PairCompliance(ct.WH, ct.pairs, &ct.H); err != nil {
		return stage.BuildWH, s.diverged(fmt.Sprintf("building W_H failed: %v", err))
	}
	if err := f.backend.Load(ct.WH, c, s.set.PGSIterations, s.set.PGSTolerance); err != nil {
		return stage.BuildWH, fmt.Errorf("backend %s: %w", f.backend.Name(), err)
	}
	copy(ct.p, ct.pFree)
	return stage.BuildWH, nil
}

// relinearise turns the normals at p_k; the fast scheme has no q_k, so
// rigid-vertex pairs turn theirs with the rigid body (Simulation.relinearise).
func (f *fastScheme) relinearise(reach float64) float64 { return f.sim.relinearise(reach) }

// rebuildW computes W_k = C_k·W_H·C_kᵀ on the backend.
func (f *fastScheme) rebuildW() error {
	f.C = f.sim.solver.FrameDirections(f.sim.ct.C)
	return f.backend.RebuildW(f.C)
}

// solvePGS solves the contact problem on the backend's W_k.
func (f *fastScheme) solvePGS(h2, mu float64) (contact.Result, error) {
	ct := &f.sim.ct
	return f.backend.SolvePGS(ct.dFree, h2, mu, ct.lambda)
}

// correct moves the proximity points, p = p_free + h²·W_H·C_kᵀλ_k, with
// W_H and C_k in the factor's frame (linsolve.Solver.PointsToFactor).
func (f *fastScheme) correct(h2 float64) error {
	ct, solver := &f.sim.ct, f.sim.solver
	if err := f.backend.CorrectP(ct.p, solver.PointsToFactor(ct.pFree), f.C, ct.lambda, h2); err != nil {
		return err
	}
	solver.PointsFromFactor(ct.p)
	return nil
}

// states returns the backend's contact states.
func (f *fastScheme) states() []contact.State { return f.backend.States() }

// finish computes x = A⁻¹·Hᵀ·C_Kᵀ·λ_K, the one corrective solve of the
// fast scheme, so that Δv = Δv_free + h·x. A⁻¹ is the operator W_H was
// built with (linsolve.Solver.FactorSolve): then H·x = W_H·Cᵀλ exactly,
// and the proximity points end where the contact solver put them,
// p = p_free + h²·W_H·Cᵀλ. With the asynchronous solver's older factor,
// correcting with the true A instead would move them by
// H·(A⁻¹ − Q·P⁻¹·Qᵀ)·Hᵀ·Cᵀλ away from the solved contact state, an error
// that grows with the factor's age (README, "Solvers"). The free motion
// keeps the true A.
func (f *fastScheme) finish() error {
	s, ct := f.sim, &f.sim.ct
	y := ct.pPrev // 3c scratch: the pairs' forces in world axes
	ct.applyCt(y)
	ct.H.MulVecT(s.rhs, y)
	if err := s.solver.FactorSolve(s.x, s.rhs); err != nil {
		return s.diverged(fmt.Sprintf("final corrective solve failed: %v", err))
	}
	return nil
}
