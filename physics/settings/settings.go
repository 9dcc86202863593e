// Package settings holds what a user sets up, apart from what a step
// changes: the simulation's Settings (time step, Newton and PGS
// iterations, friction, scheme, solver of A, material, contact
// distances), the soft body's Material, and a Scenario's configuration
// (which scene, which object at which resolution, the gripper's script).
// Each validates itself and names the first field out of range. Every
// scalar setting is declared once, in the parameter table (params.go),
// from which the validation, the command-line flags, the panels' fields
// and the A/B keys are generated.
//
// It imports nothing of the simulation, so that the viewer's packages can
// edit and show settings without building the solver behind them.
package settings

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Scheme selects how the constraint matrices are updated in the Newton
// iterations of the recursive corrective motion.
type Scheme int

const (
	// Fast is Algorithm 3: W_H = H·A⁻¹·Hᵀ once per step, then each Newton
	// iteration rebuilds W = C·W_H·Cᵀ and moves p += h²·W_H·Cᵀλ.
	Fast Scheme = iota
	// Standard is Algorithm 2: each Newton iteration rebuilds
	// W = J·A⁻¹·Jᵀ with J = C·H and applies a full corrective solve.
	Standard
)

// schemeNames are the schemes' names, by value.
var schemeNames = []string{Fast: "fast", Standard: "standard"}

// String returns "fast" or "standard".
func (s Scheme) String() string { return choiceName(schemeNames, "Scheme", int(s)) }

// ParseScheme reads "fast" or "standard".
func ParseScheme(name string) (Scheme, error) {
	v, err := ParamByKey("scheme").Parse(name)
	return Scheme(v), err
}

// Linearisation selects the rigid bodies' poses at which the first
// Newton iteration of a step linearises the contact normals (every later
// one re-linearises at their end poses).
type Linearisation int

const (
	// EndPose carries each detection normal, found at the start of the
	// step, to its body's end pose by the body's rotation over the step:
	// every linearisation of the step is at the end poses.
	EndPose Linearisation = iota
	// StartPose takes the detection normals as found at the start poses.
	StartPose
)

// linearisationNames are the choices' names, by value.
var linearisationNames = []string{EndPose: "end", StartPose: "start"}

// String returns "end" or "start".
func (l Linearisation) String() string {
	return choiceName(linearisationNames, "Linearisation", int(l))
}

// FastMapping says whether the fast scheme holds the geometric mapping H
// over the step (Algorithm 3 as the paper gives it) or re-maps its
// rigid-vertex pairs inside the Newton loop as the standard scheme does.
type FastMapping int

const (
	// MappingHeld keeps each rigid-vertex pair's barycentric point on its
	// soft triangle as detection found it, for the whole step.
	MappingHeld FastMapping = iota
	// MappingRemapped re-finds, at every Newton iterate, the point of the
	// pair's triangle closest to its rigid vertex, with the triangle's
	// corners moved by the iterate's correction, and rebuilds the pair's
	// rows of W_H from the corners' compliance (docs/method.md,
	// "Re-mapping in the fast scheme").
	MappingRemapped
)

// fastMappingNames are the choices' names, by value.
var fastMappingNames = []string{MappingHeld: "held", MappingRemapped: "remapped"}

// String returns "held" or "remapped".
func (m FastMapping) String() string {
	return choiceName(fastMappingNames, "FastMapping", int(m))
}

// TurnStart selects where a step that iterates on the whole residual
// (ElasticTolerance, ElasticTurn) starts its free motion.
type TurnStart int

const (
	// TurnPredicted starts from the body's rigid motion over the step,
	// turned by h·ω about its centre of mass, and corrects it by one
	// Newton step on the whole residual without contact forces (the
	// default).
	TurnPredicted TurnStart = iota
	// TurnLinearised starts from A⁻¹·b, the internal forces linearised
	// at q_t, which extrapolates the turn along its tangent.
	TurnLinearised
)

// turnStartNames are the choices' names, by value.
var turnStartNames = []string{TurnLinearised: "linearised", TurnPredicted: "predicted"}

// String returns "predicted" or "linearised".
func (t TurnStart) String() string {
	return choiceName(turnStartNames, "TurnStart", int(t))
}

