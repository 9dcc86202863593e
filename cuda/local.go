package cuda

import "math"

// The local 3×3 solver of the PGS kernel, transcribed from the device
// functions of kernels/pgs.cu (pgs_factor, pgs_local, pgs_slip, …) with
// the same operations in the same order. It is the law of
// physics/contact/local.go, where the derivation is written out: given
// G = s·W_aa and the gap d that the other contacts leave,
//
//   - separation if d_n ≥ 0: λ = 0;
//   - μ = 0: the frictionless normal force λn = −d_n/G_nn;
//   - stick if x₀ = −S⁻¹·e (S the Schur complement of G_nn, e = d_t − k·d_n)
//     gives λn(x₀) > 0 inside the cone ‖x₀‖ ≤ μ·λn(x₀);
//   - else slip: x(ν) = −(S + νI)⁻¹·e on the cone surface, the sliding
//     resistance ν found by safeguarded Newton steps on
//     ψ(ν) = (c₀ − gᵀx(ν))/‖x(ν)‖ − 1, c₀ = −μ·d_n/G_nn, g = μ·k.
//
// The device keeps each contact's factored block in a record of pgsRecord
// float64 (slots r*), in global memory between the sweeps; so does the
// mirror, in a []float64.

// Record slots of a contact (R_* in pgs.cu).
const (
	rInvGnn = iota // 1/G_nn
	rK1            // k = G_tn/G_nn
	rK2
	rS11 // S = G_tt − G_tn·G_ntᵀ/G_nn
	rS12
	rS22
	rI11 // S⁻¹
	rI12
	rI22
	rNu       // ν of the contact's last slip solve, 0 before any
	pgsRecord // float64 per record (PGS_RECORD)
)

// maxSlipIterations bounds the safeguarded Newton iteration of the slip
// solve (PGS_MAX_SLIP_ITERATIONS).
const maxSlipIterations = 64

// Kernel status codes (status[0], PGS_* in pgs.cu).
const (
	statusOK               = 0 // solved
	statusBlockNotFinite   = 1 // a diagonal block entry is NaN or infinite
	statusBlockNnNotPos    = 2 // G_nn = s·W_nn ≤ 0
	statusBlockSchurNotPos = 3 // the tangential Schur complement is not SPD
	statusRowNotFinite     = 4 // a gap d_a came out non-finite
)

// Contact states as the kernel writes them: the values of contact.State.
const (
	stateSeparated = 0
	stateStick     = 1
	stateSlip      = 2
)

// factorBlock is pgs_factor: it factors G = s·W_aa of contact a from the
// lower triangle of the diagonal block of the n×n row-major W into r, and
// returns statusOK or why G is not usable.
func factorBlock(W []float64, n, a int, s float64, r []float64) int {
	i := 3 * a
	r0, r1, r2 := W[i*n:], W[(i+1)*n:], W[(i+2)*n:]
	w00, w01, w02 := r0[i], r1[i], r2[i]
	w11, w12, w22 := r1[i+1], r2[i+1], r2[i+2]
	if !finite(w00) || !finite(w01) || !finite(w02) || !finite(w11) || !finite(w12) || !finite(w22) {
		return statusBlockNotFinite
	}
	gnn := s * w00
	if !(gnn > 0) || math.IsInf(gnn, 0) {
		return statusBlockNnNotPos
	}
	invGnn := 1 / gnn
	gn1, gn2 := s*w01, s*w02
	k1, k2 := gn1*invGnn, gn2*invGnn
	s11 := s*w11 - gn1*k1
	s12 := s*w12 - gn1*k2
	s22 := s*w22 - gn2*k2
	det := s11*s22 - s12*s12
	scale := math.Max(gnn, math.Max(s*w11, s*w22))
	if !(s11 > 1e-13*scale) || !(det > 1e-26*scale*scale) {
		return statusBlockSchurNotPos
	}
	inv := 1 / det
	r = r[:pgsRecord]
	r[rInvGnn], r[rK1], r[rK2] = invGnn, k1, k2
	r[rS11], r[rS12], r[rS22] = s11, s12, s22
	r[rI11], r[rI12], r[rI22] = s22*inv, -s12*inv, s11*inv
	r[rNu] = 0
	return statusOK
}

