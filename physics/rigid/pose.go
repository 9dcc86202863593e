package rigid

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/num/quat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
)

// unitTolerance is how far |q| of a pose's rotation quaternion may stray
// from 1 before Validate rejects it. A quaternion q rotates by q·x·q̄, which
// scales lengths by |q|², so a relative error of 1e-6 in |q| is a strain of
// 2e-6: far below anything the contact scheme could resolve.
const unitTolerance = 1e-6

// Translation returns the pose that moves the body frame to position
// without rotating it.
func Translation(position r3.Vec) Pose {
	return Pose{Position: position, Rotation: r3.Rotation{Real: 1}}
}

// Validate reports a pose whose position is not finite or whose rotation
// is not a unit quaternion. The zero Pose is invalid: its zero quaternion
// would collapse every point onto the origin (use IdentityPose).
func (p Pose) Validate() error {
	for _, c := range [...]float64{p.Position.X, p.Position.Y, p.Position.Z} {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return fmt.Errorf("pose position %v is not finite", p.Position)
		}
	}
	n := quat.Abs(quat.Number(p.Rotation))
	if math.IsNaN(n) || math.Abs(n-1) > unitTolerance {
		return fmt.Errorf("pose rotation %v is not a unit quaternion (|q| = %g)", quat.Number(p.Rotation), n)
	}
	return nil
}

// Compose returns the pose of a child frame given in p's frame, expressed
// in the world: x_world = p.Apply(child.Apply(x)). With p = (R_p, t_p) and
// child = (R_c, t_c) this is (R_p·R_c, R_p·t_c + t_p); the quaternion of
// R_p·R_c is the Hamilton product q_p·q_c because r3.Rotation rotates by
// q·x·q̄.
func (p Pose) Compose(child Pose) Pose {
	q := quat.Mul(quat.Number(p.Rotation), quat.Number(child.Rotation))
	return Pose{Position: p.Apply(child.Position), Rotation: normalised(q)}
}

// Inverse returns the pose that undoes p: p.Inverse().Apply(p.Apply(x)) = x.
// It is (R_pᵀ, −R_pᵀ·t_p), with the conjugate quaternion for R_pᵀ.
func (p Pose) Inverse() Pose {
	q := quat.Conj(quat.Number(p.Rotation))
	inv := Pose{Rotation: r3.Rotation(q)}
	inv.Position = r3.Scale(-1, inv.Rotation.Rotate(p.Position))
	return inv
}

// RotationMatrix returns the 3×3 rotation matrix R of p, for code that
// applies the same rotation to many points (one matrix-vector product is
// about a third of the work of the quaternion sandwich q·x·q̄). For the
// unit quaternion (w, x, y, z):
//
//	R = | 1−2(y²+z²)  2(xy−wz)    2(xz+wy)   |
//	    | 2(xy+wz)    1−2(x²+z²)  2(yz−wx)   |
//	    | 2(xz−wy)    2(yz+wx)    1−2(x²+y²) |
func (p Pose) RotationMatrix() m3.Mat3 {
	w, x, y, z := p.Rotation.Real, p.Rotation.Imag, p.Rotation.Jmag, p.Rotation.Kmag
	return m3.Mat3{
		1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y),
		2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x),
		2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y),
	}
}

// Lerp interpolates between two poses: the position linearly and the
// rotation by spherical linear interpolation along the shorter arc, so
// that Lerp(a, b, 0) = a, Lerp(a, b, 1) = b (up to the sign of the
// quaternion, which does not change the rotation) and the angular speed is
// constant in s. Scripts use it for the start and end poses of sub-steps.
//
// Slerp of unit quaternions a, b with cos θ = a·b ≥ 0:
//
//	slerp(s) = (sin((1−s)θ)·a + sin(sθ)·b) / sin θ,
//
// which degenerates to a normalised linear blend when θ → 0.
func Lerp(a, b Pose, s float64) Pose {
	pos := r3.Add(a.Position, r3.Scale(s, r3.Sub(b.Position, a.Position)))
	qa, qb := quat.Number(a.Rotation), quat.Number(b.Rotation)
	dot := qa.Real*qb.Real + qa.Imag*qb.Imag + qa.Jmag*qb.Jmag + qa.Kmag*qb.Kmag
	if dot < 0 {
		// q and −q are the same rotation; flipping b takes the short arc.
		qb, dot = quat.Scale(-1, qb), -dot
	}
	var q quat.Number
	if dot > 0.9995 {
		q = quat.Add(quat.Scale(1-s, qa), quat.Scale(s, qb))
	} else {
		theta := math.Acos(dot)
		sin := math.Sin(theta)
		q = quat.Add(quat.Scale(math.Sin((1-s)*theta)/sin, qa), quat.Scale(math.Sin(s*theta)/sin, qb))
	}
	return Pose{Position: pos, Rotation: normalised(q)}
}

// normalised rescales q to unit length so that composed and interpolated
// poses do not drift away from rotations over many steps.
func normalised(q quat.Number) r3.Rotation {
	n := quat.Abs(q)
	if n == 0 || math.IsNaN(n) {
		return r3.Rotation(q)
	}
	return r3.Rotation(quat.Scale(1/n, q))
}
