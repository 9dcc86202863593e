package physics

import (
	"errors"
	"fmt"
	"time"

	"softgrasp/physics/linsolve"
	"softgrasp/physics/settings"
	"softgrasp/physics/stage"
)

// Step advances the simulation by one time step h and returns what it
// measured. The stages follow the paper (Algorithm 1 with the recursive
// corrective motion of Algorithms 2 and 3) as fixed by docs/method.md ("One time step"):
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
func (s *Simulation) Step() (*StepStats, error) { return s.stepper().run() }

// run runs the stages of one step (Simulation.Step).
func (c *step) run() (*StepStats, error) {
	ws := c.ws
	st := &ws.stats
	st.begin(c.state.steps, c.set.Scheme)
	ws.newtonLog = ws.newtonLog[:0]
	ws.elastic.reset()
	sw := stopwatch{t: &st.Times}
	stepStart := time.Now()
	sw.begin()

	c.predictDynamic()
	st.Turn = c.turnPerStep()
	// A body of several parts or with attachments passes the gate only
	// when ElasticTurn is 0: the residual's Jacobian is warped by one
	// rotation for the whole body (linsolve.Solver.RotationTo), wrong for
	// parts that turn apart, and an attached body's turn is its
	// supports' (docs/method.md, "The gate by the turn per step").
	ws.elastic.turning = c.set.ElasticTurn == 0 || st.Turn > c.set.ElasticTurn && c.model.nparts == 1 && c.attach == nil
	st.ElasticOn = c.elasticOn()
	c.detect()
	sw.lap(stage.Detect)
	if err := c.assemble(); err != nil {
		return st, err
	}
	sw.lap(stage.Assemble)
	if err := c.refactor(); errors.Is(err, linsolve.ErrBackgroundFactor) {
		st.FactorFailures++ // the previous factor stays in use
	} else if err != nil {
		return st, c.diverged(fmt.Sprintf("the system matrix A is not positive definite (%v)", err))
	}
	c.shareElementPass() // the refactorisation may have started a job
	sw.lap(stage.Factor)
	if err := c.freeMotion(); err != nil {
		return st, err
	}
	sw.lap(stage.Free)

	sc := c.scheme()
	if err := c.recursiveCorrection(sc, &sw); err != nil {
		return st, err
	}
	st.Newton = ws.newtonLog
	st.Times[stage.Total] = st.Times[stage.BuildWH] + st.Times[stage.Newton]

	if err := c.finalCorrection(sc); err != nil {
		return st, err
	}
	sw.lap(stage.Final)
	if err := c.measure(); err != nil {
		return st, err
	}
	c.commit()
	sw.lap(stage.Measure)
	st.Times[stage.Step] = time.Since(stepStart)
	return st, nil
}

// refactor factors A (linsolve.Solver.Refactor): the fast scheme takes
// whatever factor the solver's mode gives (in asynchronous mode, the
// latest one the solver refreshed), the standard scheme an exact one, since its
// corrective solves with the true A would fight an approximate W: only the
// fast scheme's self-consistent update p = p_free + h²·W_H·Cᵀλ tolerates
// one.
func (c *step) refactor() error {
	var err error
	if c.set.Scheme == settings.Standard {
		err = c.solver.RefactorExact(c.state.q)
	} else {
		err = c.solver.Refactor(c.state.q, c.nearNodes)
	}
	c.ws.stats.FactorAge = c.solver.Age()
	c.ws.stats.PreconditionerAge = c.solver.PreconditionerAge()
	return err
}

// shareElementPass lets the element passes use the worker pool unless
// the asynchronous solver's background factorisation is running: it
// takes the second core, and a pool worker descheduled in its favour
// would hold up the pass (fem.Model.SetSerial). While that worker idles
// (-async-refresh holds it back, or its job waits to be swapped in) the
// pass shares the cores. The pass's results do not depend on how it is
// shared.
func (c *step) shareElementPass() {
	c.model.fem.SetSerial(c.solver.BackgroundRunning())
}

