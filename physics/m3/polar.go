package m3

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// jacobiMaxSweeps bounds the cyclic Jacobi iteration. A 3×3 symmetric
// matrix converges quadratically, in 3–4 sweeps to machine precision; the
// bound only matters for non-finite input, which must still return.
const jacobiMaxSweeps = 16

// SVD returns the inversion-aware singular value decomposition
// F = U·diag(sigma)·Vᵀ of a 3×3 matrix, with U and V proper rotations
// (det = +1) and |sigma.X| ≥ |sigma.Y| ≥ |sigma.Z| (up to rounding for
// nearly equal values). The first two singular
// values are non-negative; the last carries the sign of det F, so an
// inverted element (det F < 0) reports a negative smallest singular value.
//
// Method:
//
//  1. V and the squared singular values from the eigen-decomposition of
//     the symmetric FᵀF by cyclic Jacobi rotations, sorted in decreasing
//     order, with the last column of V negated if det V = −1.
//  2. U by Gram–Schmidt on the columns b_i = F·v_i, which are orthogonal in
//     exact arithmetic: u1 = b1/‖b1‖, u2 = the normalised part of b2
//     orthogonal to u1, and u3 = u1×u2, so det U = +1 by construction.
//  3. σ_i = u_i·b_i. For i = 3 this is signed: with det U = det V = +1,
//     σ1·σ2·σ3 = det F.
//
// Reading σ from the Gram–Schmidt projections rather than from the square
// roots of the eigenvalues gives σ3 its sign, avoids the square root of
// an eigenvalue that rounding made slightly negative, and keeps working
// when FᵀF underflows (‖F‖ ≈ 1e-200). When b1 or b2 vanishes (F of
// rank ≤ 1) the missing directions are completed orthogonally, so the
// result never contains NaN for finite F.
//
// References:
//   - Golub & Van Loan, Matrix Computations, §8.5 (the Jacobi method).
//   - Irving, Teran & Fedkiw, "Invertible finite elements for robust
//     simulation of large deformation", SCA 2004 (the sign convention).
func SVD(F Mat3) (U Mat3, sigma r3.Vec, V Mat3) {
	V, _ = symEigen(TMul(F, F))
	return completeSVD(F, V)
}

// completeSVD returns U, σ and V given the eigenvectors V of FᵀF sorted by
// decreasing eigenvalue (steps 2 and 3 of SVD).
func completeSVD(F, V Mat3) (Mat3, r3.Vec, Mat3) {
	if V.Det() < 0 {
		V[2], V[5], V[8] = -V[2], -V[5], -V[8]
	}
	b1, b2, b3 := F.MulVec(V.Col(0)), F.MulVec(V.Col(1)), F.MulVec(V.Col(2))

	n1 := norm(b1)
	var u1 r3.Vec
	if n1 > 1e-300 {
		u1 = r3.Scale(1/n1, b1)
	} else {
		// F ≈ 0: every direction is singular. Choosing U = V gives the
		// rotation R = U·Vᵀ = I, the natural frame of a collapsed element.
		u1 = V.Col(0)
	}
	u2 := orthonormalTo(u1, b2, V.Col(1), 1e-14*n1)
	u3 := r3.Cross(u1, u2)
	sigma := r3.Vec{X: n1, Y: r3.Dot(u2, b2), Z: r3.Dot(u3, b3)}
	return FromCols(u1, u2, u3), sigma, V
}

// orthonormalTo returns the unit vector along the part of b orthogonal to
// the unit vector u, or, when that part is not longer than tol, the unit
// vector along the part of the fallback hint orthogonal to u, or else any
// unit vector orthogonal to u.
func orthonormalTo(u, b, hint r3.Vec, tol float64) r3.Vec {
	for _, w := range [2]r3.Vec{b, hint} {
		r := r3.Sub(w, r3.Scale(r3.Dot(u, w), u))
		if n := norm(r); n > tol && n > 1e-300 {
			return r3.Scale(1/n, r)
		}
		tol = 1e-8 // the hint is a unit vector: its orthogonal part is O(1) unless parallel to u
	}
	f := Frame(u)
	return f.Row(1)
}

// Polar returns the polar decomposition F = R·S with R the rotation closest
// to F (det R = +1, also when det F ≤ 0) and S = Rᵀ·F symmetric. From the
// inversion-aware SVD F = U·Σ·Vᵀ: R = U·Vᵀ and S = V·Σ·Vᵀ, so S is
// symmetric to the last bit; S has a negative eigenvalue exactly when the
// element is inverted.
func Polar(F Mat3) (R, S Mat3) {
	U, sigma, V := SVD(F)
	return rotationUVt(&U, &V), symmetricPart(sigma, V)
}

