package cuda

import "fmt"

// A CPU emulator of the two cuBLAS routines the plans call,
// cublasDgemmStridedBatched and cublasDsymv, with their documented
// semantics: column-major storage, transpose flags, leading dimensions,
// batch strides, the triangle a symmetric routine reads, and beta = 0
// meaning that the output is written without being read (so NaN garbage in
// an uninitialised output does not propagate). Arguments are validated as
// cuBLAS does (CUBLAS_STATUS_INVALID_VALUE), and, beyond what cuBLAS can
// check, every access is bounds-checked against the arrays' lengths and an
// output may not share an array with an input.
//
// It is the reference the plans are tested with, and the arithmetic of the
// emulated device; its sums run in index order, where cuBLAS's order is
// its own, so the two agree to round-off.
//
// Reference: cuBLAS Library User Guide, sections cublas<t>gemmStridedBatched
// and cublas<t>symv.

// hostBuffers are the backend's arrays on the host, indexed by buffer.
type hostBuffers [numBuffers][]float64

// bufferLens are the lengths of the arrays a call may touch, indexed by
// buffer: what check needs of a host or a device.
type bufferLens [numBuffers]int

// lens returns the lengths of bufs.
func (bufs *hostBuffers) lens() bufferLens {
	var l bufferLens
	for b := range bufs {
		l[b] = len(bufs[b])
	}
	return l
}

// footprint returns the largest index touched by a column-major matrix of
// rows×cols at off with leading dimension ld, repeated count times every
// stride, or −1 when it touches nothing.
func footprint(off, rows, cols, ld, stride, count int) int {
	if rows == 0 || cols == 0 || count == 0 {
		return -1
	}
	return off + (count-1)*stride + (cols-1)*ld + rows - 1
}

// storedShape returns the stored rows×cols of a matrix whose op() is
// rows×cols: swapped by a transpose.
func storedShape(t transpose, rows, cols int) (int, int) {
	if t == trans {
		return cols, rows
	}
	return rows, cols
}

// check validates g as cuBLAS does, then its accesses against arrays of
// the lengths lens.
func (g *gemmBatch) check(lens *bufferLens) error {
	switch {
	case g.m < 0 || g.n < 0 || g.k < 0 || g.batchCount < 0:
		return fmt.Errorf("gemmStridedBatched: m = %d, n = %d, k = %d, batchCount = %d: must be ≥ 0", g.m, g.n, g.k, g.batchCount)
	case g.transA > trans || g.transB > trans:
		return fmt.Errorf("gemmStridedBatched: transpose flags %d, %d: want N or T", g.transA, g.transB)
	case g.strideA < 0 || g.strideB < 0 || g.strideC < 0:
		return fmt.Errorf("gemmStridedBatched: strides %d, %d, %d: the emulator takes strides ≥ 0", g.strideA, g.strideB, g.strideC)
	case g.C.buf == g.A.buf || g.C.buf == g.B.buf:
		return fmt.Errorf("gemmStridedBatched: output %v is also an input", g.C.buf)
	}
	ar, ac := storedShape(g.transA, g.m, g.k)
	br, bc := storedShape(g.transB, g.k, g.n)
	ops := [3]struct {
		name       string
		o          operand
		rows, cols int
		ld, stride int
	}{
		{"A", g.A, ar, ac, g.lda, g.strideA},
		{"B", g.B, br, bc, g.ldb, g.strideB},
		{"C", g.C, g.m, g.n, g.ldc, g.strideC},
	}
	for _, op := range ops {
		if op.ld < max(1, op.rows) {
			return fmt.Errorf("gemmStridedBatched: ld%s = %d: must be ≥ max(1, %d)", op.name, op.ld, op.rows)
		}
		if err := checkAccess("gemmStridedBatched", op.name, op.o, lens,
			footprint(op.o.off, op.rows, op.cols, op.ld, op.stride, g.batchCount)); err != nil {
			return err
		}
	}
	return nil
}

// checkAccess reports an operand that starts before its array or whose
// last touched index (−1: none) is past the end.
func checkAccess(routine, name string, o operand, lens *bufferLens, last int) error {
	if o.buf >= numBuffers {
		return fmt.Errorf("%s: %s names %v", routine, name, o.buf)
	}
	if o.off < 0 {
		return fmt.Errorf("%s: %s starts at %d in %v", routine, name, o.off, o.buf)
	}
	if n := lens[o.buf]; last >= n {
		return fmt.Errorf("%s: %s reaches %v[%d], past its %d entries", routine, name, o.buf, last, n)
	}
	return nil
}

