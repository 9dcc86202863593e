// Package rigid holds the kinematic rigid bodies that touch the soft body:
// the floor, the gripper's jaws and rigid triangle meshes. Their motion is
// prescribed: the poses at the start and at the end of every step are
// known before the step (user input or a script), so the contact problem
// only has the soft body's unknowns.
//
// Shapes live in their body frame and give exact signed distances:
// Plane (the floor or an incline), Box, Cylinder (the round fingertips),
// Compound (a union of placed parts, such as a jaw plate with its pad) and
// TriangleMesh (small closed meshes, signed by angle-weighted
// pseudo-normals). Besides its distance, each shape lists the vertex
// samples — corners, points along edges and rims — that collision
// detection pairs with soft triangles, and a mesh for drawing. Gripper
// turns a two-jaw parallel gripper's pose and opening into the jaws'
// shapes and poses; Pose carries the rigid transforms, their composition
// and interpolation.
package rigid

import (
	"gonum.org/v1/gonum/spatial/r3"
)

// Pose is a rigid transform: x_world = Rotation·x_local + Position.
type Pose struct {
	Position r3.Vec
	Rotation r3.Rotation
}

// IdentityPose returns the pose at the origin with no rotation.
func IdentityPose() Pose { return Pose{Rotation: r3.Rotation{Real: 1}} }

// Apply maps a point from the body frame to the world frame.
func (p Pose) Apply(local r3.Vec) r3.Vec {
	return r3.Add(p.Rotation.Rotate(local), p.Position)
}

// ApplyInverse maps a world point into the body frame.
func (p Pose) ApplyInverse(world r3.Vec) r3.Vec {
	return p.InverseRotate(r3.Sub(world, p.Position))
}

// Rotate maps a direction from the body frame to the world frame.
func (p Pose) Rotate(local r3.Vec) r3.Vec { return p.Rotation.Rotate(local) }

// InverseRotate maps a world direction into the body frame.
func (p Pose) InverseRotate(world r3.Vec) r3.Vec {
	q := p.Rotation
	q.Imag, q.Jmag, q.Kmag = -q.Imag, -q.Jmag, -q.Kmag
	return q.Rotate(world)
}

// Shape is the geometry of a rigid body in its own frame.
type Shape interface {
	// Closest returns the point of the surface closest to x (body frame),
	// the outward unit normal there and the signed distance from the
	// surface to x (negative inside). For points inside, the closest point
	// is the nearest exit.
	Closest(x r3.Vec) (point, normal r3.Vec, dist float64)
	// Bounds returns the body-frame bounding box; ok is false for unbounded
	// shapes such as a plane.
	Bounds() (box r3.Box, ok bool)
	// Vertices returns the surface sample points (body frame) that detection
	// pairs with soft surface triangles: corners and edge samples, so that
	// rigid edges and corners cannot sink into the soft surface between
	// soft vertices. A plane has none.
	Vertices() []r3.Vec
	// Triangulate returns a triangle mesh of the surface for drawing (body
	// frame, outward counter-clockwise). An unbounded shape returns a
	// finite patch.
	Triangulate() (verts []r3.Vec, tris [][3]int)
}

// Body is a kinematic rigid body. Start and End are its poses at t and t+h
// of the current step.
type Body struct {
	Name       string
	Shape      Shape
	Start, End Pose
}

// PointDisplacement returns the displacement over the step of the material
// point whose body-frame position is local: End·local − Start·local.
func (b *Body) PointDisplacement(local r3.Vec) r3.Vec {
	return r3.Sub(b.End.Apply(local), b.Start.Apply(local))
}
