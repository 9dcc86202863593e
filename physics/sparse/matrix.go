// Package sparse holds the sparse matrices of the simulation and the sparse
// Cholesky solver behind them: a thin cgo binding to CHOLMOD (SuiteSparse),
// analysed once per mesh, refactored every step, and the compliance
// products X·A⁻¹·Xᵀ that the contact schemes need.
package sparse

// SymCSC is a symmetric n×n matrix stored as its lower triangle (diagonal
// included) in compressed sparse column form: the entries of column j are
// Val[ColPtr[j]:ColPtr[j+1]] at rows RowIdx[ColPtr[j]:ColPtr[j+1]], rows
// strictly increasing and ≥ j. The pattern is fixed once built; Val is
// overwritten in place every step, so the solver's symbolic analysis stays
// valid.
type SymCSC struct {
	N      int
	ColPtr []int
	RowIdx []int
	Val    []float64
}

// Index returns the position in Val of entry (i, j) of the lower triangle
// (i ≥ j is required), or −1 when (i, j) is not in the pattern.
func (a *SymCSC) Index(i, j int) int {
	if i < j {
		i, j = j, i
	}
	lo, hi := a.ColPtr[j], a.ColPtr[j+1]
	for lo < hi {
		mid := (lo + hi) / 2
		switch r := a.RowIdx[mid]; {
		case r == i:
			return mid
		case r < i:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return -1
}

// MulVec computes y = A·x using both triangles.
func (a *SymCSC) MulVec(y, x []float64) {
	for i := range y[:a.N] {
		y[i] = 0
	}
	for j := 0; j < a.N; j++ {
		xj := x[j]
		sum := 0.0
		for k := a.ColPtr[j]; k < a.ColPtr[j+1]; k++ {
			i, v := a.RowIdx[k], a.Val[k]
			y[i] += v * xj
			if i != j {
				sum += v * x[i]
			}
		}
		y[j] += sum
	}
}

// Zero sets every stored value to zero, keeping the pattern.
func (a *SymCSC) Zero() {
	for i := range a.Val {
		a.Val[i] = 0
	}
}

// CSR is a general sparse matrix stored by rows: the entries of row i are
// Val[RowPtr[i]:RowPtr[i+1]] at columns ColIdx[RowPtr[i]:RowPtr[i+1]]. It
// holds the mapping Jacobian H and the contact Jacobian J = C·H, whose rows
// have at most nine non-zeros each. Columns within a row need not be sorted
// but must not repeat.
type CSR struct {
	Rows, Cols int
	RowPtr     []int
	ColIdx     []int
	Val        []float64
}

// Reset empties the matrix and sets its shape, keeping the capacity of its
// slices so that rebuilding it each step does not allocate once warm.
func (x *CSR) Reset(rows, cols int) {
	x.Rows, x.Cols = 0, cols
	x.RowPtr = append(x.RowPtr[:0], 0)
	x.ColIdx = x.ColIdx[:0]
	x.Val = x.Val[:0]
	_ = rows
}

// Append adds the next row, given by its column indices and values.
func (x *CSR) Append(cols []int, vals []float64) {
	x.ColIdx = append(x.ColIdx, cols...)
	x.Val = append(x.Val, vals...)
	x.RowPtr = append(x.RowPtr, len(x.ColIdx))
	x.Rows++
}

// MulVec computes y = X·v.
func (x *CSR) MulVec(y, v []float64) {
	for i := 0; i < x.Rows; i++ {
		s := 0.0
		for k := x.RowPtr[i]; k < x.RowPtr[i+1]; k++ {
			s += x.Val[k] * v[x.ColIdx[k]]
		}
		y[i] = s
	}
}

// MulVecT computes y = Xᵀ·v (y has length Cols and is overwritten).
func (x *CSR) MulVecT(y, v []float64) {
	for i := range y[:x.Cols] {
		y[i] = 0
	}
	for i := 0; i < x.Rows; i++ {
		vi := v[i]
		if vi == 0 {
			continue
		}
		for k := x.RowPtr[i]; k < x.RowPtr[i+1]; k++ {
			y[x.ColIdx[k]] += x.Val[k] * vi
		}
	}
}
