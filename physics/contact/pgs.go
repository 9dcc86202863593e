package contact

import (
	"fmt"
	"math"
)

// PGS is a projected Gauss–Seidel solver of the frictional contact problem
// (Eq. PGS, Algorithm 1). Its options are the two exported numbers; after
// Solve, Errors and States describe the run. A PGS value keeps its work
// buffers between calls, so that a warm solver allocates nothing; it is not
// safe for concurrent use.
type PGS struct {
	// MaxIterations is the largest number of sweeps over the contacts
	// (Table 1 of the paper uses 30). It must be at least 1.
	MaxIterations int
	// Tolerance stops the sweeps once ε_i = ‖λⁱ − λⁱ⁻¹‖/‖λⁱ‖ ≤ Tolerance
	// (Algorithm 1). 0 always runs MaxIterations sweeps.
	Tolerance float64
	// Bilateral marks the contacts whose three rows are equalities
	// (attachments): contact a is bilateral when a < len(Bilateral) and
	// Bilateral[a]. Its force solves δ_a = 0 with no sign or cone, and
	// its state is Held. nil: every contact is unilateral.
	Bilateral []bool

	// Errors holds, after Solve, the ε_i of each sweep, one per sweep. Its
	// storage is reused by the next Solve.
	Errors []float64
	// States holds, after Solve, the state of each contact group at the
	// last sweep. Its storage is reused by the next Solve.
	States []State

	v      []float64    // v_a = Σ_{b>a} W_ab·λ_b, rebuilt by every sweep
	blocks []localBlock // the factored diagonal blocks, one per contact
	nz     []int32      // the non-zero entries of λ_{0:a} during a sweep, in order
}

// Result summarises one Solve.
type Result struct {
	// Iterations is the number of sweeps done (= len(PGS.Errors)).
	Iterations int
	// Error is the ε of the last sweep.
	Error float64
	// Converged reports Error ≤ Tolerance at the last sweep.
	Converged bool
}

// Solve finds the contact forces λ of c contact groups such that
//
//	δ = δ_free + s·W·λ
//
// satisfies Signorini's and Coulomb's laws with friction coefficient mu,
// for the symmetric 3c×3c row-major compliance W and s = h². lambda is the
// warm start on entry and the solution on return.
//
// Each sweep visits the contacts in order (Eq. PGS). Contact a needs the gap
// that all the others leave,
//
//	d_a = δfree_a + s·(Σ_{b<a} W_ab·λ_b + Σ_{b>a} W_ab·λ_b),
//
// with the forces of this sweep for b < a and of the last one for b > a.
// Only the lower block triangle of W is read, once per sweep, which halves
// the memory traffic of the O(c²) loop (W of 480 contacts is 16.6 MB):
//   - the first sum is row block a left of the diagonal dotted with λ;
//   - the second is v_a, gathered during the previous sweep: when contact b
//     got its new force, v_{0:a} += (W_{b,0:b})ᵀ·λ_b scattered it, by
//     symmetry W_ab = W_baᵀ, to every a < b. The same three rows serve the
//     dot and the scatter, so the second pass reads them from cache.
//
// v is rebuilt from scratch by every sweep, so no round-off accumulates
// over the iterations. A separated contact skips the scatter.
//
// mu is the validated friction coefficient of the settings
// (settings.Settings.Validate checks it where it enters: a flag, a panel
// field, a command, physics.New), finite and ≥ 0; Solve does not check it
// again. Solve returns an error naming the problem for inconsistent
// lengths, a non-finite entry in W, deltaFree or lambda, s ≤ 0, an option
// out of range, or a diagonal block W_aa that is not positive
// definite. W must be symmetric (as C·W_H·Cᵀ is): Solve reads only its
// lower block triangle, the blocks W_ab with b ≤ a, which is what
// RebuildWLower fills; the strict upper block triangle is never read.
// Solve does not allocate once its buffers have grown to c contacts and
// MaxIterations sweeps.
func (p *PGS) Solve(W []float64, c int, s float64, deltaFree []float64, mu float64, lambda []float64) (Result, error) {
	return solve(p, W, c, s, deltaFree, mu, lambda)
}

// SolveSingle is Solve on a compliance kept in single precision (as
// RebuildWLowerSingle writes it): the sweeps read half the bytes of Solve's
// and widen each entry exactly, every sum is in double, so it solves, to
// Solve's precision, the problem whose W is the double one rounded to
// float32 (relative change 6e-8 per entry).
func (p *PGS) SolveSingle(W []float32, c int, s float64, deltaFree []float64, mu float64, lambda []float64) (Result, error) {
	return solve(p, W, c, s, deltaFree, mu, lambda)
}

