//go:build !amd64 || purego

package contact

import "softgrasp/physics/m3"

// useAVX2 is false: this build has only the portable loops.
const useAVX2 = false

// axpy3 adds y += a0·r0 + a1·r1 + a2·r2 (see axpy3Go).
func axpy3[T elem](y []float64, r0, r1, r2 []T, a0, a1, a2 float64) {
	axpy3Go(y, r0, r1, r2, a0, a1, a2)
}

// dot3 returns r0ᵀx, r1ᵀx, r2ᵀx (see dot3Go).
func dot3[T elem](r0, r1, r2 []T, x []float64) (s0, s1, s2 float64) {
	return dot3Go(r0, r1, r2, x)
}

// dot1 returns rᵀx (see dot1Go).
func dot1[T elem](r []T, x []float64) float64 { return dot1Go(r, x) }

// narrow stores src rounded to float32 in dst (see narrowGo).
func narrow(dst []float32, src []float64) { narrowGo(dst, src) }

// sandwichVector leaves every block to the portable loop: it returns 0.
func sandwichVector(Wrows, WHrows []float64, n int, Ca *m3.Mat3, lanes []float64, to int) int {
	return 0
}
