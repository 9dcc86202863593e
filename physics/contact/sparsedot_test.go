package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSparseDotsMatchDense requires dot1Sparse and dot3Sparse to return
// dot1's and dot3's sums bit for bit, for every length up to 70 (every
// residue of the vector loops' 16 and 4), at densities from one entry to
// all, with entries of mixed signs and magnitudes, on the build's kernels
// (AVX2 or portable; `go test -tags purego` runs the portable ones).
func TestSparseDotsMatchDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for n := 0; n <= 70; n++ {
		for _, density := range []float64{0, 0.05, 0.3, 0.7, 1} {
			r0, r1, r2 := randRow(rng, n+5), randRow(rng, n+5), randRow(rng, n+5)
			x := make([]float64, n)
			var nz []int32
			for j := range x {
				if rng.Float64() < density {
					x[j] = randRow(rng, 1)[0]
					nz = append(nz, int32(j))
				}
			}
			// Indices past x are ignored, as the sweeps pass the whole list.
			nz = append(nz, int32(n), int32(n+3))
			name := fmt.Sprintf("n=%d density=%.2f", n, density)
			if got, want := dot1Sparse(r0, x, nz), dot1(r0, x); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s: dot1Sparse %v, dot1 %v", name, got, want)
			}
			g0, g1, g2 := dot3Sparse(r0, r1, r2, x, nz)
			w0, w1, w2 := dot3(r0, r1, r2, x)
			if math.Float64bits(g0) != math.Float64bits(w0) || math.Float64bits(g1) != math.Float64bits(w1) ||
				math.Float64bits(g2) != math.Float64bits(w2) {
				t.Errorf("%s: dot3Sparse (%v %v %v), dot3 (%v %v %v)", name, g0, g1, g2, w0, w1, w2)
			}
		}
	}
}

// randRow returns n numbers spread over six decades, of both signs, so
// that the order of a sum shows in its last bits.
func randRow(rng *rand.Rand, n int) []float64 {
	r := make([]float64, n)
	for i := range r {
		r[i] = (rng.Float64() - 0.5) * math.Pow(10, 3*rng.Float64()-3)
	}
	return r
}

// BenchmarkDotSparse times dot1 on a row of 900 entries (300 contacts)
// against dot1Sparse with 1–300 listed entries: the ratio that
// sparseWorthIt's threshold follows.
func BenchmarkDotSparse(b *testing.B) {
	const n = 900
	rng := rand.New(rand.NewPCG(1, 2))
	r := randRow(rng, n)
	b.Run("dense_n=900", func(b *testing.B) {
		x := randRow(rng, n)
		for b.Loop() {
			_ = dot1(r, x)
		}
	})
	for _, k := range []int{10, 50, 100, 150, 300} {
		x := make([]float64, n)
		var nz []int32
		for j := 0; j < n; j += n / k {
			x[j] = 1
			nz = append(nz, int32(j))
		}
		b.Run(fmt.Sprintf("sparse_n=900_k=%d", len(nz)), func(b *testing.B) {
			for b.Loop() {
				_ = dot1Sparse(r, x, nz)
			}
		})
	}
}
