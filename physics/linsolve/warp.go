package linsolve

import (
	"softgrasp/physics/m3"
)

// The asynchronous solver factors an A that is a few steps old. For a
// free soft body h²·K dominates M, and the corotational K turns with the
// body: a factor assembled before the body turned by a few degrees is a
// poor inverse exactly along the near-rigid directions that a grasped,
// spinning object moves in. So the old factor is warped by the body's
// global rotation Q since its A was assembled (compliance warping, Saupin
// et al. 2008, cited by the paper):
//
//	A_now ≈ Q·A_old·Qᵀ   ⇒   A_now⁻¹ ≈ Q·A_old⁻¹·Qᵀ,   Q = blockdiag(R)
//
// so W_H ≈ (H·Q)·A_old⁻¹·(H·Q)ᵀ = blockdiag(R)·H·A_old⁻¹·Hᵀ·blockdiag(R)ᵀ
// (a pair's rows of H are weights times I₃, hence H·Q = blockdiag(R)·H),
// which the fast scheme applies through its directions C·R and points
// Rᵀ·p expressed in the factor's frame (FrameDirections, PointsToFactor,
// PointsFromFactor), and the PCG preconditioner is Q·A_old⁻¹·Qᵀ. In exact
// mode R is the identity and nothing is warped.

// globalRotation returns the rotation R that best maps the body's
// configuration ref onto q (shape matching: R = polar part of
// Σ m_i·(x_i − c)·(x⁰_i − c⁰)ᵀ, the mass-weighted covariance of the two
// configurations about their centres of mass).
func globalRotation(ref, q, mass []float64) m3.Mat3 {
	var c, c0 [3]float64
	total := 0.0
	for i, m := range mass {
		for d := 0; d < 3; d++ {
			c[d] += m * q[3*i+d]
			c0[d] += m * ref[3*i+d]
		}
		total += m
	}
	for d := 0; d < 3; d++ {
		c[d] /= total
		c0[d] /= total
	}
	var Apq m3.Mat3
	for i, m := range mass {
		for r := 0; r < 3; r++ {
			x := m * (q[3*i+r] - c[r])
			for k := 0; k < 3; k++ {
				Apq[3*r+k] += x * (ref[3*i+k] - c0[k])
			}
		}
	}
	R, _ := m3.Polar(Apq)
	return R
}

// rotateNodes applies R (or Rᵀ when transpose) to every node block of x,
// writing y.
func rotateNodes(y, x []float64, R *m3.Mat3, transpose bool) {
	for i := 0; i+2 < len(x); i += 3 {
		a, b, c := x[i], x[i+1], x[i+2]
		if transpose {
			y[i] = R[0]*a + R[3]*b + R[6]*c
			y[i+1] = R[1]*a + R[4]*b + R[7]*c
			y[i+2] = R[2]*a + R[5]*b + R[8]*c
		} else {
			y[i] = R[0]*a + R[1]*b + R[2]*c
			y[i+1] = R[3]*a + R[4]*b + R[5]*c
			y[i+2] = R[6]*a + R[7]*b + R[8]*c
		}
	}
}

// FrameDirections returns the direction frames C expressed in the
// factor's frame, C·R, for use with PairCompliance's W_H: a warped W_H is
// Q·W_H·Qᵀ, so C·(Q·W_H·Qᵀ)·Cᵀ = (C·R)·W_H·(C·R)ᵀ, and warping the c
// frames costs O(c) where warping W_H would cost O(c²). It returns C
// itself when the factor is not warped, else a slice of its own that
// stays valid until the next call.
func (s *Solver) FrameDirections(C []m3.Mat3) []m3.Mat3 {
	if !s.warped {
		return C
	}
	s.frames = grow(s.frames, len(C))
	for a := range C {
		s.frames[a] = m3.Mul(C[a], s.warp)
	}
	return s.frames
}

// PointsToFactor returns the 3-vectors of p expressed in the factor's
// frame, Rᵀ·p: p itself when the factor is not warped, else a slice of
// its own that stays valid until the next call. With W_H and the
// directions in that frame, p_free + h²·(Q·W_H·Qᵀ)·Cᵀλ is
// R·(Rᵀ·p_free + h²·W_H·(C·R)ᵀλ).
func (s *Solver) PointsToFactor(p []float64) []float64 {
	if !s.warped {
		return p
	}
	s.points = grow(s.points, len(p))
	rotateNodes(s.points, p, &s.warp, true)
	return s.points
}

// PointsFromFactor turns 3-vectors p expressed in the factor's frame back
// to world axes, p ← R·p, in place.
func (s *Solver) PointsFromFactor(p []float64) {
	if s.warped {
		rotateNodes(p, p, &s.warp, false)
	}
}
