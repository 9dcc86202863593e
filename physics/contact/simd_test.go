package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSIMDKernelsMatchPortable holds the dispatching axpy3, dot3 and dot1 (AVX2
// where available) equal to the portable loops, over lengths that exercise
// every tail of the unrolled loops and unaligned starting offsets.
func TestSIMDKernelsMatchPortable(t *testing.T) {
	t.Logf("AVX2 kernels in use: %v", useAVX2)
	rng := rand.New(rand.NewPCG(3, 14))
	const maxLen = 70
	buf := make([]float64, 4*(maxLen+3))
	for i := range buf {
		buf[i] = rng.NormFloat64()
	}
	for n := 0; n <= maxLen; n++ {
		for off := 0; off < 3; off++ {
			t.Run(fmt.Sprintf("n=%d_offset=%d", n, off), func(t *testing.T) {
				r0 := buf[off : off+n]
				r1 := buf[maxLen+3+off : maxLen+3+off+n]
				r2 := buf[2*(maxLen+3)+off : 2*(maxLen+3)+off+n]
				x := buf[3*(maxLen+3)+off : 3*(maxLen+3)+off+n]
				checkAxpy3(t, r0, r1, r2, x)
				checkDot3(t, r0, r1, r2, x)
				checkDot1(t, r0, r1, r2, x)
			})
		}
	}
}

func checkAxpy3(t *testing.T, r0, r1, r2, x []float64) {
	t.Helper()
	got := append([]float64(nil), x...)
	want := append([]float64(nil), x...)
	axpy3(got, r0, r1, r2, 0.3, -1.7, 2.1)
	axpy3Go(want, r0, r1, r2, 0.3, -1.7, 2.1)
	for i := range want {
		// Fused and separate multiply-adds round differently.
		if math.Abs(got[i]-want[i]) > 1e-14*(1+math.Abs(want[i])) {
			t.Fatalf("axpy3[%d] = %.17g, portable %.17g", i, got[i], want[i])
		}
	}
}

func checkDot3(t *testing.T, r0, r1, r2, x []float64) {
	t.Helper()
	g0, g1, g2 := dot3(r0, r1, r2, x)
	w0, w1, w2 := dot3Go(r0, r1, r2, x)
	// Both sum in different orders: compare against Σ|r_i·x_i|.
	var a0, a1, a2 float64
	for i := range x {
		a0 += math.Abs(r0[i] * x[i])
		a1 += math.Abs(r1[i] * x[i])
		a2 += math.Abs(r2[i] * x[i])
	}
	for k, p := range [][3]float64{{g0, w0, a0}, {g1, w1, a1}, {g2, w2, a2}} {
		if math.Abs(p[0]-p[1]) > 1e-14*(1+p[2]) {
			t.Fatalf("dot3 sum %d = %.17g, portable %.17g", k, p[0], p[1])
		}
	}
}

// checkDot1 holds dot1 bit for bit equal to the first sum of dot3, in the
// dispatching and the portable versions: PGS decides a separation from
// the normal row alone with dot1, and must decide it as dot3 would.
func checkDot1(t *testing.T, r0, r1, r2, x []float64) {
	t.Helper()
	if s0, _, _ := dot3(r0, r1, r2, x); dot1(r0, x) != s0 {
		t.Fatalf("dot1 = %.17g, dot3's first sum %.17g: must be identical", dot1(r0, x), s0)
	}
	if s0, _, _ := dot3Go(r0, r1, r2, x); dot1Go(r0, x) != s0 {
		t.Fatalf("dot1Go = %.17g, dot3Go's first sum %.17g: must be identical", dot1Go(r0, x), s0)
	}
}
