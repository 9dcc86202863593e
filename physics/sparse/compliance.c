/*
 * Compliance W = X·A⁻¹·Xᵀ by sparse forward solves on the supernodal factor.
 *
 * CHOLMOD factors P·A·Pᵀ = L·Lᵀ, so with Z = L⁻¹·P·Xᵀ
 *
 *     X·A⁻¹·Xᵀ = X·Pᵀ·L⁻ᵀ·L⁻¹·P·Xᵀ = Zᵀ·Z.
 *
 * Column r of P·Xᵀ has at most nine non-zeros. The non-zeros of the forward
 * solve L⁻¹·b for a sparse b lie in the reach of b's rows in the elimination
 * tree: the union of the paths from the supernodes holding them to the root
 * (Gilbert's theorem). Call R_s the set of right-hand sides whose reach
 * contains supernode s. Reaches are closed towards the root, so R_s ⊆ R_t
 * whenever t is an ancestor of s. Only the pivot rows of s restricted to the
 * columns R_s are ever non-zero, and they are stored as one dense k_s×|R_s|
 * block Z_s. Supernodes are postordered (children before parents), so one
 * increasing sweep performs the blocked forward substitution:
 *
 *     Z_s ← L_ss⁻¹·Z_s                      (dtrsm, k_s×k_s lower triangle)
 *     W[R_s,R_s] += Z_sᵀ·Z_s                (dsyrk)
 *     Z_t[rows, R_s] −= L_bs·Z_s            (dgemm, then scatter into the
 *                                            ancestors t owning the rows
 *                                            below the diagonal block)
 *
 * The right-hand sides are renumbered by the postorder index of the lowest
 * supernode they touch. When every row of X couples nodes that share an
 * element (as the rows of H and J = C·H do), those nodes are mutually
 * ancestors in the elimination tree, each reach is a single path and every
 * R_s becomes a contiguous range: the dsyrk then writes straight into W and
 * the scatter needs no search. Rows touching unrelated nodes fall back to a
 * binary search and a scattered accumulation.
 *
 * When X has fewer distinct columns than rows, the right-hand sides are the
 * unit vectors of those columns instead (compliance_reduce.c).
 */
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include "cholmod_glue.h"

/* sg_grow makes *p hold at least need elements of size elem, with some
 * slack so that slowly growing sizes do not reallocate every call;
 * contents are not preserved. */
int sg_grow(void **p, int64_t *cap, int64_t need, size_t elem)
{
	if (*p != NULL && need <= *cap)
		return SG_OK;
	int64_t c = need + need / 4 + 64;
	void *q = malloc((size_t)c * elem);
	if (q == NULL)
		return SG_NOMEM;
	free(*p);
	*p = q;
	*cap = c;
	return SG_OK;
}

/* work_init allocates the per-supernode arrays of a kernel workspace. */
static int work_init(sg_work *w, int64_t ns)
{
	w->mark = malloc((size_t)ns * sizeof(int));
	w->bucket = malloc((size_t)(ns + 2) * sizeof(int));
	w->rptr = malloc((size_t)(ns + 1) * sizeof(int64_t));
	w->zoff = malloc((size_t)(ns + 1) * sizeof(int64_t));
	return w->mark && w->bucket && w->rptr && w->zoff ? SG_OK : SG_NOMEM;
}

/* sg_tree_build derives from the analysed supernodal factor the tables the
 * compliance kernel walks (supernode of each column, supernodal parent,
 * inverse permutation) and allocates the per-supernode work arrays. */
