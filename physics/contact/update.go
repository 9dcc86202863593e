package contact

import (
	"fmt"

	"softgrasp/physics/m3"
)

// The fast-update kernels of Algorithm 3: what the fast scheme does per
// Newton iteration besides PGS. RebuildW / RebuildWLower form W = C·W_H·Cᵀ
// (Eq. schur reformulated) and CorrectP moves the proximity positions by
// p = p_free + s·W_H·Cᵀ·λ (Eq. recursive motion correction 7); Violation
// evaluates the gaps δ = δ_free + s·W·λ of a solution.

// RebuildW computes the compliance of the current directions (Eq. schur
// reformulated)
//
//	W = C·W_H·Cᵀ,   W_ab = C_a·(W_H)_ab·C_bᵀ,
//
// for the block-diagonal C of the c = len(C) frames C_a = [n; t1; t2].
// W and WH are 3c×3c row-major and symmetric. Only the blocks b ≤ a are
// computed, from the lower block triangle of WH (the upper one is not
// read), and W_ba = W_abᵀ is mirrored. It returns an error for inconsistent
// lengths and allocates nothing.
//
// PGS.Solve, Violation and CorrectP read only lower block triangles;
// RebuildWLower fills just that part of W, with half the memory traffic.
func RebuildW(W, WH []float64, C []m3.Mat3) error {
	if err := rebuildLower("RebuildW", W, WH, C); err != nil {
		return err
	}
	n := 3 * len(C)
	for i := 0; i < n; i += 3 {
		mirrorRowBlock(W, n, i)
	}
	return nil
}

// RebuildWLower computes the blocks b ≤ a of W = C·W_H·Cᵀ (see RebuildW):
// the lower block triangle with the diagonal blocks, which is all that
// PGS.Solve and Violation read. It reads the same part of WH and leaves the
// strict upper block triangle of W untouched. It returns an error for
// inconsistent lengths and allocates nothing.
func RebuildWLower(W, WH []float64, C []m3.Mat3) error {
	return rebuildLower("RebuildWLower", W, WH, C)
}

// rebuildLower is RebuildWLower, reporting inconsistent lengths as op.
func rebuildLower(op string, W, WH []float64, C []m3.Mat3) error {
	c := len(C)
	n := 3 * c
	if err := checkKernel(op, c, "WH", WH, namedVec{"W", W, n * n}); err != nil {
		return err
	}
	for a := 0; a < c; a++ {
		i := 3 * a
		sandwichBlocks(W[i*n:(i+3)*n], WH[i*n:(i+3)*n], n, &C[a], C, 0, a+1)
		symmetrizeDiagonal(W, n, i)
	}
	return nil
}

// RebuildWLowerWork is RebuildWLower with a caller-owned work buffer of
// at least 9c values, which lets it run the AVX2 kernel (simd_amd64.s)
// four column blocks at a time: the frames are first laid out by lanes in
// work, M_k[3b+q] = C_b[q][k] for k = 0, 1, 2, so that W_ab = X·C_bᵀ with
// X = C_a·(W_H)_ab becomes three lane-wise multiply-adds per output
// vector. The portable loop finishes each row block (and does everything
// without AVX2). Results agree with RebuildWLower to round-off (fused
// multiply-adds). It allocates nothing.
func RebuildWLowerWork(W, WH []float64, C []m3.Mat3, work []float64) error {
	c := len(C)
	n := 3 * c
	if err := checkKernel("RebuildWLowerWork", c, "WH", WH, namedVec{"W", W, n * n}); err != nil {
		return err
	}
	if len(work) < 3*n {
		return fmt.Errorf("contact: RebuildWLowerWork: len(work) = %d: want at least 9c = %d for c = %d contacts", len(work), 3*n, c)
	}
	lanes := work[:3*n]
	frameLanes(lanes, C)
	for a := 0; a < c; a++ {
		i := 3 * a
		Wrows, WHrows := W[i*n:(i+3)*n], WH[i*n:(i+3)*n]
		done := sandwichVector(Wrows, WHrows, n, &C[a], lanes, a+1)
		sandwichBlocks(Wrows, WHrows, n, &C[a], C, done, a+1)
		symmetrizeDiagonal(W, n, i)
	}
	return nil
}

