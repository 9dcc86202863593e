// Package frame is what passes between the physics goroutine and a
// viewer: the frames published after each step (positions as float32
// ready for a vertex buffer, contacts, stage timings, the gripper), the
// static Scene they refer to, the running Config, the lock-free
// TripleBuffer that hands frames over, the checksum that proves a frame
// was read whole, and the Commands a viewer sends back, each of which
// validates itself.
//
// It imports the settings and stage times it shows and nothing of the
// simulation, so a viewer builds without the solver behind it (no cgo, no
// CHOLMOD).
package frame

import (
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/settings"
	"softgrasp/physics/stage"
)

// Scene is the static part of what a viewer draws. It changes only when the
// simulation is reset or its mesh reloaded; Version then increases and the
// viewer rebuilds its buffers. A published Scene is never modified.
type Scene struct {
	Version  uint64
	MeshName string
	DOFs     int
	// SurfaceTris holds three indices per boundary triangle into the
	// surface vertices (outward, counter-clockwise).
	SurfaceTris []uint32
	// SurfaceRest holds the rest positions of the surface vertices, three
	// float32 per vertex, metres.
	SurfaceRest []float32
	// Bodies are the rigid bodies' drawable meshes in their own frames.
	Bodies []BodyMesh
	// Jaws describe the gripper's jaws for a click's aim: each jaw's
	// contact face (across and along the gripper's axis), its widest and
	// narrowest opening (m); zero without a gripper.
	JawWidth, JawHeight, Reach, MinOpening float64
}

// BodyMesh is a rigid body's triangle mesh in its body frame.
type BodyMesh struct {
	Name     string
	Vertices []float32 // three per vertex
	Indices  []uint32  // three per triangle
	Floor    bool      // the ground plane: drawn as a grid
}

// MaxNewton bounds the Newton iterations whose convergence a frame records.
const MaxNewton = settings.MaxNewton

// Frame is the state of one physics step as a viewer needs it. Frames are
// preallocated and filled by the physics goroutine, then published whole;
// a viewer only reads them.
type Frame struct {
	// Seq is the number of the step that produced the frame (monotonic
	// within a Scene version).
	Seq          uint64
	SceneVersion uint64
	// ConfigVersion is the Version of the running Config when the frame
	// was made: a viewer reloads the Config when it changes.
	ConfigVersion uint64
	Time          float64 // simulated time, s

	// Message is the last command error or divergence report ("" when all
	// is well).
	Message string

	// Surface holds the current surface vertex positions, three float32
	// per vertex in the Scene's order.
	Surface []float32
	// Displacement is |q − q_rest| per surface vertex (m) and VonMises the
	// node-averaged von Mises stress (Pa), for the colour maps.
	Displacement []float32
	VonMises     []float32 // empty unless asked for (SetStressField)

	// BodyPoses holds one column-major 4×4 model matrix per Scene body
	// (ModelMatrix).
	BodyPoses [][16]float32

	// Contacts of the step, in the order of the solver.
	Contacts []ContactView

	Stats Stats

	// GhostSurface holds the A/B mode's scene B surface positions in
	// Surface's layout (empty when the mode is off); Stats.AB measures it
	// against A.
	GhostSurface []float32

	// Gripper is the gripper's state and command (Present is false in
	// scenes without one).
	Gripper GripperView

	// Checksum covers every field above; a reader recomputes it to prove
	// it never saw a frame being written.
	Checksum uint64
}

// GripperView is the gripper as the panels and the mouse handlers need
// it: where it is at the end of the step and where its driver is taking
// it. Unlike the drawing data it stays in float64: the viewer computes
// commands from it.
type GripperView struct {
	Present bool
	// Scripted is true while the grasp script drives the gripper, false
	// when commands do; Path is true when the scene's script is a gripper
	// path of its own (a scene file's waypoints) rather than the
	// grasp-and-rotate script.
	Scripted, Path bool
	// Position is the grasp centre, Rotation the gripper frame (closing
	// axis x, own axis z), Opening the distance between the jaws' contact
	// surfaces (m), all at the end of the step.
	Position r3.Vec
	Rotation r3.Rotation
	Opening  float64
	// Target and TargetOpening are the driver's command, which the
	// gripper approaches at bounded speed.
	Target        r3.Vec
	TargetOpening float64
}

