// pgs.cu — projected Gauss–Seidel for the frictional contact problem of one
// Newton iteration of the fast scheme (Eq. PGS, Algorithm 1 of Zeng &
// Courtecuisse), run by ONE CUDA block on the compliance W = C·W_H·Cᵀ that
// the batched GEMMs left in device memory.
//
// Glossary (docs/method.md, "Symbols"): c contacts, n = 3c rows; W the 3c×3c row-major
// compliance, of which only the lower block triangle (blocks W_ab, b ≤ a)
// is read; λ the forces [λn, λt1, λt2] per contact; δ_free the free gaps;
// s = h²; μ the friction coefficient.
//
//	δ = δ_free + s·W·λ,  0 ≤ δn ⊥ λn ≥ 0,  ‖λt‖ ≤ μ·λn (Coulomb).
//
// Gauss–Seidel is sequential over the contacts: contact a needs the gap
// that the others leave, with the forces of this sweep for b < a and of the
// last sweep for b > a. The kernel keeps that order exactly (the same
// iterates as physics/contact/pgs.go, up to the order of the sums) and takes
// its parallelism where Courtecuisse & Allard's parallel dense Gauss–Seidel
// (2009) does: out of the serial chain.
//
// It keeps y = W·λ of the current λ in the work array v (3c). Contact a's
// gap without its own force is d_a = δfree_a + s·(y_a − W_aa·λ_a); once its
// new force is known, y += W_{:,a}·Δλ_a keeps y exact. The contacts are
// taken in blocks of PGS_BLOCK (16) contacts, 48 rows, as a pipeline. For
// each block:
//
//  1. stage (all threads): its diagonal block of W (48×48, filled from the
//     lower triangle), its λ, δ_free and records, and its y brought up to
//     date with the previous block's Δλ, into shared memory; barrier;
//  2. diagonal (warp 0): its contacts in order: lane 0 solves the 3×3
//     local problem of contact a from the shared y, then every lane updates
//     its (at most two) rows of the shared y by W_{block,a}·Δλ_a; __syncwarp
//     between the two. Only registers and shared memory on this path;
//  3. off-diagonal, at the same time (warps 1, 2, …): every row outside the
//     two blocks gets y_r += Σ_j W_rj·Δλ_j over the PREVIOUS block's 48
//     columns, one row per thread, and that block's y, λ and records are
//     written back. Rows above it read W_jr (the lower triangle):
//     neighbouring rows, neighbouring doubles; rows below read their own 48
//     contiguous doubles (three 128-byte lines each); barrier.
//
// So a sweep has 2·⌈c/16⌉ block barriers instead of the 2c of a
// contact-by-contact kernel, W is read once per sweep, and the O(c²)
// products run beside the serial chain of local solves instead of between
// them (the parallel dense Gauss–Seidel of Courtecuisse & Allard, 2009,
// within one multiprocessor; the cost model is in docs/gpu.md). With a
// single warp, warp 0 does step 3 itself after step 2. y is formed once per
// solve from the warm start (a product by all of W, each thread one row),
// which is also where a NaN or an infinity anywhere in W reaches the gap of
// the first contact it touches.
//
// Rounding. The kernel is compiled with --fmad=false: every +, −, ×, / and
// sqrt rounds once, as Go's do, and the only fused multiply-adds are the
// explicit fma() of the products. Its sums run in another order than the
// CPU's, so λ agrees with the CPU solver to round-off, not bit for bit. The
// tests run this very source on the CPU (cuda/standin: g++ with a shim
// header and -ffp-contract=off) through the backend's device layer, against
// the reference solver; the constants below are checked against the host's
// (cuda/kernels_test.go).
//
// Launch: one block of PGS_THREADS threads (a multiple of 32, at most 1024),
// no dynamic shared memory (24.1 kB static), parameters as in pgs_solve
// below (every integer is a 64-bit long long so that each parameter slot is
// 8 bytes), c ≥ 1. v (3c) and rec (PGS_RECORD·c) are work arrays.
//
// bilateral (c ints, or a null pointer for none) marks the contacts whose three rows
// are equalities (attachments, contact.PGS.Bilateral): their force solves
// δ_a = 0 whatever its sign and direction (pgs_held), state 3.
//
// Output: lambda (the solution, warm start on entry), states[a] (0
// separated, 1 stick, 2 slip, 3 held: contact.State), errors[k] = ε of sweep k, and
// status = {code, contact, sweeps}: code PGS_OK or the reason the contact
// named by status[1] (the first in order) could not be solved.

