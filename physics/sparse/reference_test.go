package sparse

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Dense reference implementations, written with gonum's dense Cholesky,
// against which the CHOLMOD-backed Factor is tested. They cost O(N³) and
// are meant for small matrices.

// denseSolve returns x = A⁻¹·b computed by a dense Cholesky factorisation.
func denseSolve(A *SymCSC, b []float64) ([]float64, error) {
	chol, err := denseCholesky(A)
	if err != nil {
		return nil, fmt.Errorf("sparse: dense solve: %w", err)
	}
	if len(b) != A.N {
		return nil, fmt.Errorf("sparse: dense solve: len(b) = %d, want N = %d", len(b), A.N)
	}
	var x mat.VecDense
	if err := chol.SolveVecTo(&x, mat.NewVecDense(A.N, append([]float64(nil), b...))); err != nil {
		return nil, fmt.Errorf("sparse: dense solve: %w", err)
	}
	return x.RawVector().Data, nil
}

// denseCompliance returns W = X·A⁻¹·Xᵀ computed densely: A⁻¹·Xᵀ by a dense
// Cholesky solve, then the product with X.
func denseCompliance(A *SymCSC, X *CSR) (*mat.Dense, error) {
	chol, err := denseCholesky(A)
	if err != nil {
		return nil, fmt.Errorf("sparse: dense compliance: %w", err)
	}
	if err := X.Validate(); err != nil {
		return nil, fmt.Errorf("sparse: dense compliance: %w", err)
	}
	if X.Cols != A.N {
		return nil, fmt.Errorf("sparse: dense compliance: X has %d columns, A has N = %d", X.Cols, A.N)
	}
	if X.Rows == 0 {
		return nil, errors.New("sparse: dense compliance: X has no rows")
	}
	Xd := X.dense()
	var Y, W mat.Dense
	if err := chol.SolveTo(&Y, Xd.T()); err != nil {
		return nil, fmt.Errorf("sparse: dense compliance: %w", err)
	}
	W.Mul(Xd, &Y)
	return &W, nil
}

// symDense returns A (N ≥ 1) as a dense symmetric matrix.
func (a *SymCSC) symDense() *mat.SymDense {
	S := mat.NewSymDense(a.N, nil)
	for j := 0; j < a.N; j++ {
		for k := a.ColPtr[j]; k < a.ColPtr[j+1]; k++ {
			S.SetSym(a.RowIdx[k], j, a.Val[k])
		}
	}
	return S
}

// dense returns X (at least one row and one column) as a dense matrix;
// repeated columns of a row are summed.
func (x *CSR) dense() *mat.Dense {
	D := mat.NewDense(x.Rows, x.Cols, nil)
	for i := 0; i < x.Rows; i++ {
		for k := x.RowPtr[i]; k < x.RowPtr[i+1]; k++ {
			j := x.ColIdx[k]
			D.Set(i, j, D.At(i, j)+x.Val[k])
		}
	}
	return D
}

// denseCholesky factors A densely, reporting a non-SPD matrix with
// ErrNotPositiveDefinite.
func denseCholesky(A *SymCSC) (*mat.Cholesky, error) {
	if err := A.Validate(); err != nil {
		return nil, err
	}
	if A.N == 0 {
		return nil, errors.New("matrix is empty (N = 0)")
	}
	var chol mat.Cholesky
	if ok := chol.Factorize(A.symDense()); !ok {
		return nil, ErrNotPositiveDefinite
	}
	return &chol, nil
}