// localSolve is pgs_local: the force λ_a = (l0, l1, l2) of one contact for
// the gap (dn, dt1, dt2) that the others leave, and its state.
func localSolve(r []float64, mu, dn, dt1, dt2 float64) (l0, l1, l2 float64, state int32) {
	if dn >= 0 {
		return 0, 0, 0, stateSeparated
	}
	if mu == 0 {
		return -dn * r[rInvGnn], 0, 0, stateSlip
	}
	e1 := dt1 - r[rK1]*dn
	e2 := dt2 - r[rK2]*dn
	x1 := -(r[rI11]*e1 + r[rI12]*e2)
	x2 := -(r[rI12]*e1 + r[rI22]*e2)
	ln := -dn*r[rInvGnn] - (r[rK1]*x1 + r[rK2]*x2)
	if ln > 0 && x1*x1+x2*x2 <= mu*mu*ln*ln {
		return ln, x1, x2, stateStick
	}
	l0, l1, l2 = slipSolve(r, mu, dn, e1, e2)
	return l0, l1, l2, stateSlip
}

// slipSolve is pgs_slip: the root ν of ψ inside the bracket
// (0, (1 + ‖g‖)·‖e‖/c₀), where ψ changes sign, by Newton steps that fall
// back to bisection when they leave it; the root is kept in the record as
// the next sweep's first guess.
func slipSolve(r []float64, mu, dn, e1, e2 float64) (l0, l1, l2 float64) {
	c0 := -mu * dn * r[rInvGnn]
	g1, g2 := mu*r[rK1], mu*r[rK2]
	en := math.Sqrt(e1*e1 + e2*e2)
	lo, hi := 0.0, (1+math.Sqrt(g1*g1+g2*g2))*en/c0
	nu := firstGuess(r, lo, hi, en/c0)
	var x [4]float64
	for it := 0; it < maxSlipIterations; it++ {
		x = shiftedSolve(r, nu, e1, e2)
		m2 := x[0]*x[0] + x[1]*x[1]
		m := math.Sqrt(m2)
		rr := c0 - (g1*x[0] + g2*x[1])
		if math.Abs(rr-m) <= 1e-14*m {
			break
		}
		if rr > m {
			hi = nu
		} else {
			lo = nu
		}
		if hi-lo <= 1e-16*hi {
			break
		}
		// Newton step ψ/ψ' multiplied through by ‖x‖².
		xxp := x[0]*x[2] + x[1]*x[3]
		rp := -(g1*x[2] + g2*x[3])
		next := nu - (rr-m)*m2/(rp*m2-rr*xxp)
		if !(next > lo && next < hi) {
			next = 0.5 * (lo + hi)
		}
		nu = next
	}
	r[rNu] = nu
	return onCone(r, mu, dn, x[0], x[1])
}

// firstGuess is pgs_first_guess: the last root, else the isotropic
// estimate ‖e‖/c₀ − (s11 + s22)/2, else the middle of the bracket.
func firstGuess(r []float64, lo, hi, ratio float64) float64 {
	if nu := r[rNu]; nu > lo && nu < hi {
		return nu
	}
	if nu := ratio - 0.5*(r[rS11]+r[rS22]); nu > lo && nu < hi {
		return nu
	}
	return 0.5 * (lo + hi)
}

// shiftedSolve is pgs_shifted: x = −(S + νI)⁻¹·e in x[0:2] and its
// derivative x' = −(S + νI)⁻¹·x in x[2:4], by the 2×2 adjugate.
func shiftedSolve(r []float64, nu, e1, e2 float64) [4]float64 {
	m11, m22, s12 := r[rS11]+nu, r[rS22]+nu, r[rS12]
	k := 1 / (s12*s12 - m11*m22)
	x0 := (m22*e1 - s12*e2) * k
	x1 := (m11*e2 - s12*e1) * k
	return [4]float64{x0, x1, (m22*x0 - s12*x1) * k, (m11*x1 - s12*x0) * k}
}

// onCone is pgs_on_cone: λn from the normal row (δn = 0) and λt = x
// scaled onto the cone, ‖λt‖ = μ·λn; the frictionless normal force if the
// root is degenerate (unreachable for an SPD block).
func onCone(r []float64, mu, dn, x1, x2 float64) (l0, l1, l2 float64) {
	ln := -dn*r[rInvGnn] - (r[rK1]*x1 + r[rK2]*x2)
	m := math.Sqrt(x1*x1 + x2*x2)
	if !(ln > 0) || !(m > 0) || math.IsNaN(m) {
		return -dn * r[rInvGnn], 0, 0
	}
	f := mu * ln / m
	return ln, x1 * f, x2 * f
}

// finite reports that x is neither NaN nor infinite (CUDA's isfinite).
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
