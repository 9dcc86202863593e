/*
 * Dense baseline for the compliance W = X·A⁻¹·Xᵀ: the columns of Xᵀ are
 * scattered into dense right-hand sides, SG_DENSE_CHUNK at a time, solved
 * with CHOLMOD's supernodal multi-RHS solve (BLAS-3 forward and backward
 * substitutions over the whole factor), and multiplied by the sparse X.
 *
 * It ignores the sparsity of the right-hand sides, which is exactly what
 * the kernel of compliance.c exploits; it exists to measure that saving.
 */
#include <string.h>
#include "cholmod_glue.h"

#define SG_DENSE_CHUNK 64

/* scatter_rows writes (set) or clears the rows c0..c0+nc-1 of X as the
 * columns of the dense block B (n×cw, column-major). */
static void scatter_rows(double *B, int64_t n, int64_t c0, int64_t nc, const int64_t *rowptr,
                         const int64_t *colidx, const double *val, int set)
{
	for (int64_t j = 0; j < nc; j++) {
		int64_t r = c0 + j;
		for (int64_t k = rowptr[r]; k < rowptr[r + 1]; k++) {
			if (set)
				B[colidx[k] + n * j] += val[k];
			else
				B[colidx[k] + n * j] = 0;
		}
	}
}

/* ensure_block allocates the zeroed n×cw right-hand-side block once. */
static int ensure_block(sg_factor *f, int64_t cw)
{
	if (f->DB != NULL && (int64_t)f->DB->ncol == cw)
		return SG_OK;
	cholmod_free_dense(&f->DB, &f->c);
	f->DB = cholmod_zeros(f->n, cw, CHOLMOD_REAL, &f->c);
	return f->DB == NULL ? SG_CHOLMOD : SG_OK;
}

int sg_compliance_dense(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                        const double *val, double *W)
{
	int64_t n = f->n, cw = m < SG_DENSE_CHUNK ? m : SG_DENSE_CHUNK;
	int st = ensure_block(f, cw);
	if (st != SG_OK)
		return st;
	double *B = f->DB->x;
	for (int64_t c0 = 0; c0 < m; c0 += cw) {
		int64_t nc = m - c0 < cw ? m - c0 : cw;
		scatter_rows(B, n, c0, nc, rowptr, colidx, val, 1);
		int ok = cholmod_solve2(CHOLMOD_A, f->L, f->DB, NULL, &f->DX, NULL, &f->DY, &f->DE, &f->c);
		scatter_rows(B, n, c0, nc, rowptr, colidx, val, 0);
		if (!ok)
			return SG_CHOLMOD;
		const double *Y = f->DX->x; /* Y = A⁻¹·Xᵀ for this chunk */
		for (int64_t j = 0; j < nc; j++) {
			int64_t r = c0 + j;
			for (int64_t i = r; i < m; i++) {
				double v = 0;
				for (int64_t k = rowptr[i]; k < rowptr[i + 1]; k++)
					v += val[k] * Y[colidx[k] + n * j];
				W[i * m + r] = v;
				W[r * m + i] = v;
			}
		}
	}
	/* Forward and backward substitution: 2 flops per entry of L each way. */
	int64_t chunks = (m + cw - 1) / cw;
	f->work.flops = 4.0 * f->c.lnz * (double)(chunks * cw);
	f->work.reach = 0;
	f->work.rhs = m;
	f->work.threads = 1;
	return SG_OK;
}
