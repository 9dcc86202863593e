/*
 * Native side of package sparse: a CHOLMOD factor with its reusable
 * workspaces, and the supernodal sparse forward-solve kernel that computes
 * the compliance W = X·A⁻¹·Xᵀ.
 *
 * Every function returns an sg_status. Go memory reaches this code only as
 * call arguments and is never kept after the call returns (cgo rules).
 */
#ifndef SOFTGRASP_SPARSE_GLUE_H
#define SOFTGRASP_SPARSE_GLUE_H

#include <stdint.h>
#include <cholmod.h>

/* Status codes returned to Go. Positive values are CHOLMOD statuses passed
 * through unchanged when a CHOLMOD call fails; the rest are ours. */
enum {
	SG_OK = 0,
	SG_NOMEM = -100,       /* malloc failed */
	SG_PATTERN = -101,     /* matrix pattern differs from the analysed one */
	SG_NOTPOSDEF = -102,   /* numeric factorisation met a non-positive pivot */
	SG_NOTSUPER = -103,    /* factor is not a supernodal LLᵀ factor */
	SG_NOTPOSTORD = -104,  /* supernodal tree is not postordered */
	SG_CHOLMOD = -105      /* a CHOLMOD call failed; see cholmod_status */
};

/* Supernodal elimination tree of the analysed factor, fixed per pattern. */
typedef struct {
	int *col_super; /* n: supernode owning each (permuted) column */
	int *parent;    /* nsuper: parent supernode, or -1 for a root */
	int *iperm;     /* n: iperm[original index] = permuted index */
} sg_tree;

/* Per-call buffers of the compliance kernel, grown on demand and kept. */
typedef struct {
	int64_t mcap;     /* capacity (rows of X) of start/order/rank/cmap */
	int *start;       /* lowest supernode reached by each row of X */
	int *order;       /* sorted position -> row of X */
	int *rank;        /* row of X -> sorted position */
	int *cmap;        /* column map from a child's RHS set into a parent's */
	int *bucket;      /* nsuper+2: counting-sort buckets */
	int *mark;        /* nsuper: last RHS that visited each supernode */
	int64_t *rptr;    /* nsuper+1: RHS set of supernode s is ridx[rptr[s]:rptr[s+1]] */
	int64_t *zoff;    /* nsuper+1: offset of supernode s's block in Z */
	int *ridx;        int64_t ridx_cap;
	double *Z;        int64_t z_cap;   /* pivot blocks, k_s × m_s each */
	double *U;        int64_t u_cap;   /* below-diagonal update, syrk scratch, X̃·G transposed */
	double *Wp;       int64_t w_cap;   /* m×m lower triangle, sorted RHS order */
	/* reduction to the distinct columns of X (compliance_reduce.c) */
	int *slot;        /* n: compact index of each touched DOF, -1 elsewhere */
	/* unit right-hand sides e_d, one per touched DOF d, as a CSR with
	 * rows 0..n: urowptr[i] = i, uval[i] = 1, ucolidx = the touched DOFs
	 * in order of first appearance */
	int64_t *urowptr, *ucolidx;
	double *uval;
	double *G;        int64_t g_cap;   /* compliance of the touched DOFs, nt×nt */
	double *T;        int64_t t_cap;   /* a row of X̃·G, nt values */
	int *cidx;        int64_t cidx_cap; /* compact column of each entry of X */
	float *Ls;        int64_t ls_cap;  /* a supernode's columns of L in float (single precision) */
	double flops;     /* floating-point operations of the last call */
	int64_t reach;    /* Σ_s m_s of the last call */
	int64_t rhs;      /* right-hand sides solved by the last call */
	int threads;      /* threads the last call ran on (compliance_split.c) */
} sg_work;

/* Buffers of the two-thread compliance (compliance_split.c): each half's
 * rows of X as a CSR of their own, with the row of X of each, and W_AB. */
