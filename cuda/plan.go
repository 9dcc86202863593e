package cuda

import "fmt"

// The cuBLAS call plan of the fast scheme's dense products: which routine,
// with which shapes, leading dimensions, batch strides and transpose flags,
// over which device arrays. The plans are pure functions of the contact
// count c; the device backend hands them to cuBLAS unchanged and the
// tests' CPU emulator (emulate_test.go) runs them with cuBLAS's documented
// semantics, so the tests that compare the emulated plan with package
// contact check the exact arguments the GPU receives.
//
// Layout. The host arrays are row-major: W_H and W are n×n with n = 3c,
// entry (i, j) at i·n + j, and frame C_a is the 3×3 row-major m3.Mat3 at
// 9a. cuBLAS is column-major: element (r, q) of a matrix with leading
// dimension ld is at r + q·ld. Read column-major with ld = n, the row-major
// storage of a matrix M is Mᵀ. Every plan below is derived by writing the
// wanted product for the transposes, which is what cuBLAS sees.

// buffer names a device array of the backend.
type buffer uint8

const (
	bufWH        buffer = iota // W_H, n×n row-major, uploaded by Load
	bufX                       // X = C·W_H, n×n row-major scratch of RebuildW
	bufW                       // W = C·W_H·Cᵀ, n×n row-major
	bufFrames                  // the frames C_a, 9c: C_a row-major at 9a
	bufLambda                  // λ, 3c
	bufForce                   // f = Cᵀ·λ, the world-frame forces, 3c
	bufP                       // p, 3c: p_free on upload, p after CorrectP
	bufDeltaFree               // δ_free, 3c
	bufV                       // the PGS kernel's gathered products v, 3c
	bufRecords                 // the PGS kernel's per-contact records, pgsRecord·c
	bufErrors                  // the PGS kernel's ε per sweep, maxIterations
	numBuffers
)

var bufferNames = [numBuffers]string{"W_H", "X", "W", "frames", "lambda", "force", "p", "deltaFree", "v", "records", "errors"}

// String names the buffer in error messages.
func (b buffer) String() string {
	if b < numBuffers {
		return bufferNames[b]
	}
	return fmt.Sprintf("buffer(%d)", int(b))
}

// bufferLen returns the length in float64 of buffer b for c contacts and
// a PGS of at most maxIterations sweeps.
func bufferLen(b buffer, c, maxIterations int) int {
	n := 3 * c
	switch b {
	case bufWH, bufX, bufW:
		return n * n
	case bufFrames:
		return 9 * c
	case bufRecords:
		return pgsRecord * c
	case bufErrors:
		return maxIterations
	}
	return n
}

// operand is a matrix or vector argument: a device array and the offset of
// its first element (batch 0) in float64.
type operand struct {
	buf buffer
	off int
}

// transpose is cuBLAS's cublasOperation_t for real matrices.
type transpose uint8

const (
	noTrans transpose = iota // CUBLAS_OP_N: op(M) = M
	trans                    // CUBLAS_OP_T: op(M) = Mᵀ
)

// fill is cuBLAS's cublasFillMode_t: which triangle of a symmetric matrix,
// in column-major terms, holds the data.
type fill uint8

const (
	upper fill = iota // CUBLAS_FILL_MODE_UPPER: entries (r, q) with r ≤ q
	lower             // CUBLAS_FILL_MODE_LOWER: entries (r, q) with r ≥ q
)

// gemmBatch is one cublasDgemmStridedBatched call: for i < batch,
//
//	C_i = alpha·op(A_i)·op(B_i) + beta·C_i,
//
// op(A_i) m×k, op(B_i) k×n, C_i m×n, all column-major, with
// A_i = A + i·strideA (leading dimension lda), and likewise B_i and C_i.
type gemmBatch struct {
	transA, transB      transpose
	m, n, k             int
	alpha, beta         float64
	A, B, C             operand
	lda, ldb, ldc       int
	strideA, strideB    int
	strideC, batchCount int
}

// symv is one cublasDsymv call: y = alpha·A·x + beta·y for the symmetric
// n×n column-major A of which only the uplo triangle is read.
type symv struct {
	uplo        fill
	n           int
	alpha, beta float64
	A           operand
	lda         int
	x, y        operand
	incx, incy  int
}

