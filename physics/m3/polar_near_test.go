package m3

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPolarRotationNear compares the warm-started Newton iteration with
// the SVD-based Polar on stretched rotations, from warm starts at various
// distances from the answer, and checks that it declines the matrices
// it is not meant for.
func TestPolarRotationNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tc := range []struct {
		name    string
		stretch float64 // entries of the random stretch
		warm    float64 // largest angle between the warm start and R, rad
	}{
		{"exact warm start", 0.05, 0},
		{"one step of spin", 0.05, 0.13},
		{"large stretch", 0.4, 0.13},
		{"cold start", 0.05, math.Pi / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := 0; i < 500; i++ {
				F := Mul(randomRotation(rng), Add(Identity(), randomMat(rng, tc.stretch)))
				if F.Det() <= 0 {
					continue
				}
				want, _ := Polar(F)
				R0 := Mul(want, smallRotation(rng, tc.warm))
				got, ok := PolarRotationNear(F, R0)
				if !ok {
					t.Fatalf("F = %v from %v: declined", F, R0)
				}
				if d := maxDiff(got, want); d > 1e-12 {
					t.Fatalf("F = %v: R differs from Polar's by %g", F, d)
				}
				checkRotation(t, tc.name, got, 1e-13)
			}
		})
	}
	for _, tc := range []struct {
		name string
		F    Mat3
	}{
		{"inverted", diag2(1, 1, -0.5)},
		{"flat", diag2(1, 1, 1e-9)},
		{"collapsed", Mat3{}},
		{"NaN", Mat3{math.NaN(), 0, 0, 0, 1, 0, 0, 0, 1}},
		{"infinite", Mat3{math.Inf(1), 0, 0, 0, 1, 0, 0, 0, 1}},
	} {
		t.Run("declines "+tc.name, func(t *testing.T) {
			if _, ok := PolarRotationNear(tc.F, Identity()); ok {
				t.Fatalf("accepted %v", tc.F)
			}
		})
	}
}

func diag2(a, b, c float64) Mat3 { return Mat3{a, 0, 0, 0, b, 0, 0, 0, c} }

// BenchmarkPolarRotationNear times the warm-started iteration on the
// matrices of BenchmarkPolar, each warm-started from its rotation turned by
// up to 0.06 rad (one 10 ms step at 2π rad/s).
func BenchmarkPolarRotationNear(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	Fs, R0s := make([]Mat3, 1024), make([]Mat3, 1024)
	for i := range Fs {
		Fs[i] = Mul(randomRotation(rng), Add(Identity(), randomMat(rng, 0.05)))
		R, _ := Polar(Fs[i])
		R0s[i] = Mul(R, smallRotation(rng, 0.06))
	}
	b.ReportAllocs()
	var sink Mat3
	i := 0
	for b.Loop() {
		R, _ := PolarRotationNear(Fs[i&1023], R0s[i&1023])
		sink = R
		i++
	}
	_ = sink
}