// RebuildWLowerSingle is RebuildWLowerWork writing W in single precision,
// for PGS.SolveSingle: each row block is computed in double into work, as
// RebuildWLowerWork computes it, and rounded to float32 as it is stored
// (the diagonal block symmetric before the rounding, so after it too). It
// writes half the bytes, and PGS then reads half. work holds at least 18c
// values (the frames by lanes and one row block). It allocates nothing.
func RebuildWLowerSingle(W []float32, WH []float64, C []m3.Mat3, work []float64) error {
	c := len(C)
	n := 3 * c
	if err := checkKernel("RebuildWLowerSingle", c, "WH", WH); err != nil {
		return err
	}
	if len(W) != n*n {
		return fmt.Errorf("contact: RebuildWLowerSingle: len(W) = %d: want (3c)² = %d for c = %d contacts", len(W), n*n, c)
	}
	if len(work) < 6*n {
		return fmt.Errorf("contact: RebuildWLowerSingle: len(work) = %d: want at least 18c = %d for c = %d contacts", len(work), 6*n, c)
	}
	lanes, rows := work[:3*n], work[3*n:6*n]
	frameLanes(lanes, C)
	for a := 0; a < c; a++ {
		i := 3 * a
		WHrows := WH[i*n : (i+3)*n]
		done := sandwichVector(rows, WHrows, n, &C[a], lanes, a+1)
		sandwichBlocks(rows, WHrows, n, &C[a], C, done, a+1)
		symmetrizeRows(rows, n, i)
		for r := 0; r < 3; r++ {
			narrow(W[(i+r)*n:(i+r)*n+i+3], rows[r*n:r*n+i+3])
		}
	}
	return nil
}

// NarrowLower rounds the lower block triangle of the (3c)×(3c) row-major
// W, whose diagonal blocks are symmetric, to float32 into W32 (the same
// layout), for PGS.SolveSingle: the standard scheme's W, computed whole
// by the compliance kernel. The strict upper block triangle of W32 is
// left as it is. It allocates nothing.
func NarrowLower(W32 []float32, W []float64, c int) error {
	if err := checkKernel("NarrowLower", c, "W", W); err != nil {
		return err
	}
	n := 3 * c
	if len(W32) != n*n {
		return fmt.Errorf("contact: NarrowLower: len(W32) = %d: want (3c)² = %d for c = %d contacts", len(W32), n*n, c)
	}
	for i := 0; i < n; i++ {
		end := 3 * (i/3 + 1)
		narrow(W32[i*n:i*n+end], W[i*n:i*n+end])
	}
	return nil
}

// frameLanes writes the frames C_b column by column into the three lane
// arrays M_k = lanes[3c·k : 3c·(k+1)], M_k[3b+q] = C_b[q][k]: entry j of
// M_k multiplies entry k of column j's own 3-column block in X·C_bᵀ.
func frameLanes(lanes []float64, C []m3.Mat3) {
	n := 3 * len(C)
	m0, m1, m2 := lanes[:n], lanes[n:2*n], lanes[2*n:3*n]
	for b := range C {
		Cb := &C[b]
		for q := 0; q < 3; q++ {
			j := 3*b + q
			m0[j], m1[j], m2[j] = Cb[3*q], Cb[3*q+1], Cb[3*q+2]
		}
	}
}

