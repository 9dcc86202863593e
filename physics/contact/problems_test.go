package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
)

// This file holds the problem generators and the independent checks that
// the tests and benchmarks share.

// randSPD returns a row-major n×n matrix B·Bᵀ + diag·I with B having
// normally distributed entries of standard deviation scale.
func randSPD(rng *rand.Rand, n int, scale, diag float64) []float64 {
	B := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			B.Set(i, j, scale*rng.NormFloat64())
		}
	}
	var A mat.Dense
	A.Mul(B, B.T())
	out := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			out[i*n+j] = A.At(i, j)
		}
		out[i*n+i] += diag
	}
	// Exact symmetry, as RebuildW delivers it.
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			out[j*n+i] = out[i*n+j]
		}
	}
	return out
}

// randUnit returns a uniformly distributed unit vector.
func randUnit(rng *rand.Rand) r3.Vec {
	for {
		v := r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		if l := r3.Norm(v); l > 1e-3 {
			return r3.Scale(1/l, v)
		}
	}
}

// randFrames returns c random orthonormal frames [n; t1; t2].
func randFrames(rng *rand.Rand, c int) []m3.Mat3 {
	C := make([]m3.Mat3, c)
	for a := range C {
		C[a] = m3.Frame(randUnit(rng))
	}
	return C
}

// denseOf wraps a row-major n×n slice as a gonum matrix (sharing storage).
func denseOf(M []float64, n int) *mat.Dense { return mat.NewDense(n, n, M) }

// blockDiag assembles the 3c×3c block-diagonal matrix of the frames.
func blockDiag(C []m3.Mat3) *mat.Dense {
	n := 3 * len(C)
	D := mat.NewDense(n, n, nil)
	for a, Ca := range C {
		for r := 0; r < 3; r++ {
			for q := 0; q < 3; q++ {
				D.Set(3*a+r, 3*a+q, Ca[3*r+q])
			}
		}
	}
	return D
}

// gapsOf returns δ = δfree + s·W·λ computed with gonum, independently of
// the package's kernels.
func gapsOf(W []float64, s float64, deltaFree, lambda []float64) []float64 {
	n := len(deltaFree)
	var y mat.VecDense
	y.MulVec(denseOf(W, n), mat.NewVecDense(n, append([]float64(nil), lambda...)))
	d := make([]float64, n)
	for i := range d {
		d[i] = deltaFree[i] + s*y.AtVec(i)
	}
	return d
}

// lawTolerance are the absolute slacks of checkContactLaw: gaps below
// gapTol count as zero, forces below forceTol.
type lawTolerance struct {
	gapTol, forceTol, rel float64
}

// checkContactLaw verifies Signorini's and Coulomb's laws for one contact
// with force l and gap d (both [n, t1, t2]) and the reported state.
func checkContactLaw(t *testing.T, a int, l, d [3]float64, mu float64, st State, tol lawTolerance) {
	t.Helper()
	ln, dn := l[0], d[0]
	lt := math.Hypot(l[1], l[2])
	dt := math.Hypot(d[1], d[2])
	if ln < 0 {
		t.Errorf("contact %d: λn = %g < 0", a, ln)
	}
	if dn < -tol.gapTol {
		t.Errorf("contact %d: δn = %g < 0: interpenetration left", a, dn)
	}
	if math.Abs(ln*dn) > tol.gapTol*math.Max(ln, tol.forceTol) {
		t.Errorf("contact %d: λn·δn = %g·%g: complementarity violated", a, ln, dn)
	}
	if lt > mu*ln*(1+tol.rel)+tol.forceTol {
		t.Errorf("contact %d: ‖λt‖ = %g > μ·λn = %g: outside the cone", a, lt, mu*ln)
	}
	switch st {
	case Separated:
		if ln != 0 || lt != 0 {
			t.Errorf("contact %d: separated with λ = %v", a, l)
		}
	case Stick:
		if dt > tol.gapTol {
			t.Errorf("contact %d: stick with ‖δt‖ = %g", a, dt)
		}
	case Slip:
		if mu == 0 {
			if lt != 0 {
				t.Errorf("contact %d: frictionless with ‖λt‖ = %g", a, lt)
			}
			break
		}
		if math.Abs(lt-mu*ln) > tol.rel*mu*ln+tol.forceTol {
			t.Errorf("contact %d: slip with ‖λt‖ = %g ≠ μ·λn = %g", a, lt, mu*ln)
		}
		if dt > tol.gapTol && lt > tol.forceTol {
			// λt must oppose δt: cos(λt, δt) = −1.
			cos := (l[1]*d[1] + l[2]*d[2]) / (lt * dt)
			if cos > -1+tol.rel {
				t.Errorf("contact %d: slip with λt not opposing δt: cos = %.15g", a, cos)
			}
		}
	}
}

