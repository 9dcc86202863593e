package cuda

import (
	"fmt"
	"math"
)

// The Go mirror of the PGS kernel pgs_solve (kernels/pgs.cu): the same
// algorithm with the same decomposition into threads and warps, executed
// sequentially on the CPU. Each device function has its Go counterpart
// under a similar name; the row products are summed thread by thread over
// the same columns, with the same explicit fused multiply-adds, and reduced
// by the same trees, so the mirror adds in the kernel's order. The tests
// compare it with the reference solver contact.PGS, and the emulated
// device (emulated.go) runs it in place of the GPU.

// warpSize is the number of lanes of a warp (PGS_WARP).
const warpSize = 32

// pgsThreads is the size of the one block the PGS kernel runs on
// (PGS_THREADS): eight warps, enough to cover the 1000–1500 columns of a
// row at the paper's sizes in six strided steps per thread.
const pgsThreads = 256

// pgsArgs are the scalar parameters of pgs_solve.
type pgsArgs struct {
	c             int     // contacts
	s, mu         float64 // s = h², friction coefficient
	maxIterations int     // sweeps at most
	tolerance     float64 // stop once ε ≤ tolerance (if > 0)
}

// pgsArrays are the array parameters of pgs_solve: W (n×n, lower block
// triangle read), δ_free and λ (3c), the work arrays v (3c) and records
// (pgsRecord·c), and the outputs states (c), errors (maxIterations) and
// status {code, contact, sweeps}.
type pgsArrays struct {
	W, deltaFree, lambda []float64
	v, records           []float64
	states               []int32
	errors               []float64
	status               []int32
}

// checkThreads reports a block size the kernel cannot run with: whole warps,
// at most 1024 threads (the CUDA limit, and 32 warp sums for warp 0).
func checkThreads(threads int) error {
	if threads < warpSize || threads > warpSize*warpSize || threads%warpSize != 0 {
		return fmt.Errorf("PGS block of %d threads: want a multiple of %d in [%d, %d]", threads, warpSize, warpSize, warpSize*warpSize)
	}
	return nil
}

// mirrorPGS runs pgs_solve for one block of threads (checkThreads) on
// the arrays of p, c ≥ 1, as the device would.
func mirrorPGS(threads int, g *pgsArgs, p *pgsArrays) {
	p.status[0], p.status[1], p.status[2] = statusOK, int32(g.c), 0
	if mirrorPrepare(g, p) {
		return
	}
	mirrorGather(p.W, g.c, p.lambda, p.v)
	for it := 0; it < g.maxIterations; it++ {
		dl2, l2, halted := mirrorSweep(threads, g, p)
		if halted {
			return
		}
		eps := relativeChange(dl2, l2)
		p.errors[it] = eps
		p.status[2] = int32(it + 1)
		if g.tolerance > 0 && eps <= g.tolerance {
			return
		}
	}
}

// relativeChange is ε = ‖Δλ‖/‖λ‖ of Algorithm 1 from the squared norms;
// with every force zero, 1 if any was released and 0 otherwise.
func relativeChange(dl2, l2 float64) float64 {
	if l2 == 0 {
		if dl2 == 0 {
			return 0
		}
		return 1
	}
	return math.Sqrt(dl2 / l2)
}

// mirrorPrepare is pgs_prepare: every diagonal block is factored (the
// device's threads share the contacts; each is independent, so the order
// does not matter), and the first failing contact, the minimum that the
// device finds by atomicMin, is reported with its reason.
func mirrorPrepare(g *pgsArgs, p *pgsArrays) bool {
	n := 3 * g.c
	bad := g.c
	for a := 0; a < g.c; a++ {
		p.states[a] = stateSeparated
		if factorBlock(p.W, n, a, g.s, p.records[pgsRecord*a:]) != statusOK {
			bad = min(bad, a)
		}
	}
	if bad == g.c {
		return false
	}
	p.status[1] = int32(bad)
	p.status[0] = int32(factorBlock(p.W, n, bad, g.s, p.records[pgsRecord*bad:]))
	return true
}

// mirrorScatter is pgs_scatter over all threads: v_j += W[i, j]·l0 +
// W[i+1, j]·l1 + W[i+2, j]·l2 for j < i, fused in that order. Each entry is
// owned by one thread, so the thread decomposition does not change it.
func mirrorScatter(W []float64, n, i int, l0, l1, l2 float64, v []float64) {
	w0, w1, w2 := W[i*n:i*n+i], W[(i+1)*n:(i+1)*n+i], W[(i+2)*n:(i+2)*n+i]
	v = v[:i]
	for j := range v {
		v[j] = math.FMA(w2[j], l2, math.FMA(w1[j], l1, math.FMA(w0[j], l0, v[j])))
	}
}

