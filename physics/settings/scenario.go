package settings

import (
	"fmt"
	"math"
	"strings"

	"softgrasp/physics/rigid"
)

// Kind names a scenario.
type Kind string

// The scenarios: the grasp-and-rotate demo, two validation scenes (a block
// on an incline for friction, an object dropped on the floor for
// Signorini) and the squeeze scene of the Table-1 benchmark.
const (
	GraspRotate Kind = "grasp-rotate"
	Incline     Kind = "incline"
	Drop        Kind = "drop"
	Squeeze     Kind = "squeeze"
	// CubeDrop drops a dynamic rigid cube onto the soft object resting on
	// the floor (DropHeight above its top), where it comes to rest.
	CubeDrop Kind = "cube-drop"
	// FastSpin is the grasp-and-rotate scene spun at FastSpinOmega with a
	// step of FastSpinStep: the jaws turn by 0.5 rad within one step, the
	// regime the recursive re-linearisation of the contact directions is
	// for, where K = 1 and K = 5 differ visibly (docs/method.md).
	FastSpin Kind = "fast-spin"
	// SoftFingers: two soft pads, one soft body of two parts, attached to
	// flat jaws, grip a dynamic rigid cube resting on the floor (rigid–rigid
	// contact), lift it and spin it SpinTurns turns (2 by default: 4π).
	// The pads' friction alone holds it; if they do not, it stays on or
	// falls back onto the floor.
	SoftFingers Kind = "soft-fingers"
	// Stack: two soft cubes of half the object size, one soft body of two
	// parts, the upper resting on the lower on the floor (soft–soft
	// contact); after StackSettle seconds at rest, flat jaws squeeze both
	// together, lift the stack and spin it.
	Stack Kind = "stack"
	// Custom is a scene of listed bodies (Scenario.Soft and Rigid, from a
	// version 2 scene file) over the floor, run for Scenario.Duration,
	// without a gripper.
	Custom Kind = "custom"
)

// The stack preset: StackSettle seconds at rest before the jaws close, and
// 1000 DOFs, 500 per cube (their meshes' own boundaries, not thinned by
// the contact budget: about 310 contacts while squeezed at 1000 DOFs, 570
// at 3000).
const (
	StackSettle = 0.8
	StackDOFs   = 1000
)

// Kinds lists the scenarios.
func Kinds() []Kind {
	return []Kind{GraspRotate, FastSpin, Incline, Drop, Squeeze, CubeDrop, SoftFingers, Stack, Custom}
}

// The fast-spin preset: ω = 8π rad/s (four turns a second), h = 20 ms and
// about 1000 DOFs. At 3000 DOFs this spin inverts elements whatever K;
// at 1000 DOFs K = 5 holds the object to a few tenths of a millimetre
// while K = 1 (at the same 30 PGS sweeps per iteration) sinks by
// millimetres and inverts elements within the spin.
const (
	FastSpinOmega = 8 * math.Pi
	FastSpinStep  = 0.02
	FastSpinDOFs  = 1000
)

// The soft-fingers preset: a spin of two turns (4π) and 1000 DOFs, 500 per
// pad (its pads are their meshes' own boundaries, not thinned by the
// contact budget: 250 contacts at 1000 DOFs, 510 at 3000).
const (
	SoftFingersTurns = 2
	SoftFingersDOFs  = 1000
)

