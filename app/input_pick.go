package main

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// vertex returns vertex i of positions, three float32 per vertex.
func vertex(positions []float32, i uint32) r3.Vec {
	return r3.Vec{X: float64(positions[3*i]), Y: float64(positions[3*i+1]), Z: float64(positions[3*i+2])}
}

// rayTriangle intersects the ray o + t·d with the triangle (v0, v1, v2)
// by the Möller–Trumbore algorithm and returns t for a hit in front of
// the origin, from either side of the triangle.
//
// A point of the triangle is v0 + u·e1 + v·e2 with e1 = v1 − v0,
// e2 = v2 − v0, u, v ≥ 0 and u + v ≤ 1. Equating it with the ray gives
// the 3×3 system [−d e1 e2]·(t, u, v)ᵀ = s with s = o − v0, which
// Cramer's rule solves with scalar triple products:
//
//	p = d × e2,  det = e1·p,  u = s·p/det,
//	q = s × e1,  v = d·q/det,  t = e2·q/det.
//
// det ≈ 0 means the ray is parallel to the triangle's plane.
//
// References:
//
//	T. Möller and B. Trumbore, "Fast, minimum storage ray-triangle
//	intersection", Journal of Graphics Tools 2(1), 1997.
func rayTriangle(o, d, v0, v1, v2 r3.Vec) (t float64, ok bool) {
	e1, e2 := r3.Sub(v1, v0), r3.Sub(v2, v0)
	p := r3.Cross(d, e2)
	det := r3.Dot(e1, p)
	// Relative to the triangle's size and the direction's length, so that
	// millimetre-sized triangles are not all "parallel".
	if math.Abs(det) <= 1e-12*r3.Norm(e1)*r3.Norm(e2)*r3.Norm(d) {
		return 0, false
	}
	inv := 1 / det
	s := r3.Sub(o, v0)
	u := r3.Dot(s, p) * inv
	if u < 0 || u > 1 {
		return 0, false
	}
	q := r3.Cross(s, e1)
	v := r3.Dot(d, q) * inv
	if v < 0 || u+v > 1 {
		return 0, false
	}
	t = r3.Dot(e2, q) * inv
	return t, t > 0
}