// sandwichBlocks computes W_ab = C_a·(W_H)_ab·C_bᵀ for b in [from, to) of
// one row block: Wrows and WHrows are the three rows 3a..3a+2 of W and W_H
// (row length n). Each block costs 2·27 multiply-adds: X = C_a·(W_H)_ab, then
// X·C_bᵀ.
func sandwichBlocks(Wrows, WHrows []float64, n int, Ca *m3.Mat3, C []m3.Mat3, from, to int) {
	h0, h1, h2 := WHrows[:n], WHrows[n:2*n], WHrows[2*n:3*n]
	w0, w1, w2 := Wrows[:n], Wrows[n:2*n], Wrows[2*n:3*n]
	C = C[:to]
	for b := from; b < to; b++ {
		j := 3 * b
		Cb := &C[b]
		hj0, hj1, hj2 := h0[j:j+3:j+3], h1[j:j+3:j+3], h2[j:j+3:j+3]
		// X = C_a·(W_H)_ab: row r of X = Σ_k C_a[r,k]·row k of (W_H)_ab.
		x00 := Ca[0]*hj0[0] + Ca[1]*hj1[0] + Ca[2]*hj2[0]
		x01 := Ca[0]*hj0[1] + Ca[1]*hj1[1] + Ca[2]*hj2[1]
		x02 := Ca[0]*hj0[2] + Ca[1]*hj1[2] + Ca[2]*hj2[2]
		x10 := Ca[3]*hj0[0] + Ca[4]*hj1[0] + Ca[5]*hj2[0]
		x11 := Ca[3]*hj0[1] + Ca[4]*hj1[1] + Ca[5]*hj2[1]
		x12 := Ca[3]*hj0[2] + Ca[4]*hj1[2] + Ca[5]*hj2[2]
		x20 := Ca[6]*hj0[0] + Ca[7]*hj1[0] + Ca[8]*hj2[0]
		x21 := Ca[6]*hj0[1] + Ca[7]*hj1[1] + Ca[8]*hj2[1]
		x22 := Ca[6]*hj0[2] + Ca[7]*hj1[2] + Ca[8]*hj2[2]
		// W_ab = X·C_bᵀ: entry (r, q) is row r of X dotted with row q of C_b.
		wj0, wj1, wj2 := w0[j:j+3:j+3], w1[j:j+3:j+3], w2[j:j+3:j+3]
		wj0[0] = x00*Cb[0] + x01*Cb[1] + x02*Cb[2]
		wj0[1] = x00*Cb[3] + x01*Cb[4] + x02*Cb[5]
		wj0[2] = x00*Cb[6] + x01*Cb[7] + x02*Cb[8]
		wj1[0] = x10*Cb[0] + x11*Cb[1] + x12*Cb[2]
		wj1[1] = x10*Cb[3] + x11*Cb[4] + x12*Cb[5]
		wj1[2] = x10*Cb[6] + x11*Cb[7] + x12*Cb[8]
		wj2[0] = x20*Cb[0] + x21*Cb[1] + x22*Cb[2]
		wj2[1] = x20*Cb[3] + x21*Cb[4] + x22*Cb[5]
		wj2[2] = x20*Cb[6] + x21*Cb[7] + x22*Cb[8]
	}
}

// symmetrizeDiagonal averages the off-diagonal pairs of the diagonal block
// at (i, i): computed in full, its two triangles differ by round-off, and
// PGS needs it exactly symmetric.
func symmetrizeDiagonal(W []float64, n, i int) { symmetrizeRows(W[i*n:(i+3)*n], n, i) }

// symmetrizeRows is symmetrizeDiagonal on the three rows i..i+2 alone
// (rows, row length n).
func symmetrizeRows(rows []float64, n, i int) {
	for r := 0; r < 3; r++ {
		for q := r + 1; q < 3; q++ {
			v := 0.5 * (rows[r*n+i+q] + rows[q*n+i+r])
			rows[r*n+i+q], rows[q*n+i+r] = v, v
		}
	}
}

// mirrorRowBlock copies the blocks left of the diagonal in rows i..i+2,
// transposed, into columns i..i+2 above it: W_ba = W_abᵀ for b < a.
func mirrorRowBlock(W []float64, n, i int) {
	r0, r1, r2 := W[i*n:i*n+i], W[(i+1)*n:(i+1)*n+i], W[(i+2)*n:(i+2)*n+i]
	for j := 0; j < i; j++ {
		col := W[j*n+i : j*n+i+3 : j*n+i+3]
		col[0], col[1], col[2] = r0[j], r1[j], r2[j]
	}
}

