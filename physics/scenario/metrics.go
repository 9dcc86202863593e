package scenario

import (
	"math"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/collide"
	"softgrasp/physics/settings"
	"softgrasp/physics/stage"
)

// heldMargin is how far outside the jaws' extent the centre of mass may be,
// and how far it may have slipped since the grasp closed, for the object
// to still count as held, m; liftedShare is the most of its weight the
// floor may carry.
const (
	heldMargin  = 5e-3
	liftedShare = 0.1
)

// metrics accumulates a scene's per-step measurements.
type metrics struct {
	steps, newtonIters         int
	pgsSweeps                  int // PGS sweeps of all the steps' Newton iterations
	pcgIters, factorAge, pcAge int
	contacts                   float64
	contactsMax                int
	maxPen                     float64
	unconvergedSteps           int // steps with a solve stopped at the PCG cap
	factorFailures             int // failed background factorisations
	maxSoftPen                 float64
	maxRigidPen                float64
	maxViolation               float64
	stage                      stage.Times // summed over steps
	lastPen                    float64
	elasticMax                 float64 // the largest last residual of a step
	contactMax                 float64 // the largest last contact residual of a step
	elasticBacktracks          int
	elasticSteps               int     // steps that iterated on the whole residual
	turnMax                    float64 // largest turn per step, rad
	invertedMax                int     // most inverted elements at a step's start

	// t0 is the simulated time at which the measurements began.
	t0 float64
	// graspCycle is the current grasp's measurements: a repeating script
	// starts it again at each repeat, the run's measurements above go on.
	graspCycle
	// cycles counts the grasps a repeating script finished and heldCycles
	// those of them that held the object through the steady spin.
	cycles, heldCycles int
	// The last step's squeeze of each jaw (observeGrasp), their grip
	// and the normal force of the floor, N: the grip's sensing reads
	// them across a repeat.
	leftLast, rightLast, floorLast float64
	gripLast                       float64

	// Incline and drop.
	com0        r3.Vec
	floorForces []float64
	// Cube drop: the object's push on the cube, per step.
	cubeForces []float64
	// Soft fingers: the cube's heading about z at the last step and its
	// turn since the first step, unwrapped step by step, ...
	cubeYaw, cubeTurn float64
	cubeYawSet        bool
	// ... and the floor's push on it at the last step, N.
	cubeFloorLast float64
	// Stack: the cubes at rest at the end of the settle.
	stack stackMetrics
}

// graspCycle is one grasp's measurements, from the start of its script.
type graspCycle struct {
	// The centre of mass in the gripper frame when the grasp closed, its
	// drift since (slip), the material points the jaws held then and
	// their drift since (gripSlip), and the grip forces during the spin.
	closed      bool
	comClosed   r3.Vec
	slip        float64
	maxSlip     float64
	held        []heldPoint
	gripSlip    float64
	maxGripSlip float64
	spinForces  []float64
	gripSum     float64
	gripN       int
	// The steady part of the spin: its steps, those at which the object
	// was held, and the least and greatest normal force of either jaw.
	spinSteps, spinHeld    int
	spinJawMin, spinJawMax float64
}

func (m *metrics) reset(sc *Scene) {
	cycle := m.graspCycle
	*m = metrics{floorForces: m.floorForces[:0], cubeForces: m.cubeForces[:0], graspCycle: cycle}
	m.clearCycle()
	m.com0, m.t0 = sc.CentreOfMass(), sc.Sim.Time()
}

// clearCycle empties the grasp's measurements, keeping their storage.
func (m *metrics) clearCycle() {
	m.graspCycle = graspCycle{spinForces: m.spinForces[:0], held: m.held[:0]}
}

// newCycle starts the measurements of a new grasp (a script started again)
// and counts the one it ends if that one ran its spin; the run's
// measurements go on.
func (m *metrics) newCycle() {
	if m.spinSteps > 0 {
		m.cycles++
		if m.spinHeld == m.spinSteps {
			m.heldCycles++
		}
	}
	m.clearCycle()
}

