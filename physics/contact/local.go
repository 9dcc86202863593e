package contact

import (
	"fmt"
	"math"
)

// State is the regime of the contact law that one contact group is in after
// a solve.
type State uint8

const (
	// Separated: λ = 0 and the normal gap is open, δn ≥ 0.
	Separated State = iota
	// Stick: λ is inside the friction cone and the contact does not move,
	// δ = 0.
	Stick
	// Slip: λ is on the cone surface, ‖λt‖ = μ·λn, the normal gap is
	// closed, δn = 0, and λt opposes the tangential gap δt. With μ = 0 every
	// active contact slips (the cone degenerates to its axis).
	Slip
	// Held: a bilateral contact (PGS.Bilateral), whose three rows are
	// equalities, δ = 0, with λ free of sign and cone: an attachment.
	Held
)

var stateNames = [...]string{Separated: "separated", Stick: "stick", Slip: "slip", Held: "held"}

// String returns "separated", "stick", "slip" or "held".
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// The local problem of one contact group a (one step of Eq. PGS): given
//
//	G = s·W_aa   (3×3 SPD, rows and columns ordered n, t1, t2)
//	d = δfree_a + s·Σ_{b≠a} W_ab·λ_b
//
// find λ = (λn, λt) with δ = G·λ + d satisfying Signorini's law
// 0 ≤ δn ⊥ λn ≥ 0 and Coulomb's law ‖λt‖ ≤ μ·λn, δt = 0 (stick) or
// λt = −μ·λn·δt/‖δt‖ (slip).
//
// Separation. If d_n ≥ 0 the other contacts already open the gap: λ = 0
// gives δ = d with δn ≥ 0, and both laws hold (no normal force, no
// friction). This is the first test, and the cheapest outcome.
//
// Eliminating the normal row. Whenever the contact is active, δn = 0:
//
//	G_nn·λn + G_ntᵀ·λt + d_n = 0  ⇒  λn = −d_n/G_nn − kᵀ·λt,  k = G_tn/G_nn.
//
// Substituted into the two tangential rows this leaves a 2×2 problem in
// x = λt alone:
//
//	δt = S·x + e,   S = G_tt − G_tn·G_ntᵀ/G_nn,   e = d_t − k·d_n,
//
// where S, the Schur complement of G_nn in G, is SPD because G is.
//
// Stick is δt = 0: x₀ = −S⁻¹·e, which together with λn(x₀) is exactly
// −G⁻¹·d. It is the answer when λn(x₀) > 0 and ‖x₀‖ ≤ μ·λn(x₀).
//
// Slip. On the cone surface λt = −μ·λn·ŝ with ŝ = δt/‖δt‖, so δt and x are
// antiparallel: δt = −ν·x for some ν = ‖δt‖/‖λt‖ ≥ 0, the contact's sliding
// "resistance". Then S·x + e = −ν·x, that is
//
//	x(ν) = −(S + ν·I)⁻¹·e,
//
// and the only unknown left is the scalar ν, fixed by the cone condition
// ‖x(ν)‖ = μ·λn(x(ν)) = c₀ − gᵀ·x(ν) with c₀ = −μ·d_n/G_nn > 0 and g = μ·k.
// We find the root of
//
//	ψ(ν) = (c₀ − gᵀ·x(ν)) / ‖x(ν)‖ − 1,
//
// which is nearly linear in ν (‖x(ν)‖ ≈ ‖e‖/(σ + ν) for S ≈ σ·I), so Newton
// converges in a handful of steps; a bisection safeguard keeps it inside a
// bracket where ψ changes sign:
//   - ψ(0) ≤ 0, because the stick candidate x₀ = x(0) failed the cone test
//     (either λn(x₀) ≤ 0, then c₀ − gᵀx₀ ≤ 0, or ‖x₀‖ > μ·λn(x₀));
//   - ψ(ν) > 0 for ν ≥ (1 + ‖g‖)·‖e‖/c₀, since ‖x(ν)‖ < ‖e‖/ν there (S is
//     positive definite) and |gᵀx| ≤ ‖g‖·‖x‖.
//
// The derivative follows from (S + νI)·x = −e: x' = −(S + νI)⁻¹·x, so with
// m = ‖x‖ and r = c₀ − gᵀx, m' = xᵀx'/m, r' = −gᵀx' and
// ψ' = (r'·m − r·m')/m².
//
// This is the fixed-point "find the slip direction ŝ" problem written in the
// one variable that makes it well posed. For a diagonal G with equal
// tangential entries σ the first guess ν = ‖e‖/c₀ − σ is already the root:
// ŝ = e/‖e‖ = d_t/‖d_t‖ and λn = −d_n/G_nn. Within PGS the first guess is
// the contact's root from the previous sweep, which has barely moved.

