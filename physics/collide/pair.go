// Package collide finds the proximity pairs between the soft body's
// surface and the rigid bodies at the start of each step (discrete
// collision detection within an alarm distance), with a bounding-volume
// hierarchy over the soft surface that is refitted every step.
package collide

import (
	"gonum.org/v1/gonum/spatial/r3"
)

// Kind says which side of a pair is a vertex.
type Kind uint8

const (
	// SoftVertex pairs a soft surface vertex with the closest point of a
	// rigid surface.
	SoftVertex Kind = iota
	// RigidVertex pairs a rigid surface vertex with the closest point of a
	// soft surface triangle (barycentric weights on its three nodes).
	RigidVertex
)

// Pair is one proximity pair: a soft point p = Σ Weights[i]·q[Nodes[i]]
// (i < Count) and a rigid material point fixed in the body frame. It gives
// one 3×3N row block of the mapping Jacobian H (Weights[i]·I₃ at node
// Nodes[i]) and one constraint group [λn, λt1, λt2].
type Pair struct {
	Kind  Kind
	Body  int // index of the rigid body
	Count int // soft nodes used: 1 for SoftVertex, 3 for RigidVertex
	Nodes [3]int
	// Weights are the barycentric weights of the soft point (1,0,0 for a
	// soft vertex).
	Weights [3]float64
	// Tri is the soft surface triangle of a RigidVertex pair (index into
	// mesh.Surface.Tris), −1 otherwise.
	Tri int
	// Vertex is the rigid vertex of a RigidVertex pair (index into
	// Shape.Vertices()), −1 otherwise.
	Vertex int
	// RigidLocal is the rigid material point in the body frame.
	RigidLocal r3.Vec
	// Normal is the unit contact normal at the start of the step, in the
	// world frame, pointing from the rigid body towards the soft body: a
	// positive normal force pushes the soft point along it.
	Normal r3.Vec
	// Distance is the signed distance along Normal at detection
	// (negative when interpenetrating).
	Distance float64
}

// Key identifies a pair across steps, for warm-starting the contact forces.
func (p *Pair) Key() uint64 {
	if p.Kind == SoftVertex {
		return uint64(p.Body)<<40 | uint64(p.Nodes[0])
	}
	return 1<<63 | uint64(p.Body)<<40 | uint64(p.Vertex)
}
