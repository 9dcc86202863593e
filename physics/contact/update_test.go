package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"softgrasp/physics/m3"
)

// maxRelDiff returns max|got − want| / max|want|.
func maxRelDiff(got []float64, want mat.Matrix) float64 {
	r, c := want.Dims()
	var diff, scale float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			w := want.At(i, j)
			diff = math.Max(diff, math.Abs(got[i*c+j]-w))
			scale = math.Max(scale, math.Abs(w))
		}
	}
	return diff / scale
}

func TestRebuildWMatchesDenseProduct(t *testing.T) {
	for _, c := range []int{1, 2, 7, 33} {
		t.Run(fmt.Sprintf("contacts=%d", c), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c), 17))
			n := 3 * c
			WH := randSPD(rng, n, 1, 0.1)
			C := randFrames(rng, c)
			W := make([]float64, n*n)
			for i := range W {
				W[i] = math.NaN() // every entry must be written
			}
			if err := RebuildW(W, WH, C); err != nil {
				t.Fatal(err)
			}
			Cd := blockDiag(C)
			var want, tmp mat.Dense
			tmp.Mul(Cd, denseOf(WH, n))
			want.Mul(&tmp, Cd.T())
			if d := maxRelDiff(W, &want); !(d <= 1e-13) {
				t.Errorf("RebuildW differs from C·W_H·Cᵀ by %g (relative)", d)
			}
			for i := 0; i < n; i++ {
				for j := 0; j < i; j++ {
					if W[i*n+j] != W[j*n+i] {
						t.Fatalf("W[%d,%d] = %g ≠ W[%d,%d] = %g: not symmetric", i, j, W[i*n+j], j, i, W[j*n+i])
					}
				}
			}
		})
	}
}

func TestRebuildWLowerMatchesDenseProduct(t *testing.T) {
	const sentinel = 7.25
	for _, c := range []int{1, 2, 7, 33} {
		t.Run(fmt.Sprintf("contacts=%d", c), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c), 19))
			n := 3 * c
			WH := randSPD(rng, n, 1, 0.1)
			C := randFrames(rng, c)
			W := make([]float64, n*n)
			for i := range W {
				W[i] = sentinel
			}
			if err := RebuildWLower(W, WH, C); err != nil {
				t.Fatal(err)
			}
			Cd := blockDiag(C)
			var want, tmp mat.Dense
			tmp.Mul(Cd, denseOf(WH, n))
			want.Mul(&tmp, Cd.T())
			scale := mat.Norm(&want, math.Inf(1))
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					got := W[i*n+j]
					if j/3 > i/3 {
						if got != sentinel {
							t.Fatalf("W[%d,%d] = %g: the upper block triangle was written", i, j, got)
						}
						continue
					}
					if math.Abs(got-want.At(i, j)) > 1e-13*scale {
						t.Fatalf("W[%d,%d] = %.17g, want %.17g", i, j, got, want.At(i, j))
					}
				}
				if i%3 != 2 {
					continue
				}
				for r := i - 2; r <= i; r++ { // the diagonal block is symmetric
					for q := i - 2; q <= i; q++ {
						if W[r*n+q] != W[q*n+r] {
							t.Fatalf("diagonal block not symmetric at (%d,%d)", r, q)
						}
					}
				}
			}
		})
	}
}

func TestCorrectPMatchesDenseProduct(t *testing.T) {
	for _, c := range []int{1, 3, 20} {
		t.Run(fmt.Sprintf("contacts=%d", c), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c), 23))
			n := 3 * c
			WH := randSPD(rng, n, 1, 0.1)
			C := randFrames(rng, c)
			pFree := make([]float64, n)
			lambda := make([]float64, n)
			for i := range pFree {
				pFree[i] = rng.NormFloat64()
			}
			for a := 0; a < c; a++ {
				if a%3 == 1 {
					continue // a separated contact, λ_a = 0
				}
				for r := 0; r < 3; r++ {
					lambda[3*a+r] = rng.NormFloat64()
				}
			}
			const s = 1e-4
			p := make([]float64, n)
			work := make([]float64, n)
			if err := CorrectP(p, pFree, WH, C, lambda, s, work); err != nil {
				t.Fatal(err)
			}
			// p_ref = p_free + s·W_H·Cᵀ·λ with gonum.
			var f, y mat.VecDense
			f.MulVec(blockDiag(C).T(), mat.NewVecDense(n, lambda))
			y.MulVec(denseOf(WH, n), &f)
			want := mat.NewDense(1, n, nil)
			for i := 0; i < n; i++ {
				want.Set(0, i, pFree[i]+s*y.AtVec(i))
			}
			if d := maxRelDiff(p, want); !(d <= 1e-14) {
				t.Errorf("CorrectP differs from p_free + s·W_H·Cᵀ·λ by %g (relative)", d)
			}
		})
	}
}

func TestViolationMatchesDenseProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	const c = 9
	W, deltaFree := randProblem(rng, c, 1, 0.5)
	lambda := make([]float64, 3*c)
	for i := 3; i < len(lambda); i++ { // contact 0 inactive
		lambda[i] = rng.NormFloat64()
	}
	const s = 0.3
	delta := make([]float64, 3*c)
	if err := Violation(delta, deltaFree, W, lambda, s); err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(1, 3*c, gapsOf(W, s, deltaFree, lambda))
	if d := maxRelDiff(delta, want); !(d <= 1e-14) {
		t.Errorf("Violation differs from δfree + s·W·λ by %g (relative)", d)
	}
	// Only the lower block triangle is read, as after RebuildWLower.
	n := 3 * c
	for i := 0; i < n; i++ {
		for j := 3*(i/3) + 3; j < n; j++ {
			W[i*n+j] = math.NaN()
		}
	}
	if err := Violation(delta, deltaFree, W, lambda, s); err != nil {
		t.Fatal(err)
	}
	if d := maxRelDiff(delta, want); !(d <= 1e-14) {
		t.Errorf("with the upper triangle garbled, Violation differs by %g (relative)", d)
	}
}

// TestKernelsReadLowerTriangleOfWH checks the contract that lets W_H be
// built as its lower block triangle only: garbage in the strict upper block
// triangle of WH changes neither RebuildW, RebuildWLower nor CorrectP.
func TestKernelsReadLowerTriangleOfWH(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 28))
	const c = 11
	n := 3 * c
	WH := randSPD(rng, n, 1, 0.1)
	garbled := append([]float64(nil), WH...)
	for i := 0; i < n; i++ {
		for j := 3*(i/3) + 3; j < n; j++ {
			garbled[i*n+j] = math.NaN()
		}
	}
	C := randFrames(rng, c)
	lambda := make([]float64, n)
	for i := range lambda {
		lambda[i] = rng.NormFloat64()
	}
	outputs := func(WH []float64) [][]float64 {
		Wf, Wl, p := make([]float64, n*n), make([]float64, n*n), make([]float64, n)
		if err := RebuildW(Wf, WH, C); err != nil {
			t.Fatal(err)
		}
		if err := RebuildWLower(Wl, WH, C); err != nil {
			t.Fatal(err)
		}
		if err := CorrectP(p, make([]float64, n), WH, C, lambda, 0.5, make([]float64, n)); err != nil {
			t.Fatal(err)
		}
		return [][]float64{Wf, Wl, p}
	}
	want, got := outputs(WH), outputs(garbled)
	for k, name := range []string{"RebuildW", "RebuildWLower", "CorrectP"} {
		for i := range want[k] {
			if got[k][i] != want[k][i] && !(math.IsNaN(got[k][i]) && math.IsNaN(want[k][i])) {
				t.Errorf("%s output [%d] = %g with the upper triangle of WH garbled, %g without", name, i, got[k][i], want[k][i])
				break
			}
		}
	}
}

func TestKernelLengthErrors(t *testing.T) {
	C := make([]m3.Mat3, 2)
	v6 := make([]float64, 6)
	m36 := make([]float64, 36)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"RebuildW short WH", RebuildW(m36, m36[:30], C), "RebuildW: len(WH) = 30: want (3c)² = 36"},
		{"RebuildW short W", RebuildW(m36[:35], m36, C), "RebuildW: len(W) = 35: want 36"},
		{"RebuildWLower long WH", RebuildWLower(m36, append(m36, 0), C), "RebuildWLower: len(WH) = 37: want (3c)² = 36"},
		{"CorrectP short p", CorrectP(v6[:5], v6, m36, C, v6, 1, v6), "CorrectP: len(p) = 5"},
		{"CorrectP short work", CorrectP(v6, v6, m36, C, v6, 1, v6[:3]), "CorrectP: len(work) = 3"},
		{"CorrectP lambda for 3 contacts", CorrectP(v6, v6, m36, C, make([]float64, 9), 1, v6), "CorrectP: len(lambda) = 9: want 6"},
		{"Violation ragged", Violation(v6[:5], v6, m36, v6, 1), "len(delta) = 5: must be a multiple of 3"},
		{"Violation wrong W", Violation(v6, v6, m36[:9], v6, 1), "Violation: len(W) = 9: want (3c)² = 36"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", tc.err, tc.want)
			}
		})
	}
}

func TestKernelsAllocateNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	p := newFaceProblem(t, rng, 30)
	n := 3 * p.c
	lambda := make([]float64, n)
	for i := range lambda {
		lambda[i] = rng.NormFloat64()
	}
	out, work := make([]float64, n), make([]float64, n)
	tests := []struct {
		name string
		run  func() error
	}{
		{"RebuildW", func() error { return RebuildW(p.W, p.WH, p.C) }},
		{"RebuildWLower", func() error { return RebuildWLower(p.W, p.WH, p.C) }},
		{"CorrectP", func() error { return CorrectP(out, p.deltaFree, p.WH, p.C, lambda, p.s, work) }},
		{"Violation", func() error { return Violation(out, p.deltaFree, p.W, lambda, p.s) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			allocs := testing.AllocsPerRun(10, func() {
				if err := tc.run(); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%s allocates %g times per call, want 0", tc.name, allocs)
			}
		})
	}
}