#define PGS_THREADS 256
#define PGS_WARP 32
#define PGS_RECORD 10
#define PGS_BLOCK 16
#define PGS_BLOCK_ROWS (3 * PGS_BLOCK)
#define PGS_MAX_SLIP_ITERATIONS 64

// Status codes (status[0]).
#define PGS_OK 0
#define PGS_BLOCK_NOT_FINITE 1
#define PGS_BLOCK_NN_NOT_POSITIVE 2
#define PGS_BLOCK_SCHUR_NOT_POSITIVE 3
#define PGS_ROW_NOT_FINITE 4

// Contact states (contact.State).
#define PGS_SEPARATED 0
#define PGS_STICK 1
#define PGS_SLIP 2
#define PGS_HELD 3

// Slots of a contact's record: the factored diagonal block G = s·W_aa
// (1/G_nn, k = G_tn/G_nn, the Schur complement S = G_tt − G_tn·G_ntᵀ/G_nn
// and its inverse) and the root ν of its last slip solve.
#define R_INV_GNN 0
#define R_K1 1
#define R_K2 2
#define R_S11 3
#define R_S12 4
#define R_S22 5
#define R_I11 6
#define R_I12 7
#define R_I22 8
#define R_NU 9

#define FULL_WARP 0xffffffffu

// pgs_factor factors G = s·W_aa of contact a from the lower triangle of the
// diagonal block (the strict upper block triangle of W is not trusted) into
// the record r, and returns PGS_OK or why G is not usable.
__device__ int pgs_factor(const double* W, long long n, long long a, double s, double* r)
{
    long long i = 3 * a;
    const double* r0 = W + i * n;
    const double* r1 = r0 + n;
    const double* r2 = r1 + n;
    double w00 = r0[i], w01 = r1[i], w02 = r2[i];
    double w11 = r1[i + 1], w12 = r2[i + 1], w22 = r2[i + 2];
    if (!isfinite(w00) || !isfinite(w01) || !isfinite(w02) ||
        !isfinite(w11) || !isfinite(w12) || !isfinite(w22)) {
        return PGS_BLOCK_NOT_FINITE;
    }
    double gnn = s * w00;
    if (!(gnn > 0.0) || isinf(gnn)) {
        return PGS_BLOCK_NN_NOT_POSITIVE;
    }
    double invGnn = 1.0 / gnn;
    double gn1 = s * w01, gn2 = s * w02;
    double k1 = gn1 * invGnn, k2 = gn2 * invGnn;
    double s11 = s * w11 - gn1 * k1;
    double s12 = s * w12 - gn1 * k2;
    double s22 = s * w22 - gn2 * k2;
    double det = s11 * s22 - s12 * s12;
    // Relative test: the Schur complement of a numerically singular block
    // is round-off.
    double scale = fmax(gnn, fmax(s * w11, s * w22));
    if (!(s11 > 1e-13 * scale) || !(det > 1e-26 * scale * scale)) {
        return PGS_BLOCK_SCHUR_NOT_POSITIVE;
    }
    double inv = 1.0 / det;
    r[R_INV_GNN] = invGnn;
    r[R_K1] = k1;
    r[R_K2] = k2;
    r[R_S11] = s11;
    r[R_S12] = s12;
    r[R_S22] = s22;
    r[R_I11] = s22 * inv;
    r[R_I12] = -s12 * inv;
    r[R_I22] = s11 * inv;
    r[R_NU] = 0.0;
    return PGS_OK;
}

