package physics

import (
	"fmt"
	"math"
	"time"

	"softgrasp/physics/settings"
)

// elastic is the Newton iteration on the whole backward-Euler residual
// (docs/method.md, "Newton on the whole residual"). The step's system
// A·Δv = b linearises the internal force F(q, v) = f_el(q) + B·v once, at
// (q_t, v_t); under a fast rotation the rigid increment h·v lies in the
// kernel of the corotational K at q_t, and the linear extrapolation
// inflates the body. The residual of the implicit Euler step at an iterate
// Δv_k = Δv_free + h·x_k (x_k = A⁻¹·Jᵀ·λ_k, the corrective motion of the
// contact forces λ_k) is
//
//	R_k = M·Δv_k − h·M·g + h·F(q_k, v_k) − h·Jᵀ·λ_k,
//	v_k = v_t + Δv_k,  q_k = q_t + h·v_k,
//
// with F evaluated anew, rotations included (fem.Model.ForcesOverStep,
// whose stiffness damping is the rate of the elements' stretch over the
// step, which vanishes for every rigid motion); it
// vanishes for every λ when F is linear and Δv_free = A⁻¹·b. Its
// quasi-Newton correction with the step's factor as the Jacobian moves
// the free motion only, Δv_free ← Δv_free − A⁻¹·R_k, so that the contact
// part of the iterate keeps the form the schemes work with: q_free, p_free
// and p_k all move by −h·δ (mapped by H for the points), and the next
// PGS solves the contact problem about the corrected free motion.
//
// The residual is measured by the move it calls for: the correction
// δ_k = A⁻¹·R_k (warped to q_k, below) moves the nodes by h·δ_k, and
//
//	e_k = h·max_i ‖δ_k,i‖
//
// (m) is the Newton increment's largest node move. The correction is made
// only while e_k exceeds Settings.ElasticTolerance, and the Newton
// iterations stop only once it does not.

// elasticOn reports whether the step iterates on the whole residual: on
// with a positive ElasticTolerance in a step in which a part of the body
// turns by more than ElasticTurn (turn.go), until a backtrack.
func (c *step) elasticOn() bool {
	return c.set.ElasticTolerance > 0 && c.ws.elastic.turning && !c.ws.elastic.off
}

// elasticResidual evaluates R_k at the iterate Δv_free + h·x, with x and
// rhs = Jᵀ·λ the corrective motion and the generalised contact force of
// the same λ (both zero before the first contact solve), into ws.elastic.res, and
// q_k, v_k into ws.elastic.qK, ws.elastic.vK.
func (c *step) elasticResidual(x, rhs []float64) error {
	ws, state := c.ws, c.state
	h, g := c.set.TimeStep, c.set.Gravity
	for i := range ws.elastic.vK {
		v := state.v[i] + ws.dvFree[i] + h*x[i]
		ws.elastic.vK[i] = v
		ws.elastic.qK[i] = state.q[i] + h*v
	}
	if err := c.model.fem.ForcesOverStep(&state.elem, ws.fem, ws.elastic.qK, ws.elastic.vK, h, ws.elastic.res); err != nil {
		return fmt.Errorf("internal forces at the Newton iterate: %w", err)
	}
	grav := [3]float64{g.X, g.Y, g.Z}
	for i, m := range c.model.fem.Mass() {
		for d := 0; d < 3; d++ {
			j := 3*i + d
			ws.elastic.res[j] = m*(ws.dvFree[j]+h*x[j]-h*grav[d]) + h*(ws.elastic.res[j]-rhs[j])
		}
	}
	if at := c.attach; at != nil {
		// An attached node's motion is prescribed, not solved for: its
		// supports take whatever force it needs (attach.go).
		for _, n := range at.nodes {
			ws.elastic.res[3*n], ws.elastic.res[3*n+1], ws.elastic.res[3*n+2] = 0, 0, 0
		}
	}
	return nil
}

// elasticStep runs the residual part of Newton iteration k (x and rhs the
// corrective motion and contact force of the last contact solve, zero
// before the first): R_k, its correction δ_k = Q·A⁻¹·Qᵀ·R_k with the
// step's factor warped to q_k (linsolve.Solver.RotationTo and
// FactorSolveWarped; the rotation is kept in ws.elastic.rotK), and, while
// its size e_k exceeds the tolerance, the move of the free motion by it.
// It returns e_k.
func (c *step) elasticStep(x, rhs []float64) (float64, error) {
	ws := c.ws
	if err := c.elasticResidual(x, rhs); err != nil {
		return 0, err
	}
	R, err := c.solver.RotationTo(ws.elastic.qK)
	if err == nil {
		ws.elastic.rotK = R
		err = c.solver.FactorSolveWarped(ws.elastic.delta, ws.elastic.res, &ws.elastic.rotK)
	}
	if err != nil {
		return 0, c.diverged(fmt.Sprintf("residual correction solve failed: %v", err))
	}
	h, e := c.set.TimeStep, 0.0
	for i := 0; i+2 < len(ws.elastic.delta); i += 3 {
		e = math.Max(e, math.Sqrt(ws.elastic.delta[i]*ws.elastic.delta[i]+ws.elastic.delta[i+1]*ws.elastic.delta[i+1]+ws.elastic.delta[i+2]*ws.elastic.delta[i+2]))
	}
	e *= h
	if math.IsNaN(e) || math.IsInf(e, 0) {
		return e, c.diverged("the backward-Euler residual is not finite")
	}
	if c.elasticGrew(e) {
		// Backtrack: the previous correction made the residual worse. It
		// is undone, and the step goes on with the internal forces
		// linearised (ws.elastic.off) as without this iteration.
		for i, d := range ws.elastic.deltaPrev {
			ws.elastic.delta[i] = -d
		}
		c.correctElastic()
		ws.elastic.off = true
		ws.stats.ElasticBacktracks++
		return e, nil
	}
	if e > c.set.ElasticTolerance {
		scale := 1.0
		if trust := c.set.AlarmDistance / 4; e > trust {
			scale = trust / e
		}
		for i := range ws.elastic.delta {
			ws.elastic.delta[i] *= scale
		}
		c.correctElastic()
		copy(ws.elastic.deltaPrev, ws.elastic.delta)
		ws.elastic.moved = true
	}
	return e, nil
}

