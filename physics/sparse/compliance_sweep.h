/*
 * The typed half of the compliance kernel (compliance.c): the forward
 * sweep over the supernodes and what it reads and writes. compliance.c
 * includes it once per precision, with
 *
 *     REAL          the type of the blocks Z_s, the update U and W (Wp)
 *     SFX(name)     name with the precision's suffix
 *     TRSM, GEMM, SYRK   the CBLAS routines of that precision
 *     pivot_block   SFX(pivot_block)(f, s) returns supernode s's columns
 *                   of L (nsrow×k, column-major) in REAL
 *
 * In single precision the factor stays in double; each supernode's
 * columns are rounded to float as the sweep reaches it (work.Ls), O(nnz)
 * against the sweep's O(nnz·|R_s|) flops, or read from the factor's
 * single-precision copy where it has one (sg_single_copy: the same
 * rounding). Z, U and Wp reuse the buffers that plan() sized for doubles.
 */

/* trsm_lower solves L·Y = B in place (B is k×n, leading dimension ldb; L
 * is k×k lower triangular, leading dimension ldl). It splits L as
 *
 *     [L11  0 ] [Y1]   [B1]        Y1 = L11⁻¹·B1
 *     [L21 L22] [Y2] = [B2],       Y2 = L22⁻¹·(B2 − L21·Y1)
 *
 * recursively, so that nearly all flops go to gemm, which runs much
 * closer to peak than trsm on the large separator blocks at the top of
 * the tree. */
static void SFX(trsm_lower)(int64_t k, int64_t n, const REAL *L, int64_t ldl, REAL *B, int64_t ldb)
{
	if (k <= 32) {
		TRSM(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit,
		     k, n, 1.0, L, ldl, B, ldb);
		return;
	}
	int64_t k1 = k / 2;
	SFX(trsm_lower)(k1, n, L, ldl, B, ldb);
	GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, k - k1, n, k1,
	     -1.0, L + k1, ldl, B, ldb, 1.0, B + k1, ldb);
	SFX(trsm_lower)(k - k1, n, L + k1 + k1 * ldl, ldl, B + k1, ldb);
}

/* load_rhs zeroes the blocks Z_s and scatters P·Xᵀ into them. */
static void SFX(load_rhs)(sg_factor *f, sg_work *w, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                          const double *val)
{
	const sg_tree *t = &f->tree;
	const int *super = f->L->super;
	REAL *Z = (REAL *)w->Z;
	memset(Z, 0, (size_t)w->zoff[f->L->nsuper] * sizeof(REAL));
	for (int q = 0; q < m; q++) {
		int r = w->order[q];
		for (int64_t k = rowptr[r]; k < rowptr[r + 1]; k++) {
			int p = t->iperm[colidx[k]], s = t->col_super[p];
			int64_t ks = super[s + 1] - super[s];
			int64_t j = rpos(w->ridx + w->rptr[s], w->rptr[s + 1] - w->rptr[s], q);
			Z[w->zoff[s] + (p - super[s]) + ks * j] += (REAL)val[k];
		}
	}
}

/* accumulate_w adds Z_sᵀ·Z_s to the lower triangle of W[R_s,R_s] (sorted
 * order, column-major, leading dimension m). */
static void SFX(accumulate_w)(sg_work *w, const int *Rs, int64_t ms, int64_t k, const REAL *Zs, int64_t m)
{
	REAL *Wp = (REAL *)w->Wp;
	if (Rs[ms - 1] - Rs[0] == ms - 1) {
		SYRK(CblasColMajor, CblasLower, CblasTrans, ms, k, 1.0, Zs, k, 1.0, Wp + Rs[0] + m * Rs[0], m);
		return;
	}
	REAL *T = (REAL *)w->U;
	SYRK(CblasColMajor, CblasLower, CblasTrans, ms, k, 1.0, Zs, k, 0.0, T, ms);
	/* R_s is increasing, so ii ≥ jj lands in the lower triangle of W. */
	for (int64_t jj = 0; jj < ms; jj++) {
		REAL *Wc = Wp + m * Rs[jj];
		for (int64_t ii = jj; ii < ms; ii++)
			Wc[Rs[ii]] += T[ii + ms * jj];
	}
}

