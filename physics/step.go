package physics

import (
	"fmt"
	"time"
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
	s.newton = s.newton[:0]
	st.Converged = false
	st.PCGIterations = 0
	sw := stopwatch{t: &st.Times}
	stepStart := time.Now()
	sw.begin()

	s.detect()
	sw.lap(StageDetect)
	if err := s.assemble(); err != nil {
		return st, err
	}
	sw.lap(StageAssemble)
	if err := s.refactor(); err != nil {
		return st, s.diverged(fmt.Sprintf("the system matrix A is not positive definite (%v)", err))
	}
	sw.lap(StageFactor)
	if err := s.freeMotion(); err != nil {
		return st, err
	}
	sw.lap(StageFree)

	if err := s.recursiveCorrection(&sw); err != nil {
		return st, err
	}
	st.Newton = s.newton
	st.Times[StageTotal] = st.Times[StageBuildWH] + st.Times[StageNewton]

	if err := s.finalCorrection(); err != nil {
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

// refactor factors A: in exact mode now; in asynchronous mode it swaps in
// a finished background factorisation and starts the next one (the fast
// scheme), or factors exactly (the standard scheme, whose corrective solves
// with the true A would fight an approximate W: only the fast scheme's
// self-consistent update p = p_free + h²·W_H·Cᵀλ tolerates one).
func (s *Simulation) refactor() error {
	var err error
	if s.set.Scheme == Standard {
		err = s.lin.RefactorExact(s.q)
	} else {
		err = s.lin.Refactor(s.q, s.nearNodes)
	}
	s.stats.FactorAge = s.lin.Age()
	return err
}

// nearNodes returns the soft nodes of the proximity pairs within three
// alarm distances of the rigid bodies: the nodes whose compliance the
// next steps will likely need, for the linear solver to precompute with
// its next factor.
func (s *Simulation) nearNodes() []int {
	s.wide = s.det.Detect(s.q, s.bodies, 3*s.alarm, s.wide[:0])
	s.wideNodes = s.wideNodes[:0]
	for a := range s.wide {
		pr := &s.wide[a]
		s.wideNodes = append(s.wideNodes, pr.Nodes[:pr.Count]...)
	}
	return s.wideNodes
}

// detect runs collision detection at the start of the step, within the
// step's alarm distance (alarm.go).
func (s *Simulation) detect() {
	s.alarm = s.stepAlarm()
	s.pairs = s.det.Detect(s.q, s.bodies, s.alarm, s.pairs[:0])
	s.stats.Contacts = len(s.pairs)
}

// assemble fills A and b at (q_t, v_t) and checks element inversion.
func (s *Simulation) assemble() error {
	rep := s.model.Assemble(s.q, s.v, s.set.TimeStep, s.set.Gravity, s.lin.Matrix(), s.b)
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

// recursiveCorrection runs the Newton iterations of the selected scheme
// (stages Build W_H and Newton).
func (s *Simulation) recursiveCorrection(sw *stopwatch) error {
	for i := range s.x {
		s.x[i] = 0
	}
	if len(s.pairs) == 0 {
		s.resizeContacts(0)
		return nil
	}
	s.buildMapping()
	switch s.set.Scheme {
	case Standard:
		return s.newtonStandard(sw)
	default:
		return s.newtonFast(sw)
	}
}

// finalCorrection integrates v_{t+h} = v_t + Δv_free + h·x and
// q_{t+h} = q_t + h·v_{t+h}, where x = A⁻¹·J_Kᵀ·λ_K was computed by the
// scheme (Eq. corrective motion). The new state goes to qNew/vNew and is
// committed only after the divergence checks.
func (s *Simulation) finalCorrection() error {
	if s.set.Scheme == Fast && len(s.pairs) > 0 {
		if err := s.fastFinalSolve(); err != nil {
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
// conjugate-gradient iterations in the step's stats.
func (s *Simulation) solve(x, b []float64) error {
	it, err := s.lin.Solve(x, b)
	s.stats.PCGIterations += it
	return err
}
