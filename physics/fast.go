package physics

import (
	"fmt"
	"time"

	"softgrasp/physics/m3"
)

// newtonFast runs the recursive corrective motion with the fast update of
// the constraint matrices (Algorithm 3). With the mapping H and A held
// over the step (Eq. schur reformulated),
//
//	W_H = H·A⁻¹·Hᵀ                          once per step
//	W_k = C_k·W_H·C_kᵀ                      per iteration (Rebuild W)
//	λ_k = PGS(δ_free(C_k) + h²·W_k·λ)       per iteration
//	p_{k+1} = p_free + h²·W_H·C_kᵀ·λ_k      per iteration (Corr.)
//
// the last line being Eq. recursive motion correction 7 in the total-force
// form of METHOD.md. The per-iteration work runs on the Backend.
//
// Glossary: h time step, H mapping Jacobian, C_k direction frames, W_H
// mapping compliance, W compliance (Delassus), λ constraint forces, p
// proximity positions.
func (s *Simulation) newtonFast(sw *stopwatch) error {
	c := len(s.pairs)
	s.WH = grow(s.WH, 9*c*c)
	if err := s.buildWH(c); err != nil {
		return err
	}
	sw.lap(StageBuildWH)
	if err := s.backend.Load(s.WH, c, s.set.PGSIterations, s.set.PGSTolerance); err != nil {
		return fmt.Errorf("backend %s: %w", s.backend.Name(), err)
	}
	h2 := s.set.TimeStep * s.set.TimeStep
	copy(s.p, s.pFree)
	for k := 0; k < s.set.NewtonIterations; k++ {
		var rec NewtonRecord
		if k > 0 {
			rec.DirectionChange = s.relinearise(nil)
			if s.set.NewtonTolerance > 0 && rec.DirectionChange <= s.set.NewtonTolerance {
				s.stats.Converged = true
				break
			}
			s.acceptLinearisation()
		}
		s.gaps()
		C := s.lin.FrameDirections(s.C)
		t := time.Now()
		if err := s.backend.RebuildW(C); err != nil {
			return err
		}
		rec.RebuildW = time.Since(t)
		t = time.Now()
		res, err := s.backend.SolvePGS(s.dFree, h2, s.set.Friction, s.lambda)
		if err != nil {
			return s.diverged(fmt.Sprintf("contact solve failed: %v", err))
		}
		rec.PGS = time.Since(t)
		rec.PGSIterations, rec.PGSError = res.Iterations, res.Error
		t = time.Now()
		copy(s.pPrev, s.p)
		if err := s.correctP(C, h2); err != nil {
			return err
		}
		rec.Corr = time.Since(t)
		rec.PositionChange = maxPointMove(s.p, s.pPrev)
		s.addNewton(rec)
	}
	s.states = s.backend.States()
	sw.lap(StageNewton)
	return nil
}

// buildWH computes W_H = H·A⁻¹·Hᵀ (Eq. schur reformulated) with the
// step's factor (linsolve.Solver.PairCompliance): in asynchronous mode the
// W_H of the factor's A, in the factor's frame.
func (s *Simulation) buildWH(c int) error {
	if err := s.lin.PairCompliance(s.WH, s.pairs, &s.H); err != nil {
		return s.diverged(fmt.Sprintf("building W_H failed: %v", err))
	}
	return nil
}

// correctP moves the proximity points, p = p_free + h²·W_H·Cᵀλ, with W_H
// and C in the factor's frame (linsolve.Solver.PointsToFactor).
func (s *Simulation) correctP(C []m3.Mat3, h2 float64) error {
	if err := s.backend.CorrectP(s.p, s.lin.PointsToFactor(s.pFree), C, s.lambda, h2); err != nil {
		return err
	}
	s.lin.PointsFromFactor(s.p)
	return nil
}

// fastFinalSolve computes x = A⁻¹·Hᵀ·C_Kᵀ·λ_K, the one corrective solve
// of the fast scheme, so that Δv = Δv_free + h·x.
//
// In asynchronous mode A⁻¹ is the operator W_H was built with, the warped
// latest factor Q·P⁻¹·Qᵀ (one preconditioner application, no conjugate
// gradient): then H·x = (W_H)·Cᵀλ exactly, and the proximity points end
// where the contact solver put them, p = p_free + h²·W_H·Cᵀλ. Correcting
// with the true A instead moves them by H·(A⁻¹ − Q·P⁻¹·Qᵀ)·Hᵀ·Cᵀλ away
// from the solved contact state, an error that grows with the factor's
// age. Measured on the 1k-DOF grasp with each factor swapped in a fixed
// number of steps after it started (Settings.AsyncLag = 3, 4, 6): PCG
// correction, max penetration 0.075, 1.34 and 13.5 mm (the last run
// diverged); preconditioner correction, see README. The free motion keeps
// its conjugate gradient on the true A.
func (s *Simulation) fastFinalSolve() error {
	y := s.pPrev // 3c scratch: the pairs' forces in world axes
	s.applyCt(y)
	s.H.MulVecT(s.rhs, y)
	if err := s.lin.FactorSolve(s.x, s.rhs); err != nil {
		return s.diverged(fmt.Sprintf("final corrective solve failed: %v", err))
	}
	return nil
}

// addNewton records one Newton iteration and adds its stage times.
func (s *Simulation) addNewton(rec NewtonRecord) {
	s.newton = append(s.newton, rec)
	t := &s.stats.Times
	t[StageRebuildW] += rec.RebuildW
	t[StagePGS] += rec.PGS
	t[StageCorr] += rec.Corr
}
