package contact

import "math"

// Sparse forms of dot1 and dot3 for the sweeps of PGS: once most contacts
// are separated, most forces λ_b of a row product are zero, and the dense
// loops spend their time multiplying zeros. dot1Sparse and dot3Sparse read
// only the entries of x listed in nz and return what dot1 and dot3 return,
// bit for bit: each listed term enters the partial sum that the dense
// kernel gives its index, in the same order, and the partial sums are
// folded as the dense kernel folds them. A term x_j = 0 leaves a partial
// sum as it is (p + (±0) = p, and the partial sums start at +0), so the
// terms left out change nothing, and PGS decides and solves as before
// whichever form computed a product (TestSparseDotsMatchDense).
//
// nz lists indices into x in increasing order; every entry of x it does not
// list must be zero. Indices from len(x) on are ignored.

// sparseWorthIt reports whether the sparse form of a product of length n
// with k listed entries is the cheaper: a listed entry costs one scalar
// fused multiply-add through a lane index, about as much as 12 elements of
// the dense vector loop (BenchmarkDotSparse: 47 ns for 50 entries, 60 ns
// for a dense row of 900 in cache; in the default grasp's and the 20k-
// triangle blob's PGS, 6, 12, 24 and 48 were tried: 12 was the fastest on
// both).
func sparseWorthIt(k, n int) bool { return 12*k < n }

// dot1Sparse returns dot1(r, x) from the entries of x listed in nz.
func dot1Sparse[T elem](r []T, x []float64, nz []int32) float64 {
	if useAVX2 && len(r) >= len(x) {
		var p [16]float64
		k, s := fmaLanes(&p, r, x, nz)
		for ; k < len(nz) && int(nz[k]) < len(x); k++ {
			j := nz[k]
			s = math.FMA(x[j], float64(r[j]), s)
		}
		return s
	}
	var s, t float64
	for _, j := range nz {
		if int(j) >= len(x) {
			break
		}
		if j&1 == 0 {
			s += float64(r[j]) * x[j]
		} else {
			t += float64(r[j]) * x[j]
		}
	}
	return s + t
}

// dot3Sparse returns dot3(r0, r1, r2, x) from the entries of x listed in
// nz.
func dot3Sparse[T elem](r0, r1, r2 []T, x []float64, nz []int32) (s0, s1, s2 float64) {
	if useAVX2 && len(r0) >= len(x) && len(r1) >= len(x) && len(r2) >= len(x) {
		var p0, p1, p2 [16]float64
		_, s0 = fmaLanes(&p0, r0, x, nz)
		_, s1 = fmaLanes(&p1, r1, x, nz)
		var k int
		k, s2 = fmaLanes(&p2, r2, x, nz)
		for ; k < len(nz) && int(nz[k]) < len(x); k++ {
			j := nz[k]
			s0 = math.FMA(x[j], float64(r0[j]), s0)
			s1 = math.FMA(x[j], float64(r1[j]), s1)
			s2 = math.FMA(x[j], float64(r2[j]), s2)
		}
		return s0, s1, s2
	}
	var t0, t1, t2 float64
	for _, j := range nz {
		if int(j) >= len(x) {
			break
		}
		if j&1 == 0 {
			s0 += float64(r0[j]) * x[j]
			s1 += float64(r1[j]) * x[j]
			s2 += float64(r2[j]) * x[j]
		} else {
			t0 += float64(r0[j]) * x[j]
			t1 += float64(r1[j]) * x[j]
			t2 += float64(r2[j]) * x[j]
		}
	}
	return s0 + t0, s1 + t1, s2 + t2
}

// fmaLanes accumulates the listed terms of the AVX2 kernels' vector loops
// into their sixteen partial sums p (four registers of four lanes): index
// j below the last multiple of 16 into p[j mod 16], then, up to the last
// multiple of 4, into the first register's p[j mod 4]. It returns the
// position in nz of the first term left for the scalar tail and the folded
// sum (fold16) that the tail continues.
func fmaLanes[T elem](p *[16]float64, r []T, x []float64, nz []int32) (k int, s float64) {
	n := len(x)
	n16, n4 := int32(n&^15), int32(n&^3)
	for ; k < len(nz) && nz[k] < n16; k++ {
		j := nz[k]
		p[j&15] = math.FMA(x[j], float64(r[j]), p[j&15])
	}
	for ; k < len(nz) && nz[k] < n4; k++ {
		j := nz[k]
		p[j&3] = math.FMA(x[j], float64(r[j]), p[j&3])
	}
	return k, fold16(p)
}

// fold16 folds the sixteen partial sums as the AVX2 kernels do: the four
// registers pairwise, (p0+p1)+(p2+p3) lane by lane, then the lanes,
// (l0+l2)+(l1+l3).
func fold16(p *[16]float64) float64 {
	var l [4]float64
	for i := range l {
		l[i] = (p[i] + p[4+i]) + (p[8+i] + p[12+i])
	}
	return (l[0] + l[2]) + (l[1] + l[3])
}
