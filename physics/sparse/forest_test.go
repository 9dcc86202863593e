package sparse

import (
	"math/rand"
	"testing"
)

// directSum returns the block-diagonal matrix A ⊕ B: two unconnected
// bodies, whose elimination tree is a forest.
func directSum(A, B *SymCSC) *SymCSC {
	S := &SymCSC{N: A.N + B.N, ColPtr: []int{0}}
	for j := 0; j < A.N; j++ {
		for k := A.ColPtr[j]; k < A.ColPtr[j+1]; k++ {
			S.RowIdx, S.Val = append(S.RowIdx, A.RowIdx[k]), append(S.Val, A.Val[k])
		}
		S.ColPtr = append(S.ColPtr, len(S.RowIdx))
	}
	for j := 0; j < B.N; j++ {
		for k := B.ColPtr[j]; k < B.ColPtr[j+1]; k++ {
			S.RowIdx, S.Val = append(S.RowIdx, A.N+B.RowIdx[k]), append(S.Val, B.Val[k])
		}
		S.ColPtr = append(S.ColPtr, len(S.RowIdx))
	}
	return S
}

// TestComplianceOfTwoBodies: rows that couple two unconnected bodies (a
// soft–soft pair's point is the difference of a point of each), mixed
// with rows on one body only, give the dense reference's W.
func TestComplianceOfTwoBodies(t *testing.T) {
	for _, grids := range [][2]testGrid{{{2, 2, 2}, {3, 2, 2}}, {{8, 6, 5}, {10, 7, 4}}, {{4, 3, 3}, {4, 3, 3}}} {
		a, b := grids[0], grids[1]
		A := directSum(a.matrix(3), b.matrix(4))
		f := mustFactor(t, A)
		rng := rand.New(rand.NewSource(7))
		na, nb := a.nodes(), b.nodes()
		X := &CSR{}
		X.Reset(0, A.N)
		for r := 0; r < 30; r++ {
			// a vertex of one body minus a point on a triangle of the other
			// (3 rows, one per axis), or a row on one body
			u := rng.Intn(na)
			tri := [3]int{na + rng.Intn(nb), na + rng.Intn(nb), na + rng.Intn(nb)}
			w := [3]float64{rng.Float64(), rng.Float64(), rng.Float64()}
			for d := 0; d < 3; d++ {
				cols := []int{3*u + d}
				vals := []float64{1}
				seen := map[int]bool{3*u + d: true}
				for k, n := range tri {
					c := 3*n + d
					if seen[c] {
						continue
					}
					seen[c] = true
					cols, vals = append(cols, c), append(vals, -w[k])
				}
				sortRow(cols, vals)
				X.Append(cols, vals)
			}
			if r%3 == 0 {
				X.Append([]int{3 * (na + rng.Intn(nb))}, []float64{1})
			}
		}
		checkCompliance(t, f, A, X)
	}
}

// sortRow sorts a row's columns ascending, with their values.
func sortRow(cols []int, vals []float64) {
	for i := 1; i < len(cols); i++ {
		for j := i; j > 0 && cols[j] < cols[j-1]; j-- {
			cols[j], cols[j-1] = cols[j-1], cols[j]
			vals[j], vals[j-1] = vals[j-1], vals[j]
		}
	}
}