// assemble fills A and b at (q_t, v_t), advancing the element rotations,
// and checks element inversion.
func (c *step) assemble() error {
	state, ws := c.state, c.ws
	c.shareElementPass()
	rep := c.model.fem.Assemble(&state.elem, ws.fem, state.q, state.v, c.set.TimeStep, c.set.Gravity, c.solver.Matrix(), ws.b)
	if rep.Err != nil {
		return fmt.Errorf("assembly: %w", rep.Err)
	}
	c.holdAttached()
	ws.stats.Inverted = rep.Inverted
	if n := len(c.model.mesh.Tets); n > 0 {
		// Elements that lie partly outside the solid (a grid mesh around a
		// user's surface) count by their fill fraction.
		frac, of := float64(rep.Inverted)/float64(n), ""
		if c.model.filled > 0 {
			frac, of = rep.InvertedFill/c.model.filled, " of the solid"
		}
		if frac > c.set.MaxInvertedFraction {
			return c.diverged(fmt.Sprintf("%d of %d elements (%.1f %%%s) are inverted, above the %.1f %% limit",
				rep.Inverted, n, 100*frac, of, 100*c.set.MaxInvertedFraction))
		}
	}
	return nil
}

// freeMotion computes Δv_free = A⁻¹·b and q_free = q_t + h·(v_t + Δv_free)
// (Eq. free + corrective motion, first term).
func (c *step) freeMotion() error {
	ws, state := c.ws, c.state
	predicted, err := c.predictedFreeMotion()
	if err != nil {
		return err
	}
	if !predicted {
		if err := c.solveFrom(ws.dvFree, ws.b, state.dvFree); err != nil {
			return c.diverged(fmt.Sprintf("free motion solve failed: %v", err))
		}
	}
	c.prescribe(ws.dvFree, true)
	h := c.set.TimeStep
	for i := range ws.qFree {
		ws.qFree[i] = state.q[i] + h*(state.v[i]+ws.dvFree[i])
	}
	return nil
}

// recursiveCorrection linearises the step's contacts and runs the Newton
// iterations of scheme sc (stages Build W_H and Newton).
func (c *step) recursiveCorrection(sc scheme, sw *stopwatch) error {
	ws := c.ws
	clear(ws.x)
	if len(ws.ct.pairs) == 0 {
		ws.ct.resize(0)
		if c.elasticOn() {
			err := c.elasticNewton()
			sw.lap(stage.Newton)
			return err
		}
		return nil
	}
	c.buildMapping()
	return c.newton(sc, sw)
}

// finalCorrection integrates v_{t+h} = v_t + Δv_free + h·x and
// q_{t+h} = q_t + h·v_{t+h}, where x = A⁻¹·J_Kᵀ·λ_K was computed by the
// scheme sc (Eq. corrective motion). The new state goes to qNew/vNew and
// is committed only after the divergence checks.
func (c *step) finalCorrection(sc scheme) error {
	ws, state := c.ws, c.state
	if len(ws.ct.pairs) > 0 {
		if err := sc.finish(c); err != nil {
			return err
		}
	}
	c.prescribe(ws.x, false)
	c.advanceDynamic()
	h := c.set.TimeStep
	for i := range ws.vNew {
		v := state.v[i] + ws.dvFree[i] + h*ws.x[i]
		ws.vNew[i] = v
		ws.qNew[i] = state.q[i] + h*v
	}
	return nil
}

// commit makes the end-of-step state current and advances the bodies.
func (c *step) commit() {
	ws, state := c.ws, c.state
	state.dvLast = grow(state.dvLast, len(state.v))
	for i, v := range ws.vNew {
		state.dvLast[i] = v - state.v[i]
	}
	copy(state.v, ws.vNew)
	copy(state.q, ws.qNew)
	state.dvFree = append(state.dvFree[:0], ws.dvFree...)
	for i := range c.bodies {
		c.bodies[i].Start = c.bodies[i].End
	}
	c.commitDynamic()
	c.saveWarmStart()
	state.steps++
	state.time += c.set.TimeStep
	ws.stats.Time = state.time
}

// solve computes x = A⁻¹·b with the linear solver and counts its
// iterations in the step's stats.
func (c *step) solve(x, b []float64) error { return c.solveFrom(x, b, nil) }

// solveFrom is solve starting from guess (linsolve.Solver.SolveFrom).
func (c *step) solveFrom(x, b, guess []float64) error {
	return c.countSolve(c.solver.SolveFrom(x, b, guess))
}

// countSolve records a solve's conjugate-gradient iterations, and whether
// it stopped short of its tolerance, in the step's stats, and returns its
// error.
func (c *step) countSolve(iterations int, converged bool, err error) error {
	c.ws.stats.SolveIterations += iterations
	if !converged && err == nil {
		c.ws.stats.UnconvergedSolves++
	}
	return err
}
