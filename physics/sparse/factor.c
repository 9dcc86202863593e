/*
 * CHOLMOD lifecycle for package sparse: analyse once per pattern, refactor
 * numerically per step, solve with reused dense workspaces.
 *
 * The factor is forced supernodal and LLᵀ (Common->supernodal =
 * CHOLMOD_SUPERNODAL, final_ll = TRUE) because the compliance kernel in
 * compliance.c reads the supernodal blocks of L directly.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include "cholmod_glue.h"

/* configure sets the Common parameters shared by every factor. */
static void configure(cholmod_common *c, int ordering)
{
	c->nmethods = 1;
	c->method[0].ordering = ordering;
	c->postorder = 1;                  /* supernodes in postorder: children before parents */
	c->supernodal = CHOLMOD_SUPERNODAL;
	c->final_ll = 1;
	c->final_super = 1;
	c->quick_return_if_not_posdef = 1;
	c->print = 0;                      /* errors come back as statuses, never on stderr */
	c->error_handler = NULL;
}

/* copy_pattern fills the analysed pattern from Go's 64-bit arrays. */
static void copy_pattern(cholmod_sparse *A, int64_t n, const int64_t *colptr, const int64_t *rowidx)
{
	int *Ap = A->p, *Ai = A->i;
	for (int64_t j = 0; j <= n; j++)
		Ap[j] = (int)colptr[j];
	for (int64_t k = 0; k < colptr[n]; k++)
		Ai[k] = (int)rowidx[k];
}

/* analyse runs the symbolic analysis with the requested ordering and, when
 * this CHOLMOD build lacks METIS, falls back to AMD.
 *
 * METIS (its GKlib) traps SIGABRT and SIGTERM with signal() while it orders
 * and puts the previous handlers back with signal() too, which drops their
 * flags: the Go runtime's handlers lose SA_ONSTACK and SA_SIGINFO, and the
 * next SIGTERM kills the process with "non-Go code set up signal handler
 * without SA_ONSTACK flag". The two actions are saved before the analysis
 * and restored exactly after it. */
static int analyse(sg_factor *f, int ordering)
{
	struct sigaction abrt, term;
	sigaction(SIGABRT, NULL, &abrt);
	sigaction(SIGTERM, NULL, &term);
	configure(&f->c, ordering);
	f->L = cholmod_analyze(f->A, &f->c);
	if (f->L == NULL && f->c.status == CHOLMOD_NOT_INSTALLED && ordering != CHOLMOD_AMD) {
		configure(&f->c, CHOLMOD_AMD);
		f->L = cholmod_analyze(f->A, &f->c);
	}
	sigaction(SIGABRT, &abrt, NULL);
	sigaction(SIGTERM, &term, NULL);
	if (f->L == NULL)
		return SG_CHOLMOD;
	if (!f->L->is_super)
		return SG_NOTSUPER;
	return SG_OK;
}

int sg_new(sg_factor **out, int64_t n, const int64_t *colptr, const int64_t *rowidx, int ordering)
{
	sg_factor *f = calloc(1, sizeof *f);
	*out = f;
	if (f == NULL)
		return SG_NOMEM;
	f->n = n;
	f->nnz = colptr[n];
	if (!cholmod_start(&f->c))
		return SG_CHOLMOD;
	f->c.print = 0;
	f->c.error_handler = NULL;
	/* The values are attached only for the duration of sg_factorize, so the
	 * stored matrix is pattern-only (stype -1: lower triangle). */
	f->A = cholmod_allocate_sparse(n, n, f->nnz, 1, 1, -1, CHOLMOD_PATTERN, &f->c);
	if (f->A == NULL)
		return SG_CHOLMOD;
	copy_pattern(f->A, n, colptr, rowidx);
	int st = analyse(f, ordering);
	if (st != SG_OK)
		return st;
	f->B = cholmod_allocate_dense(n, 1, n, CHOLMOD_REAL, &f->c);
	if (f->B == NULL)
		return SG_CHOLMOD;
	return sg_tree_build(f);
}

/* pattern_mismatch returns the first column whose pattern differs from the
 * analysed one, or -1 when the patterns agree. */
