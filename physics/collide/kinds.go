package collide

import "fmt"

// KindInfo is what a pair's kind says of it: one row of kinds, the one
// table a new kind of pair fills in (the step's own per-kind stages are
// physics' pairKinds, keyed the same way).
type KindInfo struct {
	Name string
	// OnTriangle: the soft point is a barycentric point of a soft surface
	// triangle against a rigid vertex (RigidVertex). The schemes re-map
	// it onto the triangle as the body moves; the contact budget groups
	// it by its rigid sample, the others by the soft point's support.
	OnTriangle bool
	// SurfacePoint: the soft side is one soft surface point against a
	// rigid surface (SoftVertex): the contact budget keeps two per
	// support and reads its heaviest node.
	SurfacePoint bool
	// BetweenRigid: both sides are rigid bodies, Body dynamic and Other
	// kinematic or static (RigidRigid): no soft node, and the normal
	// force lands on Other.
	BetweenRigid bool
	// Bilateral: an equality along the world axes, not a contact
	// (Attached): no friction cone, no contact distance, its force is the
	// body's pull on its node.
	Bilateral bool
	// key identifies a pair across steps (Pair.Key): disjoint ranges of
	// the 64 bits per kind.
	key func(p *Pair) uint64
}

// kinds holds a row per Kind.
var kinds = [NumKinds]KindInfo{
	SoftVertex: {Name: "soft-vertex", SurfacePoint: true,
		key: func(p *Pair) uint64 { return uint64(p.Body)<<40 | uint64(p.Point) }},
	RigidVertex: {Name: "rigid-vertex", OnTriangle: true,
		key: func(p *Pair) uint64 { return 1<<63 | uint64(p.Body)<<40 | uint64(p.Vertex) }},
	SoftSoft: {Name: "soft-soft",
		key: func(p *Pair) uint64 { return 1<<62 | uint64(p.Point) }},
	RigidRigid: {Name: "rigid-rigid", BetweenRigid: true,
		// the vertex's side in bit 39: the dynamic body's (Vertex ≥ 0)
		// or the other body's (Point ≥ 0)
		key: func(p *Pair) uint64 {
			v, side := p.Vertex, uint64(0)
			if v < 0 {
				v, side = p.Point, 1
			}
			return 3<<62 | uint64(p.Other)<<52 | uint64(p.Body)<<40 | side<<39 | uint64(v)
		}},
	Attached: {Name: "attached", Bilateral: true,
		// within SoftSoft's range, above any surface point: bit 61
		key: func(p *Pair) uint64 { return 1<<62 | 1<<61 | uint64(p.Body)<<40 | uint64(p.Nodes[0]) }},
}

// Info returns the kind's row of the table; a kind out of range gets a
// row without name or traits, keyed as a rigid-vertex pair.
func (k Kind) Info() *KindInfo {
	if k < NumKinds {
		return &kinds[k]
	}
	return &unknownKind
}

var unknownKind = KindInfo{key: kinds[RigidVertex].key}

// String returns the kind's name: "soft-vertex", "rigid-vertex",
// "soft-soft", "rigid-rigid" or "attached".
func (k Kind) String() string {
	if k < NumKinds {
		return kinds[k].Name
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}
