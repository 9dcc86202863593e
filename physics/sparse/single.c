/*
 * A single-precision copy of the supernodal factor and the solve with it,
 * for preconditioning.
 *
 * A triangular solve reads every entry of L once each way and does two
 * flops per entry: at 18k DOFs (7.0 million entries, 56 MB in double) it
 * runs at the memory's speed, not the processor's. Half the bytes, half
 * the time. The asynchronous solver's conjugate gradient applies the
 * factor of an older A only as a preconditioner, whose error it corrects
 * anyway, so single precision costs it nothing but the rounding of a few
 * iterations' worth of residual (the copy's relative error, about 1e-7,
 * against the conjugate gradient's tolerance of 1e-6).
 *
 * CHOLMOD factors P·A·Pᵀ = L·Lᵀ, so A⁻¹·b = Pᵀ·L⁻ᵀ·L⁻¹·P·b: a forward
 * sweep over the supernodes in order (the diagonal block's triangular
 * solve, then the block below it scattered into the rows it updates) and
 * a backward sweep in reverse (the rows below gathered, then the
 * transposed triangular solve).
 */
#include <string.h>
#include <cblas.h>
#include "cholmod_glue.h"

int sg_single_copy(sg_factor *f)
{
	f->single_valid = 0;
	if (!f->numeric)
		return SG_NOTPOSDEF;
	const cholmod_factor *L = f->L;
	const int *super = L->super, *pi = L->pi;
	int64_t nx = (int64_t)L->xsize, below = 1;
	for (int64_t s = 0; s < (int64_t)L->nsuper; s++) {
		int64_t b = (pi[s + 1] - pi[s]) - (super[s + 1] - super[s]);
		below = b > below ? b : below;
	}
	int st = sg_grow((void **)&f->sx, &f->sx_cap, nx, sizeof(float));
	if (st == SG_OK)
		st = sg_grow((void **)&f->sy, &f->sy_cap, f->n, sizeof(float));
	if (st == SG_OK)
		st = sg_grow((void **)&f->st, &f->st_cap, below, sizeof(float));
	if (st != SG_OK)
		return st;
	const double *x = L->x;
	for (int64_t k = 0; k < nx; k++)
		f->sx[k] = (float)x[k];
	f->single_valid = 1;
	return SG_OK;
}

int sg_solve_single(sg_factor *f, double *x, const double *b)
{
	if (!f->single_valid)
		return SG_NOTPOSDEF;
	const cholmod_factor *L = f->L;
	const int *super = L->super, *pi = L->pi, *px = L->px, *rows = L->s, *Perm = L->Perm;
	int64_t n = f->n, nsuper = (int64_t)L->nsuper;
	float *y = f->sy, *t = f->st;
	for (int64_t k = 0; k < n; k++)
		y[k] = (float)b[Perm[k]];
	for (int64_t s = 0; s < nsuper; s++) {
		int k1 = super[s], nscol = super[s + 1] - k1;
		int nsrow = pi[s + 1] - pi[s], below = nsrow - nscol;
		const float *Ls = f->sx + px[s];
		cblas_strsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, nscol, Ls, nsrow, y + k1, 1);
		if (below > 0) {
			cblas_sgemv(CblasColMajor, CblasNoTrans, below, nscol, 1.0f, Ls + nscol, nsrow, y + k1, 1, 0.0f, t, 1);
			const int *r = rows + pi[s] + nscol;
			for (int i = 0; i < below; i++)
				y[r[i]] -= t[i];
		}
	}
	for (int64_t s = nsuper - 1; s >= 0; s--) {
		int k1 = super[s], nscol = super[s + 1] - k1;
		int nsrow = pi[s + 1] - pi[s], below = nsrow - nscol;
		const float *Ls = f->sx + px[s];
		if (below > 0) {
			const int *r = rows + pi[s] + nscol;
			for (int i = 0; i < below; i++)
				t[i] = y[r[i]];
			cblas_sgemv(CblasColMajor, CblasTrans, below, nscol, -1.0f, Ls + nscol, nsrow, t, 1, 1.0f, y + k1, 1);
		}
		cblas_strsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, nscol, Ls, nsrow, y + k1, 1);
	}
	for (int64_t k = 0; k < n; k++)
		x[Perm[k]] = (double)y[k];
	return SG_OK;
}