// mirrorGather is pgs_gather: v = Σ_a (W_{a,0:a})ᵀ·λ_a, row blocks in order.
func mirrorGather(W []float64, c int, lambda, v []float64) {
	n := 3 * c
	clear(v[:n])
	for a := 0; a < c; a++ {
		i := 3 * a
		mirrorScatter(W, n, i, lambda[i], lambda[i+1], lambda[i+2], v)
	}
}

// rowPartial is pgs_row_partial for thread t of a block of T: its share
// Σ W[i+q, j]·λ_j over the columns j = t, t+T, … below i, q = 0, 1, 2.
func rowPartial(W []float64, n, i int, lambda []float64, t, T int) (a0, a1, a2 float64) {
	w0, w1, w2 := W[i*n:i*n+i], W[(i+1)*n:(i+1)*n+i], W[(i+2)*n:(i+2)*n+i]
	for j := t; j < i; j += T {
		lj := lambda[j]
		a0 = math.FMA(w0[j], lj, a0)
		a1 = math.FMA(w1[j], lj, a1)
		a2 = math.FMA(w2[j], lj, a2)
	}
	return a0, a1, a2
}

// warpSum is pgs_warp_sum: the shuffle tree v_l += v_{l+off} for
// off = 16, 8, 4, 2, 1 (__shfl_down_sync), of which only the lanes that
// feed lane 0 are computed. It overwrites v and returns lane 0.
func warpSum(v *[warpSize]float64) float64 {
	for off := warpSize / 2; off > 0; off >>= 1 {
		for l := 0; l < off; l++ {
			v[l] += v[l+off]
		}
	}
	return v[0]
}

// blockSum is pgs_row_partial followed by pgs_block_sum for a block of
// T threads: every warp's lanes reduced by warpSum, then the warp sums,
// padded with zeros to 32 lanes, by warpSum again (warp 0).
func blockSum(W []float64, n, i int, lambda []float64, T int) [3]float64 {
	var red [3][warpSize]float64
	for w := 0; w < T/warpSize; w++ {
		var lanes [3][warpSize]float64
		for l := range warpSize {
			lanes[0][l], lanes[1][l], lanes[2][l] = rowPartial(W, n, i, lambda, w*warpSize+l, T)
		}
		for q := range 3 {
			red[q][w] = warpSum(&lanes[q])
		}
	}
	return [3]float64{warpSum(&red[0]), warpSum(&red[1]), warpSum(&red[2])}
}

// mirrorContact is pgs_contact, thread 0's part of contact a: the gap from
// the row products p and v_a (consumed), the local solve, and the sweep
// sums. It returns false when the gap is not finite.
func mirrorContact(a int, p [3]float64, g *pgsArgs, q *pgsArrays, dl2, l2 *float64) bool {
	i := 3 * a
	v, lambda, df := q.v, q.lambda, q.deltaFree
	dn := df[i] + g.s*(p[0]+v[i])
	dt1 := df[i+1] + g.s*(p[1]+v[i+1])
	dt2 := df[i+2] + g.s*(p[2]+v[i+2])
	v[i], v[i+1], v[i+2] = 0, 0, 0
	if !finite(dn) || !finite(dt1) || !finite(dt2) {
		return false
	}
	l0, l1, l2n, st := localSolve(q.records[pgsRecord*a:], g.mu, dn, dt1, dt2)
	q.states[a] = st
	D0, D1, D2 := l0-lambda[i], l1-lambda[i+1], l2n-lambda[i+2]
	*l2 += l0*l0 + l1*l1 + l2n*l2n
	*dl2 += D0*D0 + D1*D1 + D2*D2
	lambda[i], lambda[i+1], lambda[i+2] = l0, l1, l2n
	return true
}

// mirrorSweep is pgs_sweep: one Gauss–Seidel pass, contacts in order. It
// returns thread 0's ‖Δλ‖² and ‖λ‖², and halted when a gap was not finite
// (status set).
func mirrorSweep(T int, g *pgsArgs, p *pgsArrays) (dl2, l2 float64, halted bool) {
	n := 3 * g.c
	for a := 0; a < g.c; a++ {
		i := 3 * a
		sums := blockSum(p.W, n, i, p.lambda, T)
		if !mirrorContact(a, sums, g, p, &dl2, &l2) {
			p.status[0], p.status[1] = statusRowNotFinite, int32(a)
			return dl2, l2, true
		}
		if f0, f1, f2 := p.lambda[i], p.lambda[i+1], p.lambda[i+2]; f0 != 0 || f1 != 0 || f2 != 0 {
			mirrorScatter(p.W, n, i, f0, f1, f2, p.v)
		}
	}
	return dl2, l2, false
}