// observe records one step.
func (m *metrics) observe(sc *Scene, st *physics.StepStats) {
	m.steps++
	m.newtonIters += len(st.Newton)
	for _, r := range st.Newton {
		m.pgsSweeps += r.PGSIterations
	}
	m.pcgIters += st.SolveIterations
	m.factorFailures += st.FactorFailures
	m.elasticBacktracks += st.ElasticBacktracks
	if st.ElasticOn {
		m.elasticSteps++
	}
	m.turnMax = math.Max(m.turnMax, st.Turn)
	m.invertedMax = max(m.invertedMax, st.Inverted)
	for k := len(st.Newton) - 1; k >= 0; k-- {
		if r := st.Newton[k].ElasticResidual; r > 0 {
			m.elasticMax = math.Max(m.elasticMax, r)
			break
		}
	}
	if n := len(st.Newton); n > 1 {
		m.contactMax = math.Max(m.contactMax, st.Newton[n-1].ContactResidual)
	}
	if st.UnconvergedSolves > 0 {
		m.unconvergedSteps++
	}
	m.factorAge += st.FactorAge
	m.pcAge += st.PreconditionerAge
	m.contacts += float64(st.Contacts)
	m.contactsMax = max(m.contactsMax, st.Contacts)
	m.maxPen = math.Max(m.maxPen, st.Penetration)
	m.maxSoftPen = math.Max(m.maxSoftPen, st.SoftPenetration)
	m.maxRigidPen = math.Max(m.maxRigidPen, st.RigidPenetration)
	m.maxViolation = math.Max(m.maxViolation, st.Violation)
	m.lastPen = st.Penetration
	m.stage.Add(&st.Times)
	if len(st.BodyNormalForce) > FloorBody {
		m.floorForces = append(m.floorForces, st.BodyNormalForce[FloorBody])
		m.floorLast = st.BodyNormalForce[FloorBody]
	}
	if sc.cfg.Kind == settings.CubeDrop && len(st.BodyNormalForce) > CubeBody {
		m.cubeForces = append(m.cubeForces, st.BodyNormalForce[CubeBody])
	}
	if sc.Driver != nil && len(st.BodyNormalForce) > RightJawBody {
		m.observeGrasp(sc, st)
	}
	if sc.cfg.Kind == settings.Stack {
		sc.observeStack(st)
	}
}

// observeGrasp tracks each jaw's squeeze, the slip from the moment the
// jaws closed (until a path's jaws open again) and the grip force during
// the steady part of the spin. A jaw's squeeze is the force it applies on
// the object along the closing axis (towards the other jaw): a jaw
// resting on the object's top, or rubbing its side, squeezes nothing.
func (m *metrics) observeGrasp(sc *Scene, st *physics.StepStats) {
	t := sc.Sim.Time()
	closing := sc.Driver.Gripper.Closing()
	m.leftLast = math.Max(0, r3.Dot(st.BodyForce[LeftJawBody], closing))
	m.rightLast = math.Max(0, -r3.Dot(st.BodyForce[RightJawBody], closing))
	if sc.cfg.Kind == settings.SoftFingers {
		// the jaws hold the pads: their force on the soft body is the pads' weight and grip
		m.leftLast, m.rightLast = st.BodyNormalForce[LeftJawBody], st.BodyNormalForce[RightJawBody]
	}
	grip := m.leftLast + m.rightLast
	if sc.cfg.Kind == settings.SoftFingers && len(st.BodyNormalForce) > FingersCubeBody {
		// the pads, attached to the jaws, push on the cube
		grip = st.BodyNormalForce[FingersCubeBody]
		m.cubeFloorLast = 0
		if len(st.RigidNormalForce) > FloorBody {
			m.cubeFloorLast = st.RigidNormalForce[FloorBody]
		}
		m.observeCubeTurn(sc)
	}
	m.gripLast = grip
	local := sc.Driver.Gripper.Pose.ApplyInverse(sc.graspedCentre())
	s := sc.script
	if !m.closed && (s == nil || t >= s.closedAt()) {
		m.closed, m.comClosed = true, local
		m.held = heldPoints(sc, m.held[:0])
	}
	if m.closed && (s == nil || t <= s.releasedAt()) {
		m.slip = r3.Norm(r3.Sub(local, m.comClosed))
		m.maxSlip = math.Max(m.maxSlip, m.slip)
		m.gripSlip = gripDrift(sc, m.held)
		m.maxGripSlip = math.Max(m.maxGripSlip, m.gripSlip)
		m.gripSum += grip
		m.gripN++
	}
	if s != nil && t > s.spinStart()+s.spinRamp && t <= s.spinEnd()-s.spinRamp {
		m.spinForces = append(m.spinForces, grip)
		lo, hi := math.Min(m.leftLast, m.rightLast), math.Max(m.leftLast, m.rightLast)
		if m.spinSteps == 0 {
			m.spinJawMin, m.spinJawMax = lo, hi
		}
		m.spinJawMin, m.spinJawMax = math.Min(m.spinJawMin, lo), math.Max(m.spinJawMax, hi)
		m.spinSteps++
		if sc.held() {
			m.spinHeld++
		}
	}
}

// observeCubeTurn adds the soft-fingers cube's turn about the world z
// over the step (its heading is the angle of its x axis in the xy plane;
// a step turns it by less than π).
func (m *metrics) observeCubeTurn(sc *Scene) {
	x := sc.Sim.Bodies()[FingersCubeBody].Start.Rotate(r3.Vec{X: 1})
	yaw := math.Atan2(x.Y, x.X)
	if m.cubeYawSet {
		m.cubeTurn += math.Remainder(yaw-m.cubeYaw, 2*math.Pi)
	}
	m.cubeYaw, m.cubeYawSet = yaw, true
}

// heldPoint is a material point of the soft body that a jaw pressed on
// when the grasp closed: its place in the mesh (the pair's nodes and
// weights) and where it was then in the gripper frame.
type heldPoint struct {
	count   int
	nodes   [collide.MaxNodes]int
	weights [collide.MaxNodes]float64
	local   r3.Vec
}