// symmetricPart returns S = V·diag(σ)·Vᵀ.
func symmetricPart(sigma r3.Vec, V Mat3) Mat3 {
	// S_ij = Σ_k σ_k·V_ik·V_jk, each product formed in the same order for
	// (i, j) and (j, i) so that S is symmetric to the last bit.
	w := func(i, j int) float64 {
		return sigma.X*V[3*i]*V[3*j] + sigma.Y*V[3*i+1]*V[3*j+1] + sigma.Z*V[3*i+2]*V[3*j+2]
	}
	s00, s01, s02 := w(0, 0), w(0, 1), w(0, 2)
	s11, s12, s22 := w(1, 1), w(1, 2), w(2, 2)
	return Mat3{s00, s01, s02, s01, s11, s12, s02, s12, s22}
}

// rotationUVt returns U·Vᵀ written out.
func rotationUVt(U, V *Mat3) Mat3 {
	r := func(i, j int) float64 {
		return U[3*i]*V[3*j] + U[3*i+1]*V[3*j+1] + U[3*i+2]*V[3*j+2]
	}
	return Mat3{r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1), r(2, 2)}
}

// symEigen returns the eigenvectors (as the columns of V) and eigenvalues
// of the symmetric matrix a, sorted by decreasing eigenvalue. Only the
// upper triangle of a is read.
//
// Cyclic Jacobi: each rotation in the (p, q) plane zeroes a_pq, and the
// off-diagonal mass Σ a_pq² decreases monotonically, quadratically once
// small. The sweep stops when it is below machine precision relative to
// the diagonal.
func symEigen(a Mat3) (V Mat3, d r3.Vec) {
	a00, a11, a22 := a[0], a[4], a[8]
	a01, a02, a12 := a[1], a[2], a[5]
	V = Identity()
	for sweep := 0; sweep < jacobiMaxSweeps; sweep++ {
		off := a01*a01 + a02*a02 + a12*a12
		diag := a00*a00 + a11*a11 + a22*a22
		if !(off > 1e-33*diag) { // also stops on NaN
			break
		}
		// Plane (0, 1); the third index is 2.
		if t, c, s := jacobiAngle(a00, a11, a01); t != 0 {
			a00, a11, a01 = a00-t*a01, a11+t*a01, 0
			a02, a12 = c*a02-s*a12, s*a02+c*a12
			rotateCols(&V, 0, 1, c, s)
		}
		// Plane (0, 2); the third index is 1.
		if t, c, s := jacobiAngle(a00, a22, a02); t != 0 {
			a00, a22, a02 = a00-t*a02, a22+t*a02, 0
			a01, a12 = c*a01-s*a12, s*a01+c*a12
			rotateCols(&V, 0, 2, c, s)
		}
		// Plane (1, 2); the third index is 0.
		if t, c, s := jacobiAngle(a11, a22, a12); t != 0 {
			a11, a22, a12 = a11-t*a12, a22+t*a12, 0
			a01, a02 = c*a01-s*a02, s*a01+c*a02
			rotateCols(&V, 1, 2, c, s)
		}
	}
	d = r3.Vec{X: a00, Y: a11, Z: a22}
	// Three compare-and-swaps sort the eigenpairs by decreasing value.
	if d.X < d.Y {
		d.X, d.Y = d.Y, d.X
		swapCols(&V, 0, 1)
	}
	if d.Y < d.Z {
		d.Y, d.Z = d.Z, d.Y
		swapCols(&V, 1, 2)
	}
	if d.X < d.Y {
		d.X, d.Y = d.Y, d.X
		swapCols(&V, 0, 1)
	}
	return V, d
}

// jacobiAngle returns the Jacobi rotation that zeroes apq in the plane
// (p, q) of a symmetric matrix, as t = tan φ, c = cos φ and s = sin φ, or
// t = 0 when apq is already zero. With θ = (aqq − app)/(2·apq),
// t = sgn θ/(|θ| + √(θ²+1)) is the smaller root of t² + 2θt − 1 = 0 (the
// rotation by less than 45°, which keeps the sweep convergent), and the
// rotated entries are
//
//	app' = app − t·apq,  aqq' = aqq + t·apq,  apq' = 0,
//	apr' = c·apr − s·aqr, aqr' = s·apr + c·aqr  (r the third index).
func jacobiAngle(app, aqq, apq float64) (t, c, s float64) {
	if apq == 0 {
		return 0, 1, 0
	}
	theta := (aqq - app) / (2 * apq)
	if math.Abs(theta) > 1e4 {
		// Converging sweeps, |t| < 5e-5: with u = 1/θ², the series
		// t = (1/(2θ))·(1 − u/4 + O(u²)) and c = 1 − t²/2 + O(t⁴) are exact
		// to the rounding unit, and c² + s² = 1 − O(t⁴) keeps the rotation
		// orthogonal to the last bit. One division replaces two square
		// roots and two divisions. Beyond |θ| = 1e8 the corrections
		// vanish in floating point by themselves.
		t = 0.5 / theta * (1 - 0.25/(theta*theta))
		c = 1 - 0.5*t*t
		return t, c, t * c
	}
	t = 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
	if theta < 0 {
		t = -t
	}
	c = 1 / math.Sqrt(t*t+1)
	return t, c, t * c
}

