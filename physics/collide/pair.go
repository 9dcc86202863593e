// Package collide finds the proximity pairs between the soft body's
// surface and the rigid bodies at the start of each step (discrete
// collision detection within an alarm distance), with a bounding-volume
// hierarchy over the soft surface that is refitted every step.
package collide

import (
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
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
	// SoftSoft pairs a soft surface vertex of one part of the soft body
	// with the closest point of a triangle of another part (two soft
	// bodies touching): its point is their difference, the vertex minus
	// the triangle's point (weights 1 and −w), and it has no rigid side.
	SoftSoft
	// RigidRigid pairs a dynamic rigid body with another, kinematic or
	// static, rigid body: a vertex of either against the closest point of
	// the other's surface. It has no soft node (Count 0): its "soft point"
	// is the other body's material point OtherLocal, fixed in the world
	// over the step, and its rigid side the dynamic body Body.
	RigidRigid
	// Attached holds a soft mesh node (Nodes[0], weight 1) to the
	// material point RigidLocal of the dynamic body Body: a bilateral
	// pair, whose three rows (world axes) are equalities, made by the
	// simulation from its attachments and not by detection.
	Attached
	// NumKinds is the number of kinds: kinds.go's table has a row each.
	NumKinds
)

// MaxNodes bounds the soft nodes of one pair: a soft vertex against a
// triangle of another part (SoftSoft) on a mapped surface (mesh.Embedding),
// whose four points each follow up to four nodes.
const MaxNodes = 16

// MaxPoints bounds the surface points of one pair before MapPoints: the
// vertex and the triangle's three corners of a SoftSoft pair.
const MaxPoints = 4

// Pair is one proximity pair: a soft point p = Σ Weights[i]·q[Nodes[i]]
// (i < Count) and a rigid material point fixed in the body frame. It gives
// one 3×3N row block of the mapping Jacobian H (Weights[i]·I₃ at node
// Nodes[i]) and one constraint group [λn, λt1, λt2].
//
// Detect finds pairs on a surface whose vertices index the positions it is
// given: the mesh nodes when the surface is the mesh's boundary, the
// surface's own points when it is mapped onto the mesh. In the latter case
// MapPoints turns the point weights into node weights (p = G(q),
// H = ∂G/∂q, Eq. geometric mapping).
//
// A SoftSoft pair's point is the relative position p = x_v − Σ w_k·x_k of
// its soft vertex against the closest point of the other part's triangle
// (Weights 1, −w_0, −w_1, −w_2), so that H's row block is J₁ − J₂ of the
// two sides and one force λ pushes them apart in opposite directions
// (Eq. 14); with both parts in one block-diagonal A, H·A⁻¹·Hᵀ is the sum
// of the two bodies' compliances (Eq. 16). Body is −1, RigidLocal zero
// (the "rigid point" is the origin), Normal the triangle's outward normal
// (from the triangle's part towards the vertex's).
type Pair struct {
	Kind  Kind
	Body  int // index of the rigid body; −1 for SoftSoft
	Count int // soft nodes used: 1 for SoftVertex, 3 for RigidVertex, 4 for SoftSoft (up to MaxNodes once mapped)
	Nodes [MaxNodes]int
	// Weights are the barycentric weights of the soft point (1 for a soft
	// vertex).
	Weights [MaxNodes]float64
	// Point is the soft surface vertex of a SoftVertex or SoftSoft pair
	// (index into the positions Detect was given), −1 otherwise.
	Point int
	// Tri is the soft surface triangle of a RigidVertex or SoftSoft pair
	// (index into mesh.Surface.Tris), −1 otherwise.
	Tri int
	// Bary is a RigidVertex pair's point on Tri as barycentric weights of
	// the triangle's corners (Weights holds the same before MapPoints,
	// the nodes' weights after it).
	Bary [3]float64
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
	// Other is the kinematic or static body of a RigidRigid pair and
	// OtherLocal its material point in its frame (unused by other kinds).
	// Vertex (a vertex of Body) or Point (a vertex of Other) names the
	// pair's vertex.
	Other      int
	OtherLocal r3.Vec
}

// Key identifies a pair across steps, for warm-starting the contact
// forces (KindInfo.key).
func (p *Pair) Key() uint64 { return p.Kind.Info().key(p) }

// MapPoints rewrites a pair found on a mapped surface from surface points
// to mesh nodes: Nodes[:Count] are read as surface points, each spread
// onto its nodes by points (mesh.Embedding.Points), weight times weight.
// A node met again (two points in one element) gets the sum of its
// weights at its first place, so the order is that of the points and of
// their nodes. A point mapped onto a single node with weight 1 leaves its
// entry as it was, so the identity mapping changes nothing.
func (p *Pair) MapPoints(points []mesh.NodeWeights) {
	var pts [MaxPoints]int
	var pw [MaxPoints]float64
	n := p.Count
	copy(pts[:], p.Nodes[:n])
	copy(pw[:], p.Weights[:n])
	p.Count = 0
	for i := 0; i < n; i++ {
		nw := &points[pts[i]]
		for k := 0; k < nw.Count; k++ {
			node, w := nw.Nodes[k], pw[i]*nw.Weights[k]
			j := 0
			for j < p.Count && p.Nodes[j] != node {
				j++
			}
			if j < p.Count {
				p.Weights[j] += w
				continue
			}
			p.Nodes[j], p.Weights[j] = node, w
			p.Count++
		}
	}
}
