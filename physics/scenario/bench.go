package scenario

import (
	"math"

	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// The squeeze scene (settings.Squeeze) is the scene of the paper's Table 1 benchmark: a soft box
// squeezed between two flat jaws over a large part of two opposite faces,
// lifted off the floor and then turned slowly about the gripper's axis for
// as long as the measurement lasts. The jaws are sized to the box so that
// the number of proximity pairs grows with the mesh resolution as in the
// paper (about 300 at 18k DOFs to 480 at 36k): nearly all pairs are soft
// vertices of the squeezed faces, plus the samples of the jaws' front edges.
//
// The slow turn keeps the constraint directions changing within every
// step, so the Newton iterations re-linearise real motion: the normals at
// the start of the step (collision detection) differ from those of the
// jaws' end-of-step poses.

// Geometry and timeline of the squeeze scene.
const (
	// squeezeJawFraction is the jaws' contact face (width and height) as a
	// fraction of the object's size.
	squeezeJawFraction = 0.52
	// squeezeGap is the clearance between each jaw and the object when the
	// scene starts, m: inside the alarm distance, so the pairs exist from
	// the first step and the jaws close on them.
	squeezeGap = 1e-3
	// benchAlarm is the alarm distance of the benchmark, m. The slow turn
	// moves the jaws' edges by about 0.2 mm per step, so 2 mm still covers
	// ten steps of motion, while the default 4 mm would add a wide ring of
	// separated pairs around each jaw.
	benchAlarm = 2e-3
	// squeezeLift is how far the gripper lifts the object, m: above the
	// alarm distance, so that no floor pair remains.
	squeezeLift = 0.01
	// benchOmega is the slow turn of the benchmark, rad/s, and
	// benchSpinTurns how long it lasts (2 turns at 1 rad/s: 12.6 s, over
	// a thousand steps of 10 ms).
	benchOmega     = 1.0
	benchSpinTurns = 2
)

// BenchConfig returns the squeeze scene at about dofs degrees of freedom
// with the measurement protocol of the paper's Table 1: exactly K = 5
// Newton iterations of exactly 30 PGS sweeps each (both tolerances 0, so
// that the two schemes do the same amount of work per step), the exact
// factorisation of A in every step, and the slow turn of the gripper.
func BenchConfig(dofs int) settings.Scenario {
	return BenchConfigOf(settings.Squeeze, dofs)
}

// BenchConfigOf is BenchConfig for the squeeze scene or the stack (two
// soft cubes of about dofs/2 DOFs each, in soft–soft contact, squeezed
// together after their rest: the Table-1 protocol with two soft bodies).
func BenchConfigOf(kind settings.Kind, dofs int) settings.Scenario {
	cfg := settings.DefaultScenario(kind).WithKind(kind)
	p := &cfg.Physics
	cfg.TargetDOFs = dofs
	p.NewtonIterations, p.NewtonTolerance = 5, 0
	p.PGSIterations, p.PGSTolerance = 30, 0
	p.Solver = settings.ExactSolver
	p.AlarmDistance = benchAlarm
	cfg.JawStyle = rigid.FlatJaws
	cfg.Omega = benchOmega
	cfg.SpinTurns = benchSpinTurns
	return cfg
}

// squeezeGripper returns the flat-jawed gripper of the squeeze scene for
// an object of the given size (edge of the box, m): square jaw faces of
// squeezeJawFraction of the size, default thickness and edge sampling.
func squeezeGripper(size float64) rigid.Gripper {
	g := rigid.DefaultGripper()
	g.Style = rigid.FlatJaws
	g.JawWidth = squeezeJawFraction * size
	g.JawHeight = squeezeJawFraction * size
	return g
}

// newSqueezeScript lays out the squeeze timeline for an object of the
// given height resting on the floor: the gripper starts at grasp height
// with the jaws squeezeGap away from the object (open), closes them to
// the squeeze opening (closed), lifts the object by squeezeLift and turns
// at cfg.Omega for SpinTurns turns (1 s when zero). There is no approach
// from above: the scene reaches its measured state in about 0.6 s.
func newSqueezeScript(cfg settings.Scenario, height, open, closed float64) *graspScript {
	z := height / 2
	return scheduled(cfg, graspScript{zHigh: z, zGrasp: z, lift: squeezeLift, openWide: open, openGrip: closed},
		phaseDurations{settle: 0.05, approach: 0, close: 0.2, hold: 0.05, lift: 0.2})
}

// BenchWarmupSteps returns the number of steps after which the squeeze
// scene of cfg holds the object lifted and turns at full speed: the end of
// the spin's ramp, plus five steps for the contact forces to settle. The
// benchmark measures from there.
func BenchWarmupSteps(cfg settings.Scenario) int {
	s := newSqueezeScript(cfg, 0, 0, 0)
	if cfg.Kind == settings.Stack {
		s = newStackScript(cfg, 0, 0, 0)
	}
	settled := s.spinStart() + s.spinRamp
	return int(math.Ceil(settled/cfg.Physics.TimeStep-1e-9)) + 5
}