// WithKind returns c switched to scenario k; switching to FastSpin also
// sets its spin speed and time step, to SoftFingers its flat jaws, spin
// and DOFs, to Stack its DOFs, to Custom its default duration and, with
// no soft body listed, one soft box of the object's size and DOF budget
// (and to any other kind drops a custom scene's body lists).
func (c Scenario) WithKind(k Kind) Scenario {
	c.Kind = k
	if k == FastSpin {
		c.Omega, c.Physics.TimeStep, c.TargetDOFs = FastSpinOmega, FastSpinStep, FastSpinDOFs
	}
	if k == SoftFingers {
		c.JawStyle, c.SpinTurns, c.TargetDOFs = rigid.FlatJaws, SoftFingersTurns, SoftFingersDOFs
	}
	if k == Stack {
		c.TargetDOFs = StackDOFs
	}
	if k != Custom {
		c.Soft, c.Rigid, c.Duration, c.Gripper, c.GripperPath = nil, nil, 0, false, nil
	} else {
		if c.Duration == 0 {
			c.Duration = DefaultDuration
		}
		if len(c.Soft) == 0 { // one soft box on the floor until a file lists the bodies
			c.Soft = []SoftSpec{{Shape: BoxShape, Size: [3]float64{c.ObjectSize, c.ObjectSize, c.ObjectSize}, DOFs: c.TargetDOFs}}
		}
	}
	return c
}

// Grasps reports whether the scenario is a grasp-and-rotate one (the
// gripper and its script).
func (k Kind) Grasps() bool { return k == GraspRotate || k == FastSpin }

// ParseKind reads a scenario name.
func ParseKind(name string) (Kind, error) {
	for _, k := range Kinds() {
		if string(k) == strings.ToLower(strings.TrimSpace(name)) {
			return k, nil
		}
	}
	names := make([]string, len(Kinds()))
	for i, k := range Kinds() {
		names[i] = string(k)
	}
	return "", fmt.Errorf("unknown scenario %q: want one of %s", name, strings.Join(names, ", "))
}

// Object selects the procedural soft object.
type Object string

const (
	BoxObject      Object = "box"
	CylinderObject Object = "cylinder"
)

// UpAxis names the axis of a mesh file's coordinates that points up. The
// scene's is +z; many files (OBJ and glTF exports, scans, statues) are
// modelled with +y up, and a scan has no up at all.
type UpAxis int

const (
	// AutoUp turns the file so that it rests stably on the floor: on its
	// own z or y bottom when it stands level there, else on the face of
	// its convex hull it is most stable on (scenario.restingTurn). The
	// default.
	AutoUp UpAxis = iota
	ZUp           // the file's +z points up: taken as it is
	YUp           // the file's +y points up: turned so that it points along +z
)

// upAxisNames are the up axes' names, by value.
var upAxisNames = []string{ZUp: "z", YUp: "y", AutoUp: "auto"}

// UpAxes lists the up axes, by value.
func UpAxes() []UpAxis { return []UpAxis{ZUp, YUp, AutoUp} }

// String returns "z", "y" or "auto".
func (u UpAxis) String() string { return choiceName(upAxisNames, "UpAxis", int(u)) }

// GraspAim says how the grasp-and-rotate script aims at the object.
type GraspAim int

const (
	// AimFollow aims again, while the jaws are still open above it, at an
	// object that has moved (rolled, tipped over), and waits for it to
	// come to rest before closing (scenario.Scene.followObject). The
	// default.
	AimFollow GraspAim = iota
	// AimOnce aims once, at the object as the scene starts.
	AimOnce
)

// GraspLoop says whether the grasp-and-rotate script runs once or again
// and again.
type GraspLoop int

const (
	// LoopOnce grasps, lifts, spins and holds once: the headless default,
	// whose summary measures one grasp.
	LoopOnce GraspLoop = iota
	// LoopRepeat then sets the object down, opens, rises and grasps it
	// again where it lies, until a command takes the gripper: the
	// viewer's default, a demo that goes on.
	LoopRepeat
)

// graspLoopNames are the loops' names, by value.
var graspLoopNames = []string{LoopOnce: "once", LoopRepeat: "repeat"}

// String returns "once" or "repeat".
func (l GraspLoop) String() string { return choiceName(graspLoopNames, "GraspLoop", int(l)) }

// graspAimNames are the aims' names, by value.
var graspAimNames = []string{AimOnce: "once", AimFollow: "follow"}

// String returns "once" or "follow".
func (a GraspAim) String() string { return choiceName(graspAimNames, "GraspAim", int(a)) }

// Mesher selects how a mesh file becomes the mechanical (finite-element)
// mesh.
type Mesher int

