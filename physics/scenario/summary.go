package scenario

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/settings"
	"softgrasp/physics/stage"
)

// Summary is what a run of a scene measured. Its JSON form is the
// headless runner's contract.
type Summary struct {
	Scenario string  `json:"scenario"`
	Scheme   string  `json:"scheme"`
	Newton   int     `json:"newton"`
	DT       float64 `json:"dt"`
	// Mu is the configured friction coefficient and MuOverride the one
	// the scene imposed on the steps instead at the end of the run (the
	// incline before its release), absent when Mu applied.
	Mu         float64  `json:"mu"`
	MuOverride *float64 `json:"mu_override,omitempty"`
	Omega      float64  `json:"omega"`
	// DOFs are the mechanical degrees of freedom (3 per FE node);
	// SurfaceTriangles the triangles of the surface that touches and is
	// drawn (the mesh's boundary, or a file's surface mapped onto the mesh);
	// ContactsMean and ContactsMax the proximity pairs per step.
	DOFs             int     `json:"dofs"`
	SurfaceTriangles int     `json:"surface_triangles"`
	Steps            int     `json:"steps"`
	ContactsMean     float64 `json:"contacts_mean"`
	ContactsMax      int     `json:"contacts_max"`
	MaxPenetration   float64 `json:"max_penetration"`
	// MaxSoftPenetration and MaxRigidPenetration split MaxPenetration by
	// side (a soft vertex into a rigid body, a rigid sample into the soft
	// body); MaxViolation is the contact law's own error, how far the
	// surfaces came closer than the contact distance.
	MaxSoftPenetration  float64  `json:"max_soft_penetration"`
	MaxRigidPenetration float64  `json:"max_rigid_penetration"`
	MaxViolation        float64  `json:"max_violation"`
	Slip                float64  `json:"slip"`
	Held                bool     `json:"held"`
	RealtimeFactor      float64  `json:"realtime_factor"`
	ForceJitter         float64  `json:"force_jitter"`
	MS                  stage.MS `json:"ms"`

	Solver  string  `json:"solver"`
	PCGMean float64 `json:"pcg_iterations_mean"` // per step, async solver
	// PCGCappedSteps counts the steps with a conjugate-gradient solve that
	// stopped at PCGMaxIterations short of its tolerance (async solver).
	PCGCappedSteps int `json:"pcg_capped_steps"`
	// FactorFailures counts the background factorisations that failed
	// (their A was not positive definite); the previous factor stayed in
	// use each time.
	FactorFailures int     `json:"factor_failures"`
	FactorAgeMean  float64 `json:"factor_age_mean"` // steps, async solver
	// PreconditionerAgeMean: steps, async solver (StepStats.PreconditionerAge)
	PreconditionerAgeMean float64 `json:"preconditioner_age_mean"`
	Mesh                  string  `json:"mesh"`
	Elements              int     `json:"elements"`
	NewtonMean            float64 `json:"newton_mean"`     // Newton iterations run per step
	PGSSweepsMean         float64 `json:"pgs_sweeps_mean"` // PGS sweeps per step, all its Newton iterations
	// ElasticResidualMax is, with Newton on the whole residual
	// (Settings.ElasticTolerance), the largest over the steps of the last
	// residual a step evaluated (physics.NewtonRecord.ElasticResidual, m),
	// and ElasticBacktracks the steps that undid a correction.
	ElasticResidualMax float64 `json:"elastic_residual_max"`
	// ContactResidualMax is the largest over the steps of the contact
	// residual of the last Newton iteration (physics.NewtonRecord.
	// ContactResidual, m; steps of one iteration have none).
	ContactResidualMax float64 `json:"contact_residual_max"`
	ElasticBacktracks  int     `json:"elastic_backtracks"`
	// ElasticSteps counts the steps that iterated on the whole residual
	// (physics.StepStats.ElasticOn) and TurnMax is the largest turn per
	// step of a part of the soft body (physics.StepStats.Turn, rad).
	ElasticSteps int     `json:"elastic_steps"`
	TurnMax      float64 `json:"turn_max"`
	// InvertedMax is the most elements found inverted at the start of a
	// step (physics.StepStats.Inverted; a step with more than
	// Settings.MaxInvertedFraction of them diverges).
	InvertedMax      int     `json:"inverted_max"`
	MaxSlip          float64 `json:"max_slip"`
	GripForceMean    float64 `json:"grip_force_mean"` // N, from the grasp closing on
	FinalPenetration float64 `json:"final_penetration"`
	SimSeconds       float64 `json:"sim_seconds"`
	WallSeconds      float64 `json:"wall_seconds"`
	Error            string  `json:"error,omitempty"`

	Grasp   *GraspResult   `json:"grasp,omitempty"`
	Incline *InclineResult `json:"incline,omitempty"`
	Drop    *DropResult    `json:"drop,omitempty"`
	Cube    *CubeResult    `json:"cube,omitempty"`
	Fingers *FingersResult `json:"fingers,omitempty"`
	Stack   *StackResult   `json:"stack,omitempty"`
	Bodies  []BodyResult   `json:"bodies,omitempty"` // a custom scene's rigid bodies at the end

	// LastNewton is the last step's Newton iterations, one entry each
	// (headless -newton-csv gives every step's).
	LastNewton []NewtonIteration `json:"last_newton,omitempty"`

	// A mesh file: what it held, the factor that took its coordinates to
	// metres (fitted: chosen to make it ObjectSize across) and the notes of
	// the reader (elements left out, tetrahedralisation, pieces).
	MeshFormat string   `json:"mesh_format,omitempty"`
	MeshScale  float64  `json:"mesh_scale,omitempty"`
	MeshFitted bool     `json:"mesh_fitted,omitempty"`
	MeshNotes  []string `json:"mesh_notes,omitempty"`

	// Settings is the run's configuration: every setting of the parameter
	// table by its key (settings.Values), as the user set it (the
	// incline's μ while it holds its block).
	Settings map[string]any `json:"settings"`
}

