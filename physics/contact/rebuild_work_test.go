package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRebuildWLowerWorkMatchesPortable compares the vector rebuild with
// the portable RebuildWLower on every row-block length modulo the
// kernel's four blocks (c = 1 … 13) and on larger problems: the lower
// block triangles agree to round-off and the strict upper block triangle
// is left untouched.
func TestRebuildWLowerWorkMatchesPortable(t *testing.T) {
	t.Logf("AVX2 kernels in use: %v", useAVX2)
	sizes := []int{50, 97, 160}
	for c := 1; c <= 13; c++ {
		sizes = append(sizes, c)
	}
	for _, c := range sizes {
		t.Run(fmt.Sprintf("contacts=%d", c), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(8, uint64(c)))
			n := 3 * c
			WH := randSPD(rng, n, 1, 1)
			C := randFrames(rng, c)
			want := make([]float64, n*n)
			if err := RebuildWLower(want, WH, C); err != nil {
				t.Fatal(err)
			}
			const sentinel = 12345.0
			got := make([]float64, n*n)
			for i := range got {
				got[i] = sentinel
			}
			if err := RebuildWLowerWork(got, WH, C, make([]float64, 9*c)); err != nil {
				t.Fatal(err)
			}
			scale := 0.0
			for _, v := range want {
				scale = math.Max(scale, math.Abs(v))
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					v := got[i*n+j]
					if j >= 3*(i/3)+3 {
						if v != sentinel {
							t.Fatalf("W[%d,%d] = %g: the strict upper block triangle was written", i, j, v)
						}
						continue
					}
					if math.Abs(v-want[i*n+j]) > 1e-14*scale {
						t.Fatalf("W[%d,%d] = %.17g, portable %.17g", i, j, v, want[i*n+j])
					}
				}
			}
		})
	}
}

// TestRebuildWLowerWorkErrors checks the length errors, the work buffer's
// among them.
func TestRebuildWLowerWorkErrors(t *testing.T) {
	const c = 4
	n := 3 * c
	C := randFrames(rand.New(rand.NewPCG(1, 2)), c)
	for _, tc := range []struct {
		name        string
		W, WH, work []float64
		want        string
	}{
		{"short work", make([]float64, n*n), make([]float64, n*n), make([]float64, 9*c-1), "len(work)"},
		{"short W", make([]float64, n*n-1), make([]float64, n*n), make([]float64, 9*c), "len(W)"},
		{"long WH", make([]float64, n*n), make([]float64, n*n+1), make([]float64, 9*c), "len(WH)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := RebuildWLowerWork(tc.W, tc.WH, C, tc.work)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %s", err, tc.want)
			}
		})
	}
}
