// pgs.cu — projected Gauss–Seidel for the frictional contact problem of one
// Newton iteration of the fast scheme (Eq. PGS, Algorithm 1 of Zeng &
// Courtecuisse), run by ONE CUDA block on the compliance W = C·W_H·Cᵀ that
// the batched GEMMs left in device memory.
//
// Glossary (METHOD.md): c contacts, n = 3c rows; W the 3c×3c row-major
// compliance, of which only the lower block triangle (blocks W_ab, b ≤ a)
// is read; λ the forces [λn, λt1, λt2] per contact; δ_free the free gaps;
// s = h²; μ the friction coefficient.
//
//	δ = δ_free + s·W·λ,  0 ≤ δn ⊥ λn ≥ 0,  ‖λt‖ ≤ μ·λn (Coulomb).
//
// Gauss–Seidel is sequential over the contacts: contact a needs the gap left
// by the forces of this sweep for b < a and of the last sweep for b > a,
//
//	d_a = δfree_a + s·(Σ_{b<a} W_ab·λ_b + v_a),   v_a = Σ_{b>a} W_ab·λ_b.
//
// As in physics/contact/pgs.go, only the lower block triangle is read: the
// first sum is row block a left of its diagonal block, and v_a is gathered
// from the rows below: when contact b gets its new force, the scatter
// v_{0:b} += (W_{b,0:b})ᵀ·λ_b adds it, by symmetry W_ab = W_baᵀ, to every
// contact a < b for the next sweep (v_b itself is consumed and reset).
//
// So the block visits the contacts in order, and its T threads share each
// row block: thread t owns the columns j = t, t+T, t+2T, …, so that a warp
// reads 32 consecutive doubles of a row (coalesced). For contact a each
// thread sums its columns j < 3a of the three rows 3a, 3a+1, 3a+2; each
// warp reduces its 32 partial sums by a shuffle tree, the T/32 warp sums go
// through shared memory, and warp 0 reduces them by the same tree (padded
// with zeros to 32 lanes). Thread 0 then solves the contact's 3×3 local
// problem exactly (the law of physics/contact/local.go: separation, stick,
// or slip on the cone by a safeguarded Newton iteration on the sliding
// resistance ν) and writes λ_a; after a barrier every thread scatters λ_a
// into its own entries of v, reading the same three rows again (from
// cache), and the block moves on to contact a+1. Two barriers per contact.
//
// One block runs on one multiprocessor: the sweep is as sequential as the
// method, and the parallelism is that of the row products (T-wide), which
// the 3c-long rows of the paper's sizes (1000–1500 columns) fill.
//
// Rounding. The kernel is compiled with --fmad=false: every +, −, ×, / and
// sqrt rounds once, as Go's do, and the only fused multiply-adds are the
// explicit fma() of the row products and the scatter. The tests run this
// very source on the CPU (cuda/standin: g++ with a shim header and
// -ffp-contract=off) through the backend's device layer, against the
// reference solver; the constants below are checked against the host's
// (cuda/kernels_test.go).
//
// Launch: one block of PGS_THREADS threads (a multiple of 32, at most 1024),
// no dynamic shared memory, parameters as in pgs_solve below (every integer
// is a 64-bit long long so that each parameter slot is 8 bytes), c ≥ 1.
// v (3c) and rec (PGS_RECORD·c) are work arrays.
//
// Output: lambda (the solution, warm start on entry), states[a] (0
// separated, 1 stick, 2 slip: contact.State), errors[k] = ε of sweep k, and
// status = {code, contact, sweeps}: code PGS_OK or the reason the contact
// named by status[1] (the first in order) could not be solved.