// bruteForceLCP solves the frictionless problem 0 ≤ δn ⊥ λn ≥ 0 with
// δn = δfree_n + s·W_nn·λn exactly, by trying every active set (c ≤ 12).
// W_nn is the c×c submatrix of the normal rows. For SPD W_nn exactly one
// active set is consistent.
func bruteForceLCP(t *testing.T, W []float64, c int, s float64, deltaFree []float64) []float64 {
	t.Helper()
	n := 3 * c
	for set := 0; set < 1<<c; set++ {
		var act []int
		for a := 0; a < c; a++ {
			if set&(1<<a) != 0 {
				act = append(act, a)
			}
		}
		ln := make([]float64, c)
		if len(act) > 0 {
			K := mat.NewDense(len(act), len(act), nil)
			rhs := mat.NewVecDense(len(act), nil)
			for r, a := range act {
				for q, b := range act {
					K.Set(r, q, s*W[3*a*n+3*b])
				}
				rhs.SetVec(r, -deltaFree[3*a])
			}
			var x mat.VecDense
			if err := x.SolveVec(K, rhs); err != nil {
				continue
			}
			for r, a := range act {
				ln[a] = x.AtVec(r)
			}
		}
		if lcpConsistent(W, c, s, deltaFree, ln, set) {
			return ln
		}
	}
	t.Fatalf("no active set solves the LCP")
	return nil
}

// lcpConsistent reports λn ≥ 0 on the active set and δn ≥ 0 off it.
func lcpConsistent(W []float64, c int, s float64, deltaFree, ln []float64, set int) bool {
	n := 3 * c
	for a := 0; a < c; a++ {
		if set&(1<<a) != 0 {
			if ln[a] < 0 {
				return false
			}
			continue
		}
		dn := deltaFree[3*a]
		for b := 0; b < c; b++ {
			dn += s * W[3*a*n+3*b] * ln[b]
		}
		if dn < 0 {
			return false
		}
	}
	return true
}

// faceProblem is a contact problem that looks like the simulation's: c
// contact points on a 2 mm grid over a square face of a soft body, a
// mapping compliance W_H that decays with the distance between the points
// over 1.5 grid spacings (W_H = K ⊗ M₃ + ε·I with K_ab = exp(−‖x_a − x_b‖/ℓ),
// positive definite as the exponential kernel is), frames whose normals
// tilt a few degrees off the face normal, and free gaps of a curved face
// pressed into a flat jaw and dragged sideways: about 70–90 % of the
// contacts end active, a mix of stick and slip.
type faceProblem struct {
	c         int
	s, mu     float64
	WH, W     []float64
	C         []m3.Mat3
	deltaFree []float64
}

func newFaceProblem(tb testing.TB, rng *rand.Rand, c int) faceProblem {
	tb.Helper()
	const (
		spacing = 0.002 // distance between neighbouring contact points (m)
		ell     = 0.003 // decay length of the coupling (m)
		h       = 0.01  // time step (s)
		alpha   = 2e3   // point compliance scale (1/kg)
	)
	nx := int(math.Ceil(math.Sqrt(float64(c))))
	pts := make([]r3.Vec, c)
	for a := range pts {
		pts[a] = r3.Vec{X: spacing * float64(a%nx), Y: spacing * float64(a/nx)}
	}
	// An anisotropic SPD 3×3 factor: the face is stiffer in its normal
	// direction than in shear.
	M3 := m3.Mat3{0.6, 0.05, 0.02, 0.05, 1, 0.03, 0.02, 0.03, 1}
	n := 3 * c
	WH := make([]float64, n*n)
	for a := 0; a < c; a++ {
		for b := 0; b < c; b++ {
			k := alpha * math.Exp(-r3.Norm(r3.Sub(pts[a], pts[b]))/ell)
			for r := 0; r < 3; r++ {
				for q := 0; q < 3; q++ {
					WH[(3*a+r)*n+3*b+q] = k * M3[3*r+q]
				}
			}
		}
		for r := 0; r < 3; r++ {
			WH[(3*a+r)*n+3*a+r] += 0.2 * alpha
		}
	}
	C := make([]m3.Mat3, c)
	deltaFree := make([]float64, n)
	centre := r3.Scale(0.5*spacing*float64(nx-1), r3.Vec{X: 1, Y: 1})
	R := math.Max(r3.Norm(centre), spacing)
	for a := range C {
		tilt := r3.Vec{X: 0.05 * rng.NormFloat64(), Y: 0.05 * rng.NormFloat64(), Z: 1}
		C[a] = m3.FrameFromTangent(r3.Unit(tilt), r3.Vec{X: 1})
		// A gently curved face pushed about 1 mm into a flat jaw: the
		// penetration is deepest at the centre and opens towards the
		// corners, δn = −d₀·(1 − 1.2·(r/R)²) + noise, R the half diagonal.
		r2 := r3.Norm2(r3.Sub(pts[a], centre)) / (R * R)
		deltaFree[3*a] = -1e-3*(1-1.2*r2) + 2e-5*rng.NormFloat64()
		// The jaw drags the face along x by 0.1 mm over the step.
		deltaFree[3*a+1] = 1e-4 + 3e-5*rng.NormFloat64()
		deltaFree[3*a+2] = 3e-5 * rng.NormFloat64()
	}
	W := make([]float64, n*n)
	if err := RebuildW(W, WH, C); err != nil {
		tb.Fatal(err)
	}
	return faceProblem{c: c, s: h * h, mu: 0.8, WH: WH, W: W, C: C, deltaFree: deltaFree}
}
