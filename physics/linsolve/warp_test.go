package linsolve

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/contact"
	"softgrasp/physics/m3"
)

func TestGlobalRotationRecoversARigidMotion(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const n = 40
	ref := make([]float64, 3*n)
	mass := make([]float64, n)
	for i := range ref {
		ref[i] = rng.Float64() * 0.04
	}
	for i := range mass {
		mass[i] = 0.5 + rng.Float64()
	}
	for _, angle := range []float64{0, 0.01, 0.3, 2.5} {
		R := r3.NewRotation(angle, r3.Vec{X: 0.3, Y: -0.5, Z: 1})
		q := make([]float64, 3*n)
		for i := 0; i < n; i++ {
			x := R.Rotate(r3.Vec{X: ref[3*i], Y: ref[3*i+1], Z: ref[3*i+2]})
			q[3*i], q[3*i+1], q[3*i+2] = x.X+0.1, x.Y-0.2, x.Z+0.05
		}
		got := globalRotation(ref, q, mass)
		for _, e := range []r3.Vec{{X: 1}, {Y: 1}, {Z: 1}} {
			want := R.Rotate(e)
			if d := r3.Norm(r3.Sub(got.MulVec(e), want)); d > 1e-12 {
				t.Fatalf("angle %g: rotation of %v off by %g", angle, e, d)
			}
		}
	}
}

// TestWarpedDirectionsEqualWarpedCompliance checks the identity the fast
// scheme uses to warp an old factor's W_H by the body's rotation R: with
// Q = blockdiag(R), C·(Q·W_H·Qᵀ)·Cᵀ = (C·R)·W_H·(C·R)ᵀ, and the correction
// p_free + s·(Q·W_H·Qᵀ)·Cᵀλ is Q·(Qᵀ·p_free + s·W_H·(C·R)ᵀλ).
func TestWarpedDirectionsEqualWarpedCompliance(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	const c = 5
	n := 3 * c
	B := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			B.Set(i, j, rng.NormFloat64())
		}
	}
	var WHd mat.Dense
	WHd.Mul(B, B.T()) // symmetric, as W_H is
	WH := WHd.RawMatrix().Data
	R := m3.Frame(r3.Unit(r3.Vec{X: 1, Y: 2, Z: 0.5})) // a proper rotation
	C := make([]m3.Mat3, c)
	Cw := make([]m3.Mat3, c)
	Q, Cd := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
	for a := 0; a < c; a++ {
		C[a] = m3.Frame(r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}))
		Cw[a] = m3.Mul(C[a], R)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				Q.Set(3*a+i, 3*a+j, R[3*i+j])
				Cd.Set(3*a+i, 3*a+j, C[a][3*i+j])
			}
		}
	}
	var warped, want mat.Dense
	warped.Product(Q, &WHd, Q.T())
	want.Product(Cd, &warped, Cd.T())
	got := make([]float64, n*n)
	if err := contact.RebuildW(got, WH, Cw); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if d := math.Abs(got[i*n+j] - want.At(i, j)); d > 1e-10 {
				t.Fatalf("W(%d,%d) = %g, want %g", i, j, got[i*n+j], want.At(i, j))
			}
		}
	}
	lambda, pFree := make([]float64, n), make([]float64, n)
	for i := range lambda {
		lambda[i], pFree[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	var ct, wantP mat.VecDense
	ct.MulVec(Cd.T(), mat.NewVecDense(n, lambda))
	wantP.MulVec(&warped, &ct)
	pw, p, work := make([]float64, n), make([]float64, n), make([]float64, n)
	rotateNodes(pw, pFree, &R, true)
	if err := contact.CorrectP(p, pw, WH, Cw, lambda, 0.5, work); err != nil {
		t.Fatal(err)
	}
	rotateNodes(p, p, &R, false)
	for i := range p {
		if d := math.Abs(p[i] - (pFree[i] + 0.5*wantP.AtVec(i))); d > 1e-10 {
			t.Fatalf("p[%d] = %g, want %g", i, p[i], pFree[i]+0.5*wantP.AtVec(i))
		}
	}
}