const (
	// GridMesher builds a grid of tetrahedra at the DOF budget, kept where
	// the surface's winding number says inside, and maps the file's
	// surface onto it (physics/embed): the surface keeps its detail for
	// contact and drawing, the DOFs follow the budget. A volume mesh with
	// more DOFs than the budget is handled the same way through its
	// boundary, unless VolumeMesh says as-is.
	GridMesher Mesher = iota
	// TetGenMesher fills a closed surface with TetGen at the budget; the
	// mesh's boundary is the surface, so a detailed surface gives many
	// DOFs. A volume mesh is taken as it is.
	TetGenMesher
)

// mesherNames are the meshers' names, by value.
var mesherNames = []string{GridMesher: "grid", TetGenMesher: "tetgen"}

// String returns "grid" or "tetgen".
func (m Mesher) String() string { return choiceName(mesherNames, "Mesher", int(m)) }

// VolumeMesh selects what the grid mesher does with a volume mesh file
// that has more DOFs than the budget.
type VolumeMesh int

const (
	// VolumeToBudget maps the volume mesh's boundary onto a grid mesh at
	// the budget.
	VolumeToBudget VolumeMesh = iota
	// VolumeAsIs simulates the volume mesh as it is, whatever its size.
	VolumeAsIs
)

// volumeMeshNames are the choices' names, by value.
var volumeMeshNames = []string{VolumeToBudget: "budget", VolumeAsIs: "as-is"}

// String returns "budget" or "as-is".
func (v VolumeMesh) String() string { return choiceName(volumeMeshNames, "VolumeMesh", int(v)) }

// Scenario describes a scene: the simulation's Settings and the scene's
// own configuration.
type Scenario struct {
	Kind    Kind
	Physics Settings

	// Object is the procedural soft object, ObjectSize its edge (box) or
	// diameter and height (cylinder), m. MeshFile, when set, loads a mesh
	// file instead (a volume mesh, or a closed surface that TetGen fills):
	// with MeshScale = 0 it is scaled so its largest extent is ObjectSize;
	// MeshScale > 0 gives the metres per unit of its coordinates instead
	// (0.001 for a mesh in millimetres). MeshUp is the file's axis that
	// points up: a Y-up file is turned so that its +y becomes +z before it
	// is scaled and placed on the floor; auto (the default) turns it to
	// rest stably.
	Object     Object
	ObjectSize float64
	MeshFile   string
	MeshScale  float64
	MeshUp     UpAxis
	// Mesher is how a mesh file becomes the mechanical mesh, and
	// VolumeMesh what the grid mesher does with a volume mesh above the
	// budget.
	Mesher     Mesher
	VolumeMesh VolumeMesh
	// TargetDOFs is the mechanical budget: the resolution of the
	// procedural meshes and of the mesh a mesh file's surface is mapped
	// onto (or that TetGen fills): the scene builds the mesh nearest to
	// this many degrees of freedom.
	TargetDOFs int

	// Grasp-and-rotate: the spin speed of the gripper about its own axis
	// (rad/s), its jaws, the normal force each jaw closes to and holds
	// (N; AutoGrip: GripWeights times the object's weight), how deep the squeeze and stack scenes' jaws squeeze their
	// object (m, per side) and whether the script drives the gripper
	// (false: commands only).
	Omega     float64
	JawStyle  rigid.JawStyle
	GripForce float64
	Squeeze   float64
	Scripted  bool
	SpinTurns float64 // duration of the spin phase in turns at Omega (0: 1 s)
	// GraspAim: aimed once at the start, or following an object that
	// moves before the jaws close; GraspLoop: one grasp, or again and
	// again.
	GraspAim  GraspAim
	GraspLoop GraspLoop

	// Incline: slope angle (rad). Drop: height of the object's bottom
	// above the floor (m).
	InclineAngle float64
	DropHeight   float64

	// Attach holds soft nodes in place: to the world, or to a rigid body
	// they then follow (AttachSpec). None by default.
	Attach []AttachSpec `json:",omitempty"`

	// Soft and Rigid list the bodies of a custom scene, Duration its
	// length in seconds (bodies.go); empty and 0 in the other scenes.
	// Gripper adds the two-jaw gripper with the grasp-and-rotate script,
	// aimed at the soft bodies, whose timeline then sets the length;
	// with a GripperPath (bodies.go, Waypoint) the gripper follows that
	// path instead, and the path's last time sets the length.
	Soft        []SoftSpec  `json:",omitempty"`
	Rigid       []RigidSpec `json:",omitempty"`
	Duration    float64     `json:",omitempty"`
	Gripper     bool        `json:",omitempty"`
	GripperPath []Waypoint  `json:",omitempty"`
}

