package physics

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

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

func TestRotateBlocksIsTheWarpedCompliance(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	const c = 5
	n := 3 * c
	W := make([]float64, n*n)
	for i := range W {
		W[i] = rng.NormFloat64()
	}
	R := m3.FromRows(r3.Unit(r3.Vec{X: 1, Y: 2, Z: 0.5}), r3.Vec{}, r3.Vec{})
	R = m3.Frame(R.Row(0)) // any proper rotation
	Q := mat.NewDense(n, n, nil)
	for a := 0; a < c; a++ {
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				Q.Set(3*a+i, 3*a+j, R[3*i+j])
			}
		}
	}
	var want mat.Dense
	want.Product(Q, mat.NewDense(n, n, append([]float64(nil), W...)), Q.T())
	rotateBlocks(W, c, &R)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if d := math.Abs(W[i*n+j] - want.At(i, j)); d > 1e-12 {
				t.Fatalf("entry (%d,%d) = %g, want %g", i, j, W[i*n+j], want.At(i, j))
			}
		}
	}
}
