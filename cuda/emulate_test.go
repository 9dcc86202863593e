package cuda

// A CPU emulator of the two cuBLAS routines the plans call,
// cublasDgemmStridedBatched and cublasDsymv, with their documented
// semantics: column-major storage, transpose flags, leading dimensions,
// batch strides, the triangle a symmetric routine reads, and beta = 0
// meaning that the output is written without being read (so NaN garbage in
// an uninitialised output does not propagate). Every call first passes the
// checks the device makes (plancheck.go) against the host arrays' lengths.
//
// It is the reference the plans are tested with, and the arithmetic of the
// emulated device; its sums run in index order, where cuBLAS's order is
// its own, so the two agree to round-off.
//
// Reference: cuBLAS Library User Guide, sections cublas<t>gemmStridedBatched
// and cublas<t>symv.

// hostBuffers are the backend's arrays on the host, indexed by buffer.
type hostBuffers [numBuffers][]float64

// lens returns the lengths of bufs.
func (bufs *hostBuffers) lens() bufferLens {
	var l bufferLens
	for b := range bufs {
		l[b] = len(bufs[b])
	}
	return l
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