// solve is Solve and SolveSingle.
func solve[T elem](p *PGS, W []T, c int, s float64, deltaFree []float64, mu float64, lambda []float64) (Result, error) {
	if err := p.checkInput(len(W), c, s, deltaFree, lambda); err != nil {
		return Result{}, err
	}
	p.grow(c)
	if err := prepare(p, W, c, s, lambda); err != nil {
		return Result{}, err
	}
	var res Result
	for it := 0; it < p.MaxIterations; it++ {
		dl2, l2 := sweep(p, W, c, s, deltaFree, mu, lambda)
		eps := relativeChange(dl2, l2)
		p.Errors = append(p.Errors, eps)
		res = Result{Iterations: it + 1, Error: eps, Converged: eps <= p.Tolerance}
		if p.Tolerance > 0 && res.Converged {
			break
		}
	}
	if c == 0 {
		res.Converged = true
	}
	return res, nil
}

// relativeChange is ε = ‖Δλ‖/‖λ‖ of Algorithm 1 from the squared norms.
// When every force is zero after the sweep, the change is complete (1) if
// anything was released, and nothing (0) otherwise.
func relativeChange(dl2, l2 float64) float64 {
	if l2 == 0 {
		if dl2 == 0 {
			return 0
		}
		return 1
	}
	return math.Sqrt(dl2 / l2)
}

// grow sizes the work buffers for c contacts, reusing their storage.
func (p *PGS) grow(c int) {
	n := 3 * c
	if cap(p.v) < n {
		p.v = make([]float64, n)
	}
	p.v = p.v[:n]
	if cap(p.blocks) < c {
		p.blocks = make([]localBlock, c)
	}
	if cap(p.nz) < n {
		p.nz = make([]int32, 0, n)
	}
	p.blocks = p.blocks[:c]
	if cap(p.States) < c {
		p.States = make([]State, c)
	}
	p.States = p.States[:c]
	if cap(p.Errors) < p.MaxIterations {
		p.Errors = make([]float64, 0, p.MaxIterations)
	}
	p.Errors = p.Errors[:0]
}

// prepare factors the diagonal blocks, gathers v for the warm start and
// checks that the part of W that the sweeps read is finite: the gather
// scatters every row block, zero forces included, so that a NaN or infinity
// of the lower triangle shows in v (NaN·0 and ∞·0 are NaN), and the
// diagonal blocks are checked when factored.
func prepare[T elem](p *PGS, W []T, c int, s float64, lambda []float64) error {
	n := 3 * c
	clear(p.v)
	for a := 0; a < c; a++ {
		i := 3 * a
		r0, r1, r2 := W[i*n:(i+1)*n], W[(i+1)*n:(i+2)*n], W[(i+2)*n:(i+3)*n]
		// The diagonal block from its lower triangle, mirrored: the
		// strict upper block triangle of W is never read.
		Waa := [9]float64{
			float64(r0[i]), float64(r1[i]), float64(r2[i]),
			float64(r1[i]), float64(r1[i+1]), float64(r2[i+1]),
			float64(r2[i]), float64(r2[i+1]), float64(r2[i+2]),
		}
		b, err := newLocalBlock(a, &Waa, s)
		if err != nil {
			return err
		}
		p.blocks[a] = b
		p.States[a] = Separated
		axpy3(p.v[:i], r0, r1, r2, lambda[i], lambda[i+1], lambda[i+2])
	}
	for i, v := range p.v {
		if !isFinite(v) {
			return nonFiniteLower(W, n, i)
		}
	}
	return nil
}

