/*
 * Reduction of the compliance to the distinct columns of X.
 *
 * Let d_1…d_nt be the distinct columns (DOFs) touched by X and S the nt×n
 * selection with S[c, d_c] = 1. Then X = X̃·S, where X̃ (m×nt) holds the
 * same non-zeros as X with columns renumbered c, and
 *
 *     W = X·A⁻¹·Xᵀ = X̃·(S·A⁻¹·Sᵀ)·X̃ᵀ = X̃·G·X̃ᵀ.
 *
 * G is itself a compliance, with the nt unit vectors e_{d_c} as right-hand
 * sides, and is computed by the same supernodal kernel (compliance.c). The
 * kernel's cost is dominated by the upper separators, where it grows like
 * the square of the number of right-hand sides (the dsyrk term
 * Σ_s k_s·|R_s|²). When contacts share nodes (pairs on neighbouring
 * triangles, several pairs on one vertex) nt < m, and solving for G and
 * then applying the two sparse products, about 2·nnz(X)·nt + nnz(X)·m
 * flops, is cheaper than solving for the m rows. Otherwise the rows are
 * solved directly.
 */
#include <stdlib.h>
#include <string.h>
#include "cholmod_glue.h"

int sg_reduce_init(sg_factor *f)
{
	sg_work *w = &f->work;
	int64_t n = f->n;
	w->slot = malloc((size_t)n * sizeof(int));
	w->urowptr = malloc((size_t)(n + 1) * sizeof(int64_t));
	w->ucolidx = malloc((size_t)n * sizeof(int64_t));
	w->uval = malloc((size_t)n * sizeof(double));
	if (!w->slot || !w->urowptr || !w->ucolidx || !w->uval)
		return SG_NOMEM;
	for (int64_t i = 0; i < n; i++) {
		w->slot[i] = -1;
		w->urowptr[i] = i;
		w->uval[i] = 1;
	}
	w->urowptr[n] = n;
	return SG_OK;
}

/* sg_touched_dofs numbers the distinct columns of X in order of first
 * appearance (slot, ucolidx) and returns how many it numbered. It stops at
 * m: from there on the rows are solved directly and the numbering is not
 * needed. sg_untouch must follow with the returned count. */
int64_t sg_touched_dofs(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx)
{
	sg_work *w = &f->work;
	int64_t nt = 0;
	for (int64_t k = 0; k < rowptr[m] && nt < m; k++) {
		int64_t d = colidx[k];
		if (w->slot[d] < 0) {
			w->slot[d] = (int)nt;
			w->ucolidx[nt++] = d;
		}
	}
	return nt;
}

/* sg_untouch restores slot to −1 for the nt numbered DOFs. */
void sg_untouch(sg_factor *f, int64_t nt)
{
	for (int64_t c = 0; c < nt; c++)
		f->work.slot[f->work.ucolidx[c]] = -1;
}

/* mirror_upper copies the strict upper triangle of the row-major m×m W
 * to its lower triangle, in cache-sized tiles. */
static void mirror_upper(double *W, int64_t m)
{
	enum { TILE = 32 };
	for (int64_t i0 = 0; i0 < m; i0 += TILE) {
		int64_t i1 = i0 + TILE < m ? i0 + TILE : m;
		for (int64_t j0 = 0; j0 <= i0; j0 += TILE) {
			for (int64_t i = i0; i < i1; i++) {
				int64_t j1 = j0 + TILE < i ? j0 + TILE : i;
				for (int64_t j = j0; j < j1; j++)
					W[i * m + j] = W[j * m + i];
			}
		}
	}
}

/* sg_expand_reduced computes W = X̃·G·X̃ᵀ from the G just solved (in
 * work.G, nt×nt, compact order, both triangles), row by row: t = row r of
 * X̃·G, a sum of at most nine rows of G (G is symmetric), then
 * W[r, r2] = Σ_k X̃[r2, c_k]·t[c_k] for r2 ≥ r, whose gathers stay within
 * t, and the upper triangle mirrored so that W is exactly symmetric. */
int sg_expand_reduced(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                      const double *val, int64_t nt, double *W)
{
	sg_work *w = &f->work;
	int64_t nnz = rowptr[m];
	if (sg_grow((void **)&w->T, &w->t_cap, nt, sizeof(double)) != SG_OK ||
	    sg_grow((void **)&w->cidx, &w->cidx_cap, nnz, sizeof(int)) != SG_OK)
		return SG_NOMEM;
	int *cidx = w->cidx; /* compact column of each entry of X */
	for (int64_t k = 0; k < nnz; k++)
		cidx[k] = w->slot[colidx[k]];
	double *t = w->T;
	for (int64_t r = 0; r < m; r++) {
		memset(t, 0, (size_t)nt * sizeof(double));
		for (int64_t k = rowptr[r]; k < rowptr[r + 1]; k++) {
			const double *Gc = w->G + cidx[k] * nt;
			double v = val[k];
			for (int64_t j = 0; j < nt; j++)
				t[j] += v * Gc[j];
		}
		double *Wr = W + r * m;
		for (int64_t r2 = r; r2 < m; r2++) {
			double s = 0;
			for (int64_t k = rowptr[r2]; k < rowptr[r2 + 1]; k++)
				s += val[k] * t[cidx[k]];
			Wr[r2] = s;
		}
	}
	mirror_upper(W, m);
	w->flops += (double)nnz * (double)(2 * nt + m);
	return SG_OK;
}
