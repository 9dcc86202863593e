package collide

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// ClosestOnTriangle returns the point of the triangle (a, b, c) closest to
// x and its barycentric weights (non-negative, summing to 1), exact in all
// seven Voronoi regions. The weights are the soft side's row of the
// mapping Jacobian H for a rigid-vertex pair. It is the kernel that rigid
// triangle meshes use too (rigid.ClosestOnTriangle, where the derivation
// is written).
func ClosestOnTriangle(x, a, b, c r3.Vec) (p r3.Vec, w [3]float64) {
	return rigid.ClosestOnTriangle(x, a, b, c)
}

// node returns the position of mesh node i in the flat 3N vector q.
func node(q []float64, i int) r3.Vec {
	return r3.Vec{X: q[3*i], Y: q[3*i+1], Z: q[3*i+2]}
}

// TriangleNormal returns the outward unit normal of the soft surface
// triangle tri with its nodes at positions q (flat, 3 per node):
// (b−a)×(c−a)/|(b−a)×(c−a)|, outward because mesh.Surface lists its
// triangles counter-clockwise seen from outside. A degenerate triangle
// (zero area) returns the zero vector; callers skip it.
func TriangleNormal(q []float64, tri [3]int) r3.Vec {
	a, b, c := node(q, tri[0]), node(q, tri[1]), node(q, tri[2])
	n := r3.Cross(r3.Sub(b, a), r3.Sub(c, a))
	l := r3.Norm(n)
	if l == 0 || math.IsNaN(l) {
		return r3.Vec{}
	}
	return r3.Scale(1/l, n)
}

// SignedDistance returns the exact signed distance of the world point x to
// body b at its END-of-step pose (negative inside), the outward unit
// normal at the closest point and the closest point, both in the world
// frame. The contact scheme re-linearises the constraint directions and
// measures the end-of-step penetration with it. A body without a shape is
// infinitely far away (d = +Inf, n = 0, closest = x).
func SignedDistance(b *rigid.Body, x r3.Vec) (d float64, n r3.Vec, closest r3.Vec) {
	if b == nil || b.Shape == nil {
		return math.Inf(1), r3.Vec{}, x
	}
	pt, ln, d := b.Shape.Closest(b.End.ApplyInverse(x))
	return d, b.End.Rotate(ln), b.End.Apply(pt)
}