// pgs_shifted returns x = −(S + νI)⁻¹·e and x' = dx/dν = −(S + νI)⁻¹·x by
// the 2×2 adjugate.
__device__ void pgs_shifted(const double* r, double nu, double e1, double e2, double* x)
{
    double m11 = r[R_S11] + nu, m22 = r[R_S22] + nu, s12 = r[R_S12];
    double k = 1.0 / (s12 * s12 - m11 * m22);
    x[0] = (m22 * e1 - s12 * e2) * k;
    x[1] = (m11 * e2 - s12 * e1) * k;
    x[2] = (m22 * x[0] - s12 * x[1]) * k;
    x[3] = (m11 * x[1] - s12 * x[0]) * k;
}

// pgs_first_guess starts the slip iteration inside (lo, hi): the last
// root, else the isotropic estimate ‖e‖/c₀ − mean eigenvalue of S, else the
// middle of the bracket.
__device__ double pgs_first_guess(const double* r, double lo, double hi, double ratio)
{
    double nu = r[R_NU];
    if (nu > lo && nu < hi) {
        return nu;
    }
    nu = ratio - 0.5 * (r[R_S11] + r[R_S22]);
    if (nu > lo && nu < hi) {
        return nu;
    }
    return 0.5 * (lo + hi);
}

// pgs_on_cone completes the slip force from its tangential part x: λn keeps
// δn = 0 and λt is scaled onto the cone, ‖λt‖ = μ·λn exactly.
__device__ void pgs_on_cone(const double* r, double mu, double dn, double x1, double x2, double* l)
{
    double ln = -dn * r[R_INV_GNN] - (r[R_K1] * x1 + r[R_K2] * x2);
    double m = sqrt(x1 * x1 + x2 * x2);
    if (!(ln > 0.0) || !(m > 0.0) || isnan(m)) {
        l[0] = -dn * r[R_INV_GNN];
        l[1] = 0.0;
        l[2] = 0.0;
        return;
    }
    double f = mu * ln / m;
    l[0] = ln;
    l[1] = x1 * f;
    l[2] = x2 * f;
}

// pgs_slip finds the root ν of ψ(ν) = (c₀ − gᵀx(ν))/‖x(ν)‖ − 1 by Newton
// steps kept inside a sign-changing bracket (derivation in
// physics/contact/local.go) and returns the force on the cone.
__device__ void pgs_slip(double* r, double mu, double dn, double e1, double e2, double* l)
{
    double c0 = -mu * dn * r[R_INV_GNN];
    double g1 = mu * r[R_K1], g2 = mu * r[R_K2];
    double en = sqrt(e1 * e1 + e2 * e2);
    double lo = 0.0, hi = (1.0 + sqrt(g1 * g1 + g2 * g2)) * en / c0;
    double nu = pgs_first_guess(r, lo, hi, en / c0);
    double x[4] = {0.0, 0.0, 0.0, 0.0};
    for (int it = 0; it < PGS_MAX_SLIP_ITERATIONS; it++) {
        pgs_shifted(r, nu, e1, e2, x);
        double m2 = x[0] * x[0] + x[1] * x[1];
        double m = sqrt(m2);
        double rr = c0 - (g1 * x[0] + g2 * x[1]);
        if (fabs(rr - m) <= 1e-14 * m) {
            break;
        }
        if (rr > m) {
            hi = nu;
        } else {
            lo = nu;
        }
        if (hi - lo <= 1e-16 * hi) {
            break;
        }
        double xxp = x[0] * x[2] + x[1] * x[3];
        double rp = -(g1 * x[2] + g2 * x[3]);
        double next = nu - (rr - m) * m2 / (rp * m2 - rr * xxp);
        if (!(next > lo && next < hi)) {
            next = 0.5 * (lo + hi);
        }
        nu = next;
    }
    r[R_NU] = nu;
    pgs_on_cone(r, mu, dn, x[0], x[1], l);
}

// pgs_stick writes into l the force −G⁻¹·d that closes all three rows,
// from d_n and e = d_t − k·d_n (contact's stick): pgs_local's stick
// candidate and a bilateral contact's force.
__device__ void pgs_stick(const double* r, double dn, double e1, double e2, double* l)
{
    double x1 = -(r[R_I11] * e1 + r[R_I12] * e2);
    double x2 = -(r[R_I12] * e1 + r[R_I22] * e2);
    l[0] = -dn * r[R_INV_GNN] - (r[R_K1] * x1 + r[R_K2] * x2);
    l[1] = x1;
    l[2] = x2;
}