int sg_tree_build(sg_factor *f)
{
	const cholmod_factor *L = f->L;
	int64_t n = f->n, ns = (int64_t)L->nsuper;
	const int *super = L->super, *pi = L->pi, *Ls = L->s, *Perm = L->Perm;
	sg_tree *t = &f->tree;
	t->col_super = malloc((size_t)n * sizeof(int));
	t->iperm = malloc((size_t)n * sizeof(int));
	t->parent = malloc((size_t)ns * sizeof(int));
	if (!t->col_super || !t->iperm || !t->parent ||
	    work_init(&f->work, ns) != SG_OK || work_init(&f->work2, ns) != SG_OK)
		return SG_NOMEM;
	if (sg_reduce_init(f) != SG_OK)
		return SG_NOMEM;
	for (int64_t s = 0; s < ns; s++)
		for (int j = super[s]; j < super[s + 1]; j++)
			t->col_super[j] = (int)s;
	/* The parent of s is the supernode holding the first row below its
	 * diagonal block; postordering guarantees parent > s. */
	for (int64_t s = 0; s < ns; s++) {
		int k = super[s + 1] - super[s], nsrow = pi[s + 1] - pi[s];
		t->parent[s] = nsrow > k ? t->col_super[Ls[pi[s] + k]] : -1;
		if (t->parent[s] != -1 && t->parent[s] <= s)
			return SG_NOTPOSTORD;
	}
	for (int64_t k = 0; k < n; k++)
		t->iperm[Perm[k]] = (int)k;
	return SG_OK;
}

void sg_tree_free(sg_tree *t)
{
	free(t->col_super);
	free(t->parent);
	free(t->iperm);
	memset(t, 0, sizeof *t);
}

void sg_work_free(sg_work *w)
{
	void *bufs[] = {w->start, w->order, w->rank, w->cmap, w->bucket, w->mark,
	                w->rptr, w->zoff, w->ridx, w->Z, w->U, w->Wp,
	                w->slot, w->urowptr, w->ucolidx, w->uval, w->G, w->T, w->cidx, w->Ls};
	for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
		free(bufs[i]);
	memset(w, 0, sizeof *w);
}

/* lower_bound is the first position in the sorted R of length len whose
 * value is at least q (len when there is none). */