// heldPoints lists the material points of the last step's pairs on either
// jaw that carried a normal force, appended to out.
func heldPoints(sc *Scene, out []heldPoint) []heldPoint {
	lambda := sc.Sim.Lambda()
	q := sc.Sim.Positions()
	for a, pr := range sc.Sim.Pairs() {
		if (pr.Body != LeftJawBody && pr.Body != RightJawBody) || pr.Kind.Info().Bilateral || pr.Kind.Info().BetweenRigid || lambda[3*a] <= 0 {
			continue
		}
		hp := heldPoint{count: pr.Count, nodes: pr.Nodes, weights: pr.Weights}
		hp.local = sc.Driver.Gripper.Pose.ApplyInverse(hp.at(q))
		out = append(out, hp)
	}
	return out
}

// at is the point's position in the configuration q.
func (p *heldPoint) at(q []float64) r3.Vec {
	var x r3.Vec
	for k := 0; k < p.count; k++ {
		n, w := p.nodes[k], p.weights[k]
		x = r3.Add(x, r3.Scale(w, r3.Vec{X: q[3*n], Y: q[3*n+1], Z: q[3*n+2]}))
	}
	return x
}

// gripDrift is the mean distance the held points have moved in the
// gripper frame since the grasp closed: how far the material the jaws
// took has slid along them (with the small shear of the material beneath
// the contacts), unlike the centre of mass's drift, which counts the sag
// of a floppy object as slip.
func gripDrift(sc *Scene, held []heldPoint) float64 {
	if len(held) == 0 {
		return 0
	}
	q := sc.Sim.Positions()
	sum := 0.0
	for i := range held {
		sum += r3.Norm(r3.Sub(sc.Driver.Gripper.Pose.ApplyInverse(held[i].at(q)), held[i].local))
	}
	return sum / float64(len(held))
}

// forceJitter is the paper's "instability of contact forces": the
// standard deviation of the step-to-step change of the total grip force
// during the spin, relative to the mean grip force.
func forceJitter(f []float64) float64 {
	if len(f) < 3 {
		return 0
	}
	mean := 0.0
	for _, x := range f {
		mean += x
	}
	mean /= float64(len(f))
	if mean <= 0 {
		return 0
	}
	n := len(f) - 1
	dm := 0.0
	for i := 1; i < len(f); i++ {
		dm += f[i] - f[i-1]
	}
	dm /= float64(n)
	v := 0.0
	for i := 1; i < len(f); i++ {
		d := f[i] - f[i-1] - dm
		v += d * d
	}
	return math.Sqrt(v/float64(n)) / mean
}

// held reports whether the gripper holds the object, as of the last
// step: both jaws push on it, it is lifted (the floor carries less than
// liftedShare of its weight: the jaws carry it), the material the jaws
// took when the grasp closed has slipped by no more than heldMargin along
// them (gripDrift), and its centre
// of mass lies between the jaws: within the opening across, and within the
// jaws' width and height (plus heldMargin) along the other two gripper
// axes. An object between open jaws, squeezed while it still rests on the
// floor, or dragged along it by one end, is not held.
func (sc *Scene) held() bool {
	if sc.Driver == nil {
		return false
	}
	if sc.cfg.Kind == settings.SoftFingers {
		return sc.fingersHeld()
	}
	m := &sc.metrics
	weight := sc.total * r3.Norm(sc.Config().Physics.Gravity)
	if !(m.leftLast > 0 && m.rightLast > 0) || m.floorLast >= liftedShare*weight || m.gripSlip > heldMargin {
		return false
	}
	g := sc.Driver.Gripper
	c := g.Pose.ApplyInverse(sc.CentreOfMass())
	return math.Abs(c.X) <= g.Opening/2+heldMargin &&
		math.Abs(c.Y) <= g.JawWidth/2+heldMargin &&
		math.Abs(c.Z) <= g.JawHeight/2+heldMargin
}

// wall returns the summed wall time of the steps.
func (m *metrics) wall() time.Duration { return m.stage[stage.Step] }

// Live is the scene's running measurements, for per-step logs and the
// viewer.
type Live struct {
	Phase     Phase
	Slip      float64 // m, since the grasp closed
	GripForce float64 // N, sum of both jaws' normal forces
	Held      bool
	// GripLeft and GripRight are each jaw's normal force, GripTarget the
	// force each closes to (N), and Gripping whether the jaws close or
	// hold by force; Stop says why the script stopped or refused.
	GripLeft, GripRight, GripTarget float64
	Gripping                        bool
	Stop                            string
}

// Live returns the current running measurements.
func (sc *Scene) Live() Live {
	m := &sc.metrics
	l := Live{Phase: sc.Phase(), Slip: m.slip, GripForce: m.gripLast, Held: sc.held(),
		GripLeft: m.leftLast, GripRight: m.rightLast, Stop: sc.ScriptStop()}
	if sc.Driver != nil {
		l.GripTarget, l.Gripping = sc.Driver.Grip.Target(), sc.Driver.Command.Grip
	}
	return l
}
