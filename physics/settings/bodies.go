package settings

import (
	"fmt"
	"math"
	"slices"
)

// The bodies of a custom scene (Kind Custom), listed by a version 2 scene
// file: soft bodies, each a part of the one simulated soft body (they
// touch each other through soft–soft contact), and rigid bodies, dynamic
// (with a mass) or kinematic (fixed where placed), over the floor. All
// lengths in metres, angles in degrees, masses in kilograms.

// FieldError names the field of a soft or rigid body that is out of
// range: Field is its key in a scene file's table, and the message starts
// with it.
type FieldError struct {
	Field, Msg string
}

func (e *FieldError) Error() string { return e.Msg }

// fieldErr is a FieldError of field with the formatted message.
func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Body shapes of a custom scene.
const (
	BoxShape      = "box"
	CylinderShape = "cylinder"
	MeshShape     = "mesh"
)

// SoftSpec is one soft body of a custom scene: a procedural box (Size its
// edges along x, y, z) or upright cylinder (Size[0] its diameter, Size[1]
// its height), or the mesh file Mesh (shape "mesh", through the mesh
// pipeline: a surface mapped onto a grid mesh, or a volume mesh; Size[0]
// its largest extent, to which it is fitted), meshed at about DOFs
// degrees of freedom, with the centre of its bottom face at Position. Young (Pa) and Density (kg/m³) give it its
// own material; 0 takes the scene's. Poisson's ratio and the damping are
// the scene's for every body. A mesh's Up ("z" or "y"; "" the scene's
// MeshUp) is the axis of its file that points up, and Units ("m", "cm"
// or "mm") the unit of its coordinates, taken as they are instead of
// fitted to Size (then 0).
type SoftSpec struct {
	Shape    string     `json:"shape"`
	Mesh     string     `json:"mesh,omitempty"`
	Up       string     `json:"up,omitempty"`
	Units    string     `json:"units,omitempty"`
	Size     [3]float64 `json:"size"`
	DOFs     int        `json:"dofs"`
	Position [3]float64 `json:"position"`
	Young    float64    `json:"young,omitempty"`
	Density  float64    `json:"density,omitempty"`
}

// RigidSpec is one rigid body of a custom scene: a box (Size its edges), a
// cylinder (Size[0] its diameter, Size[1] its height, along its z), or the
// closed surface of the mesh file Mesh (shape "mesh"; Size[0] its largest
// extent, to which it is fitted; at most MaxRigidMeshTriangles), its
// centre (a mesh's centre of mass) at Position, turned by Rotation
// (degrees about x, then y, then z, in the world's axes). With a Mass it is dynamic (a uniform solid,
// moved by gravity and contact from Velocity and AngularVelocity, world
// axes, m/s and rad/s); with none (0) it is kinematic and stays where it
// is placed. Name (default "<shape> <index from 1>") names it in
// attachments, the contacts CSV and the summary.
type RigidSpec struct {
	Name            string     `json:"name,omitempty"`
	Shape           string     `json:"shape"`
	Mesh            string     `json:"mesh,omitempty"`
	Size            [3]float64 `json:"size"`
	Position        [3]float64 `json:"position"`
	Rotation        [3]float64 `json:"rotation"`
	Mass            float64    `json:"mass"`
	Velocity        [3]float64 `json:"velocity"`
	AngularVelocity [3]float64 `json:"angular_velocity"`
}

// MeshUpOr returns the up axis that Up names, or def when Up is "" (the
// scene's); ok is false for a name that is no axis.
func (s SoftSpec) MeshUpOr(def UpAxis) (up UpAxis, ok bool) {
	if s.Up == "" {
		return def, true
	}
	i := slices.Index(upAxisNames, s.Up)
	return UpAxis(max(i, 0)), i >= 0
}

// meshUnits are the units a mesh body's coordinates may be given in
// (mesh.UnitScale reads them).
var meshUnits = []string{"m", "cm", "mm"}

// Limits of the bodies of a custom scene.
const (
	MaxCustomBodies  = 16     // soft bodies, and rigid bodies, each
	MinSoftDOFs      = 60     // of one soft body
	MaxBodySize      = 1.0    // m, any extent
	MaxCustomSeconds = 3600.0 // Duration
	// MaxRigidMeshTriangles bounds a rigid mesh body: its closest points
	// are found triangle by triangle.
	MaxRigidMeshTriangles = 5000
	DefaultDuration       = 2.0 // s, a custom scene's length when not given
)

// SizeFields is the number of extents a shape uses (size's length).
func SizeFields(shape string) int {
	switch shape {
	case CylinderShape:
		return 2
	case MeshShape:
		return 1
	}
	return 3
}

// checkShape names a shape that is not box or cylinder.
func checkShape(shape string) error {
	if shape != BoxShape && shape != CylinderShape {
		return fieldErr("shape", "shape = %q: want %q or %q", shape, BoxShape, CylinderShape)
	}
	return nil
}

