// Package m3 provides a 3×3 matrix value type for the small dense blocks that
// the simulation handles by the hundred thousand: element rotations, the
// per-contact direction frames C_a = [n; t1; t2], and the 3×3 blocks of the
// compliance matrices W and W_H.
//
// gonum's r3.Mat is heap-backed and general; the kernels here need a value
// type that the compiler keeps in registers and that never allocates, so
// Mat3 is a plain array. Vectors are gonum's r3.Vec.
package m3

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Mat3 is a 3×3 matrix stored row-major: M[3*i+j] is row i, column j.
type Mat3 [9]float64

// Identity returns the 3×3 identity.
func Identity() Mat3 { return Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1} }

// FromRows builds the matrix whose rows are a, b and c.
func FromRows(a, b, c r3.Vec) Mat3 {
	return Mat3{a.X, a.Y, a.Z, b.X, b.Y, b.Z, c.X, c.Y, c.Z}
}

// FromCols builds the matrix whose columns are a, b and c.
func FromCols(a, b, c r3.Vec) Mat3 {
	return Mat3{a.X, b.X, c.X, a.Y, b.Y, c.Y, a.Z, b.Z, c.Z}
}

// Row returns row i.
func (m *Mat3) Row(i int) r3.Vec { return r3.Vec{X: m[3*i], Y: m[3*i+1], Z: m[3*i+2]} }

// Col returns column j.
func (m *Mat3) Col(j int) r3.Vec { return r3.Vec{X: m[j], Y: m[3+j], Z: m[6+j]} }

// T returns the transpose.
func (m Mat3) T() Mat3 {
	return Mat3{m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]}
}

// Mul returns a·b.
func Mul(a, b Mat3) Mat3 {
	var c Mat3
	for i := 0; i < 3; i++ {
		a0, a1, a2 := a[3*i], a[3*i+1], a[3*i+2]
		c[3*i] = a0*b[0] + a1*b[3] + a2*b[6]
		c[3*i+1] = a0*b[1] + a1*b[4] + a2*b[7]
		c[3*i+2] = a0*b[2] + a1*b[5] + a2*b[8]
	}
	return c
}

// MulT returns a·bᵀ.
func MulT(a, b Mat3) Mat3 {
	var c Mat3
	for i := 0; i < 3; i++ {
		a0, a1, a2 := a[3*i], a[3*i+1], a[3*i+2]
		for j := 0; j < 3; j++ {
			c[3*i+j] = a0*b[3*j] + a1*b[3*j+1] + a2*b[3*j+2]
		}
	}
	return c
}

// TMul returns aᵀ·b.
func TMul(a, b Mat3) Mat3 {
	var c Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c[3*i+j] = a[i]*b[j] + a[3+i]*b[3+j] + a[6+i]*b[6+j]
		}
	}
	return c
}

// Add returns a+b.
func Add(a, b Mat3) Mat3 {
	for i := range a {
		a[i] += b[i]
	}
	return a
}

// Sub returns a−b.
func Sub(a, b Mat3) Mat3 {
	for i := range a {
		a[i] -= b[i]
	}
	return a
}

// Scale returns f·a.
func Scale(f float64, a Mat3) Mat3 {
	for i := range a {
		a[i] *= f
	}
	return a
}

// MulVec returns m·v.
func (m *Mat3) MulVec(v r3.Vec) r3.Vec {
	return r3.Vec{
		X: m[0]*v.X + m[1]*v.Y + m[2]*v.Z,
		Y: m[3]*v.X + m[4]*v.Y + m[5]*v.Z,
		Z: m[6]*v.X + m[7]*v.Y + m[8]*v.Z,
	}
}

// MulVecT returns mᵀ·v.
func (m *Mat3) MulVecT(v r3.Vec) r3.Vec {
	return r3.Vec{
		X: m[0]*v.X + m[3]*v.Y + m[6]*v.Z,
		Y: m[1]*v.X + m[4]*v.Y + m[7]*v.Z,
		Z: m[2]*v.X + m[5]*v.Y + m[8]*v.Z,
	}
}

// Det returns the determinant.
func (m *Mat3) Det() float64 {
	return m[0]*(m[4]*m[8]-m[5]*m[7]) -
		m[1]*(m[3]*m[8]-m[5]*m[6]) +
		m[2]*(m[3]*m[7]-m[4]*m[6])
}