// localBlock is what the local solver needs of one contact's diagonal block,
// computed once per Solve from G = s·W_aa.
type localBlock struct {
	// w00…w22 are the unscaled entries of W_aa (its upper triangle), kept
	// next to the rest so that a sweep reads one small record per contact.
	w00, w01, w02, w11, w12, w22 float64
	// invGnn is 1/G_nn.
	invGnn float64
	// k1, k2 are k = G_tn/G_nn.
	k1, k2 float64
	// s11, s12, s22 are the Schur complement S = G_tt − G_tn·G_ntᵀ/G_nn.
	s11, s12, s22 float64
	// i11, i12, i22 are S⁻¹.
	i11, i12, i22 float64
	// nu is the root ν of the contact's last slip solve, 0 before any:
	// from one sweep to the next the gap d changes little, and so does ν,
	// so it is the best first guess.
	nu float64
}

// newLocalBlock factors G = s·W_aa for contact a, given the nine entries of
// W_aa row-major. The off-diagonal entries are symmetrised. It fails when
// G is not positive definite, which the local solver needs (a contact point
// that the force moves in no direction, or backwards).
func newLocalBlock(a int, Waa *[9]float64, s float64) (localBlock, error) {
	var b localBlock
	for k, w := range Waa {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return b, fmt.Errorf("contact %d: diagonal block W_aa[%d,%d] = %g: must be finite", a, k/3, k%3, w)
		}
	}
	b.w00, b.w11, b.w22 = Waa[0], Waa[4], Waa[8]
	b.w01 = 0.5 * (Waa[1] + Waa[3])
	b.w02 = 0.5 * (Waa[2] + Waa[6])
	b.w12 = 0.5 * (Waa[5] + Waa[7])
	gnn := s * b.w00
	if !(gnn > 0) || math.IsInf(gnn, 0) {
		return b, fmt.Errorf("contact %d: diagonal block W_aa is not positive definite: W_nn = %g", a, b.w00)
	}
	b.invGnn = 1 / gnn
	gn1, gn2 := s*b.w01, s*b.w02
	b.k1, b.k2 = gn1*b.invGnn, gn2*b.invGnn
	b.s11 = s*b.w11 - gn1*b.k1
	b.s12 = s*b.w12 - gn1*b.k2
	b.s22 = s*b.w22 - gn2*b.k2
	det := b.s11*b.s22 - b.s12*b.s12
	// Relative test: the Schur complement of a numerically singular block
	// is round-off.
	scale := math.Max(gnn, math.Max(s*b.w11, s*b.w22))
	if !(b.s11 > 1e-13*scale) || !(det > 1e-26*scale*scale) {
		return b, fmt.Errorf("contact %d: diagonal block W_aa is not positive definite: det = %g",
			a, b.w00*(b.w11*b.w22-b.w12*b.w12)-b.w01*(b.w01*b.w22-b.w12*b.w02)+b.w02*(b.w01*b.w12-b.w11*b.w02))
	}
	inv := 1 / det
	b.i11, b.i12, b.i22 = b.s22*inv, -b.s12*inv, b.s11*inv
	return b, nil
}

// solveLocal returns the contact force λ = (ln, lt1, lt2) of one contact
// group and its state, for the gap d = (dn, dt1, dt2) that the other
// contacts leave (see the derivation above).
func (b *localBlock) solveLocal(mu, dn, dt1, dt2 float64) (ln, lt1, lt2 float64, st State) {
	if dn >= 0 {
		return 0, 0, 0, Separated
	}
	if mu == 0 {
		return -dn * b.invGnn, 0, 0, Slip
	}
	e1 := dt1 - b.k1*dn
	e2 := dt2 - b.k2*dn
	ln, x1, x2 := b.stick(dn, e1, e2)
	if ln > 0 && x1*x1+x2*x2 <= mu*mu*ln*ln {
		return ln, x1, x2, Stick
	}
	ln, lt1, lt2 = b.slip(mu, dn, e1, e2)
	return ln, lt1, lt2, Slip
}

// stick returns −G⁻¹·d, the force that closes all three rows, from d_n and
// e = d_t − k·d_n: x₀ = −S⁻¹·e and λn = −d_n/G_nn − kᵀ·x₀ (the derivation
// above). It is solveLocal's stick candidate and a bilateral contact's
// force.
func (b *localBlock) stick(dn, e1, e2 float64) (ln, x1, x2 float64) {
	x1 = -(b.i11*e1 + b.i12*e2)
	x2 = -(b.i12*e1 + b.i22*e2)
	ln = -dn*b.invGnn - (b.k1*x1 + b.k2*x2)
	return ln, x1, x2
}