typedef struct {
	int64_t *rowptr[2], *colidx[2];
	double *val[2];
	int *row[2];
	int64_t rowptr_cap[2], colidx_cap[2], val_cap[2], row_cap[2];
	void *Wab;        int64_t wab_cap;  /* bytes */
	void *T[2];       int64_t t_cap[2]; /* bytes: scattered cross products */
	double *cost[2];  int64_t cost_cap[2]; /* the halves' work by split point */
} sg_split;

typedef struct {
	cholmod_common c;
	cholmod_sparse *A;    /* analysed pattern; A->x points at Go values only during sg_factorize */
	cholmod_factor *L;
	int numeric;          /* 1 once L holds a valid numeric factor */
	int64_t bad_col[2];   /* failing column of sg_factorize: permuted, original */
	int64_t n, nnz;
	/* workspaces of sg_solve */
	cholmod_dense *B, *X, *Y, *E;
	/* workspaces of the dense baseline */
	cholmod_dense *DB, *DX, *DY, *DE;
	sg_tree tree;
	sg_work work;
	sg_work work2; /* the second half of a two-thread compliance */
	sg_split split;
	/* single-precision copy of L's values and the buffers of its solve
	 * (single.c); single_valid once copied from the current numeric L */
	float *sx, *sy, *st;
	int64_t sx_cap, sy_cap, st_cap;
	int single_valid;
} sg_factor;

/* Lifecycle and plain solves (factor.c). */
int sg_new(sg_factor **out, int64_t n, const int64_t *colptr, const int64_t *rowidx, int ordering);
int sg_factorize(sg_factor *f, const int64_t *colptr, const int64_t *rowidx, double *val);
int sg_solve(sg_factor *f, double *x, const double *b);
void sg_free(sg_factor *f);
int sg_cholmod_status(const sg_factor *f);
void sg_set_blas_threads(int n);
int sg_blas_threads(void);
const char *sg_blas_core(void);

/* Single-precision copy of the factor and the solve with it (single.c). */
int sg_single_copy(sg_factor *f);
int sg_solve_single(sg_factor *f, double *x, const double *b);

/* Compliance W = X·A⁻¹·Xᵀ with X in CSR form, W row-major m×m (compliance.c);
 * single: the sweep in float (W returned in double); threads: up to two
 * threads of its own (compliance_split.c). */
int sg_compliance(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                  const double *val, double *W, int reduce, int single, int threads);
/* Dense baseline: chunked full solves A⁻¹·Xᵀ then X·(A⁻¹·Xᵀ) (compliance_dense.c). */
int sg_compliance_dense(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                        const double *val, double *W);

/* Internal steps shared between the files. */
int sg_grow(void **p, int64_t *cap, int64_t need, size_t elem);
int sg_order_rows(sg_factor *f, sg_work *w, int64_t m, const int64_t *rowptr, const int64_t *colidx);
int sg_solve_block(sg_factor *f, sg_work *w, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                   const double *val, int single);
double sg_cross(sg_factor *f, const sg_work *wa, const sg_work *wb, int64_t mA, int b0, int b1,
                void *Wab, void *T, int single);
void sg_store_half(const sg_work *w, const int *row, int64_t mh, double *W, int64_t m, int single);
void sg_store_cross(const sg_work *wa, const sg_work *wb, const int *rowA, const int *rowB,
                    int64_t mA, int b0, int b1, const void *Wab, double *W, int64_t m, int single);
int sg_split_wanted(int64_t m, int threads);
int64_t sg_set_split_min_rhs(int64_t m);
int sg_solve_split(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                   const double *val, int single, double *W);
void sg_split_free(sg_split *sp);
void sg_blas_lock(void);
void sg_blas_unlock(void);
int sg_reduce_init(sg_factor *f);
int64_t sg_touched_dofs(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx);
void sg_untouch(sg_factor *f, int64_t nt);
int sg_expand_reduced(sg_factor *f, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                      const double *val, int64_t nt, double *W);
int sg_tree_build(sg_factor *f);
void sg_tree_free(sg_tree *t);
void sg_work_free(sg_work *w);

#endif