// emulateGemm runs g on bufs: C_i = alpha·op(A_i)·op(B_i) + beta·C_i for
// every batch i, column-major. It allocates nothing.
func emulateGemm(g *gemmBatch, bufs *hostBuffers) error {
	lens := bufs.lens()
	if err := g.check(&lens); err != nil {
		return err
	}
	A, B, C := bufs[g.A.buf], bufs[g.B.buf], bufs[g.C.buf]
	for b := 0; b < g.batchCount; b++ {
		a0, b0, c0 := g.A.off+b*g.strideA, g.B.off+b*g.strideB, g.C.off+b*g.strideC
		for q := 0; q < g.n; q++ {
			for r := 0; r < g.m; r++ {
				var sum float64
				for l := 0; l < g.k; l++ {
					sum += opAt(A, a0, g.lda, g.transA, r, l) * opAt(B, b0, g.ldb, g.transB, l, q)
				}
				idx := c0 + q*g.ldc + r
				if g.beta == 0 {
					C[idx] = g.alpha * sum
				} else {
					C[idx] = g.alpha*sum + g.beta*C[idx]
				}
			}
		}
	}
	return nil
}

// opAt returns entry (r, q) of op(M) for the column-major M at off with
// leading dimension ld.
func opAt(M []float64, off, ld int, t transpose, r, q int) float64 {
	if t == trans {
		return M[off+r*ld+q]
	}
	return M[off+q*ld+r]
}

// check validates m as cuBLAS does, then its accesses against arrays of
// the lengths lens.
func (m *symv) check(lens *bufferLens) error {
	switch {
	case m.n < 0:
		return fmt.Errorf("symv: n = %d: must be ≥ 0", m.n)
	case m.uplo > lower:
		return fmt.Errorf("symv: fill mode %d: want upper or lower", m.uplo)
	case m.lda < max(1, m.n):
		return fmt.Errorf("symv: lda = %d: must be ≥ max(1, %d)", m.lda, m.n)
	case m.incx <= 0 || m.incy <= 0:
		return fmt.Errorf("symv: incx = %d, incy = %d: the emulator takes increments > 0", m.incx, m.incy)
	case m.y.buf == m.A.buf || m.y.buf == m.x.buf:
		return fmt.Errorf("symv: output %v is also an input", m.y.buf)
	}
	if err := checkAccess("symv", "A", m.A, lens, footprint(m.A.off, m.n, m.n, m.lda, 0, 1)); err != nil {
		return err
	}
	if err := checkAccess("symv", "x", m.x, lens, footprint(m.x.off, 1, m.n, m.incx, 0, 1)); err != nil {
		return err
	}
	return checkAccess("symv", "y", m.y, lens, footprint(m.y.off, 1, m.n, m.incy, 0, 1))
}

// emulateSymv runs m on bufs: y = alpha·A·x + beta·y, with the symmetric A
// read from its uplo triangle only. It allocates nothing.
func emulateSymv(m *symv, bufs *hostBuffers) error {
	lens := bufs.lens()
	if err := m.check(&lens); err != nil {
		return err
	}
	A, x, y := bufs[m.A.buf], bufs[m.x.buf], bufs[m.y.buf]
	for r := 0; r < m.n; r++ {
		var sum float64
		for q := 0; q < m.n; q++ {
			sum += symAt(A, m.A.off, m.lda, m.uplo, r, q) * x[m.x.off+q*m.incx]
		}
		idx := m.y.off + r*m.incy
		if m.beta == 0 {
			y[idx] = m.alpha * sum
		} else {
			y[idx] = m.alpha*sum + m.beta*y[idx]
		}
	}
	return nil
}

// symAt returns entry (r, q) of the symmetric column-major A at off,
// reading the stored triangle: (r, q) itself if it lies in it, else (q, r).
func symAt(A []float64, off, ld int, uplo fill, r, q int) float64 {
	stored := r <= q
	if uplo == lower {
		stored = r >= q
	}
	if !stored {
		r, q = q, r
	}
	return A[off+q*ld+r]
}