/* scatter_below subtracts the update U = L_bs·Z_s (nb×ms, column-major)
 * from the pivot blocks of the ancestors that own the rows below s's
 * diagonal block. Those rows are sorted, so each ancestor's rows are a
 * consecutive run; R_s ⊆ R_t maps s's columns into t's. */
static void SFX(scatter_below)(sg_factor *f, sg_work *w, int64_t s, int64_t nb, int64_t ms)
{
	const int *super = f->L->super, *pi = f->L->pi;
	const int *rows = (const int *)f->L->s + pi[s] + (super[s + 1] - super[s]);
	const int *Rs = w->ridx + w->rptr[s];
	const REAL *U = (const REAL *)w->U;
	int64_t i = 0;
	while (i < nb) {
		int tsn = f->tree.col_super[rows[i]];
		int64_t i1 = i + 1;
		while (i1 < nb && rows[i1] < super[tsn + 1])
			i1++;
		const int *Rt = w->ridx + w->rptr[tsn];
		int64_t mt = w->rptr[tsn + 1] - w->rptr[tsn], kt = super[tsn + 1] - super[tsn];
		REAL *Zt = (REAL *)w->Z + w->zoff[tsn] - super[tsn]; /* indexed by global row */
		for (int64_t j = 0; j < ms; j++)
			w->cmap[j] = (int)rpos(Rt, mt, Rs[j]);
		for (int64_t j = 0; j < ms; j++) {
			REAL *zc = Zt + kt * w->cmap[j];
			const REAL *uc = U + nb * j;
			for (int64_t ii = i; ii < i1; ii++)
				zc[rows[ii]] -= uc[ii];
		}
		i = i1;
	}
}

/* sweep runs the blocked forward substitution over the supernodes in
 * increasing (postorder) order, accumulating W as it goes. */
static void SFX(sweep)(sg_factor *f, sg_work *w, int64_t m)
{
	const int *super = f->L->super, *pi = f->L->pi;
	double flops = 0;
	for (int64_t s = 0; s < (int64_t)f->L->nsuper; s++) {
		int64_t ms = w->rptr[s + 1] - w->rptr[s];
		if (ms == 0)
			continue;
		int64_t k = super[s + 1] - super[s], nsrow = pi[s + 1] - pi[s], nb = nsrow - k;
		const REAL *Lss = SFX(pivot_block)(f, w, s);
		REAL *Zs = (REAL *)w->Z + w->zoff[s];
		SFX(trsm_lower)(k, ms, Lss, nsrow, Zs, k);
		SFX(accumulate_w)(w, w->ridx + w->rptr[s], ms, k, Zs, m);
		if (nb > 0) {
			GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, nb, ms, k,
			     1.0, Lss + k, nsrow, Zs, k, 0.0, (REAL *)w->U, nb);
			SFX(scatter_below)(f, w, s, nb, ms);
		}
		flops += (double)(k * k * ms + 2 * nb * k * ms + k * ms * (ms + 1));
	}
	w->flops = flops;
}

/* solve_block loads the right-hand sides, clears W's lower triangle and
 * runs the sweep (plan() has run). */
static void SFX(solve_block)(sg_factor *f, sg_work *w, int64_t m, const int64_t *rowptr, const int64_t *colidx,
                             const double *val)
{
	REAL *Wp = (REAL *)w->Wp;
	SFX(load_rhs)(f, w, m, rowptr, colidx, val);
	for (int64_t a = 0; a < m; a++)
		memset(Wp + a + m * a, 0, (size_t)(m - a) * sizeof(REAL));
	SFX(sweep)(f, w, m);
}

