package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"softgrasp/physics/m3"
)

// widen returns the float64 copy of a single-precision compliance.
func widen(W []float32) []float64 {
	w := make([]float64, len(W))
	for i, v := range W {
		w[i] = float64(v)
	}
	return w
}

// TestSingleKernelsMatchDouble holds the single-precision kernels (AVX2
// where available, else the portable loops) to the double ones run on the
// widened rows, bit for bit, over every residue of the vector loops and
// unaligned starts, the sparse forms included: PGS on a float32 W then
// decides and solves exactly as on its widening (TestSolveSingleIsSolveOfWidened).
func TestSingleKernelsMatchDouble(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 32))
	const maxLen = 70
	for n := 0; n <= maxLen; n++ {
		for off := 0; off < 3; off++ {
			rows32 := make([][]float32, 3)
			rows64 := make([][]float64, 3)
			for k := range rows32 {
				full := randRow(rng, n+off)
				rows32[k] = make([]float32, n+off)
				for j, v := range full {
					rows32[k][j] = float32(v)
				}
				rows32[k] = rows32[k][off:]
				rows64[k] = widen(rows32[k])
			}
			x := randRow(rng, n)
			nz := []int32{}
			for j := range x {
				if rng.Float64() < 0.3 {
					nz = append(nz, int32(j))
				} else {
					x[j] = 0
				}
			}
			name := fmt.Sprintf("n=%d offset=%d", n, off)
			bits := math.Float64bits
			g0, g1, g2 := dot3(rows32[0], rows32[1], rows32[2], x)
			w0, w1, w2 := dot3(rows64[0], rows64[1], rows64[2], x)
			if bits(g0) != bits(w0) || bits(g1) != bits(w1) || bits(g2) != bits(w2) {
				t.Fatalf("%s: dot3 single (%v %v %v), double (%v %v %v)", name, g0, g1, g2, w0, w1, w2)
			}
			if g := dot1(rows32[0], x); bits(g) != bits(w0) {
				t.Fatalf("%s: dot1 single %v, dot3's first sum %v", name, g, w0)
			}
			if g := dot1Sparse(rows32[0], x, nz); bits(g) != bits(w0) {
				t.Fatalf("%s: dot1Sparse single %v, dense %v", name, g, w0)
			}
			s0, s1, s2 := dot3Sparse(rows32[0], rows32[1], rows32[2], x, nz)
			if bits(s0) != bits(w0) || bits(s1) != bits(w1) || bits(s2) != bits(w2) {
				t.Fatalf("%s: dot3Sparse single (%v %v %v), dense (%v %v %v)", name, s0, s1, s2, w0, w1, w2)
			}
			y32, y64 := randRow(rng, n), make([]float64, n)
			copy(y64, y32)
			axpy3(y32, rows32[0], rows32[1], rows32[2], 0.3, -1.7, 2.1)
			axpy3(y64, rows64[0], rows64[1], rows64[2], 0.3, -1.7, 2.1)
			for j := range y64 {
				if bits(y32[j]) != bits(y64[j]) {
					t.Fatalf("%s: axpy3 single [%d] = %v, double %v", name, j, y32[j], y64[j])
				}
			}
		}
	}
}

// TestRebuildWLowerSingleRoundsTheDouble requires the single-precision
// rebuild to store exactly the double rebuild's lower block triangle
// rounded to float32, and to leave the strict upper block triangle alone.
func TestRebuildWLowerSingleRoundsTheDouble(t *testing.T) {
	for _, c := range []int{1, 2, 3, 4, 5, 7, 13, 50} {
		rng := rand.New(rand.NewPCG(9, uint64(c)))
		n := 3 * c
		WH := randSPD(rng, n, 1, 1)
		C := randFrames(rng, c)
		want := make([]float64, n*n)
		if err := RebuildWLowerWork(want, WH, C, make([]float64, 9*c)); err != nil {
			t.Fatal(err)
		}
		const sentinel = 12345
		got := make([]float32, n*n)
		for i := range got {
			got[i] = sentinel
		}
		if err := RebuildWLowerSingle(got, WH, C, make([]float64, 18*c)); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if j >= 3*(i/3)+3 {
					if got[i*n+j] != sentinel {
						t.Fatalf("c=%d: W[%d,%d] = %g: the strict upper block triangle was written", c, i, j, got[i*n+j])
					}
					continue
				}
				if got[i*n+j] != float32(want[i*n+j]) {
					t.Fatalf("c=%d: W[%d,%d] = %.9g, the double rounded %.9g", c, i, j, got[i*n+j], float32(want[i*n+j]))
				}
			}
		}
	}
	if err := RebuildWLowerSingle(make([]float32, 9), make([]float64, 9), make([]m3.Mat3, 1), make([]float64, 17)); err == nil {
		t.Error("a work buffer of 17 values for one contact was accepted")
	}
}

