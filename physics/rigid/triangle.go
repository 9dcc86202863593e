package rigid

import (
	"gonum.org/v1/gonum/spatial/r3"
)

// ClosestOnTriangle returns the point p of the triangle (a, b, c) closest
// to x and its barycentric weights w (p = w[0]·a + w[1]·b + w[2]·c, the
// weights non-negative and summing to 1). It is exact in all seven Voronoi
// regions of the triangle — three vertices, three edges, the face — and
// the weights are exactly 0 and 1 in the vertex and edge regions, so
// callers can read the region off the weights. Rigid triangle meshes use
// it for their closest points, collision detection for the barycentric
// rows of the mapping Jacobian H.
//
// Derivation. With ab = b−a, ac = c−a and the dot products
// d1 = ab·(x−a), d2 = ac·(x−a), d3 = ab·(x−b), d4 = ac·(x−b),
// d5 = ab·(x−c), d6 = ac·(x−c), the regions are tested in turn:
//
//	vertex a:  d1 ≤ 0 and d2 ≤ 0         (x behind both edges leaving a)
//	vertex b:  d3 ≥ 0 and d4 ≤ d3        (x beyond b along ab and along bc)
//	edge ab:   vc = d1·d4 − d3·d2 ≤ 0, d1 ≥ 0, d3 ≤ 0, p = a + d1/(d1−d3)·ab
//	vertex c:  d6 ≥ 0 and d5 ≤ d6
//	edge ac:   vb = d5·d2 − d1·d6 ≤ 0, d2 ≥ 0, d6 ≤ 0, p = a + d2/(d2−d6)·ac
//	edge bc:   va = d3·d6 − d5·d4 ≤ 0, d4−d3 ≥ 0, d5−d6 ≥ 0,
//	           p = b + (d4−d3)/((d4−d3)+(d5−d6))·(c−b)
//	face:      otherwise, with (va, vb, vc) proportional to the signed
//	           areas of the sub-triangles opposite a, b, c of the projection
//	           of x: w = (va, vb, vc)/(va+vb+vc).
//
// The edge-region numerators vc, vb, va are the scaled barycentric
// coordinates (ab×ac)·(sub-triangle normal) of x's projection: a negative
// one puts the projection outside the opposite edge. A degenerate triangle
// (collinear or coincident vertices) has no face region; it is treated as
// the union of its three edges.
//
// References: C. Ericson, Real-Time Collision Detection, Morgan Kaufmann
// 2005, section 5.1.5.
func ClosestOnTriangle(x, a, b, c r3.Vec) (r3.Vec, [3]float64) {
	ab, ac := r3.Sub(b, a), r3.Sub(c, a)
	if degenerateTriangle(ab, ac, r3.Sub(c, b)) {
		return closestOnTriangleEdges(x, a, b, c)
	}
	ax := r3.Sub(x, a)
	d1, d2 := r3.Dot(ab, ax), r3.Dot(ac, ax)
	if d1 <= 0 && d2 <= 0 {
		return a, [3]float64{1, 0, 0}
	}
	bx := r3.Sub(x, b)
	d3, d4 := r3.Dot(ab, bx), r3.Dot(ac, bx)
	if d3 >= 0 && d4 <= d3 {
		return b, [3]float64{0, 1, 0}
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		t := d1 / (d1 - d3)
		return r3.Add(a, r3.Scale(t, ab)), [3]float64{1 - t, t, 0}
	}
	cx := r3.Sub(x, c)
	d5, d6 := r3.Dot(ab, cx), r3.Dot(ac, cx)
	if d6 >= 0 && d5 <= d6 {
		return c, [3]float64{0, 0, 1}
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		t := d2 / (d2 - d6)
		return r3.Add(a, r3.Scale(t, ac)), [3]float64{1 - t, 0, t}
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		t := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return r3.Add(b, r3.Scale(t, r3.Sub(c, b))), [3]float64{0, 1 - t, t}
	}
	inv := 1 / (va + vb + vc)
	v, w := vb*inv, vc*inv
	return r3.Add(a, r3.Add(r3.Scale(v, ab), r3.Scale(w, ac))), [3]float64{1 - v - w, v, w}
}

// degenerateTriangle reports a triangle whose area is negligible against
// its longest edge: |ab×ac|² ≤ (ε·ℓ²)² with ℓ the longest edge. Such a
// triangle has no well-defined face region (the face weights divide by
// its squared area).
func degenerateTriangle(ab, ac, bc r3.Vec) bool {
	l2 := max(r3.Norm2(ab), r3.Norm2(ac), r3.Norm2(bc))
	const eps = 1e-12
	return r3.Norm2(r3.Cross(ab, ac)) <= eps*eps*l2*l2
}

// closestOnTriangleEdges returns the closest point over the three edges of
// a degenerate triangle, with its barycentric weights.
func closestOnTriangleEdges(x, a, b, c r3.Vec) (r3.Vec, [3]float64) {
	p, t := closestOnSegment(x, a, b)
	best, w := r3.Norm2(r3.Sub(x, p)), [3]float64{1 - t, t, 0}
	if q, s := closestOnSegment(x, b, c); r3.Norm2(r3.Sub(x, q)) < best {
		p, best, w = q, r3.Norm2(r3.Sub(x, q)), [3]float64{0, 1 - s, s}
	}
	if q, s := closestOnSegment(x, a, c); r3.Norm2(r3.Sub(x, q)) < best {
		p, w = q, [3]float64{1 - s, 0, s}
	}
	return p, w
}

// closestOnSegment returns the point of the segment [a, b] closest to x
// and its parameter t ∈ [0, 1] (p = a + t·(b−a)); a zero-length segment
// returns a.
func closestOnSegment(x, a, b r3.Vec) (r3.Vec, float64) {
	ab := r3.Sub(b, a)
	l2 := r3.Norm2(ab)
	if l2 == 0 {
		return a, 0
	}
	t := r3.Dot(r3.Sub(x, a), ab) / l2
	t = min(max(t, 0), 1)
	return r3.Add(a, r3.Scale(t, ab)), t
}