// InclineResult is the friction check: how far and how fast the block
// moved down the slope after its release, against Coulomb's prediction.
type InclineResult struct {
	AngleDeg    float64 `json:"angle_deg"`
	TanTheta    float64 `json:"tan_theta"`
	ReleaseTime float64 `json:"release_time"` // s: the block is held until then (incline.go)
	// Displacement of the centre of mass along the slope since the
	// release, m; Speed the mean downhill velocity at the end and
	// ReleaseSpeed at the release, m/s; Acceleration their difference
	// over the time since the release, m/s².
	Displacement float64 `json:"displacement"`
	Speed        float64 `json:"speed"`
	ReleaseSpeed float64 `json:"release_speed"`
	Acceleration float64 `json:"acceleration"`
	// Predicted is the displacement of a rigid block under Coulomb
	// friction, ½·a·t² with a = PredictedAcceleration =
	// g·(sin θ − μ cos θ) when positive, else 0.
	Predicted             float64 `json:"predicted"`
	PredictedAcceleration float64 `json:"predicted_acceleration"`
	Slides                bool    `json:"slides"`
}

// CubeResult is the cube-drop scene's end: the dynamic cube at rest on
// the soft object, carried by it.
type CubeResult struct {
	NormalForce float64 `json:"normal_force"` // the object's push on the cube, mean over the last 0.2 s, N
	Weight      float64 `json:"weight"`       // the cube's m·g, N
	Speed       float64 `json:"speed"`        // the cube's speed at the end, m/s
	Height      float64 `json:"height"`       // the cube's bottom above the floor at the end, m
}

// DropResult is the Signorini check: the object at rest on the floor.
type DropResult struct {
	NormalForce float64 `json:"normal_force"` // floor's normal force, mean over the last 0.2 s, N
	Weight      float64 `json:"weight"`       // m·g, N
	Penetration float64 `json:"penetration"`  // at the end, m
	Speed       float64 `json:"speed"`        // largest node speed at the end, m/s
}