/* cross adds Z_A,sᵀ·Z_B,s, over every supernode s that both halves of a
 * split reach, to W_AB (mA×mB, column-major, leading dimension mA: A's
 * sorted right-hand sides by B's), for B's sorted right-hand sides in
 * [b0, b1) only; T is scratch of at least max_s |R_A,s|·|R_B,s| entries.
 * It returns the flops. */
static double SFX(cross)(sg_factor *f, const sg_work *wa, const sg_work *wb, int64_t mA, int b0, int b1,
                         REAL *Wab, REAL *T)
{
	const int *super = f->L->super;
	double flops = 0;
	for (int64_t s = 0; s < (int64_t)f->L->nsuper; s++) {
		int64_t ma = wa->rptr[s + 1] - wa->rptr[s], mb = wb->rptr[s + 1] - wb->rptr[s];
		if (ma == 0 || mb == 0)
			continue;
		const int *Ra = wa->ridx + wa->rptr[s], *Rb = wb->ridx + wb->rptr[s];
		int64_t j0 = lower_bound(Rb, mb, b0), j1 = lower_bound(Rb, mb, b1), nb = j1 - j0;
		if (nb == 0)
			continue;
		int64_t k = super[s + 1] - super[s];
		const REAL *Za = (const REAL *)wa->Z + wa->zoff[s];
		const REAL *Zb = (const REAL *)wb->Z + wb->zoff[s] + k * j0;
		if (Ra[ma - 1] - Ra[0] == ma - 1 && Rb[j1 - 1] - Rb[j0] == nb - 1) {
			GEMM(CblasColMajor, CblasTrans, CblasNoTrans, ma, nb, k,
			     1.0, Za, k, Zb, k, 1.0, Wab + Ra[0] + mA * Rb[j0], mA);
		} else {
			GEMM(CblasColMajor, CblasTrans, CblasNoTrans, ma, nb, k,
			     1.0, Za, k, Zb, k, 0.0, T, ma);
			for (int64_t jj = 0; jj < nb; jj++) {
				REAL *Wc = Wab + mA * Rb[j0 + jj];
				for (int64_t ii = 0; ii < ma; ii++)
					Wc[Ra[ii]] += T[ii + ma * jj];
			}
		}
		flops += 2.0 * (double)(k * ma * nb);
	}
	return flops;
}

/* store_half writes W (row-major m×m, both triangles, the rows of X in
 * their original order) or, in a split, one half's block of it, from the
 * lower triangle of its Wp (mh right-hand sides, in w's sorted order):
 * row gives the row of X of each row of the half's own X, NULL when the
 * rows are X's own (mh = m). */
static void SFX(store_half)(const sg_work *w, const int *row, int64_t mh, double *W, int64_t m)
{
	const REAL *Wp = (const REAL *)w->Wp;
	for (int64_t a = 0; a < mh; a++) {
		const REAL *col = Wp + mh * a;
		int64_t ra = row_of(row, w->order[a]);
		for (int64_t b = a; b < mh; b++) {
			int64_t rb = row_of(row, w->order[b]);
			W[ra * m + rb] = (double)col[b];
			W[rb * m + ra] = (double)col[b];
		}
	}
}

/* store_cross writes the entries of W_AB (and W_BA) of B's sorted
 * right-hand sides [b0, b1) into W. */
static void SFX(store_cross)(const sg_work *wa, const sg_work *wb, const int *rowA, const int *rowB,
                             int64_t mA, int b0, int b1, const REAL *Wab, double *W, int64_t m)
{
	for (int64_t b = b0; b < b1; b++) {
		const REAL *col = Wab + mA * b;
		int64_t rb = rowB[wb->order[b]];
		for (int64_t a = 0; a < mA; a++) {
			int64_t ra = rowA[wa->order[a]];
			W[ra * m + rb] = (double)col[a];
			W[rb * m + ra] = (double)col[a];
		}
	}
}
