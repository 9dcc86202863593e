package sparse

// #include "cholmod_glue.h"
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Compliance computes the dense compliance W = X·A⁻¹·Xᵀ of the sparse rows
// of X (the mapping Jacobian H gives W_H = H·A⁻¹·Hᵀ, the contact Jacobian
// J = C·H gives the Delassus operator) with the current factor. W is
// X.Rows×X.Rows, row-major, both triangles filled, and must hold at least
// X.Rows² values. An X without rows leaves W untouched.
//
// With P·A·Pᵀ = L·Lᵀ and Z = L⁻¹·P·Xᵀ, W = Zᵀ·Z. Z is computed by forward
// solves that touch, for each column of Xᵀ, only the supernodes of its reach
// in the supernodal elimination tree, and W is accumulated supernode by
// supernode with BLAS-3 kernels (dtrsm, dgemm, dsyrk); see compliance.c for
// the derivation. No n×X.Rows dense block is ever formed.
//
// The cost grows with the square of the number of right-hand sides. When X
// touches fewer distinct columns (DOFs) than it has rows, as when contacts
// share nodes, the right-hand sides are instead the unit vectors of those
// columns: with X = X̃·S (S selecting the touched DOFs), W = X̃·G·X̃ᵀ where
// G = S·A⁻¹·Sᵀ is computed by the same kernel and the two outer products
// are sparse. Stats().ComplianceColumns tells which happened.
//
// With SetComplianceThreads(2) and at least 256 right-hand sides the
// kernel runs on two threads of its own (compliance_split.c;
// Stats().ComplianceThreads).
//
// References: J. R. Gilbert, Predicting structure in sparse matrix
// computations, SIAM J. Matrix Anal. Appl. 15(1), 1994 (reach of a sparse
// right-hand side); Y. Chen, T. A. Davis, W. W. Hager, S. Rajamanickam,
// CHOLMOD, ACM TOMS 35(3), 2008 (supernodal factor layout).
func (f *Factor) Compliance(X *CSR, W []float64) error {
	return f.compliance(X, W, true, false)
}

// ComplianceSingle computes the same W = X·A⁻¹·Xᵀ as Compliance with the
// forward solves and the products in single precision: each supernode's
// columns of the (double) factor are rounded to float as the sweep reaches
// them, the blocks Z_s and W are kept and accumulated in float (the BLAS
// kernels strsm, sgemm, ssyrk do twice the flops per cycle of their
// double twins), and W is returned widened to double. Its relative error
// is of the order of float's rounding, 1e-7 times the growth of the
// triangular solves (TestComplianceSingle measures it).
func (f *Factor) ComplianceSingle(X *CSR, W []float64) error {
	return f.compliance(X, W, true, true)
}

// compliance is Compliance or ComplianceSingle with the reduction to
// touched DOFs optional, so that benchmarks can time the row kernel alone.
func (f *Factor) compliance(X *CSR, W []float64, reduce, single bool) error {
	op := "compliance"
	if single {
		op = "single-precision compliance"
	}
	return f.runCompliance(op, X, W, func(m C.int64_t, rowPtr, colIdx *C.int64_t, val, w *C.double) C.int {
		return C.sg_compliance(f.native, m, rowPtr, colIdx, val, w, C.int(boolInt(reduce)), C.int(boolInt(single)), C.int(max(f.threads, 1)))
	})
}

// SetComplianceThreads sets the threads Compliance and ComplianceSingle
// run on: 1 (the default) or 2 (values above 2 count as 2, below 1 as
// 1). With two, a call with at least 256 right-hand sides sorts them by
// the elimination tree, cuts them in two halves of equal forward-solve
// work, runs the kernel on each half on a thread of its own, each with
// one OpenBLAS thread, then the cross products Z_Aᵀ·Z_B of the halves on
// both (compliance_split.c). W agrees with the one-thread kernel's to
// round-off, not bit for bit. OpenBLAS's own idle threads, where the
// process gave it more than one, spin for a while after each call and
// take a core from the two: the split pays when OpenBLAS has one thread
// (SetBLASThreads(1)).
func (f *Factor) SetComplianceThreads(n int) {
	f.threads = min(max(n, 1), 2)
}

// ComplianceDense computes the same W = X·A⁻¹·Xᵀ as Compliance the naive
// way: the columns of Xᵀ are solved as dense right-hand sides (in chunks,
// full forward and backward substitutions over the whole factor) and the
// result is multiplied by X. It serves as the baseline that shows what the
// sparse right-hand sides of Compliance save.
func (f *Factor) ComplianceDense(X *CSR, W []float64) error {
	return f.runCompliance("dense compliance", X, W, func(m C.int64_t, rowPtr, colIdx *C.int64_t, val, w *C.double) C.int {
		return C.sg_compliance_dense(f.native, m, rowPtr, colIdx, val, w)
	})
}

// runCompliance checks the arguments of the compliance product op, then,
// unless X has no rows, runs the native kernel on X's arrays and W.
func (f *Factor) runCompliance(op string, X *CSR, W []float64, kernel func(m C.int64_t, rowPtr, colIdx *C.int64_t, val, w *C.double) C.int) error {
	if err := f.checkCompliance(op, X, W); err != nil {
		return err
	}
	if X.Rows == 0 {
		return nil
	}
	st := kernel(C.int64_t(X.Rows), intPtr(X.RowPtr), intPtr(X.ColIdx), floatPtr(X.Val), (*C.double)(unsafe.Pointer(&W[0])))
	runtime.KeepAlive(f)
	if st != C.SG_OK {
		return nativeError(op, st, f.native)
	}
	return nil
}

// checkCompliance validates the arguments of a compliance product.
func (f *Factor) checkCompliance(op string, X *CSR, W []float64) error {
	if err := f.usable(op, true); err != nil {
		return err
	}
	if err := X.Validate(); err != nil {
		return fmt.Errorf("sparse: %s: %w", op, err)
	}
	if X.Rows == 0 {
		return nil // nothing to compute, whatever the declared width
	}
	if X.Cols != f.n {
		return fmt.Errorf("sparse: %s: X has %d columns, factor has N = %d", op, X.Cols, f.n)
	}
	if need := X.Rows * X.Rows; len(W) < need {
		return fmt.Errorf("sparse: %s: len(W) = %d, need %d×%d = %d", op, len(W), X.Rows, X.Rows, need)
	}
	return nil
}

func floatPtr(s []float64) *C.double {
	if len(s) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&s[0]))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setSplitMinRHS sets the count of right-hand sides from which the
// compliance kernel runs on two threads (when OpenBLAS has two or more)
// and returns the previous one; the tests lower it to reach the
// two-thread path on small grids.
func setSplitMinRHS(m int) int {
	return int(C.sg_set_split_min_rhs(C.int64_t(m)))
}