// pgs_local solves the local problem of one contact for the gap d that the
// others leave, writes λ_a into l and returns the contact's state.
__device__ int pgs_local(double* r, double mu, double dn, double dt1, double dt2, double* l)
{
    if (dn >= 0.0) {
        l[0] = 0.0;
        l[1] = 0.0;
        l[2] = 0.0;
        return PGS_SEPARATED;
    }
    if (mu == 0.0) {
        l[0] = -dn * r[R_INV_GNN];
        l[1] = 0.0;
        l[2] = 0.0;
        return PGS_SLIP;
    }
    double e1 = dt1 - r[R_K1] * dn;
    double e2 = dt2 - r[R_K2] * dn;
    pgs_stick(r, dn, e1, e2, l);
    if (l[0] > 0.0 && l[1] * l[1] + l[2] * l[2] <= mu * mu * l[0] * l[0]) {
        return PGS_STICK;
    }
    pgs_slip(r, mu, dn, e1, e2, l);
    return PGS_SLIP;
}

// pgs_held solves a bilateral contact: its three rows are equalities,
// δ = G·λ + d = 0, so λ = −G⁻¹·d whatever its sign and direction
// (pgs_stick, without pgs_local's tests; contact's solveBilateral).
__device__ int pgs_held(const double* r, double dn, double dt1, double dt2, double* l)
{
    pgs_stick(r, dn, dt1 - r[R_K1] * dn, dt2 - r[R_K2] * dn, l);
    return PGS_HELD;
}

// pgs_prepare factors every diagonal block (threads share the contacts) and
// returns 0 when all are usable; otherwise thread 0 records the first
// failing contact's reason and it returns 1.
__device__ int pgs_prepare(const double* W, long long c, double s, double* rec, int* states, int* status)
{
    long long n = 3 * c;
    for (long long a = threadIdx.x; a < c; a += blockDim.x) {
        states[a] = PGS_SEPARATED;
        if (pgs_factor(W, n, a, s, rec + PGS_RECORD * a) != PGS_OK) {
            atomicMin(&status[1], (int)a);
        }
    }
    __syncthreads();
    long long bad = status[1];
    if (bad >= c) {
        return 0;
    }
    if (threadIdx.x == 0) {
        // Factoring again yields the reason of the first failing contact.
        status[0] = pgs_factor(W, n, bad, s, rec + PGS_RECORD * bad);
    }
    return 1;
}

// pgs_entry is W_rj of the symmetric W from its lower block triangle.
__device__ double pgs_entry(const double* W, long long n, long long r, long long j)
{
    return j / 3 <= r / 3 ? W[r * n + j] : W[j * n + r];
}

// pgs_product sets y = W·λ, thread t forming the rows r = t, t+T, …: the
// columns of r's own row block and left of it from row r, the others from
// column r of the rows below (neighbouring threads, neighbouring doubles).
__device__ void pgs_product(const double* W, long long c, const double* lambda, double* y)
{
    long long n = 3 * c;
    for (long long r = threadIdx.x; r < n; r += blockDim.x) {
        long long split = 3 * (r / 3 + 1);
        const double* row = W + r * n;
        double acc = 0.0;
        for (long long j = 0; j < split; j++) {
            acc = fma(row[j], lambda[j], acc);
        }
        for (long long j = split; j < n; j++) {
            acc = fma(W[j * n + r], lambda[j], acc);
        }
        y[r] = acc;
    }
}

// pgs_rows is what the sweep keeps of one block of contacts (a0 … a0+k−1,
// rows r0 = 3·a0 … r0+3k−1) in shared memory while it is solved and during
// the step after: y, Δλ of this sweep, λ, δ_free and the contacts' records.
// k = 0: no block (before the first).
struct pgs_rows {
    double y[PGS_BLOCK_ROWS];
    double dl[PGS_BLOCK_ROWS];
    double lam[PGS_BLOCK_ROWS];
    double dfree[PGS_BLOCK_ROWS];
    double rec[PGS_BLOCK * PGS_RECORD];
    long long a0, k;
};

