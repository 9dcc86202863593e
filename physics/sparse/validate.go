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
	if len(a.ColPtr) != a.N+1 {
		return fmt.Errorf("len(ColPtr) = %d, want N+1 = %d", len(a.ColPtr), a.N+1)
	}
	if a.ColPtr[0] != 0 {
		return fmt.Errorf("ColPtr[0] = %d, want 0", a.ColPtr[0])
	}
	nnz := a.ColPtr[a.N]
	if len(a.RowIdx) != nnz || len(a.Val) != nnz {
		return fmt.Errorf("ColPtr[N] = %d entries but len(RowIdx) = %d, len(Val) = %d", nnz, len(a.RowIdx), len(a.Val))
	}
	for j := 0; j < a.N; j++ {
		lo, hi := a.ColPtr[j], a.ColPtr[j+1]
		if hi < lo || hi > nnz {
			return fmt.Errorf("column %d: pointers %d..%d out of order", j, lo, hi)
		}
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
	if len(x.RowPtr) != x.Rows+1 {
		return fmt.Errorf("len(RowPtr) = %d, want Rows+1 = %d", len(x.RowPtr), x.Rows+1)
	}
	if x.RowPtr[0] != 0 {
		return fmt.Errorf("RowPtr[0] = %d, want 0", x.RowPtr[0])
	}
	nnz := x.RowPtr[x.Rows]
	if len(x.ColIdx) != nnz || len(x.Val) != nnz {
		return fmt.Errorf("RowPtr[Rows] = %d entries but len(ColIdx) = %d, len(Val) = %d", nnz, len(x.ColIdx), len(x.Val))
	}
	for i := 0; i < x.Rows; i++ {
		lo, hi := x.RowPtr[i], x.RowPtr[i+1]
		if hi < lo || hi > nnz {
			return fmt.Errorf("row %d: pointers %d..%d out of order", i, lo, hi)
		}
		for k := lo; k < hi; k++ {
			if c := x.ColIdx[k]; c < 0 || c >= x.Cols {
				return fmt.Errorf("row %d: column index %d outside [0, %d)", i, c, x.Cols)
			}
		}
	}
	return nil
}