// checkShapeMesh names a shape that is not box, cylinder or mesh, a mesh
// body without its file and a procedural one with a file; kind is "soft"
// or "rigid".
func checkShapeMesh(kind, shape, mesh string) error {
	if shape == MeshShape {
		if mesh == "" {
			return fieldErr("mesh", "mesh: missing: a %s body of shape %q names its mesh file", kind, MeshShape)
		}
		return nil
	}
	if err := checkShape(shape); err != nil {
		return fieldErr("shape", "%v (or %q with a mesh file)", err, MeshShape)
	}
	if mesh != "" {
		return fieldErr("mesh", "mesh = %q: a %s is procedural; a mesh file takes shape = %q", mesh, shape, MeshShape)
	}
	return nil
}

// checkSize names an extent the shape uses that is not in (0, MaxBodySize].
func checkSize(shape string, size [3]float64) error {
	for i := 0; i < SizeFields(shape); i++ {
		if v := size[i]; !(v > 0 && v <= MaxBodySize) {
			what := [3]string{"x", "y", "z"}[i]
			if shape == CylinderShape {
				what = [2]string{"diameter", "height"}[i]
			} else if shape == MeshShape {
				what = "largest extent"
			}
			return fieldErr("size", "size (%s) = %g m: must be in (0, %g]", what, v, MaxBodySize)
		}
	}
	return nil
}

// checkVec names a vector with a component that is not finite or beyond
// limit in magnitude.
func checkVec(field string, v [3]float64, limit float64, unit string) error {
	for _, x := range v {
		if math.IsNaN(x) || math.Abs(x) > limit {
			return fieldErr(field, "%s = %v: each component must be finite and within ±%g %s", field, v, limit, unit)
		}
	}
	return nil
}

// Validate names the first field of the soft body out of range.
func (s SoftSpec) Validate() error {
	if err := checkShapeMesh("soft", s.Shape, s.Mesh); err != nil {
		return err
	}
	if _, ok := s.MeshUpOr(ZUp); !ok {
		return fieldErr("up", "up = %q: want %q, %q or %q (absent: the scene's mesh-up)", s.Up, upAxisNames[ZUp], upAxisNames[YUp], upAxisNames[AutoUp])
	}
	switch {
	case s.Units != "" && s.Shape != MeshShape:
		return fieldErr("units", "units = %q: only a mesh body's file has units", s.Units)
	case s.Units != "" && !slices.Contains(meshUnits, s.Units):
		return fieldErr("units", "units = %q: want m, cm or mm", s.Units)
	case s.Units != "" && s.Size != [3]float64{}:
		return fieldErr("size", "size %v and units %q: give one of them (size fits the mesh to its largest extent, units take its coordinates as they are)", s.Size, s.Units)
	case s.Units == "":
		if err := checkSize(s.Shape, s.Size); err != nil {
			return err
		}
	}
	if s.Up != "" && s.Shape != MeshShape {
		return fieldErr("up", "up = %q: only a mesh body's file has an up axis", s.Up)
	}
	if s.DOFs < MinSoftDOFs || s.DOFs > 1000000 {
		return fieldErr("dofs", "dofs = %d: must be in [%d, 1000000]", s.DOFs, MinSoftDOFs)
	}
	if math.IsNaN(s.Young) || s.Young < 0 || s.Young > 1e10 {
		return fieldErr("young", "young = %g Pa: must be in (0, 1e10] (0: the scene's)", s.Young)
	}
	if math.IsNaN(s.Density) || s.Density < 0 || s.Density > 1e5 {
		return fieldErr("density", "density = %g kg/m³: must be in (0, 1e5] (0: the scene's)", s.Density)
	}
	return checkVec("position", s.Position, 10, "m")
}

// Validate names the first field of the rigid body out of range.
func (r RigidSpec) Validate() error {
	if err := checkShapeMesh("rigid", r.Shape, r.Mesh); err != nil {
		return err
	}
	if err := checkSize(r.Shape, r.Size); err != nil {
		return err
	}
	if math.IsNaN(r.Mass) || r.Mass < 0 || r.Mass > 1000 {
		return fieldErr("mass", "mass = %g kg: must be in [0, 1000] (0: kinematic)", r.Mass)
	}
	for _, c := range []struct {
		name  string
		v     [3]float64
		limit float64
		unit  string
	}{
		{"position", r.Position, 10, "m"}, {"rotation", r.Rotation, 360, "degrees"},
		{"velocity", r.Velocity, 100, "m/s"}, {"angular-velocity", r.AngularVelocity, 1000, "rad/s"},
	} {
		if err := checkVec(c.name, c.v, c.limit, c.unit); err != nil {
			return err
		}
	}
	if r.Mass == 0 && (r.Velocity != [3]float64{} || r.AngularVelocity != [3]float64{}) {
		return fieldErr("velocity", "velocity %v, angular-velocity %v: a kinematic body (mass 0) stays where it is placed", r.Velocity, r.AngularVelocity)
	}
	return nil
}

// BodyName is the rigid body's name in the scene: Name, or "<shape> <i+1>".
func (r RigidSpec) BodyName(i int) string {
	if r.Name != "" {
		return r.Name
	}
	return fmt.Sprintf("%s %d", r.Shape, i+1)
}

