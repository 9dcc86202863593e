/*
 * The compliance kernel on two threads.
 *
 * The right-hand sides are independent until they meet in W = Zᵀ·Z: each
 * column of Z = L⁻¹·P·Xᵀ is a forward solve of its own. So the rows of X,
 * sorted by the lowest supernode they touch (postorder: roughly one part
 * of the elimination tree, then the other), are cut in two halves A and B
 * of equal count, and
 *
 *     W = [ W_AA  W_AB ]     W_AA = Z_Aᵀ·Z_A,  W_BB = Z_Bᵀ·Z_B,
 *         [ W_BA  W_BB ]     W_AB = Z_Aᵀ·Z_B = Σ_s Z_A,sᵀ·Z_B,s.
 *
 * Phase 1 runs the serial kernel (compliance.c) on each half, one half
 * per thread, each in a workspace of its own: its forward solves and its
 * own W_hh. Phase 2 forms W_AB from the blocks Z_A,s and Z_B,s the sweeps
 * left, over the supernodes both halves reach, B's columns split between
 * the threads. At the top of the tree, where nearly all the flops are and
 * every right-hand side arrives, the split halves each thread's work
 * exactly: the triangular solves and updates by columns, the symmetric
 * products into two half-size syrks (phase 1) and one gemm (phase 2).
 *
 * The caller asks for it (sparse.Factor.SetComplianceThreads); it splits
 * only from sg_split_min_rhs right-hand sides on. OpenBLAS runs one
 * thread inside each of the two for the duration and is given its count
 * back after. Its own idle threads, where it has more, spin for a while
 * after each call (OPENBLAS_THREAD_TIMEOUT, about 0.1 s by default) and
 * take a core from the split, so the split pays on a process that gives
 * OpenBLAS one thread. The result agrees with the one-thread kernel's to
 * round-off, not bit for bit (W_AB's entries are summed by a gemm, the
 * halves' by their own syrks).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include "cholmod_glue.h"

/* sg_split_min_rhs is the count of right-hand sides below which the
 * kernel stays on one thread: under it a thread's start and the second
 * pass over the supernodes cost more than the half of the work they take
 * over. The tests lower it (sg_set_split_min_rhs). */
static int64_t sg_split_min_rhs = 256;

int64_t sg_set_split_min_rhs(int64_t m)
{
	int64_t old = sg_split_min_rhs;
	sg_split_min_rhs = m;
	return old;
}

static pthread_mutex_t blas_mu = PTHREAD_MUTEX_INITIALIZER;

void sg_blas_lock(void) { pthread_mutex_lock(&blas_mu); }
void sg_blas_unlock(void) { pthread_mutex_unlock(&blas_mu); }

int sg_split_wanted(int64_t m, int threads)
{
	return threads >= 2 && m >= 2 && m >= sg_split_min_rhs;
}

void sg_split_free(sg_split *sp)
{
	for (int h = 0; h < 2; h++) {
		free(sp->rowptr[h]);
		free(sp->colidx[h]);
		free(sp->val[h]);
		free(sp->row[h]);
		free(sp->T[h]);
		free(sp->cost[h]);
	}
	free(sp->Wab);
	memset(sp, 0, sizeof *sp);
}

/* job is one thread's share of a phase. */
typedef struct {
	sg_factor *f;
	int phase; /* 1: the serial kernel on a half; 2: W_AB's columns [b0, b1) */
	int single;
	/* phase 1 */
	sg_work *w;
	int64_t m;
	const int64_t *rowptr, *colidx;
	const double *val;
	int st;
	/* phase 2, then the stores into W (mAll×mAll): W_AB's columns
	 * [b0, b1) and the block of one half (its workspace mine, the rows of
	 * X of its rows row, mh of them) */
	const sg_work *wa, *wb, *mine;
	const int *rowA, *rowB, *row;
	int64_t mA, mh, mAll;
	int b0, b1;
	void *Wab, *T;
	double *W;
	double flops;
} job;

