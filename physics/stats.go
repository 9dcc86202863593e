package physics

import (
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/settings"
	"softgrasp/physics/stage"
)

// NewtonRecord describes one Newton iteration of a step.
type NewtonRecord struct {
	// DirectionChange is the largest angle (rad) by which a contact normal
	// turned against the previous linearisation (0 for the first).
	DirectionChange float64
	// PositionChange is the largest move of a proximity point (m) made by
	// this iteration's correction: ‖p_{k+1} − p_k‖ with p_0 = p_free.
	PositionChange float64
	// ElasticResidual is the backward-Euler residual at the iterate this
	// iteration started from, measured by the largest move of a node its
	// correction calls for, h·max_i‖(A⁻¹·R_k)_i‖ (m; 0 when
	// Settings.ElasticTolerance is 0; docs/method.md, "Newton on the
	// whole residual").
	ElasticResidual float64
	// ContactResidual is the residual of the contact law at the iterate
	// this iteration started from (k ≥ 1; 0 for the first), m: with g_a
	// the true normal gap of pair a at p_k (closest point and normal found
	// again, less the contact distance) and λ its force of the last
	// solve, the largest of |g_a| over the pairs that push (λn > 0: they
	// must touch), of max(−g_a, 0) over the others (they must not
	// overlap), and of Coulomb's residual of the pairs that push (their
	// slip over the step if they stick, its part not opposite their
	// friction force if they slide). It measures what the linearisation
	// left over (docs/method.md, "When Newton stops").
	ContactResidual float64
	// PGSIterations and PGSError are the sweeps run and the last relative
	// change of λ, PGSTolerance the relative change PGS was to stop at
	// (step.pgsTolerance).
	PGSIterations int
	PGSError      float64
	PGSTolerance  float64
	// RebuildW, PGS, Corr and Elastic are the times of this iteration's
	// stages.
	RebuildW, PGS, Corr, Elastic time.Duration
}

// StepStats is what one step measured.
type StepStats struct {
	Step   int     // index of the step, from 0
	Time   float64 // simulated time at the end of the step, s
	Scheme settings.Scheme

	Contacts int // proximity pairs (constraint groups)
	Active   int // pairs with a non-zero force at the end
	// Found is the pairs within the alarm distance (on a mapped surface
	// with the contact budget on, detection builds only one soft-vertex
	// pair per body and support of them: collide.Thinning), Contacts of
	// them kept by the contact budget (Settings.ContactBudget), and Groups
	// the groups the budget chose its pairs from (0 when every pair was
	// kept).
	Found  int
	Groups int

	// Newton holds one record per Newton iteration run (len ≤ K).
	Newton []NewtonRecord
	// Converged is true when the iterations stopped on NewtonTolerance
	// (and ElasticTolerance, when on) before K.
	Converged bool

	Times stage.Times

	// Penetration is the deepest true end-of-step overlap of the soft body
	// and the rigid bodies at their end poses (m, ≥ 0), both ways:
	// SoftPenetration of a soft surface vertex into a rigid body and
	// RigidPenetration of a rigid surface sample into the soft body; and,
	// when the soft body has several parts, PartPenetration, the deepest
	// overlap of two parts among the step's soft–soft pairs (their gap
	// n·(x_v − x_tri) at q_{t+h} along the pair's normal).
	// Violation is the largest amount by which the surfaces came closer
	// than the contact distance the contact law keeps (m, ≥ 0; it exceeds
	// Penetration by that distance when the surfaces cross).
	Penetration      float64
	SoftPenetration  float64
	RigidPenetration float64
	PartPenetration  float64
	// RigidRigidPenetration is the deepest overlap of a dynamic rigid
	// body with another rigid body among the step's rigid–rigid pairs, at
	// the end poses (m, ≥ 0).
	RigidRigidPenetration float64
	Violation             float64
	// BodyForce is the total contact force each rigid body applies on the
	// soft body (N, world frame), and BodyNormalForce the sum of its
	// normal components λn.
	BodyForce       []r3.Vec
	BodyNormalForce []float64
	// RigidNormalForce is, per kinematic or static body, the sum of the
	// normal forces λn of its rigid–rigid pairs with dynamic bodies (the
	// floor carrying a dynamic cube), N.
	RigidNormalForce []float64
	// Remapped counts the rigid-vertex pairs whose point on their soft
	// triangle the fast scheme re-found within the step, over its Newton
	// iterations (settings.MappingRemapped).
	Remapped int
	// PartNormalForce is the sum of the normal forces λn between the soft
	// body's parts (its soft–soft pairs; N), PartPairs their number.
	PartNormalForce float64
	PartPairs       int

	// SolveIterations counts the iterations of the step's solves with A
	// (the asynchronous solver's conjugate gradient; 0 with the exact
	// solver), FactorAge the steps since the A of the factor in use was
	// assembled and PreconditionerAge those since the A of the conjugate
	// gradient's preconditioner was, younger while a background factor
	// preconditions before its node compliance is done (0 in exact mode).
	SolveIterations   int
	FactorAge         int
	PreconditionerAge int
	// UnconvergedSolves counts the step's solves whose conjugate gradient
	// stopped at PCGMaxIterations before reaching PCGTolerance: their
	// result is the best iterate, not a solution to the tolerance.
	UnconvergedSolves int
	// FactorFailures is 1 when the background factorisation swapped in at
	// this step failed (its A was not positive definite) and the previous
	// factor stayed in use (asynchronous solver), else 0.
	FactorFailures int

	// ElasticBacktracks is 1 when the step's Newton iterations on the
	// whole residual undid a correction that made the residual grow and
	// went on with the internal forces linearised, else 0.
	ElasticBacktracks int
	// Turn is the largest angle (rad) by which a part of the soft body
	// turns in the step at its start velocity, h·‖ω‖ (turn.go), and
	// ElasticOn whether the step iterated on the whole residual
	// (Settings.ElasticTolerance above 0, and Settings.ElasticTurn 0 or
	// below Turn for a body of one part without attachments).
	Turn      float64
	ElasticOn bool
	// Predicted is whether the step's free motion started from the
	// rigidly predicted iterate (Settings.TurnStart).
	Predicted bool

	Inverted int     // inverted elements at the start of the step
	MaxSpeed float64 // largest node speed at the end of the step, m/s
}

// stopwatch accumulates stage times without allocating.
type stopwatch struct {
	t     *stage.Times
	start time.Time
}

func (w *stopwatch) begin() { w.start = time.Now() }

// lap adds the time since begin (or the previous lap) to stage s and
// returns it.
func (w *stopwatch) lap(s stage.Stage) time.Duration {
	now := time.Now()
	d := now.Sub(w.start)
	w.t[s] += d
	w.start = now
	return d
}

// begin starts the stats of step number n of scheme sc: its times and
// every per-step count at zero (the stages fill them in; the measures
// and the pairs' forces are written whole by measure).
func (st *StepStats) begin(n int, sc settings.Scheme) {
	st.Times = stage.Times{}
	st.Step, st.Scheme = n, sc
	st.Converged, st.Predicted = false, false
	st.SolveIterations, st.UnconvergedSolves, st.FactorFailures = 0, 0, 0
	st.ElasticBacktracks, st.Remapped = 0, 0
}