// ContactView is one contact as drawn: where it is, its directions at the
// start of the step and after the Newton iterations, and its force.
type ContactView struct {
	Point     [3]float32 // soft proximity point at the end of the step, m
	Normal0   [3]float32 // normal from collision detection (start of step)
	Normal    [3]float32 // normal of the last Newton iteration
	Deviation float32    // angle between Normal0 and Normal, rad
	ForceN    [3]float32 // normal force on the soft body, N
	ForceT    [3]float32 // friction force on the soft body, N
	State     uint8      // contact.State: separated, stick, slip
}

// Stats are the per-step measurements shown in the Stats panel.
type Stats struct {
	Scheme           string // "fast" or "standard"
	Phase            string // phase of the grasp script, "manual" when driven by commands
	Paused           bool
	Error            string // non-empty when the simulation stopped (divergence)
	Contacts         int
	NewtonIterations int // Newton iterations actually run
	PGSIterations    int // PGS sweeps summed over the Newton iterations
	// UnconvergedSolves counts the step's solves with A whose conjugate
	// gradient stopped at its iteration cap (asynchronous solver).
	UnconvergedSolves int
	// FrictionOverride is the Coulomb coefficient μ that the scene
	// imposes on the steps in place of the configured one, as of the
	// frame, while FrictionOverridden (the incline's hold and release
	// ramp); the Config keeps the configured μ.
	FrictionOverride   float64
	FrictionOverridden bool

	// MS are the step's stage times: Table 1's BuildWH and Total and the
	// other stages per step, RebuildW, PGS, Corr and NewtonIter per Newton
	// iteration; MS.Step is the wall time of the whole step.
	MS stage.MS

	Penetration float64 // max end-of-step penetration, m
	Slip        float64 // object's drift in the gripper frame since the grasp closed, m
	Held        bool
	GripForce   float64 // total normal force of the jaws, N
	// GripLeft and GripRight are each jaw's normal force and GripTarget
	// the force each closes to, N; Gripping is true while the jaws close
	// or hold by force.
	GripLeft, GripRight, GripTarget float64
	Gripping                        bool
	// ScriptStop says why the grasp script stopped or refused the object
	// ("" while it runs, or without one).
	ScriptStop string

	StepRate       float64 // steps per wall-clock second
	RealtimeFactor float64 // simulated time / wall time

	// Backend names where the fast scheme's Newton iterations run
	// (BackendCPU, BackendGPU), as of the frame: the Simulation panel's
	// toggle shows it.
	Backend string
	// DeviceTimed is true when the backend measures its device's work
	// (physics.DeviceTimer); DeviceKernel and DeviceTransfer are then the
	// step's time in kernels and in host↔device copies, ms, measured by
	// events on the device's stream.
	DeviceTimed                  bool
	DeviceKernel, DeviceTransfer float64

	// AB compares scene B with A while the A/B mode is on.
	AB ABStats

	// DirectionChange[k] and PositionChange[k] record, for Newton
	// iteration k, the largest change of a contact direction (rad) and of a
	// proximity position (m) against the previous iteration.
	DirectionChange [settings.MaxNewton]float64
	PositionChange  [settings.MaxNewton]float64
	// ElasticResidual[k] is Newton iteration k's backward-Euler residual,
	// as the largest node move its correction calls for (m; 0 unless
	// Newton on the whole residual is on, and for k = 0 with contacts).
	ElasticResidual [settings.MaxNewton]float64
	// ContactResidual[k] is the residual of Signorini's law at the iterate
	// Newton iteration k started from (m; 0 for k = 0;
	// physics.NewtonRecord.ContactResidual).
	ContactResidual [settings.MaxNewton]float64
}

// ABStats measure the A/B mode's scene B against A after each step.
type ABStats struct {
	On      bool
	Changes string // B's changes (settings.ApplyAB)
	// NodeDistance is the largest distance between the same node in A and
	// in B (m), and MaxNodeDistance its largest since B started.
	NodeDistance, MaxNodeDistance float64
	Penetration                   float64 // B's max end-of-step penetration, m
	// Error is B's step error when B diverged: B then stops where it
	// was, A goes on.
	Error string
}

// Config is a running scene's configuration, published once per change
// (a rebuild, an applied setting) and never modified after: frames carry
// only its Version.
type Config struct {
	Version  uint64
	Scenario settings.Scenario
}