// TestSolveSingleIsSolveOfWidened requires SolveSingle on a float32 W to
// give Solve's iterates on the float64 widening of that W, bit for bit
// (the same sweeps, separations, states and forces), and the forces to
// stay within the rounding's reach of those on the double W.
func TestSolveSingleIsSolveOfWidened(t *testing.T) {
	for _, c := range []int{1, 17, 120} {
		p := newFaceProblem(t, rand.New(rand.NewPCG(4, uint64(c))), c)
		n := 3 * c
		W32 := make([]float32, n*n)
		for i, v := range p.W {
			W32[i] = float32(v)
		}
		single, widened, double := PGS{MaxIterations: 200, Tolerance: 1e-9}, PGS{MaxIterations: 200, Tolerance: 1e-9}, PGS{MaxIterations: 200, Tolerance: 1e-9}
		l32, lw, l64 := make([]float64, n), make([]float64, n), make([]float64, n)
		r32, err := single.SolveSingle(W32, c, p.s, p.deltaFree, p.mu, l32)
		if err != nil {
			t.Fatal(err)
		}
		rw, err := widened.Solve(widen(W32), c, p.s, p.deltaFree, p.mu, lw)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := double.Solve(p.W, c, p.s, p.deltaFree, p.mu, l64); err != nil {
			t.Fatal(err)
		}
		if r32 != rw {
			t.Fatalf("c=%d: SolveSingle %+v, Solve on the widened W %+v", c, r32, rw)
		}
		var dmax, lmax float64
		for i := range l32 {
			if math.Float64bits(l32[i]) != math.Float64bits(lw[i]) {
				t.Fatalf("c=%d: λ[%d] = %v, on the widened W %v", c, i, l32[i], lw[i])
			}
			dmax = math.Max(dmax, math.Abs(l32[i]-l64[i]))
			lmax = math.Max(lmax, math.Abs(l64[i]))
		}
		// The problems differ by 6e-8 relative in W; PGS stops at 1e-9.
		// Measured: 4e-8 to 1e-7 of the largest force; the bound is ten
		// times that.
		t.Logf("c=%d: %d sweeps, max |λ single − λ double| / max |λ| = %.2g", c, r32.Iterations, dmax/lmax)
		if dmax > 1e-6*lmax {
			t.Errorf("c=%d: λ single and double differ by %.3g of max |λ| %.3g", c, dmax, lmax)
		}
	}
}

// TestNarrowLower: the lower block triangle of W rounded to float32, the
// strict upper block triangle left as it was; a W of the wrong length is
// an error.
func TestNarrowLower(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	for _, c := range []int{1, 2, 5, 13} {
		n := 3 * c
		W := randRow(rng, n*n)
		W32 := make([]float32, n*n)
		for i := range W32 {
			W32[i] = -1
		}
		if err := NarrowLower(W32, W, c); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := float32(-1)
				if j < 3*(i/3+1) {
					want = float32(W[i*n+j])
				}
				if W32[i*n+j] != want {
					t.Fatalf("c = %d: W32[%d,%d] = %v, want %v", c, i, j, W32[i*n+j], want)
				}
			}
		}
	}
	if err := NarrowLower(make([]float32, 9), make([]float64, 8), 1); err == nil {
		t.Fatal("a W of 8 values for one contact: no error")
	}
}