// CorrectP moves the proximity positions by the contact forces (Eq.
// recursive motion correction 7 in the total-force form of docs/method.md):
//
//	p = p_free + s·W_H·Cᵀ·λ,
//
// with s = h². The world-frame force of contact b, f_b = C_bᵀ·λ_b, goes into
// work (length 3c); the product reads only the lower block triangle of the
// symmetric W_H (see mulSymLowerAdd). It returns an error for inconsistent
// lengths and allocates nothing.
func CorrectP(p, pFree, WH []float64, C []m3.Mat3, lambda []float64, s float64, work []float64) error {
	c := len(C)
	n := 3 * c
	if err := checkKernel("CorrectP", c, "WH", WH,
		namedVec{"p", p, n}, namedVec{"pFree", pFree, n},
		namedVec{"lambda", lambda, n}, namedVec{"work", work, n}); err != nil {
		return err
	}
	f := work[:n]
	for b := 0; b < c; b++ {
		j := 3 * b
		l0, l1, l2 := lambda[j], lambda[j+1], lambda[j+2]
		Cb := &C[b]
		f[j] = Cb[0]*l0 + Cb[3]*l1 + Cb[6]*l2
		f[j+1] = Cb[1]*l0 + Cb[4]*l1 + Cb[7]*l2
		f[j+2] = Cb[2]*l0 + Cb[5]*l1 + Cb[8]*l2
	}
	copy(p, pFree)
	mulSymLowerAdd(p, WH, f, s)
	return nil
}

// Violation computes the gaps δ = δ_free + s·W·λ for the symmetric 3c×3c
// compliance W (row-major), reading only its lower block triangle as
// PGS.Solve does, so that it works after RebuildW or RebuildWLower. It
// returns an error for inconsistent lengths and allocates nothing.
func Violation(delta, deltaFree, W, lambda []float64, s float64) error {
	n := len(delta)
	if n%3 != 0 {
		return fmt.Errorf("contact: Violation: len(delta) = %d: must be a multiple of 3", n)
	}
	if err := checkKernel("Violation", n/3, "W", W, namedVec{"deltaFree", deltaFree, n}, namedVec{"lambda", lambda, n}); err != nil {
		return err
	}
	copy(delta, deltaFree)
	mulSymLowerAdd(delta, W, lambda, s)
	return nil
}

// mulSymLowerAdd adds y += s·M·x for a symmetric 3c×3c row-major M, reading
// only its lower block triangle, once: row block a gives Σ_{b≤a} M_ab·x_b by
// a dot product and, by symmetry M_ba = M_abᵀ, scatters M_abᵀ·x_a to the
// rows b < a from the same (cached) rows; the scatter is skipped when
// x_a = 0. Half the memory traffic of a full product.
func mulSymLowerAdd(y, M, x []float64, s float64) {
	n := len(y)
	x = x[:n]
	for i := 0; i < n; i += 3 {
		r0, r1, r2 := M[i*n:i*n+i+3], M[(i+1)*n:(i+1)*n+i+3], M[(i+2)*n:(i+2)*n+i+3]
		d0, d1, d2 := dot3(r0, r1, r2, x[:i+3])
		y[i] += s * d0
		y[i+1] += s * d1
		y[i+2] += s * d2
		if x0, x1, x2 := x[i], x[i+1], x[i+2]; x0 != 0 || x1 != 0 || x2 != 0 {
			axpy3(y[:i], r0, r1, r2, s*x0, s*x1, s*x2)
		}
	}
}

// checkKernel reports inconsistent lengths for the dense kernels: the
// 3c×3c matrix M (named matName) and the vectors, for c contacts.
func checkKernel(name string, c int, matName string, M []float64, vecs ...namedVec) error {
	n := 3 * c
	if len(M) != n*n {
		return fmt.Errorf("contact: %s: len(%s) = %d: want (3c)² = %d for c = %d contacts", name, matName, len(M), n*n, c)
	}
	for _, v := range vecs {
		if len(v.x) != v.want {
			return fmt.Errorf("contact: %s: len(%s) = %d: want %d for c = %d contacts", name, v.name, len(v.x), v.want, c)
		}
	}
	return nil
}

// namedVec is a slice with the length it must have, for checkKernel.
type namedVec struct {
	name string
	x    []float64
	want int
}