// validateBodies checks the lists against the scene's kind: a custom
// scene has one to MaxCustomBodies soft bodies, at most MaxCustomBodies
// rigid ones and a Duration; the other scenes have none of them.
func (c *Scenario) validateBodies() error {
	if c.Kind != Custom {
		if len(c.Soft) > 0 || len(c.Rigid) > 0 || c.Duration != 0 || c.Gripper || len(c.GripperPath) > 0 {
			return fmt.Errorf("soft and rigid body lists, a duration, a gripper and its path belong to a scenario = %q scene, not %q", Custom, c.Kind)
		}
		return nil
	}
	if len(c.Soft) == 0 || len(c.Soft) > MaxCustomBodies {
		return fmt.Errorf("a custom scene lists 1 to %d soft bodies, not %d", MaxCustomBodies, len(c.Soft))
	}
	if len(c.Rigid) > MaxCustomBodies {
		return fmt.Errorf("a custom scene lists at most %d rigid bodies, not %d", MaxCustomBodies, len(c.Rigid))
	}
	for i, s := range c.Soft {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("soft[%d]: %w", i+1, err)
		}
	}
	names := map[string]bool{"floor": true, "left jaw": c.Gripper, "right jaw": c.Gripper}
	for i, r := range c.Rigid {
		if err := r.Validate(); err != nil {
			return fmt.Errorf("rigid[%d]: %w", i+1, err)
		}
		if n := r.BodyName(i); names[n] {
			return fmt.Errorf("rigid[%d]: name = %q: taken by another body", i+1, n)
		} else {
			names[n] = true
		}
	}
	if !(c.Duration > 0 && c.Duration <= MaxCustomSeconds) {
		return fmt.Errorf("duration = %g s: must be in (0, %g]", c.Duration, MaxCustomSeconds)
	}
	if c.MeshFile != "" {
		return fmt.Errorf("MeshFile = %q: a custom scene's soft bodies are listed, not loaded from a mesh file", c.MeshFile)
	}
	if len(c.GripperPath) > 0 && !c.Gripper {
		return fmt.Errorf("a gripper path needs the gripper (Gripper false)")
	}
	return CheckPath(c.GripperPath)
}

// Waypoint is one point of a custom scene's gripper path: at Time (s)
// the grasp centre (midway between the jaws' contact faces) is at
// Position (m, world), the gripper's heading about the world z axis is
// Yaw (degrees, not wrapped: 720 is two turns) and its jaws are Opening
// (m) apart. Between two waypoints each of them moves by a smoothstep
// (at rest at every waypoint); before the first and after the last the
// gripper stays at it.
type Waypoint struct {
	Time     float64
	Position [3]float64
	Yaw      float64
	Opening  float64
}

// Limits of a gripper path.
const (
	MaxWaypoints   = 1000
	MaxPathOpening = 0.2 // m
	MaxPathYaw     = 36000.0
)

// CheckPath names the first waypoint out of range, numbered from 1
// (Waypoint.Validate). An empty path passes; a path of one waypoint
// holds the gripper there.
func CheckPath(path []Waypoint) error {
	if len(path) > MaxWaypoints {
		return fmt.Errorf("a gripper path has at most %d waypoints, not %d", MaxWaypoints, len(path))
	}
	for i := range path {
		var prev *Waypoint
		if i > 0 {
			prev = &path[i-1]
		}
		if err := path[i].Validate(prev); err != nil {
			return fmt.Errorf("waypoint %d: %w", i+1, err)
		}
	}
	return nil
}

// Validate names the first field out of range (a FieldError), prev being
// the waypoint before (nil for the first): a time that is negative, not
// finite, beyond MaxCustomSeconds or not after prev's; a position beyond
// MaxBodySize of the origin; a yaw beyond ±MaxPathYaw degrees; an
// opening outside [0, MaxPathOpening].
func (w Waypoint) Validate(prev *Waypoint) error {
	switch {
	case !(w.Time >= 0 && w.Time <= MaxCustomSeconds):
		return fieldErr("time", "time = %g s: must be in [0, %g]", w.Time, MaxCustomSeconds)
	case prev != nil && !(w.Time > prev.Time):
		return fieldErr("time", "time = %g s: must come after the previous waypoint's %g s", w.Time, prev.Time)
	case !(w.Yaw >= -MaxPathYaw && w.Yaw <= MaxPathYaw):
		return fieldErr("yaw", "yaw = %g°: must be in [%g, %g]", w.Yaw, -MaxPathYaw, MaxPathYaw)
	case !(w.Opening >= 0 && w.Opening <= MaxPathOpening):
		return fieldErr("opening", "opening = %g m: must be in [0, %g]", w.Opening, MaxPathOpening)
	}
	for k, x := range w.Position {
		if !(x >= -MaxBodySize && x <= MaxBodySize) {
			return fieldErr("position", "position[%d] = %g m: must be in [%g, %g]", k+1, x, -MaxBodySize, MaxBodySize)
		}
	}
	return nil
}
