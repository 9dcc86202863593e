package m3

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/num/quat"
	"gonum.org/v1/gonum/spatial/r3"
)

// randomRotation returns a uniformly distributed rotation, from a
// normalised quaternion with Gaussian components.
func randomRotation(rng *rand.Rand) Mat3 {
	q := quat.Number{Real: rng.NormFloat64(), Imag: rng.NormFloat64(), Jmag: rng.NormFloat64(), Kmag: rng.NormFloat64()}
	q = quat.Scale(1/quat.Abs(q), q)
	w, x, y, z := q.Real, q.Imag, q.Jmag, q.Kmag
	return Mat3{
		1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y),
		2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x),
		2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y),
	}
}

func randomMat(rng *rand.Rand, scale float64) Mat3 {
	var m Mat3
	for i := range m {
		m[i] = scale * (2*rng.Float64() - 1)
	}
	return m
}

func diag(v r3.Vec) Mat3 { return Mat3{v.X, 0, 0, 0, v.Y, 0, 0, 0, v.Z} }

// maxDiff returns max_ij |a_ij − b_ij|.
func maxDiff(a, b Mat3) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// checkRotation fails unless r is orthonormal with det +1 to tol.
func checkRotation(t *testing.T, name string, r Mat3, tol float64) {
	t.Helper()
	if d := maxDiff(TMul(r, r), Identity()); d > tol {
		t.Errorf("%s: ‖%sᵀ%s − I‖max = %g > %g", name, name, name, d, tol)
	}
	if det := r.Det(); math.Abs(det-1) > tol {
		t.Errorf("%s: det = %v, want +1", name, det)
	}
}

func hasNaN(ms ...Mat3) bool {
	for _, m := range ms {
		for _, x := range m {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return true
			}
		}
	}
	return false
}

// TestSVDRandom checks the reconstruction, the orthonormality and the
// ordering and signs of the singular values on random matrices of
// several scales and both orientations.
func TestSVDRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, scale := range []float64{1e-3, 1, 1e3} {
		t.Run("scale="+formatFloat(scale), func(t *testing.T) {
			for trial := 0; trial < 2000; trial++ {
				F := randomMat(rng, scale)
				U, s, V := SVD(F)
				rec := Mul(Mul(U, diag(s)), V.T())
				if d := maxDiff(rec, F); d > 1e-12*scale {
					t.Fatalf("trial %d: ‖UΣVᵀ − F‖max = %g", trial, d)
				}
				checkRotation(t, "U", U, 1e-12)
				checkRotation(t, "V", V, 1e-12)
				if s.X < 0 || s.Y < 0 || s.X < s.Y-1e-12*scale || s.Y < math.Abs(s.Z)-1e-12*scale {
					t.Fatalf("trial %d: σ = %v not ordered / signed", trial, s)
				}
				if (s.Z < 0) != (F.Det() < 0) {
					t.Fatalf("trial %d: sign of σ3 = %v disagrees with det F = %v", trial, s.Z, F.Det())
				}
			}
		})
	}
}

// TestPolar checks R·S = F, S symmetric, R a rotation, and that R is the
// closest rotation: no random rotation nearby is closer in Frobenius norm.
func TestPolar(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 500; trial++ {
		F := randomMat(rng, 1)
		R, S := Polar(F)
		checkRotation(t, "R", R, 1e-12)
		if d := maxDiff(S, S.T()); d != 0 {
			t.Fatalf("S not symmetric: %g", d)
		}
		if d := maxDiff(Mul(R, S), F); d > 1e-12 {
			t.Fatalf("‖RS − F‖max = %g", d)
		}
		if d := maxDiff(TMul(R, F), S); d > 1e-12 {
			t.Fatalf("‖RᵀF − S‖max = %g", d)
		}
		dist := Sub(F, R)
		best := dist.FrobeniusNorm()
		for k := 0; k < 20; k++ {
			// Perturb R by a small rotation: R·exp(ω×) stays a rotation.
			P := Mul(R, smallRotation(rng, 1e-3))
			d := Sub(F, P)
			if d.FrobeniusNorm() < best-1e-12 {
				t.Fatalf("trial %d: a perturbed rotation is closer to F (%v < %v)", trial, d.FrobeniusNorm(), best)
			}
		}
	}
}

// smallRotation returns the rotation by a random axis and angle ≤ eps.
func smallRotation(rng *rand.Rand, eps float64) Mat3 {
	axis := r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
	angle := eps * rng.Float64()
	half := angle / 2
	s := math.Sin(half)
	q := quat.Number{Real: math.Cos(half), Imag: s * axis.X, Jmag: s * axis.Y, Kmag: s * axis.Z}
	w, x, y, z := q.Real, q.Imag, q.Jmag, q.Kmag
	return Mat3{
		1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y),
		2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x),
		2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y),
	}
}