#define PGS_THREADS 256
#define PGS_WARP 32
#define PGS_RECORD 10
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
    double x1 = -(r[R_I11] * e1 + r[R_I12] * e2);
    double x2 = -(r[R_I12] * e1 + r[R_I22] * e2);
    double ln = -dn * r[R_INV_GNN] - (r[R_K1] * x1 + r[R_K2] * x2);
    if (ln > 0.0 && x1 * x1 + x2 * x2 <= mu * mu * ln * ln) {
        l[0] = ln;
        l[1] = x1;
        l[2] = x2;
        return PGS_STICK;
    }
    pgs_slip(r, mu, dn, e1, e2, l);
    return PGS_SLIP;
}

// pgs_warp_sum reduces v over the 32 lanes of a warp by the shuffle tree
// v_l += v_{l+16}, v_l += v_{l+8}, …, v_l += v_{l+1}; lane 0 holds the sum.
__device__ double pgs_warp_sum(double v)
{
    for (int off = PGS_WARP / 2; off > 0; off >>= 1) {
        v += __shfl_down_sync(FULL_WARP, v, off);
    }
    return v;
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

// pgs_scatter adds (W_{a,0:a})ᵀ·λ_a to v over thread t's columns j < 3a:
// v_j += W[3a, j]·λ0 + W[3a+1, j]·λ1 + W[3a+2, j]·λ2, fused in that order.
__device__ void pgs_scatter(const double* W, long long n, long long i, double l0, double l1, double l2, double* v)
{
    const double* w0 = W + i * n;
    const double* w1 = w0 + n;
    const double* w2 = w1 + n;
    for (long long j = threadIdx.x; j < i; j += blockDim.x) {
        v[j] = fma(w2[j], l2, fma(w1[j], l1, fma(w0[j], l0, v[j])));
    }
}

// pgs_gather sets v = Σ_a (W_{a,0:a})ᵀ·λ_a, the v of the warm start: the
// contributions of every contact to the ones before it. Thread t owns the
// columns j = t, t+T, … and adds the row blocks in order, so no two threads
// write the same entry.
__device__ void pgs_gather(const double* W, long long c, const double* lambda, double* v)
{
    long long n = 3 * c;
    for (long long j = threadIdx.x; j < n; j += blockDim.x) {
        v[j] = 0.0;
    }
    for (long long a = 0; a < c; a++) {
        long long i = 3 * a;
        pgs_scatter(W, n, i, lambda[i], lambda[i + 1], lambda[i + 2], v);
    }
}

// pgs_row_partial is thread t's share of the row products of contact a,
// Σ_j W[3a+q, j]·λ_j over its columns j < 3a, for q = 0, 1, 2.
__device__ void pgs_row_partial(const double* W, long long n, long long i, const double* lambda, double* p)
{
    const double* w0 = W + i * n;
    const double* w1 = w0 + n;
    const double* w2 = w1 + n;
    double a0 = 0.0, a1 = 0.0, a2 = 0.0;
    for (long long j = threadIdx.x; j < i; j += blockDim.x) {
        double lj = lambda[j];
        a0 = fma(w0[j], lj, a0);
        a1 = fma(w1[j], lj, a1);
        a2 = fma(w2[j], lj, a2);
    }
    p[0] = a0;
    p[1] = a1;
    p[2] = a2;
}

// pgs_block_sum reduces the threads' partial sums p[0..2] to thread 0:
// shuffle tree in each warp, warp sums through shared memory, shuffle tree
// in warp 0. It contains the contact's first barrier.
__device__ void pgs_block_sum(double* p, double (*red)[PGS_WARP])
{
    int lane = threadIdx.x % PGS_WARP, warp = threadIdx.x / PGS_WARP;
    int nwarps = blockDim.x / PGS_WARP;
    for (int q = 0; q < 3; q++) {
        p[q] = pgs_warp_sum(p[q]);
        if (lane == 0) {
            red[q][warp] = p[q];
        }
    }
    __syncthreads();
    if (warp == 0) {
        for (int q = 0; q < 3; q++) {
            p[q] = pgs_warp_sum(lane < nwarps ? red[q][lane] : 0.0);
        }
    }
}

// pgs_contact is thread 0's part of contact a: the gap d_a from the reduced
// row products and v_a (which it consumes), the local solve, and the sweep
// sums ‖Δλ‖² and ‖λ‖². It returns 0, or 1 when d_a is not finite: W has a
// NaN or an infinity in the row products that reached it, or they overflow.
__device__ int pgs_contact(long long a, const double* p, double s, double mu, const double* deltaFree,
    double* lambda, double* v, double* rec, int* states, double* dl2, double* l2)
{
    long long i = 3 * a;
    double dn = deltaFree[i] + s * (p[0] + v[i]);
    double dt1 = deltaFree[i + 1] + s * (p[1] + v[i + 1]);
    double dt2 = deltaFree[i + 2] + s * (p[2] + v[i + 2]);
    v[i] = 0.0; // the contacts after a refill it
    v[i + 1] = 0.0;
    v[i + 2] = 0.0;
    if (!isfinite(dn) || !isfinite(dt1) || !isfinite(dt2)) {
        return 1;
    }
    double l[3];
    states[a] = pgs_local(rec + PGS_RECORD * a, mu, dn, dt1, dt2, l);
    double D0 = l[0] - lambda[i], D1 = l[1] - lambda[i + 1], D2 = l[2] - lambda[i + 2];
    *l2 += l[0] * l[0] + l[1] * l[1] + l[2] * l[2];
    *dl2 += D0 * D0 + D1 * D1 + D2 * D2;
    lambda[i] = l[0];
    lambda[i + 1] = l[1];
    lambda[i + 2] = l[2];
    return 0;
}

// pgs_sweep is one Gauss–Seidel pass over the contacts by the whole block.
// Thread 0 accumulates ‖Δλ‖² and ‖λ‖²; it returns 1 when the solve must
// stop on a non-finite gap (status set by thread 0).
__device__ int pgs_sweep(const double* W, long long c, double s, double mu, const double* deltaFree,
    double* lambda, double* v, double* rec, int* states, int* status,
    double (*red)[PGS_WARP], int* halt, double* dl2, double* l2)
{
    long long n = 3 * c;
    for (long long a = 0; a < c; a++) {
        long long i = 3 * a;
        double p[3];
        pgs_row_partial(W, n, i, lambda, p);
        pgs_block_sum(p, red);
        if (threadIdx.x == 0 && pgs_contact(a, p, s, mu, deltaFree, lambda, v, rec, states, dl2, l2)) {
            status[0] = PGS_ROW_NOT_FINITE;
            status[1] = (int)a;
            *halt = 1;
        }
        __syncthreads();
        if (*halt) {
            return 1;
        }
        double f0 = lambda[i], f1 = lambda[i + 1], f2 = lambda[i + 2];
        if (f0 != 0.0 || f1 != 0.0 || f2 != 0.0) {
            pgs_scatter(W, n, i, f0, f1, f2, v);
        }
    }
    return 0;
}

extern "C" __global__ void pgs_solve(const double* W, long long c, double s, double mu,
    const double* deltaFree, double* lambda, long long maxIter, double tol,
    double* v, double* rec, int* states, double* errors, int* status)
{
    __shared__ double red[3][PGS_WARP];
    __shared__ int halt;
    __shared__ int stop;
    if (threadIdx.x == 0) {
        status[0] = PGS_OK;
        status[1] = (int)c;
        status[2] = 0;
        halt = 0;
        stop = 0;
    }
    __syncthreads();
    if (pgs_prepare(W, c, s, rec, states, status)) {
        return;
    }
    pgs_gather(W, c, lambda, v);
    __syncthreads();
    double dl2, l2; // thread 0's sweep sums
    for (long long it = 0; it < maxIter; it++) {
        dl2 = 0.0;
        l2 = 0.0;
        if (pgs_sweep(W, c, s, mu, deltaFree, lambda, v, rec, states, status, red, &halt, &dl2, &l2)) {
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
        int done = stop;
        __syncthreads(); // every thread has read stop before thread 0 rewrites it
        if (done) {
            return;
        }
    }
}
