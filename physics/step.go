package physics

import (
	"errors"
	"fmt"
	"time"

	"softgrasp/physics/linsolve"
	"softgrasp/physics/settings"
)

// Step advances the simulation by one time step h and returns what it
// measured. The stages follow the paper (Algorithm 1 with the recursive
// corrective motion of Algorithms 2 and 3) as fixed by METHOD.md:
//
//  1. detect:   proximity pairs at q_t and the bodies' start poses
//  2. assemble: A = M + h·B + h²·K and b = h·(f_ext − f_int) − h²·K·v
//  3. factor:   A = Pᵀ·L·Lᵀ·P (numeric; the analysis is per mesh)
//  4. free:     Δv_free = A⁻¹·b, q_free = q_t + h·(v_t + Δv_free),
//     p_free = G(q_free)
//  5. build W_H = H·A⁻¹·Hᵀ (fast scheme only)
//  6. Newton:   K iterations of re-linearisation, W_k, PGS and correction
//  7. final:    Δv = Δv_free + h·A⁻¹·J_Kᵀ·λ_K, v += Δv, q += h·v
//  8. measure:  penetration, forces, divergence
//
// On divergence (NaN, a node faster than MaxSpeed, too many inverted
// elements, a system matrix that is not positive definite) Step returns a
// *DivergenceError and leaves the state as it was at the start of the
// step; the caller decides what to do (pause, reset).
func (s *Simulation) Step() (*StepStats, error) {
	st := &s.stats
	st.Times = Timings{}
	st.Step, st.Scheme = s.steps, s.set.Scheme
	s.newtonLog = s.newtonLog[:0]
	st.Converged = false
	st.SolveIterations, st.UnconvergedSolves, st.FactorFailures = 0, 0, 0
	sw := stopwatch{t: &st.Times}
	stepStart := time.Now()
	sw.begin()

	s.detect()
	sw.lap(StageDetect)
	if err := s.assemble(); err != nil {
		return st, err
	}
	sw.lap(StageAssemble)
	if err := s.refactor(); errors.Is(err, linsolve.ErrBackgroundFactor) {
		st.FactorFailures++ // the previous factor stays in use
	} else if err != nil {
		return st, s.diverged(fmt.Sprintf("the system matrix A is not positive definite (%v)", err))
	}
	sw.lap(StageFactor)
	if err := s.freeMotion(); err != nil {
		return st, err
	}
	sw.lap(StageFree)

	sc := s.scheme()
	if err := s.recursiveCorrection(sc, &sw); err != nil {
		return st, err
	}
	st.Newton = s.newtonLog
	st.Times[StageTotal] = st.Times[StageBuildWH] + st.Times[StageNewton]

	if err := s.finalCorrection(sc); err != nil {
		return st, err
	}
	sw.lap(StageFinal)
	if err := s.measure(); err != nil {
		return st, err
	}
	s.commit()
	sw.lap(StageMeasure)
	st.Times[StageStep] = time.Since(stepStart)
	return st, nil
}

// refactor factors A (linsolve.Solver.Refactor): the fast scheme takes
// whatever factor the solver's mode gives (in asynchronous mode, the
// latest one the solver refreshed), the standard scheme an exact one, since its
// corrective solves with the true A would fight an approximate W: only the
// fast scheme's self-consistent update p = p_free + h²·W_H·Cᵀλ tolerates
// one.
func (s *Simulation) refactor() error {
	var err error
	if s.set.Scheme == settings.Standard {
		err = s.solver.RefactorExact(s.q)
	} else {
		err = s.solver.Refactor(s.q, s.nearNodes)
	}
	s.stats.FactorAge = s.solver.Age()
	return err
}

// assemble fills A and b at (q_t, v_t) and checks element inversion.
func (s *Simulation) assemble() error {
	rep := s.model.Assemble(s.elem, s.q, s.v, s.set.TimeStep, s.set.Gravity, s.solver.Matrix(), s.b)
	if rep.Err != nil {
		return fmt.Errorf("assembly: %w", rep.Err)
	}
	s.stats.Inverted = rep.Inverted
	if n := len(s.mesh.Tets); n > 0 {
		if frac := float64(rep.Inverted) / float64(n); frac > s.set.MaxInvertedFraction {
			return s.diverged(fmt.Sprintf("%d of %d elements (%.1f %%) are inverted, above the %.1f %% limit",
				rep.Inverted, n, 100*frac, 100*s.set.MaxInvertedFraction))
		}
	}
	return nil
}

// freeMotion computes Δv_free = A⁻¹·b and q_free = q_t + h·(v_t + Δv_free)
// (Eq. free + corrective motion, first term).
func (s *Simulation) freeMotion() error {
	if err := s.solve(s.dvFree, s.b); err != nil {
		return s.diverged(fmt.Sprintf("free motion solve failed: %v", err))
	}
	h := s.set.TimeStep
	for i := range s.qFree {
		s.qFree[i] = s.q[i] + h*(s.v[i]+s.dvFree[i])
	}
	return nil
}

// recursiveCorrection linearises the step's contacts and runs the Newton
// iterations of scheme sc (stages Build W_H and Newton).
func (s *Simulation) recursiveCorrection(sc scheme, sw *stopwatch) error {
	for i := range s.x {
		s.x[i] = 0
	}
	if len(s.ct.pairs) == 0 {
		s.ct.resize(0)
		return nil
	}
	s.buildMapping()
	return s.newton(sc, sw)
}

// finalCorrection integrates v_{t+h} = v_t + Δv_free + h·x and
// q_{t+h} = q_t + h·v_{t+h}, where x = A⁻¹·J_Kᵀ·λ_K was computed by the
// scheme sc (Eq. corrective motion). The new state goes to qNew/vNew and
// is committed only after the divergence checks.
func (s *Simulation) finalCorrection(sc scheme) error {
	if len(s.ct.pairs) > 0 {
		if err := sc.finish(); err != nil {
			return err
		}
	}
	h := s.set.TimeStep
	for i := range s.vNew {
		v := s.v[i] + s.dvFree[i] + h*s.x[i]
		s.vNew[i] = v
		s.qNew[i] = s.q[i] + h*v
	}
	return nil
}

// commit makes the end-of-step state current and advances the bodies.
func (s *Simulation) commit() {
	copy(s.v, s.vNew)
	copy(s.q, s.qNew)
	for i := range s.bodies {
		s.bodies[i].Start = s.bodies[i].End
	}
	s.saveWarmStart()
	s.steps++
	s.time += s.set.TimeStep
	s.stats.Time = s.time
}

// solve computes x = A⁻¹·b with the linear solver and counts its
// iterations in the step's stats.
func (s *Simulation) solve(x, b []float64) error {
	it, converged, err := s.solver.Solve(x, b)
	s.stats.SolveIterations += it
	if !converged && err == nil {
		s.stats.UnconvergedSolves++
	}
	return err
}