static int64_t pattern_mismatch(const sg_factor *f, const int64_t *colptr, const int64_t *rowidx)
{
	const int *Ap = f->A->p, *Ai = f->A->i;
	for (int64_t j = 0; j < f->n; j++) {
		if (Ap[j + 1] != colptr[j + 1])
			return j;
		for (int64_t k = Ap[j]; k < Ap[j + 1]; k++)
			if (Ai[k] != rowidx[k])
				return j;
	}
	return -1;
}

/* CHOLMOD's supernodal factorisation opens OpenMP parallel regions, and
 * calls OpenBLAS inside them. On a 2-core machine that shares its cores
 * with the Go runtime, the step and the renderer, libgomp's default team
 * costs far more in fork/join and spinning than it gains. Measured on the
 * 3k-DOF factor (BenchmarkFactorize, 2 cores): 26-35 ms with the default
 * team, 12-15 ms with dynamic teams capped at one thread, 9-10 ms when
 * OpenBLAS runs one thread too (SetBLASThreads(1)). Both settings are
 * OpenMP ICVs of the calling thread, and Go may call from any OS thread,
 * so they are set on every call (cheap). Declared here so that no omp.h is
 * needed. */
extern void omp_set_dynamic(int);
extern void omp_set_num_threads(int);

int sg_factorize(sg_factor *f, const int64_t *colptr, const int64_t *rowidx, double *val)
{
	int64_t *bad_col = f->bad_col;
	omp_set_dynamic(1);
	omp_set_num_threads(1);
	f->numeric = 0;
	f->single_valid = 0;
	int64_t j = pattern_mismatch(f, colptr, rowidx);
	if (j >= 0) {
		bad_col[0] = j;
		return SG_PATTERN;
	}
	/* Borrow the Go values for this call only (allowed by the cgo rules as
	 * long as the pointer is dropped before returning). */
	f->A->x = val;
	f->A->xtype = CHOLMOD_REAL;
	int ok = cholmod_factorize(f->A, f->L, &f->c);
	f->A->x = NULL;
	f->A->xtype = CHOLMOD_PATTERN;
	if (f->c.status == CHOLMOD_NOT_POSDEF) {
		int64_t k = (int64_t)f->L->minor;
		bad_col[0] = k;
		bad_col[1] = k < f->n ? ((int *)f->L->Perm)[k] : -1;
		return SG_NOTPOSDEF;
	}
	if (!ok || f->c.status < CHOLMOD_OK)
		return SG_CHOLMOD;
	if (!f->L->is_super || !f->L->is_ll)
		return SG_NOTSUPER;
	f->numeric = 1;
	return SG_OK;
}

int sg_solve(sg_factor *f, double *x, const double *b)
{
	memcpy(f->B->x, b, (size_t)f->n * sizeof(double));
	if (!cholmod_solve2(CHOLMOD_A, f->L, f->B, NULL, &f->X, NULL, &f->Y, &f->E, &f->c))
		return SG_CHOLMOD;
	memcpy(x, f->X->x, (size_t)f->n * sizeof(double));
	return SG_OK;
}

int sg_cholmod_status(const sg_factor *f)
{
	return f->c.status;
}

void sg_free(sg_factor *f)
{
	if (f == NULL)
		return;
	cholmod_dense **dense[] = {&f->B, &f->X, &f->Y, &f->E, &f->DB, &f->DX, &f->DY, &f->DE};
	for (size_t i = 0; i < sizeof dense / sizeof dense[0]; i++)
		cholmod_free_dense(dense[i], &f->c);
	cholmod_free_factor(&f->L, &f->c);
	cholmod_free_sparse(&f->A, &f->c);
	cholmod_finish(&f->c);
	sg_tree_free(&f->tree);
	sg_work_free(&f->work);
	sg_work_free(&f->work2);
	sg_split_free(&f->split);
	free(f->sx);
	free(f->sy);
	free(f->st);
	free(f);
}

void sg_set_blas_threads(int n)
{
	sg_blas_lock();
	openblas_set_num_threads(n);
	sg_blas_unlock();
}

int sg_blas_threads(void)
{
	return openblas_get_num_threads();
}

const char *sg_blas_core(void)
{
	return openblas_get_corename();
}