// Precision selects the floating-point precision of the compliance
// products W = X·A⁻¹·Xᵀ (the fast scheme's W_H, the standard scheme's W,
// the asynchronous solver's node compliances).
type Precision int

const (
	// PrecisionDouble computes them in double precision. It is the zero
	// value so that a configuration written before the setting existed
	// reads as it ran then.
	PrecisionDouble Precision = iota
	// PrecisionSingle runs the compliance kernel's forward solves and
	// products in single precision (sparse.Factor.ComplianceSingle:
	// relative error of W about 1e-7; docs/method.md, "Compliance in
	// single precision").
	PrecisionSingle
)

// precisionNames are the choices' names, by value.
var precisionNames = []string{PrecisionDouble: "double", PrecisionSingle: "single"}

// String returns "double" or "single".
func (p Precision) String() string {
	return choiceName(precisionNames, "Precision", int(p))
}

// ParsePrecision reads "double" or "single".
func ParsePrecision(name string) (Precision, error) {
	v, err := ParamByKey("compliance-precision").Parse(name)
	return Precision(v), err
}

// Fall selects the fall towards a body that a prediction of a point's
// motion over a step counts beyond its motion at its start velocity: the
// alarm distance (AlarmFall); the contact budget's reach always counts the
// last step's (docs/method.md, "The fall the reach counts").
type Fall int

const (
	// FallLastStep counts the point's own velocity change of the last
	// step times h, h·(v_t − v_{t−h}), and a tenth of gravity's fall for
	// what it did not foresee: a body resting on the floor keeps its
	// nearest pairs, not every point within 1.5 falls of it.
	FallLastStep Fall = iota
	// FallGravity counts gravity's whole one-step fall h²·g, as for a
	// body in free fall.
	FallGravity
)

// fallNames are the choices' names, by value.
var fallNames = []string{FallGravity: "gravity", FallLastStep: "last-step"}

// String returns "gravity" or "last-step".
func (f Fall) String() string {
	return choiceName(fallNames, "Fall", int(f))
}

// ParseFall parses "gravity" or "last-step" (the alarm-fall parameter's
// parse, which names the choices in its error).
func ParseFall(name string) (Fall, error) {
	v, err := ParamByKey("alarm-fall").Parse(name)
	return Fall(v), err
}

// Solver selects how the system matrix A is factored.
type Solver int

const (
	// ExactSolver factors A in every step: solves and compliances are
	// exact.
	ExactSolver Solver = iota
	// AsyncSolver refreshes the factor of A in the background while the
	// steps go on with the latest one (Courtecuisse et al. 2014): solves
	// run preconditioned conjugate gradient on the current A, and W_H
	// comes from the latest factor, warped by the body's rotation since.
	// It applies to the fast scheme; standard steps factor exactly.
	AsyncSolver
)

// solverNames are the solvers' names, by value.
var solverNames = []string{ExactSolver: "exact", AsyncSolver: "async"}

// String returns "exact" or "async".
func (s Solver) String() string { return choiceName(solverNames, "Solver", int(s)) }

// ParseSolver reads "exact" or "async".
func ParseSolver(name string) (Solver, error) {
	v, err := ParamByKey("solver").Parse(name)
	return Solver(v), err
}