// rebuildPlan is W = C·W_H·Cᵀ (Eq. schur reformulated) for c contacts as
// two strided-batched GEMMs of 3×3 blocks, with n = 3c:
//
// 1. X = C·W_H, one batch per row block a: X_a = C_a·(W_H)_a, where
// (W_H)_a is the 3×n row block. Column-major, row block a of a row-major
// matrix is the n×3 matrix (W_H)_aᵀ at offset 3a·n with ld = n, and frame
// C_a read column-major is C_aᵀ with ld = 3. So
//
//	X_aᵀ = (W_H)_aᵀ·C_aᵀ:  N, N, m = n, n = 3, k = 3,
//	A = W_H + 3a·n (lda n, stride 3n), B = C + 9a (ldb 3, stride 9),
//	C = X + 3a·n (ldc n, stride 3n).
//
// 2. W = X·Cᵀ, one batch per column block b: W^b = X^b·C_bᵀ, where X^b is
// the n×3 column block. Column-major, column block b of a row-major matrix
// is the 3×n matrix (X^b)ᵀ at offset 3b with ld = n. So
//
//	(W^b)ᵀ = C_b·(X^b)ᵀ = (C_bᵀ)ᵀ·(X^b)ᵀ:  T, N, m = 3, n = n, k = 3,
//	A = C + 9b (lda 3, stride 9), B = X + 3b (ldb n, stride 3),
//	C = W + 3b (ldc n, stride 3).
//
// Each call reads W_H (or X) once and writes every block of W once: the
// batches' outputs are disjoint, so they run concurrently. Both block
// triangles of W are formed, though the PGS kernel reads only the lower
// one: block W_ab depends on (W_H)_ab alone, so the lower block triangle of
// W is exact even if the upper one of W_H is stale. The cost is 2·2·27·c²
// flops. beta = 0: cuBLAS does not read C, so stale or
// uninitialised X and W are harmless. For c = 0 every dimension is 0 and
// the leading dimensions stay at their minimum 1.
func rebuildPlan(c int) [2]gemmBatch {
	n := 3 * c
	ld := max(1, n)
	return [2]gemmBatch{
		{
			transA: noTrans, transB: noTrans, m: n, n: 3, k: 3, alpha: 1, beta: 0,
			A: operand{bufWH, 0}, lda: ld, strideA: 3 * n,
			B: operand{bufFrames, 0}, ldb: 3, strideB: 9,
			C: operand{bufX, 0}, ldc: ld, strideC: 3 * n,
			batchCount: c,
		},
		{
			transA: trans, transB: noTrans, m: 3, n: n, k: 3, alpha: 1, beta: 0,
			A: operand{bufFrames, 0}, lda: 3, strideA: 9,
			B: operand{bufX, 0}, ldb: ld, strideB: 3,
			C: operand{bufW, 0}, ldc: ld, strideC: 3,
			batchCount: c,
		},
	}
}

// forcePlan is f = Cᵀ·λ, the world-frame force f_b = C_bᵀ·λ_b of each
// contact, as a strided-batched GEMM with n = 1 (a batched 3×3 GEMV):
// frame C_b read column-major is already C_bᵀ, so
//
//	f_b = C_bᵀ·λ_b:  N, N, m = 3, n = 1, k = 3,
//	A = C + 9b (lda 3, stride 9), B = λ + 3b (ldb 3, stride 3),
//	C = f + 3b (ldc 3, stride 3).
func forcePlan(c int) gemmBatch {
	return gemmBatch{
		transA: noTrans, transB: noTrans, m: 3, n: 1, k: 3, alpha: 1, beta: 0,
		A: operand{bufFrames, 0}, lda: 3, strideA: 9,
		B: operand{bufLambda, 0}, ldb: 3, strideB: 3,
		C: operand{bufForce, 0}, ldc: 3, strideC: 3,
		batchCount: c,
	}
}

// correctPlan is the correction of Eq. recursive motion correction 7 in the
// total-force form of docs/method.md, p = p_free + s·W_H·f with f = Cᵀ·λ and
// s = h², for p uploaded as p_free: y = p, alpha = s, beta = 1.
//
// W_H is symmetric, and only its lower block triangle is guaranteed to be
// meaningful by the callers of package contact: the row-major entries
// (i, j) with j ≤ i. Read column-major they are the entries (r, q) = (j, i)
// with r ≤ q, the UPPER triangle in cuBLAS's terms, which is all DSYMV
// reads; half the memory traffic of a DGEMV, too.
func correctPlan(c int, s float64) symv {
	n := 3 * c
	return symv{
		uplo: upper, n: n, alpha: s, beta: 1,
		A: operand{bufWH, 0}, lda: max(1, n),
		x: operand{bufForce, 0}, incx: 1,
		y: operand{bufP, 0}, incy: 1,
	}
}
