package cuda

import "fmt"

// The checks a cuBLAS call of a plan passes before it runs, on the device
// and on the host emulator of the tests alike: its arguments validated as
// cuBLAS does (CUBLAS_STATUS_INVALID_VALUE), and, beyond what cuBLAS can
// check, every access bounds-checked against the lengths of the arrays it
// names, and no output sharing an array with an input.
//
// Reference: cuBLAS Library User Guide, sections cublas<t>gemmStridedBatched
// and cublas<t>symv.

// bufferLens are the lengths of the arrays a call may touch, indexed by
// buffer: what check needs of a host or a device.
type bufferLens [numBuffers]int

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
		return fmt.Errorf("gemmStridedBatched: strides %d, %d, %d: the plans take strides ≥ 0", g.strideA, g.strideB, g.strideC)
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
		return fmt.Errorf("symv: incx = %d, incy = %d: the plans take increments > 0", m.incx, m.incy)
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