// Settings gathers every parameter of the simulation. Start from
// DefaultSettings and change what you need; Validate names the first field
// out of range.
type Settings struct {
	// TimeStep is h, the fixed step of the implicit integration (s).
	TimeStep float64
	// NewtonIterations is K, the maximum number of Newton iterations of the
	// recursive corrective motion; K = 1 is the classic scheme.
	NewtonIterations int
	// NewtonTolerance and NewtonPositionTolerance stop the Newton
	// iterations early when the normal of no pair within reach of contact
	// turned by more than NewtonTolerance (rad) since the previous
	// linearisation and the last correction moved no proximity point by
	// more than NewtonPositionTolerance (m). NewtonTolerance = 0 runs
	// exactly K iterations.
	NewtonTolerance         float64
	NewtonPositionTolerance float64
	// ContactTolerance, when positive, also lets the Newton iterations
	// stop once the contact law's residual at the iterate
	// (NewtonRecord.ContactResidual: Signorini's and Coulomb's, m) is
	// within it, the directions converged as NewtonTolerance asks, while
	// proximity points still move by more than NewtonPositionTolerance:
	// the later iterations then only act as extra PGS sweeps
	// (docs/method.md, "When Newton stops"). 0 stops on the move alone.
	ContactTolerance float64
	// FastMapping is whether the fast scheme holds H over the step or
	// re-maps its rigid-vertex pairs at every Newton iterate.
	FastMapping FastMapping
	// FirstLinearisation is where the first Newton iteration linearises
	// the normals (docs/method.md, "First linearisation at the end
	// pose"): EndPose, the default, or StartPose.
	FirstLinearisation Linearisation
	// ElasticTolerance turns on Newton on the whole backward-Euler
	// residual when positive: each Newton iteration re-evaluates the
	// internal forces at q_k and, while the residual's bound on the move
	// of its correction (NewtonRecord.ElasticResidual, m) exceeds this
	// tolerance, corrects the free motion by it with the step's factor
	// (docs/method.md, "Newton on the whole residual"); the iterations
	// stop only once it is within it, in the steps ElasticTurn lets
	// through. 0 linearises the internal forces once per step, at the
	// start.
	ElasticTolerance float64
	// ElasticTurn gates ElasticTolerance: the residual is iterated on only
	// in a step in which the soft body, of one part and without
	// attachments, turns by more than this angle (rad) at its start
	// velocity, h·‖ω‖ (StepStats.Turn); 0 iterates in every step, for
	// every body. Slow turns keep the linearised step, which
	// costs less and inflates a spinning body by less than 1 % below
	// 0.1 rad per step (docs/method.md, "The gate by the turn per step").
	ElasticTurn float64
	// TurnStart is where a step that iterates on the whole residual
	// starts its free motion: TurnPredicted, the default, from the body's
	// rigid motion over the step, turned by h·ω, corrected by one
	// quasi-Newton step, or TurnLinearised, from the internal forces
	// linearised at q_t (docs/method.md, "A turning step starts from its
	// rigid motion").
	TurnStart TurnStart
	// PGSIterations is the maximum number of projected Gauss–Seidel sweeps
	// per Newton iteration.
	PGSIterations int
	// PGSTolerance stops PGS when ‖λⁱ − λⁱ⁻¹‖/‖λⁱ‖ falls below it
	// (Algorithm 1). 0 always runs PGSIterations sweeps.
	PGSTolerance float64
	// PGSSingleFrom makes the asynchronous solver's steps with at least
	// this many contacts keep W in single precision for PGS
	// (contact.PGS.SolveSingle: half the bytes per sweep, every sum in
	// double; docs/method.md, "W in single precision"). 0 never does;
	// the exact solver does only with CompliancePrecision single (its W
	// is good to float's rounding then). Zero is the value a configuration
	// written before it existed reads as, and runs as it ran then.
	PGSSingleFrom int
	// CompliancePrecision is the precision of the compliance products,
	// in both schemes and both solvers: PrecisionDouble, the default, or
	// PrecisionSingle, with which the exact solver's PGS also reads W in
	// single precision from PGSSingleFrom contacts on.
	CompliancePrecision Precision
	// ComplianceThreads is the number of threads of the exact solver's
	// compliance products: 1, or 2 (sparse.Factor.SetComplianceThreads:
	// the right-hand sides in two halves of equal work on two threads,
	// the result equal to round-off). 0, the value a configuration
	// written before it existed reads as, means 1. The asynchronous
	// solver always uses one: its worker takes the other core.
	ComplianceThreads int
	// PGSForcing, when positive, makes the Newton iterations inexact
	// (docs/method.md, "Inexact Newton"): PGS stops at the relative
	// tolerance max(PGSTolerance, min(PGSForcing, PGSForcing·θ_k)) in
	// iteration k, θ_k the largest turn of an engaged normal (rad) at its
	// re-linearisation, PGSForcing in the first iteration (no turn yet),
	// and PGSTolerance in the last allowed one. 0 keeps PGSTolerance in
	// every iteration.
	PGSForcing float64
	// Friction is the Coulomb coefficient μ.
	Friction float64
	// Scheme is the update of the constraint matrices (fast or standard).
	Scheme Scheme
	// Solver is the factorisation mode of A (exact every step, or
	// asynchronous with PCG); PCGTolerance and PCGMaxIterations bound the
	// conjugate gradient of the asynchronous mode (relative residual).
	// Like every setting it applies from the next step on: switching it
	// live starts or stops the background factorisation.
	Solver           Solver
	PCGTolerance     float64
	PCGMaxIterations int
	// AsyncLag, when positive, makes the asynchronous solver deterministic:
	// each background factorisation is swapped in exactly this many steps
	// after it started, the step waiting for it if it is not ready (it
	// preconditions from half as many, at least one). 0 (the
	// default) swaps it in as soon as it is ready, so which factor a step
	// uses depends on the machine's load. For tests and reproducible runs.
	AsyncLag int
	// AsyncRefresh, when positive, starts a background factorisation only
	// once the factor in use is at least this many steps old, instead of
	// as soon as the worker is free: fewer factorisations, each factor
	// used longer. The viewer sets it (-async-refresh) so that the render
	// threads get the CPU a free-running worker would take on two cores.
	AsyncRefresh int
	// Material is the soft body's constitutive law and damping.
	Material Material
	// Gravity is the gravitational acceleration (m/s²).
	Gravity r3.Vec
	// AlarmDistance is the proximity within which collision detection
	// creates a pair (m). It must cover the relative motion of one step.
	AlarmDistance float64
	// AlarmFall is the fall towards a body that the alarm distance
	// counts: FallLastStep, the default, the point's velocity change of
	// the last step times h plus a tenth of h²·g, capped at gravity's
	// one-step fall, or
	// FallGravity, gravity's whole one-step fall h²·g (docs/method.md,
	// "The fall the alarm counts"). AlarmFallMargin
	// applies to the fall so chosen.
	AlarmFall Fall
	// AlarmFallMargin is the margin of the alarm distance on gravity's
	// one-step fall h²·g towards a body (the step's alarm covers 1.5 times
	// the rest of the predicted relative motion): 1.5, the default, covers
	// the whole predicted motion alike; 1 counts the fall as it is, a
	// known acceleration, so that an object resting on or held over the
	// floor does not widen the alarm at large steps (docs/method.md, "The
	// alarm distance follows the relative motion").
	AlarmFallMargin float64
	// ContactDistance is the gap that the contact law keeps between the
	// surfaces (m): δn = n·(p − r) − ContactDistance.
	ContactDistance float64
	// MaxSpeed is the node speed above which a step is declared divergent
	// (m/s).
	MaxSpeed float64
	// MaxInvertedFraction is the fraction of inverted elements above which
	// a step is declared divergent.
	MaxInvertedFraction float64
	// ContactBudget bounds the proximity pairs of a step on a surface
	// mapped onto the mesh (mesh.Embedding): detection keeps the two
	// deepest soft-vertex pairs of each rigid body and support (the mesh
	// nodes the soft point follows), and when more pairs than the budget
	// lay within reach, those and each rigid-vertex pair compete, the
	// deepest staying (a support's second after other supports' first
	// unless deeper by the contact distance), the budget shared among the
	// bodies (docs/method.md, "Contact budget"). 0 keeps every pair. The
	// boundary of a procedural mesh is never thinned.
	ContactBudget int
}

// Default returns the default settings: each parameter's default from
// the table (Param.Def; docs/flags.md lists them) and gravity, 9.81 m/s²
// along −z.
func Default() Settings {
	c := Scenario{Physics: Settings{Gravity: r3.Vec{Z: -9.81}}}
	setDefaults(&c, PhysicsScope, MaterialScope)
	return c.Physics
}

// Validate returns an error naming the first field that is out of range
// (the parameter table's PhysicsScope entries, then Gravity and the
// Material).
func (s Settings) Validate() error {
	c := Scenario{Physics: s}
	if err := checkScope(&c, PhysicsScope); err != nil {
		return err
	}
	g := s.Gravity
	if math.IsNaN(g.X+g.Y+g.Z) || math.IsInf(g.X+g.Y+g.Z, 0) || r3.Norm(g) > 1000 {
		return fmt.Errorf("Gravity = %v is out of range: must be finite with magnitude ≤ 1000 m/s²", g)
	}
	if err := s.Material.Validate(); err != nil {
		return fmt.Errorf("Material: %w", err)
	}
	return nil
}

// MaxNewton bounds the Newton iterations (and the length of the per-step
// convergence record).
const MaxNewton = 32