// DefaultScenario returns the default configuration of a scenario: the
// default physics settings (Default), the table's scene defaults (a 4 cm
// soft box of about 3000 DOFs, the gripper spinning at 2π rad/s with
// round fingertips, a 25° incline, a 2 cm drop), the script on, then the
// scenario's preset (WithKind: fast-spin's ω and h, ...).
func DefaultScenario(k Kind) Scenario {
	c := Scenario{Kind: GraspRotate, Physics: Default(), Object: BoxObject, Scripted: true}
	setDefaults(&c, SceneScope)
	return c.WithKind(k)
}

// AutoGrip is the GripForce that asks for the object's own grip: each jaw
// pushes with GripWeights times the object's weight (scenario.Scene's grip
// target), so that a light or thin object is not crushed by a force meant
// for a heavy one. The default.
const AutoGrip = 0

// GripWeights is the automatic grip force per jaw in weights of the
// object: 6.5 gives the default 40 mm box (70.4 g, 0.69 N) the 4.5 N each
// jaw carried on it when the jaws closed 3 mm into each side (9.1 N both
// together during the spin), before the grip was force-controlled; with
// μ = 0.8 that is ten times the force its weight needs.
const GripWeights = 6.5

// MaxGripForce bounds the grip force, N.
const MaxGripForce = 100

// MaxOmega bounds the spin speed of the grasp-and-rotate script, rad/s.
const MaxOmega = 100

// CheckOmega reports a spin speed outside [−MaxOmega, MaxOmega] rad/s.
func CheckOmega(omega float64) error {
	c := Scenario{Omega: omega}
	return ParamByKey("omega").Check(&c)
}

// Validate names the first field out of range: the kind, the physics
// settings, the object, then the parameter table's SceneScope entries.
func (c Scenario) Validate() error {
	if _, err := ParseKind(string(c.Kind)); err != nil {
		return err
	}
	if err := c.Physics.Validate(); err != nil {
		return err
	}
	if c.Object != BoxObject && c.Object != CylinderObject {
		return fmt.Errorf("Object = %q: want box or cylinder", c.Object)
	}
	if c.Kind == SoftFingers && c.MeshFile != "" {
		return fmt.Errorf("MeshFile = %q: the soft-fingers scene builds its own soft pads and grips a rigid cube; it takes no mesh file", c.MeshFile)
	}
	if err := c.validateBodies(); err != nil {
		return err
	}
	if c.Kind == Stack && c.MeshFile != "" {
		return fmt.Errorf("MeshFile = %q: the stack scene builds its own two soft cubes; it takes no mesh file", c.MeshFile)
	}
	for i, a := range c.Attach {
		if err := a.Validate(); err != nil {
			return fmt.Errorf("Attach[%d] (%s): %w", i, a, err)
		}
	}
	return checkScope(&c, SceneScope)
}

// Files returns the address of every file path the scenario loads (the
// mesh file, each custom body's mesh), "" entries included, so that a
// recording can embed the files and a replay point them at its copies.
func (c *Scenario) Files() []*string {
	out := []*string{&c.MeshFile}
	for i := range c.Soft {
		out = append(out, &c.Soft[i].Mesh)
	}
	for i := range c.Rigid {
		out = append(out, &c.Rigid[i].Mesh)
	}
	return out
}
