//go:build amd64 && !purego

package contact

import "softgrasp/physics/m3"

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

// axpy3 adds y += a0·r0 + a1·r1 + a2·r2 (see axpy3Go).
func axpy3(y, r0, r1, r2 []float64, a0, a1, a2 float64) {
	n := len(y)
	if useAVX2 && len(r0) >= n && len(r1) >= n && len(r2) >= n {
		axpy3AVX2(y, r0, r1, r2, a0, a1, a2)
		return
	}
	axpy3Go(y, r0, r1, r2, a0, a1, a2)
}

// dot3 returns r0ᵀx, r1ᵀx, r2ᵀx (see dot3Go).
func dot3(r0, r1, r2, x []float64) (s0, s1, s2 float64) {
	n := len(x)
	if useAVX2 && len(r0) >= n && len(r1) >= n && len(r2) >= n {
		return dot3AVX2(r0, r1, r2, x)
	}
	return dot3Go(r0, r1, r2, x)
}

// dot1 returns rᵀx (see dot1Go): bit for bit the first sum of dot3 on the
// same row.
func dot1(r, x []float64) float64 {
	if useAVX2 && len(r) >= len(x) {
		return dot1AVX2(r, x)
	}
	return dot1Go(r, x)
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