// Inverse returns the inverse and true, or the zero matrix and false when
// |det| is not larger than tiny times the cube of the largest entry.
func (m *Mat3) Inverse() (Mat3, bool) {
	det := m.Det()
	s := m.MaxAbs()
	if s == 0 || math.Abs(det) <= 1e-300 || math.Abs(det) <= 1e-14*s*s*s || math.IsNaN(det) {
		return Mat3{}, false
	}
	inv := 1 / det
	return Mat3{
		(m[4]*m[8] - m[5]*m[7]) * inv,
		(m[2]*m[7] - m[1]*m[8]) * inv,
		(m[1]*m[5] - m[2]*m[4]) * inv,
		(m[5]*m[6] - m[3]*m[8]) * inv,
		(m[0]*m[8] - m[2]*m[6]) * inv,
		(m[2]*m[3] - m[0]*m[5]) * inv,
		(m[3]*m[7] - m[4]*m[6]) * inv,
		(m[1]*m[6] - m[0]*m[7]) * inv,
		(m[0]*m[4] - m[1]*m[3]) * inv,
	}, true
}

// MaxAbs returns the largest absolute entry.
func (m *Mat3) MaxAbs() float64 {
	s := 0.0
	for _, x := range m {
		s = math.Max(s, math.Abs(x))
	}
	return s
}

// FrobeniusNorm returns sqrt(Σ m_ij²).
func (m *Mat3) FrobeniusNorm() float64 {
	s := 0.0
	for _, x := range m {
		s += x * x
	}
	return math.Sqrt(s)
}

// Outer returns a·bᵀ.
func Outer(a, b r3.Vec) Mat3 {
	return Mat3{
		a.X * b.X, a.X * b.Y, a.X * b.Z,
		a.Y * b.X, a.Y * b.Y, a.Y * b.Z,
		a.Z * b.X, a.Z * b.Y, a.Z * b.Z,
	}
}

// Frame returns the orthonormal direction frame whose rows are n, t1 and t2,
// with t1 and t2 spanning the plane orthogonal to the unit vector n. The
// tangents are chosen from the axis least aligned with n, so the frame is a
// continuous function of n away from the switching cones.
func Frame(n r3.Vec) Mat3 {
	var a r3.Vec
	ax, ay, az := math.Abs(n.X), math.Abs(n.Y), math.Abs(n.Z)
	switch {
	case ax <= ay && ax <= az:
		a = r3.Vec{X: 1}
	case ay <= az:
		a = r3.Vec{Y: 1}
	default:
		a = r3.Vec{Z: 1}
	}
	t1 := r3.Unit(r3.Cross(n, a))
	t2 := r3.Cross(n, t1)
	return FromRows(n, t1, t2)
}

// FrameFromTangent returns the frame [n; t1; t2] whose first tangent is the
// component of hint orthogonal to n. Used to carry a contact's tangent basis
// from one linearisation to the next so that warm-started friction forces
// stay meaningful. It falls back to Frame(n) when hint is parallel to n.
func FrameFromTangent(n, hint r3.Vec) Mat3 {
	t := r3.Sub(hint, r3.Scale(r3.Dot(hint, n), n))
	l := r3.Norm(t)
	if l < 1e-9 {
		return Frame(n)
	}
	t1 := r3.Scale(1/l, t)
	t2 := r3.Cross(n, t1)
	return FromRows(n, t1, t2)
}

// AngleBetween returns the angle between two unit vectors (rad), as
// atan2(‖a×b‖, a·b): accurate for small angles, where acos(a·b) is not.
func AngleBetween(a, b r3.Vec) float64 {
	return math.Atan2(r3.Norm(r3.Cross(a, b)), r3.Dot(a, b))
}

// MaxBlockDistance returns max_a ‖p_a − q_a‖ over the 3-vector blocks of
// two flat vectors (positions of the same nodes or proximity points),
// over the blocks both hold.
func MaxBlockDistance(p, q []float64) float64 {
	m := 0.0
	for i := 0; i+2 < len(p) && i+2 < len(q); i += 3 {
		dx, dy, dz := p[i]-q[i], p[i+1]-q[i+1], p[i+2]-q[i+2]
		m = math.Max(m, dx*dx+dy*dy+dz*dz)
	}
	return math.Sqrt(m)
}