// pgs_shared is the block's shared memory: the diagonal block of W being
// solved (local rows and columns), the rows of the current and the previous
// block of contacts (alternating), and thread 0's flag that a gap came out
// non-finite.
struct pgs_shared {
    double w[PGS_BLOCK_ROWS][PGS_BLOCK_ROWS];
    pgs_rows rows[2];
    int halt;
};

// pgs_in reports that row r belongs to the block of contacts of b.
__device__ bool pgs_in(const pgs_rows* b, long long r)
{
    return b->k > 0 && r >= 3 * b->a0 && r < 3 * (b->a0 + b->k);
}

// pgs_add_previous returns y_r + Σ_j W_rj·Δλ_j over the previous block's
// columns j, skipping the contacts whose force did not change.
__device__ double pgs_add_previous(const double* W, long long n, long long r, const pgs_rows* prev, double y)
{
    long long p0 = 3 * prev->a0, pm = 3 * prev->k;
    for (long long j = 0; j < pm; j++) {
        double d = prev->dl[j];
        if (d != 0.0) {
            y = fma(pgs_entry(W, n, r, p0 + j), d, y);
        }
    }
    return y;
}

// pgs_stage loads the block of contacts a0 … a0+k−1 into cur (all
// threads): its diagonal block of W, its λ, δ_free and records, and its y
// brought up to date with the previous block's Δλ, whose own rows are
// still in prev (when the two blocks are the same, the one block of a
// problem of at most PGS_BLOCK contacts, prev holds them all).
__device__ void pgs_stage(const double* W, long long n, long long a0, long long k, const double* y,
    const double* lambda, const double* deltaFree, const double* rec, const pgs_rows* prev,
    pgs_rows* cur, pgs_shared* sh)
{
    long long r0 = 3 * a0, m = 3 * k;
    long long p0 = 3 * prev->a0;
    for (long long q = threadIdx.x; q < m * m; q += blockDim.x) {
        long long i = q / m, j = q % m;
        sh->w[i][j] = pgs_entry(W, n, r0 + i, r0 + j);
    }
    for (long long i = threadIdx.x; i < m; i += blockDim.x) {
        long long r = r0 + i;
        cur->dl[i] = 0.0;
        cur->dfree[i] = deltaFree[r];
        if (pgs_in(prev, r)) {
            cur->y[i] = prev->y[r - p0];
            cur->lam[i] = prev->lam[r - p0];
            continue;
        }
        cur->y[i] = pgs_add_previous(W, n, r, prev, y[r]);
        cur->lam[i] = lambda[r];
    }
    for (long long q = threadIdx.x; q < k * PGS_RECORD; q += blockDim.x) {
        long long a = a0 + q / PGS_RECORD;
        cur->rec[q] = pgs_in(prev, 3 * a) ? prev->rec[(a - prev->a0) * PGS_RECORD + q % PGS_RECORD] : rec[a0 * PGS_RECORD + q];
    }
    if (threadIdx.x == 0) {
        cur->a0 = a0;
        cur->k = k;
    }
}