// rotateCols replaces the columns p and q of V by c·v_p − s·v_q and
// s·v_p + c·v_q: V ← V·J for the Jacobi rotation J of plane (p, q).
func rotateCols(V *Mat3, p, q int, c, s float64) {
	for k := 0; k < 9; k += 3 {
		vp, vq := V[k+p], V[k+q]
		V[k+p] = c*vp - s*vq
		V[k+q] = s*vp + c*vq
	}
}

// norm returns the Euclidean length of v. Unlike r3.Norm it avoids the
// slow math.Hypot in the common range and rescales only when squaring
// could underflow or overflow.
func norm(v r3.Vec) float64 {
	m := math.Max(math.Abs(v.X), math.Max(math.Abs(v.Y), math.Abs(v.Z)))
	if m > 1e-150 && m < 1e150 {
		return math.Sqrt(v.X*v.X + v.Y*v.Y + v.Z*v.Z)
	}
	if m == 0 || math.IsInf(m, 0) || math.IsNaN(m) {
		return m
	}
	x, y, z := v.X/m, v.Y/m, v.Z/m
	return m * math.Sqrt(x*x+y*y+z*z)
}

// swapCols exchanges columns i and j of m.
func swapCols(m *Mat3, i, j int) {
	for k := 0; k < 9; k += 3 {
		m[k+i], m[k+j] = m[k+j], m[k+i]
	}
}

// polarNewtonMaxIterations bounds PolarRotationNear's iteration; from a
// warm start within a few degrees it converges in 3–5.
const polarNewtonMaxIterations = 12

// PolarRotationNear returns the rotation R of the polar decomposition
// F = R·S when det F > 0, found by Newton's iteration for the orthogonal
// polar factor started near the answer, and ok = false (R undefined) when
// F is inverted, nearly singular, or the iteration did not converge: the
// caller then falls back to Polar, which handles every F.
//
// With R0 a rotation close to R (the element's rotation of the previous
// step), X₀ = R0ᵀ·F has the orthogonal polar factor R0ᵀ·R, close to I, and
// Newton's iteration X ← ½·(X + X⁻ᵀ) converges to it quadratically; then
// R = R0·X. Each iteration costs one cofactor matrix, a few times less than
// the Jacobi sweeps of the SVD. For det F > 0 the polar factor is unique,
// so the result equals Polar's R to round-off.
//
// Reference: Higham, Functions of Matrices, SIAM 2008, §8.3 (the Newton
// iteration for the unitary polar factor).
func PolarRotationNear(F, R0 Mat3) (R Mat3, ok bool) {
	X := TMul(R0, F)
	// Well inside det > 0 only: det X ≥ 1e-6·(‖X‖_F/√3)³ keeps X far from
	// singular, where the iteration is fast and accurate.
	n := X.FrobeniusNorm() / math.Sqrt(3)
	if d := X.Det(); !(d > 1e-6*n*n*n) || n > 1e150 || n < 1e-100 {
		return Mat3{}, false
	}
	for it := 0; it < polarNewtonMaxIterations; it++ {
		// X⁻ᵀ = cof(X)/det X, with det X expanded along the first row.
		c0, c1, c2 := X[4]*X[8]-X[5]*X[7], X[5]*X[6]-X[3]*X[8], X[3]*X[7]-X[4]*X[6]
		c3, c4, c5 := X[2]*X[7]-X[1]*X[8], X[0]*X[8]-X[2]*X[6], X[1]*X[6]-X[0]*X[7]
		c6, c7, c8 := X[1]*X[5]-X[2]*X[4], X[2]*X[3]-X[0]*X[5], X[0]*X[4]-X[1]*X[3]
		inv := 0.5 / (X[0]*c0 + X[1]*c1 + X[2]*c2)
		Xn := Mat3{
			0.5*X[0] + c0*inv, 0.5*X[1] + c1*inv, 0.5*X[2] + c2*inv,
			0.5*X[3] + c3*inv, 0.5*X[4] + c4*inv, 0.5*X[5] + c5*inv,
			0.5*X[6] + c6*inv, 0.5*X[7] + c7*inv, 0.5*X[8] + c8*inv,
		}
		d2 := 0.0
		for i := range Xn {
			e := Xn[i] - X[i]
			d2 += e * e
		}
		X = Xn
		// The change is the error of the previous iterate, and the error
		// falls quadratically (e ← ½·e² near the answer for a well
		// conditioned X): a change below 1e-9 leaves an error at round-off
		// in this iterate.
		if d2 <= 1e-18 {
			return Mul(R0, X), true
		}
	}
	return Mat3{}, false
}