// NewtonIteration is one Newton iteration's record in the summary
// (physics.NewtonRecord): the turn of the normals at its
// re-linearisation (rad), the move of the proximity points its correction
// made, the residuals of the iterate it started from (m; 0 where not
// measured), and its PGS tolerance and sweeps.
type NewtonIteration struct {
	DirectionChange float64 `json:"direction_change"`
	PositionChange  float64 `json:"position_change"`
	ElasticResidual float64 `json:"elastic_residual"`
	ContactResidual float64 `json:"contact_residual"`
	PGSTolerance    float64 `json:"pgs_tolerance"`
	PGSSweeps       int     `json:"pgs_sweeps"`
}

// GraspResult is how a grasp script went: the phase it ended in and, when
// it stopped or refused the object, why; each jaw's normal force at the
// end, the target, and the least and greatest force of either jaw in the
// steady part of the spin; whether the object was held at every step of
// it; the jaws' opening at the end; and how far the material the jaws
// took has slid along them.
type GraspResult struct {
	Phase      string  `json:"phase"`
	Stop       string  `json:"stop,omitempty"`
	GripTarget float64 `json:"grip_target"`
	// GripLimited is set when the automatic grip's squeeze bound set the
	// target: GripAsked is then the force it asked for (a multiple of the
	// object's weight) and GripTarget the force the object gave at the
	// bound.
	GripLimited     bool    `json:"grip_limited,omitempty"`
	GripAsked       float64 `json:"grip_asked"`
	GripLeft        float64 `json:"grip_left"`
	GripRight       float64 `json:"grip_right"`
	SpinGripMin     float64 `json:"spin_grip_min"`
	SpinGripMax     float64 `json:"spin_grip_max"`
	SpinSteps       int     `json:"spin_steps"`
	HeldThroughSpin bool    `json:"held_through_spin"`
	Opening         float64 `json:"opening"`
	// GripSlip is the mean drift, in the gripper frame, of the material
	// points the jaws pressed on when the grasp closed (at the end, and
	// its largest), m: slip along the jaws, where the summary's slip (the
	// centre of mass's drift) also counts the sag of a floppy object.
	GripSlip    float64 `json:"grip_slip"`
	MaxGripSlip float64 `json:"max_grip_slip"`
	// Cycles counts the grasps a repeating script (settings.Scenario.
	// GraspLoop) finished before the current one, each to the end of its
	// spin, and HeldCycles those that held the object throughout their
	// steady spin; the other fields are the current grasp's.
	Cycles     int `json:"cycles,omitempty"`
	HeldCycles int `json:"held_cycles,omitempty"`
}

// graspResult reports a grasp script's course (nil without one).
func (sc *Scene) graspResult() *GraspResult {
	s, d := sc.script, sc.Driver
	if s == nil || d == nil || !s.grip && !s.refused {
		return nil
	}
	m := &sc.metrics
	r := &GraspResult{Phase: string(sc.Phase()), Stop: s.stopped, GripTarget: d.Grip.Target(),
		GripLimited: d.Grip.Limited(), GripAsked: d.Grip.Force,
		GripLeft: m.leftLast, GripRight: m.rightLast, SpinSteps: m.spinSteps,
		HeldThroughSpin: m.spinSteps > 0 && m.spinHeld == m.spinSteps, Opening: d.Gripper.Opening,
		GripSlip: m.gripSlip, MaxGripSlip: m.maxGripSlip, Cycles: m.cycles, HeldCycles: m.heldCycles}
	if m.spinSteps > 0 {
		r.SpinGripMin, r.SpinGripMax = m.spinJawMin, m.spinJawMax
	}
	return r
}