// pgs_contact is lane 0's part of the block's q-th contact a (local rows
// i0 = 3q …): the gap the others leave, the local solve, λ_a and Δλ_a into
// the shared rows, and the sweep sums ‖Δλ‖² and ‖λ‖². It returns 0, or 1
// when the gap is not finite (W, δ_free or the products overflowed).
__device__ int pgs_contact(long long q, double s, double mu, int* states, const int* bilateral, pgs_rows* b,
    const pgs_shared* sh, double* dl2, double* l2)
{
    long long i0 = 3 * q;
    double l0 = b->lam[i0], l1 = b->lam[i0 + 1], l2o = b->lam[i0 + 2];
    double g[3];
    for (int e = 0; e < 3; e++) {
        const double* w = sh->w[i0 + e];
        // y_a − W_aa·λ_a: the contact's own force taken out of its gap.
        double own = fma(w[i0 + 2], l2o, fma(w[i0 + 1], l1, w[i0] * l0));
        g[e] = b->dfree[i0 + e] + s * (b->y[i0 + e] - own);
    }
    if (!isfinite(g[0]) || !isfinite(g[1]) || !isfinite(g[2])) {
        return 1;
    }
    double l[3];
    if (bilateral != 0 && bilateral[b->a0 + q]) {
        states[b->a0 + q] = pgs_held(b->rec + PGS_RECORD * q, g[0], g[1], g[2], l);
    } else {
        states[b->a0 + q] = pgs_local(b->rec + PGS_RECORD * q, mu, g[0], g[1], g[2], l);
    }
    double D0 = l[0] - l0, D1 = l[1] - l1, D2 = l[2] - l2o;
    *l2 += l[0] * l[0] + l[1] * l[1] + l[2] * l[2];
    *dl2 += D0 * D0 + D1 * D1 + D2 * D2;
    b->lam[i0] = l[0];
    b->lam[i0 + 1] = l[1];
    b->lam[i0 + 2] = l[2];
    b->dl[i0] = D0;
    b->dl[i0 + 1] = D1;
    b->dl[i0 + 2] = D2;
    return 0;
}

// pgs_diagonal is warp 0's serial part of a block of contacts: each
// contact's local solve by lane 0, then y of the block's rows updated by
// the contact's column block, lane l owning rows l and l+32. Only shared
// memory and registers are on this path (and the store of the state).
__device__ void pgs_diagonal(double s, double mu, int* states, const int* bilateral, int* status, pgs_rows* b,
    pgs_shared* sh, double* dl2, double* l2)
{
    int lane = threadIdx.x % PGS_WARP;
    long long m = 3 * b->k;
    for (long long q = 0; q < b->k; q++) {
        long long i0 = 3 * q;
        if (lane == 0 && pgs_contact(q, s, mu, states, bilateral, b, sh, dl2, l2)) {
            status[0] = PGS_ROW_NOT_FINITE;
            status[1] = (int)(b->a0 + q);
            sh->halt = 1;
        }
        __syncwarp(FULL_WARP);
        if (sh->halt) {
            return;
        }
        double D0 = b->dl[i0], D1 = b->dl[i0 + 1], D2 = b->dl[i0 + 2];
        if (D0 != 0.0 || D1 != 0.0 || D2 != 0.0) {
            for (long long r = lane; r < m; r += PGS_WARP) {
                const double* w = sh->w[r];
                b->y[r] = fma(w[i0 + 2], D2, fma(w[i0 + 1], D1, fma(w[i0], D0, b->y[r])));
            }
        }
        __syncwarp(FULL_WARP);
    }
}

// pgs_flush writes the block's λ and records back (threads t0, t0+stride,
// …).
__device__ void pgs_flush(const pgs_rows* b, double* lambda, double* rec, long long t0, long long stride)
{
    long long r0 = 3 * b->a0;
    for (long long i = t0; i < 3 * b->k; i += stride) {
        lambda[r0 + i] = b->lam[i];
    }
    for (long long q = t0; q < b->k * PGS_RECORD; q += stride) {
        rec[b->a0 * PGS_RECORD + q] = b->rec[q];
    }
}

// pgs_off_diagonal brings y of every row outside the current block cur up
// to date with the previous block's Δλ (threads t0, t0+stride, …, a row
// each), and writes back the previous block's own y, λ and records, which
// are complete. Rows above the previous block read W_jr (the lower
// triangle): neighbouring rows, neighbouring doubles; rows below read
// their own 3k contiguous doubles.
__device__ void pgs_off_diagonal(const double* W, long long n, double* y, double* lambda, double* rec,
    const pgs_rows* prev, const pgs_rows* cur, long long t0, long long stride)
{
    if (prev->k == 0 || prev->a0 == cur->a0) {
        return; // nothing pending, or the one block, all in shared memory
    }
    long long p0 = 3 * prev->a0;
    for (long long r = t0; r < n; r += stride) {
        if (pgs_in(cur, r)) {
            continue; // staged with prev's Δλ already
        }
        if (pgs_in(prev, r)) {
            y[r] = prev->y[r - p0];
            continue;
        }
        y[r] = pgs_add_previous(W, n, r, prev, y[r]);
    }
    pgs_flush(prev, lambda, rec, t0, stride);
}

