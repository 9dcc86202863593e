//go:build cuda

package cuda

/*
#cgo LDFLAGS: -lcublas
#include <stdint.h>
#include <cublas_v2.h>

// Device pointers cross from Go as integers (gorgonia.org/cu's DevicePtr)
// and become pointers here, so that no Go code forges a pointer to device
// memory. alpha and beta live on this stack frame: the handle's pointer
// mode is CUBLAS_POINTER_MODE_HOST, the default.

static cublasStatus_t sg_dgemm_strided_batched(cublasHandle_t h, int transA, int transB,
	int m, int n, int k, double alpha,
	uint64_t A, int lda, long long strideA,
	uint64_t B, int ldb, long long strideB, double beta,
	uint64_t C, int ldc, long long strideC, int batchCount)
{
	return cublasDgemmStridedBatched(h,
		transA ? CUBLAS_OP_T : CUBLAS_OP_N, transB ? CUBLAS_OP_T : CUBLAS_OP_N,
		m, n, k, &alpha,
		(const double*)(uintptr_t)A, lda, strideA,
		(const double*)(uintptr_t)B, ldb, strideB, &beta,
		(double*)(uintptr_t)C, ldc, strideC, batchCount);
}

static cublasStatus_t sg_dsymv(cublasHandle_t h, int lowerFill, int n, double alpha,
	uint64_t A, int lda, uint64_t x, int incx, double beta, uint64_t y, int incy)
{
	return cublasDsymv(h, lowerFill ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
		n, &alpha, (const double*)(uintptr_t)A, lda, (const double*)(uintptr_t)x, incx,
		&beta, (double*)(uintptr_t)y, incy);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// The two cuBLAS routines of the plans, called directly: gorgonia.org/cu's
// cublas package wraps neither cublasDgemmStridedBatched nor device
// pointers (its routines take Go slices, host memory), so this file binds
// the C functions it needs. The handle belongs to the context that is
// current when it is created (gpu.go creates it on the context's thread)
// and runs on the device's stream (setStream), where its copies and the
// PGS launch run too, so every operation is ordered after the previous one.

// blasHandle is a cuBLAS handle.
type blasHandle struct {
	h C.cublasHandle_t
}

// newBlasHandle creates a handle in the current context.
func newBlasHandle() (*blasHandle, error) {
	var h C.cublasHandle_t
	if err := blasError(C.cublasCreate(&h)); err != nil {
		return nil, fmt.Errorf("cublasCreate: %w", err)
	}
	return &blasHandle{h: h}, nil
}

// setStream makes the handle run its routines on s, the stream of the
// device's copies and launches, so that all of them are ordered.
func (b *blasHandle) setStream(s cu.Stream) error {
	if err := blasError(C.cublasSetStream(b.h, C.cudaStream_t(unsafe.Pointer(s.C())))); err != nil {
		return fmt.Errorf("cublasSetStream: %w", err)
	}
	return nil
}

// destroy releases the handle (in the current context).
func (b *blasHandle) destroy() {
	if b != nil && b.h != nil {
		C.cublasDestroy(b.h)
		b.h = nil
	}
}

// at returns the device address of operand o in the arrays base.
func at(base *[numBuffers]cu.DevicePtr, o operand) C.uint64_t {
	return C.uint64_t(uint64(base[o.buf]) + 8*uint64(o.off))
}

// gemm runs g on the device arrays base.
func (b *blasHandle) gemm(g *gemmBatch, base *[numBuffers]cu.DevicePtr) error {
	st := C.sg_dgemm_strided_batched(b.h, C.int(g.transA), C.int(g.transB),
		C.int(g.m), C.int(g.n), C.int(g.k), C.double(g.alpha),
		at(base, g.A), C.int(g.lda), C.longlong(g.strideA),
		at(base, g.B), C.int(g.ldb), C.longlong(g.strideB), C.double(g.beta),
		at(base, g.C), C.int(g.ldc), C.longlong(g.strideC), C.int(g.batchCount))
	if err := blasError(st); err != nil {
		return fmt.Errorf("cublasDgemmStridedBatched(m=%d, n=%d, k=%d, batch=%d): %w", g.m, g.n, g.k, g.batchCount, err)
	}
	return nil
}

// symv runs m on the device arrays base.
func (b *blasHandle) symv(m *symv, base *[numBuffers]cu.DevicePtr) error {
	st := C.sg_dsymv(b.h, C.int(m.uplo), C.int(m.n), C.double(m.alpha),
		at(base, m.A), C.int(m.lda), at(base, m.x), C.int(m.incx),
		C.double(m.beta), at(base, m.y), C.int(m.incy))
	if err := blasError(st); err != nil {
		return fmt.Errorf("cublasDsymv(n=%d): %w", m.n, err)
	}
	return nil
}

// blasStatusText says what each cuBLAS status other than success means.
var blasStatusText = map[C.cublasStatus_t]string{
	C.CUBLAS_STATUS_NOT_INITIALIZED:  "cuBLAS not initialized (no usable CUDA context)",
	C.CUBLAS_STATUS_ALLOC_FAILED:     "cuBLAS could not allocate device memory",
	C.CUBLAS_STATUS_INVALID_VALUE:    "cuBLAS rejected an argument (invalid value)",
	C.CUBLAS_STATUS_ARCH_MISMATCH:    "cuBLAS: the device lacks a feature the routine needs (architecture mismatch)",
	C.CUBLAS_STATUS_EXECUTION_FAILED: "cuBLAS: the routine failed to launch or run on the device",
	C.CUBLAS_STATUS_INTERNAL_ERROR:   "cuBLAS internal error",
	C.CUBLAS_STATUS_NOT_SUPPORTED:    "cuBLAS: operation not supported",
}

// blasError names a cuBLAS status; nil for CUBLAS_STATUS_SUCCESS.
func blasError(st C.cublasStatus_t) error {
	if st == C.CUBLAS_STATUS_SUCCESS {
		return nil
	}
	if text, ok := blasStatusText[st]; ok {
		return errors.New(text)
	}
	return fmt.Errorf("cuBLAS status %d", int(st))
}