static void run_job(job *j)
{
	if (j->phase == 1)
		j->st = sg_solve_block(j->f, j->w, j->m, j->rowptr, j->colidx, j->val, j->single);
	else {
		j->flops = sg_cross(j->f, j->wa, j->wb, j->mA, j->b0, j->b1, j->Wab, j->T, j->single);
		sg_store_cross(j->wa, j->wb, j->rowA, j->rowB, j->mA, j->b0, j->b1, j->Wab, j->W, j->mAll, j->single);
		sg_store_half(j->mine, j->row, j->mh, j->W, j->mAll, j->single);
	}
}

static void *thread_main(void *p)
{
	run_job(p);
	return NULL;
}

/* both runs other on a new thread and mine on this one, and returns when
 * both are done (other too on this one if no thread can be started). */
static void both(job *other, job *mine)
{
	pthread_t th;
	int started = pthread_create(&th, NULL, thread_main, other) == 0;
	run_job(mine);
	if (started)
		pthread_join(th, NULL);
	else
		run_job(other);
}

/* copy_half copies the rows of X at sorted positions [p0, p0+mh) of
 * f->work's order into half h's CSR, with the row of X of each. */
static int copy_half(sg_factor *f, int h, int64_t p0, int64_t mh, const int64_t *rowptr,
                     const int64_t *colidx, const double *val)
{
	sg_split *sp = &f->split;
	const int *order = f->work.order;
	int64_t nnz = 0;
	for (int64_t i = 0; i < mh; i++) {
		int r = order[p0 + i];
		nnz += rowptr[r + 1] - rowptr[r];
	}
	if (sg_grow((void **)&sp->rowptr[h], &sp->rowptr_cap[h], mh + 1, sizeof(int64_t)) != SG_OK ||
	    sg_grow((void **)&sp->colidx[h], &sp->colidx_cap[h], nnz + 1, sizeof(int64_t)) != SG_OK ||
	    sg_grow((void **)&sp->val[h], &sp->val_cap[h], nnz + 1, sizeof(double)) != SG_OK ||
	    sg_grow((void **)&sp->row[h], &sp->row_cap[h], mh, sizeof(int)) != SG_OK)
		return SG_NOMEM;
	int64_t k = 0;
	sp->rowptr[h][0] = 0;
	for (int64_t i = 0; i < mh; i++) {
		int r = order[p0 + i];
		sp->row[h][i] = r;
		for (int64_t e = rowptr[r]; e < rowptr[r + 1]; e++, k++) {
			sp->colidx[h][k] = colidx[e];
			sp->val[h][k] = val[e];
		}
		sp->rowptr[h][i + 1] = k;
	}
	return SG_OK;
}

/* halfCosts writes into cost[i] the flops of the forward solves and the
 * symmetric product of the first i right-hand sides of f->work's sorted
 * order (i = 0 … m), as a half holding them alone would spend them (with
 * reverse set, of the last i). Each right-hand side climbs from its lowest
 * supernode to the root (a contact row's nodes share an element, so its
 * reach is that path); at a supernode s already reached by a others it
 * adds k_s² + 2·nb_s·k_s for its triangular solve and update and k_s·a
 * for its products with them (syrk). count (nsuper ints) is scratch. */
static void halfCosts(const sg_factor *f, int64_t m, int reverse, int *count, double *cost)
{
	const sg_work *w = &f->work;
	const int *super = f->L->super, *pi = f->L->pi;
	int64_t ns = (int64_t)f->L->nsuper;
	memset(count, 0, (size_t)ns * sizeof(int));
	cost[0] = 0;
	for (int64_t i = 0; i < m; i++) {
		int s = w->start[w->order[reverse ? m - 1 - i : i]];
		double c = 0;
		for (; s != -1 && s < ns; s = f->tree.parent[s]) {
			double k = super[s + 1] - super[s], nb = (pi[s + 1] - pi[s]) - k;
			c += k * k + 2 * nb * k + k * count[s];
			count[s]++;
		}
		cost[i + 1] = cost[i] + c;
	}
}

/* split_point returns the count of sorted right-hand sides (f->work's
 * order) for half A that best balances the two halves' work (halfCosts),
 * at least 1 and at most m − 1. */
