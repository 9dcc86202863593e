package sparse

/*
#cgo CFLAGS: -I/usr/include/suitesparse -O3
#cgo LDFLAGS: -lcholmod -lsuitesparseconfig -lopenblas -lgomp
#include "cholmod_glue.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"unsafe"
)

// The native side reads Go's int slices as int64_t arrays; this fails to
// compile on a platform whose int is narrower than 64 bits.
const _ = uint64(unsafe.Sizeof(int(0))) - 8

// ErrNotPositiveDefinite is wrapped by the error of Factorize when the
// matrix has a non-positive pivot, i.e. it is not symmetric positive
// definite.
var ErrNotPositiveDefinite = errors.New("matrix is not positive definite")

// ordering selects the fill-reducing ordering of the analysis. METIS nested
// dissection is the default: on the 36k-DOF test lattice it needs 21 GFlop
// per factorisation against AMD's 68 (nnz(L) 20.6M against 32.9M), and its
// balanced separators make the compliance 3× cheaper too (6.4 against 20.4
// GFlop for 1450 contact rows).
type ordering int

const (
	orderingAMD   ordering = C.CHOLMOD_AMD
	orderingMETIS ordering = C.CHOLMOD_METIS
)

// Factor is a sparse Cholesky factorisation P·A·Pᵀ = L·Lᵀ of a symmetric
// positive definite matrix, held by CHOLMOD in native memory: the symbolic
// analysis (fill-reducing ordering and supernodal structure) is done once
// per pattern by Analyze, the numeric factor is recomputed in place by
// Factorize. The factor keeps every workspace its solves need, so Solve and
// Compliance allocate nothing once warm.
//
// A Factor is not safe for concurrent use. Call Free when done; a runtime
// cleanup releases the native memory of an unreachable Factor as a safety
// net.
type Factor struct {
	native  *C.sg_factor
	cleanup runtime.Cleanup
	n, nnz  int
	threads int // the compliance kernel's threads (SetComplianceThreads)
}

// FactorStats describes a factor and the work of its last compliance.
type FactorStats struct {
	N               int     // order of A
	NonZerosA       int     // stored entries of A's lower triangle
	NonZerosL       int64   // entries of L, excluding zeros added by supernode amalgamation
	Supernodes      int     // number of supernodes of L
	Ordering        string  // fill-reducing ordering in use ("METIS", "AMD", ...)
	FactorFlops     float64 // floating-point operations of one numeric factorisation
	ComplianceFlops float64 // floating-point operations of the last Compliance or ComplianceDense
	ComplianceReach int64   // (supernode, right-hand side) pairs touched by the last Compliance
	// ComplianceColumns is the number of right-hand sides the last
	// Compliance solved: X.Rows, or the number of distinct columns of X
	// when that is smaller (see Compliance).
	ComplianceColumns int
	// ComplianceThreads is the number of threads the last Compliance ran
	// on: 2 when OpenBLAS had two or more and it had enough right-hand
	// sides to split (see Compliance), else 1.
	ComplianceThreads int
}

// Analyze computes the symbolic factorisation of A's pattern (the values are
// ignored): a METIS nested-dissection ordering (AMD when this CHOLMOD build
// lacks METIS), postordered, with a supernodal LLᵀ structure.
func Analyze(A *SymCSC) (*Factor, error) {
	return analyze(A, orderingMETIS)
}

func analyze(A *SymCSC, ord ordering) (*Factor, error) {
	if err := A.Validate(); err != nil {
		return nil, fmt.Errorf("sparse: analyze: %w", err)
	}
	if A.N == 0 {
		return nil, errors.New("sparse: analyze: matrix is empty (N = 0)")
	}
	nnz := A.ColPtr[A.N]
	if A.N > math.MaxInt32 || nnz > math.MaxInt32 {
		return nil, fmt.Errorf("sparse: analyze: N = %d, %d entries: too large for 32-bit indices", A.N, nnz)
	}
	var native *C.sg_factor
	st := C.sg_new(&native, C.int64_t(A.N), intPtr(A.ColPtr), intPtr(A.RowIdx), C.int(ord))
	if st != C.SG_OK {
		err := nativeError("analyze", st, native)
		C.sg_free(native)
		return nil, err
	}
	f := &Factor{native: native, n: A.N, nnz: nnz}
	f.cleanup = runtime.AddCleanup(f, freeNative, native)
	return f, nil
}

func freeNative(p *C.sg_factor) { C.sg_free(p) }

// Factorize computes the numeric factor of A, which must have the pattern
// given to Analyze (its values may differ; the pattern is compared entry by
// entry, an O(nnz) check that is small next to the factorisation). A non-positive pivot yields an
// error wrapping ErrNotPositiveDefinite that names the offending column; the
// factor is then unusable until the next successful Factorize.
func (f *Factor) Factorize(A *SymCSC) error {
	if err := f.usable("factorize", false); err != nil {
		return err
	}
	if A == nil {
		return errors.New("sparse: factorize: nil matrix")
	}
	if A.N != f.n || len(A.ColPtr) != f.n+1 || A.ColPtr[f.n] != f.nnz || len(A.RowIdx) != f.nnz {
		return fmt.Errorf("sparse: factorize: pattern changed since analysis (N = %d with %d entries, analysed N = %d with %d entries)",
			A.N, len(A.RowIdx), f.n, f.nnz)
	}
	if len(A.Val) != f.nnz {
		return fmt.Errorf("sparse: factorize: len(Val) = %d, want %d", len(A.Val), f.nnz)
	}
	st := C.sg_factorize(f.native, intPtr(A.ColPtr), intPtr(A.RowIdx), floatPtr(A.Val))
	bad := f.native.bad_col
	runtime.KeepAlive(f)
	switch st {
	case C.SG_OK:
		return nil
	case C.SG_PATTERN:
		return fmt.Errorf("sparse: factorize: pattern of column %d changed since analysis", bad[0])
	case C.SG_NOTPOSDEF:
		return fmt.Errorf("sparse: factorize: non-positive pivot at column %d of A (step %d of %d of the elimination): %w",
			bad[1], bad[0]+1, f.n, ErrNotPositiveDefinite)
	}
	return nativeError("factorize", st, f.native)
}

// Solve computes x = A⁻¹·b with the current factor. x and b must have
// length N and may be the same slice.
func (f *Factor) Solve(x, b []float64) error {
	if err := f.checkSolve("solve", x, b); err != nil {
		return err
	}
	st := C.sg_solve(f.native, (*C.double)(unsafe.Pointer(&x[0])), (*C.double)(unsafe.Pointer(&b[0])))
	runtime.KeepAlive(f)
	if st != C.SG_OK {
		return nativeError("solve", st, f.native)
	}
	return nil
}

// Stats reports the size of the factor and the work of the last compliance.
// It returns the zero value after Free.
func (f *Factor) Stats() FactorStats {
	if f.native == nil {
		return FactorStats{}
	}
	L := f.native.L
	s := FactorStats{
		N:               f.n,
		NonZerosA:       f.nnz,
		NonZerosL:       int64(f.native.c.lnz),
		Supernodes:      int(L.nsuper),
		Ordering:        orderingName(int(L.ordering)),
		FactorFlops:     float64(f.native.c.fl),
		ComplianceFlops: float64(f.native.work.flops),
		ComplianceReach: int64(f.native.work.reach),

		ComplianceColumns: int(f.native.work.rhs),
		ComplianceThreads: int(f.native.work.threads),
	}
	runtime.KeepAlive(f)
	return s
}

// Free releases the native memory. The Factor must not be used afterwards;
// calling Free again does nothing.
func (f *Factor) Free() {
	if f.native == nil {
		return
	}
	f.cleanup.Stop()
	C.sg_free(f.native)
	f.native = nil
}

// SetBLASThreads sets the number of threads OpenBLAS uses for the dense
// kernels of the factorisation and of the compliance (values below 1 mean
// 1). It applies process-wide.
func SetBLASThreads(n int) {
	if n < 1 {
		n = 1
	}
	C.sg_set_blas_threads(C.int(n))
}

// BLASThreads returns the number of threads OpenBLAS currently uses.
func BLASThreads() int {
	return int(C.sg_blas_threads())
}

// usable reports why f cannot serve op: freed, or (when numeric is set)
// without a valid numeric factor.
func (f *Factor) usable(op string, numeric bool) error {
	if f == nil || f.native == nil {
		return fmt.Errorf("sparse: %s: factor is nil or freed", op)
	}
	if numeric && f.native.numeric == 0 {
		return fmt.Errorf("sparse: %s: no valid numeric factor (Factorize has not succeeded since analysis or since its last failure)", op)
	}
	return nil
}

// nativeError turns a status of the native side into an error.
func nativeError(op string, st C.int, native *C.sg_factor) error {
	switch st {
	case C.SG_NOMEM:
		return fmt.Errorf("sparse: %s: out of native memory", op)
	case C.SG_NOTSUPER:
		return fmt.Errorf("sparse: %s: CHOLMOD did not produce a supernodal LLᵀ factor", op)
	case C.SG_NOTPOSTORD:
		return fmt.Errorf("sparse: %s: supernodal tree is not postordered", op)
	}
	cs := 0
	if native != nil {
		cs = int(C.sg_cholmod_status(native))
	}
	return fmt.Errorf("sparse: %s: CHOLMOD failed with status %d (%s)", op, cs, cholmodStatusName(cs))
}

// cholmodStatusNames names CHOLMOD's status codes.
var cholmodStatusNames = map[int]string{
	C.CHOLMOD_OK:            "ok",
	C.CHOLMOD_NOT_INSTALLED: "method not installed",
	C.CHOLMOD_OUT_OF_MEMORY: "out of memory",
	C.CHOLMOD_TOO_LARGE:     "integer overflow",
	C.CHOLMOD_INVALID:       "invalid input",
	C.CHOLMOD_NOT_POSDEF:    "not positive definite",
	C.CHOLMOD_DSMALL:        "tiny pivot",
}

func cholmodStatusName(cs int) string {
	if name, ok := cholmodStatusNames[cs]; ok {
		return name
	}
	return "unknown"
}

// orderingNames names CHOLMOD's fill-reducing orderings.
var orderingNames = map[int]string{
	C.CHOLMOD_NATURAL:     "natural",
	C.CHOLMOD_GIVEN:       "given",
	C.CHOLMOD_AMD:         "AMD",
	C.CHOLMOD_METIS:       "METIS",
	C.CHOLMOD_NESDIS:      "NESDIS",
	C.CHOLMOD_COLAMD:      "COLAMD",
	C.CHOLMOD_POSTORDERED: "postordered",
}

func orderingName(o int) string {
	if name, ok := orderingNames[o]; ok {
		return name
	}
	return fmt.Sprintf("ordering %d", o)
}

// intPtr passes a Go int slice to C as int64_t* for the duration of a call.
func intPtr(s []int) *C.int64_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&s[0]))
}

// CopySingle keeps a single-precision copy of the current factor for
// SolveSingle (single.c). It is dropped by the next Factorize.
func (f *Factor) CopySingle() error {
	if err := f.usable("single-precision copy", true); err != nil {
		return err
	}
	if st := C.sg_single_copy(f.native); st != C.SG_OK {
		return nativeError("single-precision copy", st, f.native)
	}
	return nil
}

// SolveSingle computes x ≈ A⁻¹·b with the single-precision copy of the
// factor (CopySingle): the triangular solves read half the bytes of Solve's
// and round to single precision (relative error about 1e-7 times the
// condition of the triangular factors), for preconditioning. x and b must
// have length N and may be the same slice.
func (f *Factor) SolveSingle(x, b []float64) error {
	if err := f.checkSolve("single-precision solve", x, b); err != nil {
		return err
	}
	if f.native.single_valid == 0 {
		return fmt.Errorf("sparse: single-precision solve: no copy of the current factor (CopySingle)")
	}
	C.sg_solve_single(f.native, (*C.double)(unsafe.Pointer(&x[0])), (*C.double)(unsafe.Pointer(&b[0])))
	runtime.KeepAlive(f)
	return nil
}

// checkSolve reports why op cannot solve into x from b: no valid numeric
// factor, or x or b not of length N.
func (f *Factor) checkSolve(op string, x, b []float64) error {
	if err := f.usable(op, true); err != nil {
		return err
	}
	if len(x) != f.n || len(b) != f.n {
		return fmt.Errorf("sparse: %s: len(x) = %d, len(b) = %d, want N = %d", op, len(x), len(b), f.n)
	}
	return nil
}
