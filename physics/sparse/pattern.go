package sparse

import "sort"

// NewBlockPattern returns the pattern of a symmetric 3n×3n matrix made of
// 3×3 blocks: a full block on the diagonal of every node and, for every
// listed pair of distinct nodes (i, j), the coupling block between them
// (both orders mean the same block; repeats are merged). Values are zero.
//
// Within the lower triangle a diagonal block keeps its 6 lower entries and
// an off-diagonal block all 9, so column 3i+a holds rows 3i+a…3i+2 of its
// own block followed by the full rows of the coupled nodes j > i.
func NewBlockPattern(n int, pairs [][2]int) *SymCSC {
	neighbours := make([][]int, n)
	for _, p := range pairs {
		i, j := p[0], p[1]
		if i == j {
			continue
		}
		if i > j {
			i, j = j, i
		}
		neighbours[i] = append(neighbours[i], j)
	}
	for i := range neighbours {
		nb := neighbours[i]
		sort.Ints(nb)
		k := 0
		for _, j := range nb {
			if k == 0 || nb[k-1] != j {
				nb[k] = j
				k++
			}
		}
		neighbours[i] = nb[:k]
	}
	a := &SymCSC{N: 3 * n, ColPtr: make([]int, 3*n+1)}
	nnz := 0
	for i := 0; i < n; i++ {
		for d := 0; d < 3; d++ {
			nnz += 3 - d + 3*len(neighbours[i])
			a.ColPtr[3*i+d+1] = nnz
		}
	}
	a.RowIdx = make([]int, 0, nnz)
	for i := 0; i < n; i++ {
		for d := 0; d < 3; d++ {
			for r := d; r < 3; r++ {
				a.RowIdx = append(a.RowIdx, 3*i+r)
			}
			for _, j := range neighbours[i] {
				a.RowIdx = append(a.RowIdx, 3*j, 3*j+1, 3*j+2)
			}
		}
	}
	a.Val = make([]float64, nnz)
	return a
}