// sweep is one Gauss–Seidel pass over the contacts. It returns ‖Δλ‖² and
// ‖λ‖² of the pass for the convergence test.
//
// A contact without force (λ_a = 0: separated in the last sweep, or not
// yet pressed) is first tested on its normal row alone: if the others
// leave its gap open, d_n ≥ 0, it stays separated (the local solver's
// first outcome) and its two tangential rows are never read, a third of
// the row block's traffic. Otherwise the three rows are read together as
// for any contact; dot1 rounds exactly as the first sum of dot3, so the
// test decides as the full product would.
//
// The sweep lists the non-zero forces of the contacts it has visited (nz):
// when they are few against the row's length, as when most contacts are
// separated, the products with λ_{0:a} read only those entries
// (dot1Sparse, dot3Sparse: the same sums, bit for bit).
//
// A bilateral contact (Bilateral) is never tested for separation: its
// force solves its three equalities (localBlock.solveBilateral).
func sweep[T elem](p *PGS, W []T, c int, s float64, deltaFree []float64, mu float64, lambda []float64) (dl2, l2 float64) {
	n := 3 * c
	v := p.v[:n]
	deltaFree = deltaFree[:n]
	lambda = lambda[:n]
	nz := p.nz[:0]
	for a := 0; a < c; a++ {
		i := 3 * a
		// Row block a left of its diagonal block.
		r0, r1, r2 := W[i*n:i*n+i], W[(i+1)*n:(i+1)*n+i], W[(i+2)*n:(i+2)*n+i]
		sparse := sparseWorthIt(len(nz), i)
		bilateral := a < len(p.Bilateral) && p.Bilateral[a]
		if !bilateral && lambda[i] == 0 && lambda[i+1] == 0 && lambda[i+2] == 0 {
			var L0 float64
			if sparse {
				L0 = dot1Sparse(r0, lambda[:i], nz)
			} else {
				L0 = dot1(r0, lambda[:i])
			}
			if deltaFree[i]+s*(L0+v[i]) >= 0 {
				v[i], v[i+1], v[i+2] = 0, 0, 0
				p.States[a] = Separated
				continue
			}
		}
		var L0, L1, L2 float64
		if sparse {
			L0, L1, L2 = dot3Sparse(r0, r1, r2, lambda[:i], nz)
		} else {
			L0, L1, L2 = dot3(r0, r1, r2, lambda[:i])
		}
		dn := deltaFree[i] + s*(L0+v[i])
		dt1 := deltaFree[i+1] + s*(L1+v[i+1])
		dt2 := deltaFree[i+2] + s*(L2+v[i+2])
		v[i], v[i+1], v[i+2] = 0, 0, 0 // the contacts after a refill it
		var n0, n1, n2 float64
		if bilateral {
			n0, n1, n2 = p.blocks[a].solveBilateral(dn, dt1, dt2)
			p.States[a] = Held
		} else {
			n0, n1, n2, p.States[a] = p.blocks[a].solveLocal(mu, dn, dt1, dt2)
		}
		l2 += n0*n0 + n1*n1 + n2*n2
		D0, D1, D2 := n0-lambda[i], n1-lambda[i+1], n2-lambda[i+2]
		dl2 += D0*D0 + D1*D1 + D2*D2
		lambda[i], lambda[i+1], lambda[i+2] = n0, n1, n2
		if n0 != 0 || n1 != 0 || n2 != 0 {
			axpy3(v[:i], r0, r1, r2, n0, n1, n2)
			for k, f := range [3]float64{n0, n1, n2} {
				if f != 0 {
					nz = append(nz, int32(i+k))
				}
			}
		}
	}
	p.nz = nz
	return dl2, l2
}

// isFinite reports that x is neither NaN nor infinite.
func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkInput reports the first inconsistent argument of Solve. The O(c)
// vectors are scanned here; W is checked for finiteness during the first
// product (see prepare) and its diagonal blocks when they are factored.
func (p *PGS) checkInput(lenW int, c int, s float64, deltaFree []float64, lambda []float64) error {
	if p.MaxIterations < 1 {
		return fmt.Errorf("contact: PGS.MaxIterations = %d: must be at least 1", p.MaxIterations)
	}
	if math.IsNaN(p.Tolerance) || p.Tolerance < 0 || math.IsInf(p.Tolerance, 0) {
		return fmt.Errorf("contact: PGS.Tolerance = %g: must be finite and ≥ 0", p.Tolerance)
	}
	if c < 0 {
		return fmt.Errorf("contact: c = %d contacts: must be ≥ 0", c)
	}
	n := 3 * c
	if lenW != n*n {
		return fmt.Errorf("contact: len(W) = %d: want (3c)² = %d for c = %d", lenW, n*n, c)
	}
	if len(deltaFree) != n {
		return fmt.Errorf("contact: len(deltaFree) = %d: want 3c = %d", len(deltaFree), n)
	}
	if len(lambda) != n {
		return fmt.Errorf("contact: len(lambda) = %d: want 3c = %d", len(lambda), n)
	}
	if !(s > 0) || math.IsInf(s, 0) {
		return fmt.Errorf("contact: s = %g: must be finite and > 0 (s = h²)", s)
	}
	if i := firstNonFinite(deltaFree); i >= 0 {
		return fmt.Errorf("contact: deltaFree[%d] = %g (contact %d): must be finite", i, deltaFree[i], i/3)
	}
	if i := firstNonFinite(lambda); i >= 0 {
		return fmt.Errorf("contact: lambda[%d] = %g (contact %d): must be finite", i, lambda[i], i/3)
	}
	return nil
}

// firstNonFinite returns the index of the first NaN or infinite entry, or −1.
func firstNonFinite[T elem](x []T) int {
	for i, v := range x {
		if !isFinite(float64(v)) {
			return i
		}
	}
	return -1
}

// nonFiniteLower names the first non-finite entry of the lower block
// triangle of W, found after the gathered product came out non-finite at
// row i; if there is none, finite but huge entries overflowed.
func nonFiniteLower[T elem](W []T, n, i int) error {
	for r := 0; r < n; r++ {
		end := 3*(r/3) + 3
		if j := firstNonFinite(W[r*n : r*n+end]); j >= 0 {
			return fmt.Errorf("contact: W[%d,%d] = %g (contacts %d, %d): must be finite", r, j, W[r*n+j], r/3, j/3)
		}
	}
	return fmt.Errorf("contact: row %d of W·λ overflows: W or λ too large", i)
}