static inline int64_t lower_bound(const int *R, int64_t len, int q)
{
	int64_t lo = 0, hi = len;
	while (lo < hi) {
		int64_t mid = (lo + hi) / 2;
		if (R[mid] < q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* rpos is the position of RHS q in the sorted set R of length len (q ∈ R). */
static inline int64_t rpos(const int *R, int64_t len, int q)
{
	if (R[len - 1] - R[0] == len - 1)
		return q - R[0];
	return lower_bound(R, len, q);
}

/* sg_order_rows sorts the rows of X by the lowest supernode they touch
 * (counting sort, stable) into w->order (sorted position → row) and
 * w->rank; empty rows go last. */
int sg_order_rows(sg_factor *f, sg_work *w, int64_t m, const int64_t *rowptr, const int64_t *colidx)
{
	const sg_tree *t = &f->tree;
	int ns = (int)f->L->nsuper;
	if (m > w->mcap) {
		int64_t cap = m + m / 4 + 64;
		int **bufs[] = {&w->start, &w->order, &w->rank, &w->cmap};
		for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
			free(*bufs[i]);
			*bufs[i] = malloc((size_t)cap * sizeof(int));
			if (*bufs[i] == NULL) {
				w->mcap = 0;
				return SG_NOMEM;
			}
		}
		w->mcap = cap;
	}
	memset(w->bucket, 0, (size_t)(ns + 2) * sizeof(int));
	for (int64_t r = 0; r < m; r++) {
		int e = ns;
		for (int64_t k = rowptr[r]; k < rowptr[r + 1]; k++) {
			int s = t->col_super[t->iperm[colidx[k]]];
			e = s < e ? s : e;
		}
		w->start[r] = e;
		w->bucket[e + 1]++;
	}
	for (int s = 0; s <= ns; s++)
		w->bucket[s + 1] += w->bucket[s];
	for (int64_t r = 0; r < m; r++) {
		int q = w->bucket[w->start[r]]++;
		w->order[q] = (int)r;
		w->rank[r] = q;
	}
	return SG_OK;
}

/* walk_reach visits, for every sorted RHS q, each supernode of its reach
 * exactly once: it climbs from each entry's supernode and stops at the
 * first supernode already marked with q, whose ancestors are marked too.
 * With ridx == NULL it counts |R_s| into slot[s+1]; otherwise it appends q
 * to R_s at slot[s]. */
static void walk_reach(sg_factor *f, sg_work *w, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                       int64_t *slot, int *ridx)
{
	const sg_tree *t = &f->tree;
	memset(w->mark, 0xff, f->L->nsuper * sizeof(int)); /* all -1 */
	for (int q = 0; q < m; q++) {
		int r = w->order[q];
		for (int64_t k = rowptr[r]; k < rowptr[r + 1]; k++) {
			for (int s = t->col_super[t->iperm[colidx[k]]]; s != -1 && w->mark[s] != q; s = t->parent[s]) {
				w->mark[s] = q;
				if (ridx == NULL)
					slot[s + 1]++;
				else
					ridx[slot[s]++] = q;
			}
		}
	}
}

/* plan builds the sets R_s, the offsets of the blocks Z_s and sizes every
 * buffer for this X. */
static int plan(sg_factor *f, sg_work *w, int64_t m, const int64_t *rowptr, const int64_t *colidx, int single)
{
	const int *super = f->L->super, *pi = f->L->pi;
	int64_t ns = (int64_t)f->L->nsuper;
	int st = sg_order_rows(f, w, m, rowptr, colidx);
	if (st != SG_OK)
		return st;
	memset(w->rptr, 0, (size_t)(ns + 1) * sizeof(int64_t));
	walk_reach(f, w, m, rowptr, colidx, w->rptr, NULL);
	for (int64_t s = 0; s < ns; s++)
		w->rptr[s + 1] += w->rptr[s];
	w->reach = w->rptr[ns];
	if (sg_grow((void **)&w->ridx, &w->ridx_cap, w->reach + 1, sizeof(int)) != SG_OK)
		return SG_NOMEM;
	memcpy(w->zoff, w->rptr, (size_t)ns * sizeof(int64_t)); /* fill pointers */
	walk_reach(f, w, m, rowptr, colidx, w->zoff, w->ridx);
	int64_t uneed = 1, lneed = 1;
	w->zoff[0] = 0;
	for (int64_t s = 0; s < ns; s++) {
		int64_t ms = w->rptr[s + 1] - w->rptr[s];
		int64_t k = super[s + 1] - super[s], nb = pi[s + 1] - pi[s] - k;
		w->zoff[s + 1] = w->zoff[s] + k * ms;
		if (ms == 0)
			continue;
		const int *Rs = w->ridx + w->rptr[s];
		int64_t need = nb * ms;
		if (Rs[ms - 1] - Rs[0] != ms - 1 && ms * ms > need)
			need = ms * ms; /* scattered dsyrk scratch */
		uneed = need > uneed ? need : uneed;
		lneed = (nb + k) * k > lneed ? (nb + k) * k : lneed;
	}
	if (sg_grow((void **)&w->Z, &w->z_cap, w->zoff[ns] + 1, sizeof(double)) != SG_OK ||
	    sg_grow((void **)&w->U, &w->u_cap, uneed, sizeof(double)) != SG_OK ||
	    sg_grow((void **)&w->Wp, &w->w_cap, m * m, sizeof(double)) != SG_OK ||
	    (single && sg_grow((void **)&w->Ls, &w->ls_cap, lneed, sizeof(float)) != SG_OK))
		return SG_NOMEM;
	return SG_OK;
}

/* row_of is row[q], or q itself when row is NULL (store_half). */
static inline int64_t row_of(const int *row, int q)
{
	return row != NULL ? row[q] : q;
}

/* pivot_block_d returns supernode s's columns of L as CHOLMOD stores
 * them; pivot_block_s the same in float: from the factor's
 * single-precision copy when it holds one (sg_single_copy, the
 * asynchronous solver's preconditioner), else rounded into w->Ls (sized
 * by plan). */
static inline const double *pivot_block_d(sg_factor *f, sg_work *w, int64_t s)
{
	(void)w;
	return (const double *)f->L->x + ((const int *)f->L->px)[s];
}

static inline const float *pivot_block_s(sg_factor *f, sg_work *w, int64_t s)
{
	const int *super = f->L->super, *pi = f->L->pi, *px = f->L->px;
	if (f->single_valid)
		return f->sx + px[s];
	int64_t n = (int64_t)(pi[s + 1] - pi[s]) * (super[s + 1] - super[s]);
	const double *x = (const double *)f->L->x + px[s];
	float *Ls = w->Ls;
	for (int64_t i = 0; i < n; i++)
		Ls[i] = (float)x[i];
	return Ls;
}

#define REAL double
#define SFX(name) name##_d
#define TRSM cblas_dtrsm
#define GEMM cblas_dgemm
#define SYRK cblas_dsyrk
#include "compliance_sweep.h"
#undef REAL
#undef SFX
#undef TRSM
#undef GEMM
#undef SYRK

#define REAL float
#define SFX(name) name##_s
#define TRSM cblas_strsm
#define GEMM cblas_sgemm
#define SYRK cblas_ssyrk
#include "compliance_sweep.h"
#undef REAL
#undef SFX
#undef TRSM
#undef GEMM
#undef SYRK

double sg_cross(sg_factor *f, const sg_work *wa, const sg_work *wb, int64_t mA, int b0, int b1,
                void *Wab, void *T, int single)
{
	if (single)
		return cross_s(f, wa, wb, mA, b0, b1, Wab, T);
	return cross_d(f, wa, wb, mA, b0, b1, Wab, T);
}

void sg_store_half(const sg_work *w, const int *row, int64_t mh, double *W, int64_t m, int single)
{
	if (single)
		store_half_s(w, row, mh, W, m);
	else
		store_half_d(w, row, mh, W, m);
}

void sg_store_cross(const sg_work *wa, const sg_work *wb, const int *rowA, const int *rowB,
                    int64_t mA, int b0, int b1, const void *Wab, double *W, int64_t m, int single)
{
	if (single)
		store_cross_s(wa, wb, rowA, rowB, mA, b0, b1, Wab, W, m);
	else
		store_cross_d(wa, wb, rowA, rowB, mA, b0, b1, Wab, W, m);
}

int sg_solve_block(sg_factor *f, sg_work *w, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                   const double *val, int single)
{
	int st = plan(f, w, m, rowptr, colidx, single);
	if (st != SG_OK)
		return st;
	if (single)
		solve_block_s(f, w, m, rowptr, colidx, val);
	else
		solve_block_d(f, w, m, rowptr, colidx, val);
	w->rhs = m;
	w->threads = 1;
	return SG_OK;
}

/* solve_full writes X·A⁻¹·Xᵀ, both triangles, into the row-major m×m out:
 * on two threads when threads allows it and sg_split_wanted finds enough
 * right-hand sides, else on this one. */
static int solve_full(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                      const double *val, int single, int threads, double *out)
{
	if (sg_split_wanted(m, threads))
		return sg_solve_split(f, m, rowptr, colidx, val, single, out);
	int st = sg_solve_block(f, &f->work, m, rowptr, colidx, val, single);
	if (st == SG_OK)
		sg_store_half(&f->work, NULL, m, out, m, single);
	return st;
}

int sg_compliance(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                  const double *val, double *W, int reduce, int single, int threads)
{
	int st;
	int64_t nt = reduce ? sg_touched_dofs(f, m, rowptr, colidx) : m;
	if (nt < m) {
		/* Fewer distinct columns than rows: solve for the touched DOFs. */
		sg_work *w = &f->work;
		st = sg_grow((void **)&w->G, &w->g_cap, nt * nt, sizeof(double));
		if (st == SG_OK)
			st = solve_full(f, nt, w->urowptr, w->ucolidx, w->uval, single, threads, w->G);
		if (st == SG_OK)
			st = sg_expand_reduced(f, m, rowptr, colidx, val, nt, W);
	} else {
		st = solve_full(f, m, rowptr, colidx, val, single, threads, W);
	}
	if (reduce)
		sg_untouch(f, nt);
	return st;
}