// TestPolarSpecial covers the cases an element meets in a simulation:
// rest, pure rotations, stretched rotations, reflections (inversion),
// flat and collapsed elements.
func TestPolarSpecial(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	Q := randomRotation(rng)
	stretch := diag(r3.Vec{X: 1.3, Y: 0.9, Z: 0.5})
	reflectZ := diag(r3.Vec{X: 1, Y: 1, Z: -1})
	tests := []struct {
		name      string
		F         Mat3
		wantR     *Mat3 // nil: not checked
		wantNegS3 bool
		anySign   bool // σ3 is zero up to rounding: its sign is not meaningful
	}{
		{name: "identity", F: Identity(), wantR: ptr(Identity())},
		{name: "rotation", F: Q, wantR: ptr(Q)},
		{name: "rotation×stretch", F: Mul(Q, stretch), wantR: ptr(Q)},
		{name: "reflection", F: reflectZ, wantR: ptr(Identity()), wantNegS3: true},
		{name: "rotated inversion", F: Mul(Q, Mul(stretch, reflectZ)), wantR: ptr(Q), wantNegS3: true},
		{name: "flat", F: Mul(Q, diag(r3.Vec{X: 1, Y: 0.5, Z: 0})), anySign: true},
		{name: "rank one", F: Outer(r3.Vec{X: 1, Y: 2, Z: 3}, r3.Vec{X: -1, Y: 0.5, Z: 2}), anySign: true},
		{name: "zero", F: Mat3{}, wantR: ptr(Identity())},
		{name: "tiny", F: Scale(1e-200, Q), wantR: ptr(Q)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			U, s, V := SVD(tc.F)
			R, S := Polar(tc.F)
			if hasNaN(U, V, R, S) || math.IsNaN(s.X+s.Y+s.Z) {
				t.Fatalf("NaN/Inf in the result: U=%v σ=%v V=%v R=%v", U, s, V, R)
			}
			checkRotation(t, "R", R, 1e-12)
			scale := tc.F.MaxAbs()
			if d := maxDiff(Mul(R, S), tc.F); d > 1e-12*math.Max(scale, 1e-300) {
				t.Errorf("‖RS − F‖max = %g", d)
			}
			if tc.wantR != nil {
				if d := maxDiff(R, *tc.wantR); d > 1e-12 {
					t.Errorf("R = %v, want %v (diff %g)", R, *tc.wantR, d)
				}
			}
			if neg := s.Z < 0; neg != tc.wantNegS3 && !tc.anySign {
				t.Errorf("σ = %v, want negative σ3: %v", s, tc.wantNegS3)
			}
		})
	}
}

func ptr(m Mat3) *Mat3 { return &m }

func formatFloat(x float64) string {
	switch x {
	case 1e-3:
		return "1e-3"
	case 1:
		return "1"
	default:
		return "1e3"
	}
}

// TestSVDAllocs checks that the decomposition runs without heap
// allocation, as it is called per element per step.
func TestSVDAllocs(t *testing.T) {
	F := Mat3{1, 0.2, 0.1, -0.3, 0.9, 0, 0.05, 0.1, 1.1}
	var sink Mat3
	n := testing.AllocsPerRun(100, func() {
		R, _ := Polar(F)
		sink = R
	})
	if n != 0 {
		t.Errorf("Polar allocates %v times per call", n)
	}
	_ = sink
}

func BenchmarkPolar(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	// Near-rotations are what a simulation sees: a random rotation times
	// a stretch of a few percent.
	Fs := make([]Mat3, 1024)
	for i := range Fs {
		Fs[i] = Mul(randomRotation(rng), Add(Identity(), randomMat(rng, 0.05)))
	}
	b.ReportAllocs()
	var sink Mat3
	i := 0
	for b.Loop() {
		R, _ := Polar(Fs[i&1023])
		sink = R
		i++
	}
	_ = sink
}

// TestMaxBlockDistance checks the largest block distance on a hand-made
// pair: blocks 3, 4 and 12 apart in turn (3-4-12 makes 13 for the last),
// and only the blocks both vectors hold.
func TestMaxBlockDistance(t *testing.T) {
	p := []float64{0, 0, 0, 1, 1, 1, 0, 0, 0, 9}
	q := []float64{3, 0, 0, 1, 5, 1, 3, 4, 12}
	if d := MaxBlockDistance(p, q); d != 13 {
		t.Fatalf("distance %g, want 13", d)
	}
	if d := MaxBlockDistance(p[:6], q); d != 4 {
		t.Fatalf("distance over two blocks %g, want 4", d)
	}
}