// solveBilateral returns the force of a bilateral contact: the three rows
// are equalities, δ = G·λ + d = 0, so λ = −G⁻¹·d whatever its sign and
// direction (stick, without solveLocal's tests).
func (b *localBlock) solveBilateral(dn, dt1, dt2 float64) (ln, lt1, lt2 float64) {
	return b.stick(dn, dt1-b.k1*dn, dt2-b.k2*dn)
}

// maxSlipIterations bounds the safeguarded Newton iterations of slip. Pure
// bisection would need about 55 halvings to shrink the initial bracket to
// round-off; Newton typically evaluates ψ three times, rarely more than six.
const maxSlipIterations = 64

// slip solves ψ(ν) = 0 (see the derivation above) and returns the force on
// the cone surface with δn = 0 and λt antiparallel to δt.
func (b *localBlock) slip(mu, dn, e1, e2 float64) (ln, lt1, lt2 float64) {
	c0 := -mu * dn * b.invGnn
	g1, g2 := mu*b.k1, mu*b.k2
	en := math.Sqrt(e1*e1 + e2*e2)
	lo, hi := 0.0, (1+math.Sqrt(g1*g1+g2*g2))*en/c0
	nu := b.firstGuess(lo, hi, en/c0)
	var x1, x2 float64
	for it := 0; it < maxSlipIterations; it++ {
		var xp1, xp2 float64
		x1, x2, xp1, xp2 = b.shiftedSolve(nu, e1, e2)
		m2 := x1*x1 + x2*x2
		m := math.Sqrt(m2)
		r := c0 - (g1*x1 + g2*x2)
		// ψ = r/m − 1 has the sign of r − m; |ψ| ≤ 1e-14 is the relative
		// cone mismatch below which round-off dominates.
		if math.Abs(r-m) <= 1e-14*m {
			break
		}
		if r > m {
			hi = nu
		} else {
			lo = nu
		}
		if hi-lo <= 1e-16*hi {
			break
		}
		// Newton step ψ/ψ' with ψ' = (r'·m − r·m')/m² and m' = xᵀx'/m,
		// multiplied through by m² to spare two divisions.
		xxp := x1*xp1 + x2*xp2
		rp := -(g1*xp1 + g2*xp2)
		next := nu - (r-m)*m2/(rp*m2-r*xxp)
		if !(next > lo && next < hi) {
			next = 0.5 * (lo + hi)
		}
		nu = next
	}
	b.nu = nu
	return b.onCone(mu, dn, x1, x2)
}

// firstGuess returns the start of the slip iteration inside (lo, hi): the
// last sweep's root, or else the exact root of the decoupled isotropic case
// ‖e‖/(σ + ν) = c₀ with σ the mean eigenvalue of S (ratio = ‖e‖/c₀), or else
// the middle of the bracket.
func (b *localBlock) firstGuess(lo, hi, ratio float64) float64 {
	if nu := b.nu; nu > lo && nu < hi {
		return nu
	}
	if nu := ratio - 0.5*(b.s11+b.s22); nu > lo && nu < hi {
		return nu
	}
	return 0.5 * (lo + hi)
}

// shiftedSolve returns x = −(S + νI)⁻¹·e and its derivative
// x' = dx/dν = −(S + νI)⁻¹·x, by the 2×2 adjugate: with M = S + νI,
// −M⁻¹ = adj(M)/(−det M) and adj(M) = [m22 −s12; −s12 m11].
func (b *localBlock) shiftedSolve(nu, e1, e2 float64) (x1, x2, xp1, xp2 float64) {
	m11, m22, s12 := b.s11+nu, b.s22+nu, b.s12
	k := 1 / (s12*s12 - m11*m22)
	x1 = (m22*e1 - s12*e2) * k
	x2 = (m11*e2 - s12*e1) * k
	return x1, x2, (m22*x1 - s12*x2) * k, (m11*x2 - s12*x1) * k
}

// onCone completes the slip force from its tangential part x: λn from the
// normal row keeps δn = 0 exactly, and the round-off of the root is put on
// λt, scaled onto the cone so that ‖λt‖ = μ·λn holds exactly.
func (b *localBlock) onCone(mu, dn, x1, x2 float64) (ln, lt1, lt2 float64) {
	ln = -dn*b.invGnn - (b.k1*x1 + b.k2*x2)
	m := math.Sqrt(x1*x1 + x2*x2)
	if !(ln > 0) || !(m > 0) || math.IsNaN(m) {
		// Unreachable for an SPD block (at the root λn = ‖x‖/μ > 0); the
		// frictionless normal solution is always admissible.
		return -dn * b.invGnn, 0, 0
	}
	f := mu * ln / m
	return ln, x1 * f, x2 * f
}