// pgs_sweep is one Gauss–Seidel pass over the contacts, PGS_BLOCK at a
// time, as a pipeline: while warp 0 solves the contacts of a block, the
// other warps bring the rest of y up to date with the previous block's
// Δλ. *step counts the blocks since the start of the solve (it picks the
// shared buffer). Thread 0 accumulates ‖Δλ‖² and ‖λ‖²; it returns 1 when
// the solve must stop on a non-finite gap (status set by thread 0).
__device__ int pgs_sweep(const double* W, long long c, double s, double mu, const double* deltaFree,
    double* lambda, double* y, double* rec, int* states, const int* bilateral, int* status,
    pgs_shared* sh, long long* step, double* dl2, double* l2)
{
    long long n = 3 * c;
    long long T = blockDim.x;
    for (long long a0 = 0; a0 < c; a0 += PGS_BLOCK) {
        long long k = c - a0 < PGS_BLOCK ? c - a0 : PGS_BLOCK;
        pgs_rows* cur = &sh->rows[*step % 2];
        pgs_rows* prev = &sh->rows[(*step + 1) % 2];
        ++*step;
        pgs_stage(W, n, a0, k, y, lambda, deltaFree, rec, prev, cur, sh);
        __syncthreads();
        if (threadIdx.x < PGS_WARP) {
            pgs_diagonal(s, mu, states, bilateral, status, cur, sh, dl2, l2);
            if (T == PGS_WARP && !sh->halt) {
                // One warp: it updates the rest of y itself, after.
                pgs_off_diagonal(W, n, y, lambda, rec, prev, cur, threadIdx.x, PGS_WARP);
            }
        } else {
            pgs_off_diagonal(W, n, y, lambda, rec, prev, cur, threadIdx.x - PGS_WARP, T - PGS_WARP);
        }
        __syncthreads();
        if (sh->halt) {
            return 1;
        }
    }
    return 0;
}

extern "C" __global__ void pgs_solve(const double* W, long long c, double s, double mu,
    const double* deltaFree, double* lambda, long long maxIter, double tol,
    double* v, double* rec, int* states, double* errors, int* status, const int* bilateral)
{
    __shared__ pgs_shared sh;
    __shared__ int stop;
    if (threadIdx.x == 0) {
        status[0] = PGS_OK;
        status[1] = (int)c;
        status[2] = 0;
        sh.halt = 0;
        sh.rows[0].k = 0;
        sh.rows[1].k = 0;
        stop = 0;
    }
    __syncthreads();
    if (pgs_prepare(W, c, s, rec, states, status)) {
        return;
    }
    pgs_product(W, c, lambda, v);
    __syncthreads();
    long long step = 0;
    double dl2, l2; // thread 0's sweep sums
    for (long long it = 0; it < maxIter; it++) {
        dl2 = 0.0;
        l2 = 0.0;
        if (pgs_sweep(W, c, s, mu, deltaFree, lambda, v, rec, states, bilateral, status, &sh, &step, &dl2, &l2)) {
            return;
        }
        if (threadIdx.x == 0) {
            // ε = ‖Δλ‖/‖λ‖ (Algorithm 1); all forces zero: 1 if any was
            // released, 0 otherwise.
            double eps = l2 == 0.0 ? (dl2 == 0.0 ? 0.0 : 1.0) : sqrt(dl2 / l2);
            errors[it] = eps;
            status[2] = (int)(it + 1);
            stop = tol > 0.0 && eps <= tol;
        }
        __syncthreads();
        int done = stop || it + 1 == maxIter;
        __syncthreads(); // every thread has read stop before thread 0 rewrites it
        if (done) {
            break;
        }
    }
    // The last block's λ and records are still in shared memory only (the
    // block before it was written back while it was solved).
    pgs_flush(&sh.rows[(step + 1) % 2], lambda, rec, threadIdx.x, blockDim.x);
}