// Summary reports the scene's measurements so far.
func (sc *Scene) Summary() Summary {
	m := &sc.metrics
	cfg := sc.cfg
	set := sc.Config().Physics
	s := Summary{
		Settings: settings.Values(sc.Config()),
		Scenario: string(cfg.Kind), Scheme: set.Scheme.String(), Newton: set.NewtonIterations,
		DT: set.TimeStep, Mu: set.Friction, Omega: cfg.Omega, DOFs: sc.Sim.Mesh().DOFs(),
		SurfaceTriangles: len(sc.Sim.Surface().Tris), ContactsMax: m.contactsMax,
		Steps: m.steps, MaxPenetration: m.maxPen, MaxSoftPenetration: m.maxSoftPen,
		MaxRigidPenetration: m.maxRigidPen, MaxViolation: m.maxViolation, Slip: m.slip, MaxSlip: m.maxSlip,
		PCGCappedSteps: m.unconvergedSteps, FactorFailures: m.factorFailures,
		ElasticResidualMax: m.elasticMax, ElasticBacktracks: m.elasticBacktracks, ContactResidualMax: m.contactMax,
		ElasticSteps: m.elasticSteps, TurnMax: m.turnMax, InvertedMax: m.invertedMax,
		Held: sc.held(), ForceJitter: forceJitter(m.spinForces), Mesh: sc.meshInfo.name,
		Elements: len(sc.Sim.Mesh().Tets), FinalPenetration: m.lastPen, Solver: set.Solver.String(),
		SimSeconds: sc.Sim.Time() - m.t0, WallSeconds: m.wall().Seconds(),
		MeshFormat: sc.meshInfo.format, MeshScale: sc.meshInfo.scale, MeshFitted: sc.meshInfo.fitted, MeshNotes: sc.meshInfo.notes,
	}
	if m.steps > 0 {
		s.ContactsMean = m.contacts / float64(m.steps)
		s.NewtonMean = float64(m.newtonIters) / float64(m.steps)
		s.PGSSweepsMean = float64(m.pgsSweeps) / float64(m.steps)
		for _, r := range sc.Sim.Stats().Newton { // the last step's
			s.LastNewton = append(s.LastNewton, NewtonIteration{
				DirectionChange: r.DirectionChange, PositionChange: r.PositionChange,
				ElasticResidual: r.ElasticResidual, ContactResidual: r.ContactResidual,
				PGSTolerance: r.PGSTolerance, PGSSweeps: r.PGSIterations,
			})
		}
		s.PCGMean = float64(m.pcgIters) / float64(m.steps)
		s.FactorAgeMean = float64(m.factorAge) / float64(m.steps)
		s.PreconditionerAgeMean = float64(m.pcAge) / float64(m.steps)
	}
	if s.WallSeconds > 0 {
		s.RealtimeFactor = s.SimSeconds / s.WallSeconds
	}
	if m.gripN > 0 {
		s.GripForceMean = m.gripSum / float64(m.gripN)
	}
	s.MS = m.stage.Means(m.steps, m.newtonIters)
	s.Grasp = sc.graspResult()
	if mu, on := sc.Sim.FrictionOverride(); on {
		s.MuOverride = &mu
	}
	switch cfg.Kind {
	case settings.Incline:
		s.Incline = sc.inclineResult()
	case settings.Drop:
		s.Drop = sc.dropResult()
	case settings.CubeDrop:
		s.Cube = sc.cubeResult()
	case settings.SoftFingers:
		s.Fingers = sc.fingersResult()
	case settings.Stack:
		s.Stack = sc.stackResult()
	case settings.Custom:
		s.Bodies = sc.customResult()
	}
	return s
}

// lastMean is the mean of the last 0.2 s of per-step values f.
func (sc *Scene) lastMean(f []float64) float64 {
	k := min(int(math.Round(0.2/sc.Sim.Settings().TimeStep)), len(f))
	mean := 0.0
	for _, x := range f[len(f)-k:] {
		mean += x
	}
	if k > 0 {
		mean /= float64(k)
	}
	return mean
}

// cubeResult measures the cube at the end.
func (sc *Scene) cubeResult() *CubeResult {
	d, _ := sc.Sim.Dynamics(CubeBody)
	b := sc.Sim.Bodies()[CubeBody]
	box, _ := b.Shape.Bounds()
	return &CubeResult{
		NormalForce: sc.lastMean(sc.metrics.cubeForces), Weight: d.Mass * r3.Norm(sc.Sim.Settings().Gravity),
		Speed: r3.Norm(d.Velocity), Height: b.Start.Position.Z + box.Min.Z,
	}
}

// dropResult measures the object at rest.
func (sc *Scene) dropResult() *DropResult {
	return &DropResult{
		NormalForce: sc.lastMean(sc.metrics.floorForces), Weight: sc.total * r3.Norm(sc.Sim.Settings().Gravity),
		Penetration: sc.metrics.lastPen, Speed: sc.Sim.Stats().MaxSpeed,
	}
}
