package contact

// The dense loops under every O(c²) pass of the package, in portable Go.
// axpy3, dot3 and dot1 (simd_amd64.go, simd_other.go) dispatch to these or
// to their AVX2 versions in simd_amd64.s, which compute the same sums with
// fused multiply-adds (rounding differs in the last bits).
//
// The rows r are a compliance's rows, in double or in single precision
// (elem: PGS.SolveSingle); the vectors x and y, and every sum, are double.
// A single-precision entry is widened exactly before it is used.

// elem is the precision of a compliance's entries.
type elem interface{ ~float32 | ~float64 }

// axpy3Go adds y += a0·r0 + a1·r1 + a2·r2, the product of a 3-column
// block with a 3-vector: one pass over y instead of three. Unrolled by four
// with the bounds checks hoisted. It is the portable version of axpy3.
func axpy3Go[T elem](y []float64, r0, r1, r2 []T, a0, a1, a2 float64) {
	n := len(y)
	r0, r1, r2 = r0[:n], r1[:n], r2[:n]
	i := 0
	for ; i <= n-4; i += 4 {
		y0 := y[i] + a0*float64(r0[i]) + a1*float64(r1[i]) + a2*float64(r2[i])
		y1 := y[i+1] + a0*float64(r0[i+1]) + a1*float64(r1[i+1]) + a2*float64(r2[i+1])
		y2 := y[i+2] + a0*float64(r0[i+2]) + a1*float64(r1[i+2]) + a2*float64(r2[i+2])
		y3 := y[i+3] + a0*float64(r0[i+3]) + a1*float64(r1[i+3]) + a2*float64(r2[i+3])
		y[i], y[i+1], y[i+2], y[i+3] = y0, y1, y2, y3
	}
	for ; i < n; i++ {
		y[i] += a0*float64(r0[i]) + a1*float64(r1[i]) + a2*float64(r2[i])
	}
}

// dot3Go returns the three dot products r0ᵀx, r1ᵀx, r2ᵀx in one pass over
// x, two elements per step with independent partial sums. It is the
// portable version of dot3.
func dot3Go[T elem](r0, r1, r2 []T, x []float64) (s0, s1, s2 float64) {
	n := len(x)
	r0, r1, r2 = r0[:n], r1[:n], r2[:n]
	var t0, t1, t2 float64
	i := 0
	for ; i <= n-2; i += 2 {
		x0, x1 := x[i], x[i+1]
		s0 += float64(r0[i]) * x0
		s1 += float64(r1[i]) * x0
		s2 += float64(r2[i]) * x0
		t0 += float64(r0[i+1]) * x1
		t1 += float64(r1[i+1]) * x1
		t2 += float64(r2[i+1]) * x1
	}
	for ; i < n; i++ {
		s0 += float64(r0[i]) * x[i]
		s1 += float64(r1[i]) * x[i]
		s2 += float64(r2[i]) * x[i]
	}
	return s0 + t0, s1 + t1, s2 + t2
}

// dot1Go returns rᵀx with the partial sums of dot3Go's first row, in the
// same order, so that dot1Go(r0, x) is bit for bit the s0 of
// dot3Go(r0, r1, r2, x). It is the portable version of dot1.
func dot1Go[T elem](r []T, x []float64) float64 {
	n := len(x)
	r = r[:n]
	var s, t float64
	i := 0
	for ; i <= n-2; i += 2 {
		s += float64(r[i]) * x[i]
		t += float64(r[i+1]) * x[i+1]
	}
	for ; i < n; i++ {
		s += float64(r[i]) * x[i]
	}
	return s + t
}

// narrowGo stores src rounded to float32 (to nearest) in dst, which is at
// least as long. It is the portable version of narrow.
func narrowGo(dst []float32, src []float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}
