// Package scenario builds the scenes that softgrasp runs — the grasp-and-
// rotate demo, two validation scenes (a block on an incline for friction,
// an object dropped on the floor for Signorini) and the squeeze scene of
// the Table-1 benchmark (bench.go) — drives their kinematic bodies, and
// measures what the paper cares about: penetration, slip of the grasped
// object, whether it is still held, and the step-to-step jitter of the
// grip force.
package scenario

import (
	"fmt"
	"math"
	"strings"

	"softgrasp/physics"
	"softgrasp/physics/rigid"
)

// Kind names a scenario.
type Kind string

const (
	GraspRotate Kind = "grasp-rotate"
	Incline     Kind = "incline"
	Drop        Kind = "drop"
)

// Kinds lists the scenarios.
func Kinds() []Kind { return []Kind{GraspRotate, Incline, Drop, Squeeze} }

// ParseKind reads a scenario name.
func ParseKind(name string) (Kind, error) {
	for _, k := range Kinds() {
		if string(k) == strings.ToLower(strings.TrimSpace(name)) {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown scenario %q: want grasp-rotate, incline, drop or squeeze", name)
}

// Object selects the procedural soft object.
type Object string

const (
	BoxObject      Object = "box"
	CylinderObject Object = "cylinder"
)

// Config describes a scene. Physics holds the simulation settings
// (TargetDOFs is the mesh resolution); the rest is the scene's own.
type Config struct {
	Kind    Kind
	Physics physics.Settings

	// Object is the procedural soft object, ObjectSize its edge (box) or
	// diameter and height (cylinder), m. MeshFile, when set, loads a mesh
	// file instead (a volume mesh, or a closed surface that TetGen fills):
	// with MeshScale = 0 it is scaled so its largest extent is ObjectSize;
	// MeshScale > 0 gives the metres per unit of its coordinates instead
	// (0.001 for a mesh in millimetres).
	Object     Object
	ObjectSize float64
	MeshFile   string
	MeshScale  float64

	// Grasp-and-rotate: the spin speed of the gripper about its own axis
	// (rad/s), its jaws, how deep the jaws squeeze the object (m, per
	// side) and whether the script drives it (false: commands only).
	Omega     float64
	JawStyle  rigid.JawStyle
	Squeeze   float64
	Scripted  bool
	SpinTurns float64 // duration of the spin phase in turns at Omega (0: 1 s)

	// Incline: slope angle (rad). Drop: height of the object's bottom
	// above the floor (m).
	InclineAngle float64
	DropHeight   float64
}

// DefaultConfig returns the default configuration of a scenario: the
// default physics settings, a 4 cm soft box, the gripper spinning at 2π
// rad/s with round fingertips squeezing 3 mm per side, a 25° incline and a
// 2 cm drop.
func DefaultConfig(k Kind) Config {
	return Config{
		Kind:         k,
		Physics:      physics.DefaultSettings(),
		Object:       BoxObject,
		ObjectSize:   0.04,
		Omega:        2 * math.Pi,
		JawStyle:     rigid.RoundJaws,
		Squeeze:      3e-3,
		Scripted:     true,
		InclineAngle: 25 * math.Pi / 180,
		DropHeight:   0.02,
	}
}

// Validate names the first field out of range.
func (c Config) Validate() error {
	if _, err := ParseKind(string(c.Kind)); err != nil {
		return err
	}
	if err := c.Physics.Validate(); err != nil {
		return err
	}
	if c.Object != BoxObject && c.Object != CylinderObject {
		return fmt.Errorf("Object = %q: want box or cylinder", c.Object)
	}
	checks := []struct {
		name      string
		v, lo, hi float64
		unit      string
	}{
		{"ObjectSize", c.ObjectSize, 0.005, 0.5, "m"},
		{"MeshScale", c.MeshScale, 0, 1000, "m per unit of the mesh file (0: fit into ObjectSize)"},
		{"Omega", c.Omega, -100, 100, "rad/s"},
		{"Squeeze", c.Squeeze, 0, c.ObjectSize / 4, "m (a quarter of ObjectSize)"},
		{"SpinTurns", c.SpinTurns, 0, 100, "turns"},
		{"InclineAngle", c.InclineAngle, 0, math.Pi / 2.5, "rad"},
		{"DropHeight", c.DropHeight, 0, 1, "m"},
	}
	for _, ch := range checks {
		if math.IsNaN(ch.v) || math.IsInf(ch.v, 0) || ch.v < ch.lo || ch.v > ch.hi {
			return fmt.Errorf("%s = %g is out of range: must be in [%g, %g] %s", ch.name, ch.v, ch.lo, ch.hi, ch.unit)
		}
	}
	return nil
}
