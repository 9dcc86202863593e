package sparse

import (
	"errors"
	"fmt"
)

// Validate reports the first structural defect of the matrix: array lengths
// that disagree with N, column pointers that do not start at zero or
// decrease, row indices out of range, not strictly increasing, above the
// diagonal, or a column without its diagonal entry (a positive definite
// matrix has a positive diagonal, so the entry must be stored).
func (a *SymCSC) Validate() error {
	if a == nil {
		return errors.New("nil matrix")
	}
	if a.N < 0 {
		return fmt.Errorf("negative order N = %d", a.N)
	}
	if err := checkPointers(a.ColPtr, a.N, len(a.RowIdx), len(a.Val), "ColPtr", "N", "RowIdx", "column"); err != nil {
		return err
	}
	for j := 0; j < a.N; j++ {
		lo, hi := a.ColPtr[j], a.ColPtr[j+1]
		if lo == hi || a.RowIdx[lo] != j {
			return fmt.Errorf("column %d: missing diagonal entry (it must be the first entry of the column)", j)
		}
		for k := lo + 1; k < hi; k++ {
			if r := a.RowIdx[k]; r <= a.RowIdx[k-1] || r >= a.N {
				return fmt.Errorf("column %d: row index %d out of range or not strictly increasing", j, r)
			}
		}
	}
	return nil
}

// Validate reports the first structural defect of the matrix: a negative
// shape, row pointers inconsistent with Rows or with the entry arrays, or a
// column index outside [0, Cols). A CSR with no rows and no row pointers
// (the zero value, whatever Cols) is a valid empty matrix.
func (x *CSR) Validate() error {
	if x == nil {
		return errors.New("nil matrix")
	}
	if x.Rows < 0 || x.Cols < 0 {
		return fmt.Errorf("negative shape %d×%d", x.Rows, x.Cols)
	}
	if x.Rows == 0 && len(x.RowPtr) == 0 {
		return nil
	}
	if err := checkPointers(x.RowPtr, x.Rows, len(x.ColIdx), len(x.Val), "RowPtr", "Rows", "ColIdx", "row"); err != nil {
		return err
	}
	for i := 0; i < x.Rows; i++ {
		lo, hi := x.RowPtr[i], x.RowPtr[i+1]
		for k := lo; k < hi; k++ {
			if c := x.ColIdx[k]; c < 0 || c >= x.Cols {
				return fmt.Errorf("row %d: column index %d outside [0, %d)", i, c, x.Cols)
			}
		}
	}
	return nil
}

// checkPointers reports the first defect of the pointer array ptr of a
// compressed matrix of n lines (columns or rows) whose index and value
// arrays have nIdx and nVal entries: a length other than n+1, a first
// pointer other than 0, a last one other than the entry count, or a line
// whose pointers decrease or pass the end. ptrName, nName, idxName and line
// name the pointer array, n, the index array and a line in the messages.
// Once it passes, every line's entries lie within the index array.
func checkPointers(ptr []int, n, nIdx, nVal int, ptrName, nName, idxName, line string) error {
	if len(ptr) != n+1 {
		return fmt.Errorf("len(%s) = %d, want %s+1 = %d", ptrName, len(ptr), nName, n+1)
	}
	if ptr[0] != 0 {
		return fmt.Errorf("%s[0] = %d, want 0", ptrName, ptr[0])
	}
	nnz := ptr[n]
	if nIdx != nnz || nVal != nnz {
		return fmt.Errorf("%s[%s] = %d entries but len(%s) = %d, len(Val) = %d", ptrName, nName, nnz, idxName, nIdx, nVal)
	}
	for j := 0; j < n; j++ {
		if lo, hi := ptr[j], ptr[j+1]; hi < lo || hi > nnz {
			return fmt.Errorf("%s %d: pointers %d..%d out of order", line, j, lo, hi)
		}
	}
	return nil
}