static int split_point(sg_factor *f, int64_t m, int *countA, int *countB, double *costA, double *costB)
{
	halfCosts(f, m, 0, countA, costA);
	halfCosts(f, m, 1, countB, costB);
	int64_t best = 1;
	for (int64_t p = 1; p < m; p++) {
		double worst = costA[p] > costB[m - p] ? costA[p] : costB[m - p];
		double was = costA[best] > costB[m - best] ? costA[best] : costB[m - best];
		if (worst < was)
			best = p;
	}
	return (int)best;
}

int sg_solve_split(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                   const double *val, int single, double *W)
{
	sg_split *sp = &f->split;
	sg_work *wa = &f->work, *wb = &f->work2;
	int st = sg_order_rows(f, wa, m, rowptr, colidx);
	if (st != SG_OK)
		return st;
	if (sg_grow((void **)&sp->cost[0], &sp->cost_cap[0], m + 1, sizeof(double)) != SG_OK ||
	    sg_grow((void **)&sp->cost[1], &sp->cost_cap[1], m + 1, sizeof(double)) != SG_OK)
		return SG_NOMEM;
	/* the halves' mark arrays serve as the counters: plan refills them */
	int64_t mA = split_point(f, m, wa->mark, wb->mark, sp->cost[0], sp->cost[1]), mh[2] = {mA, m - mA};
	st = copy_half(f, 0, 0, mh[0], rowptr, colidx, val);
	if (st == SG_OK)
		st = copy_half(f, 1, mh[0], mh[1], rowptr, colidx, val);
	if (st != SG_OK)
		return st;

	sg_blas_lock();
	int threads = openblas_get_num_threads();
	openblas_set_num_threads(1);
	job ja = {.f = f, .phase = 1, .single = single, .w = wa, .m = mh[0],
	          .rowptr = sp->rowptr[0], .colidx = sp->colidx[0], .val = sp->val[0]};
	job jb = ja;
	jb.w = wb, jb.m = mh[1], jb.rowptr = sp->rowptr[1], jb.colidx = sp->colidx[1], jb.val = sp->val[1];
	both(&jb, &ja);
	st = ja.st != SG_OK ? ja.st : jb.st;
	size_t elem = single ? sizeof(float) : sizeof(double);
	if (st == SG_OK) {
		int64_t tneed = 1;
		for (int64_t s = 0; s < (int64_t)f->L->nsuper; s++) {
			int64_t t = (wa->rptr[s + 1] - wa->rptr[s]) * (wb->rptr[s + 1] - wb->rptr[s]);
			tneed = t > tneed ? t : tneed;
		}
		if (sg_grow(&sp->Wab, &sp->wab_cap, (int64_t)(mh[0] * mh[1] * elem), 1) != SG_OK ||
		    sg_grow(&sp->T[0], &sp->t_cap[0], (int64_t)(tneed * elem), 1) != SG_OK ||
		    sg_grow(&sp->T[1], &sp->t_cap[1], (int64_t)(tneed * elem), 1) != SG_OK)
			st = SG_NOMEM;
	}
	if (st == SG_OK) {
		memset(sp->Wab, 0, (size_t)(mh[0] * mh[1]) * elem);
		int half = (int)(mh[1] / 2);
		job c0 = {.f = f, .phase = 2, .single = single, .wa = wa, .wb = wb, .rowA = sp->row[0],
		          .rowB = sp->row[1], .mA = mh[0], .mAll = m, .b0 = 0, .b1 = half, .Wab = sp->Wab,
		          .T = sp->T[0], .W = W, .mine = wa, .row = sp->row[0], .mh = mh[0]};
		job c1 = c0;
		c1.b0 = half, c1.b1 = (int)mh[1], c1.T = sp->T[1], c1.mine = wb, c1.row = sp->row[1], c1.mh = mh[1];
		both(&c1, &c0);
		wa->flops += wb->flops + c0.flops + c1.flops;
		wa->reach += wb->reach;
		wa->rhs = m;
		wa->threads = 2;
	}
	openblas_set_num_threads(threads);
	sg_blas_unlock();
	return st;
}

