//go:build amd64 && !purego

package contact

import (
	"unsafe"

	"softgrasp/physics/m3"
)

// The AVX2 kernels of simd_amd64.s, used when the processor has AVX2 and
// FMA and the operating system saves the 256-bit registers. Elsewhere (and
// with the purego build tag) the portable loops of simd.go run.

//go:noescape
func axpy3AVX2(y, r0, r1, r2 []float64, a0, a1, a2 float64)

//go:noescape
func dot3AVX2(r0, r1, r2, x []float64) (s0, s1, s2 float64)

//go:noescape
func dot1AVX2(r, x []float64) float64

//go:noescape
func axpy3F32AVX2(y []float64, r0, r1, r2 []float32, a0, a1, a2 float64)

//go:noescape
func dot3F32AVX2(r0, r1, r2 []float32, x []float64) (s0, s1, s2 float64)

//go:noescape
func dot1F32AVX2(r []float32, x []float64) float64

//go:noescape
func narrowAVX2(dst []float32, src []float64)

//go:noescape
func sandwich4AVX2(w, h *float64, n int, m *float64, mstride int, ca *m3.Mat3, groups int)

func cpuid(leaf, sub uint32) (a, b, c, d uint32)

func xcr0() uint32

// useAVX2 is decided once: CPUID.1:ECX reports FMA (bit 12), OSXSAVE (27)
// and AVX (28); CPUID.7.0:EBX reports AVX2 (bit 5); XCR0 bits 1 and 2 say
// that the XMM and YMM states are saved by the operating system.
var useAVX2 = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if c1&fma == 0 || c1&osxsave == 0 || c1&avx == 0 {
		return false
	}
	if xcr0()&6 != 6 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0
}()

// single reports whether T is float32; the compiler decides it for each
// instantiation.
func single[T elem]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}

// as32 and as64 view rows of T as the float32 or float64 rows they are
// (single says which), for the kernels of each precision.
func as32[T elem](r []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(r))), len(r))
}

func as64[T elem](r []T) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(r))), len(r))
}

// axpy3 adds y += a0·r0 + a1·r1 + a2·r2 (see axpy3Go).
func axpy3[T elem](y []float64, r0, r1, r2 []T, a0, a1, a2 float64) {
	n := len(y)
	switch {
	case !useAVX2 || len(r0) < n || len(r1) < n || len(r2) < n:
		axpy3Go(y, r0, r1, r2, a0, a1, a2)
	case single[T]():
		axpy3F32AVX2(y, as32(r0), as32(r1), as32(r2), a0, a1, a2)
	default:
		axpy3AVX2(y, as64(r0), as64(r1), as64(r2), a0, a1, a2)
	}
}

// dot3 returns r0ᵀx, r1ᵀx, r2ᵀx (see dot3Go).
func dot3[T elem](r0, r1, r2 []T, x []float64) (s0, s1, s2 float64) {
	n := len(x)
	switch {
	case !useAVX2 || len(r0) < n || len(r1) < n || len(r2) < n:
		return dot3Go(r0, r1, r2, x)
	case single[T]():
		return dot3F32AVX2(as32(r0), as32(r1), as32(r2), x)
	}
	return dot3AVX2(as64(r0), as64(r1), as64(r2), x)
}

// dot1 returns rᵀx (see dot1Go): bit for bit the first sum of dot3 on the
// same row.
func dot1[T elem](r []T, x []float64) float64 {
	switch {
	case !useAVX2 || len(r) < len(x):
		return dot1Go(r, x)
	case single[T]():
		return dot1F32AVX2(as32(r), x)
	}
	return dot1AVX2(as64(r), x)
}

// narrow stores src rounded to float32 in dst (see narrowGo).
func narrow(dst []float32, src []float64) {
	if useAVX2 && len(dst) >= len(src) {
		narrowAVX2(dst, src)
		return
	}
	narrowGo(dst, src)
}

// sandwichVector computes the blocks b < 4·⌊to/4⌋ of one row block of W
// (see sandwichBlocks) four at a time with the AVX2 kernel, from the frames
// laid out by lanes (frameLanes), and returns the first block it left to
// the caller: 0 without AVX2.
func sandwichVector(Wrows, WHrows []float64, n int, Ca *m3.Mat3, lanes []float64, to int) int {
	groups := to / 4
	if !useAVX2 || groups == 0 || len(Wrows) < 3*n || len(WHrows) < 3*n || len(lanes) < 3*n || 12*groups > n {
		return 0
	}
	sandwich4AVX2(&Wrows[0], &WHrows[0], n, &lanes[0], n, Ca, groups)
	return 4 * groups
}