// elasticGrew reports whether the residual e is larger than that of the
// step's previous correction: the quasi-Newton with the step's factor
// converges only near the solution, and far from it (the jaws starting
// to turn by half a radian in one step) a growing residual means the
// last correction went the wrong way.
func (c *step) elasticGrew(e float64) bool {
	log := c.ws.newtonLog
	for k := len(log) - 1; k >= 0; k-- {
		if prev := log[k].ElasticResidual; prev > 0 {
			return e > prev
		}
	}
	return false
}

// correctElastic moves the free motion by the correction δ (ws.elastic.delta):
// Δv_free −= δ, q_free −= h·δ, and the contact state's p_free and p by
// −h·H·δ (the standard scheme's q_k too, and the re-mapped fast scheme's
// free corners).
func (c *step) correctElastic() {
	ws := c.ws
	h := c.set.TimeStep
	for i, d := range ws.elastic.delta {
		ws.dvFree[i] -= d
		ws.qFree[i] -= h * d
	}
	ct := &ws.ct
	if len(ct.pairs) == 0 {
		return
	}
	ct.H.MulVec(ct.pPrev, ws.elastic.delta) // 3c scratch: H·δ
	for i, d := range ct.pPrev[:3*len(ct.pairs)] {
		ct.pFree[i] -= h * d
		ct.p[i] -= h * d
	}
	if c.set.Scheme == settings.Standard {
		for i, d := range ws.elastic.delta {
			ws.standard.qK[i] -= h * d
		}
	}
	if r := &ws.fast.remap; r.on {
		r.moveFree(ws.elastic.delta, h)
	}
}

// elasticNewton iterates on the residual of a step without contacts: up
// to K corrections of the free motion, stopped once the correction is
// within the tolerance. Each iteration is recorded as a Newton iteration.
func (c *step) elasticNewton() error {
	ws := c.ws
	for k := 0; k < c.set.NewtonIterations; k++ {
		t := time.Now()
		e, err := c.elasticStep(ws.x, ws.x)
		if err != nil {
			return err
		}
		c.addNewton(NewtonRecord{ElasticResidual: e, Elastic: time.Since(t)})
		if e <= c.set.ElasticTolerance {
			ws.stats.Converged = true
			return nil
		}
	}
	return nil
}

// predictedFreeMotion computes, in a step that iterates on the whole
// residual (elasticOn) with Settings.TurnStart TurnPredicted, the free
// motion by one Newton step on the whole residual without contact forces
// from the rigidly predicted iterate Δv* (predictRigid), with the step's
// A turned by the rotation Q from q_t to q* as the Jacobian:
//
//	Δv_free = Δv* − Q·A⁻¹·Qᵀ·R(Δv*),
//
// instead of A⁻¹·b, whose linearisation at q_t extrapolates the turn
// along its tangent (docs/method.md, "A turning step starts from its
// rigid motion"). It reports false, leaving the free motion to A⁻¹·b,
// when the step does not iterate on the residual. The factor then stays
// warped to q* for the step's contact compliance, as after a correction
// of the residual.
func (c *step) predictedFreeMotion() (bool, error) {
	ws, state := c.ws, c.state
	if c.set.TurnStart != settings.TurnPredicted || !c.elasticOn() {
		return false, nil
	}
	c.predictRigid(ws.dvFree)
	clear(ws.x)
	if err := c.elasticResidual(ws.x, ws.x); err != nil {
		return false, err
	}
	Q := c.solver.RotationBetween(state.q, ws.elastic.qK)
	// The contact compliance of the step turns with the body to q*, from
	// the factor's configuration (RotationTo); turned to q_free instead,
	// the 3k-DOF grasp at 8π rad/s, h = 20 ms, backtracked in 48 of its 49
	// turning steps instead of 5.
	R, err := c.solver.RotationTo(ws.elastic.qK)
	if err != nil {
		return false, c.diverged(fmt.Sprintf("predicted free motion: %v", err))
	}
	if err := c.countSolve(c.solver.SolveRotated(ws.elastic.delta, ws.elastic.res, &Q)); err != nil {
		return false, c.diverged(fmt.Sprintf("predicted free motion solve failed: %v", err))
	}
	for i, d := range ws.elastic.delta {
		ws.dvFree[i] -= d
		if math.IsNaN(ws.dvFree[i]) || math.IsInf(ws.dvFree[i], 0) {
			return false, c.diverged("the predicted free motion is not finite")
		}
	}
	ws.elastic.rotK = R
	c.solver.SetWarp(R)
	ws.stats.Predicted = true
	return true, nil
}
