// Package contact solves the frictional contact problem of one Newton
// iteration and provides the dense kernels of the fast constraint update.
//
// Glossary (the symbols of docs/method.md; c contact groups, each with the three
// rows n, t1, t2):
//
//	W       3c×3c Delassus / compliance matrix J·A⁻¹·Jᵀ = C·W_H·Cᵀ (symmetric)
//	W_H     3c×3c mapping compliance H·A⁻¹·Hᵀ (symmetric positive definite)
//	C       block-diagonal directions, one 3×3 frame [n; t1; t2] per contact
//	λ       3c contact forces, λ[3a], λ[3a+1], λ[3a+2] = λn, λt1, λt2
//	δ       3c gaps along the frames, same grouping as λ
//	h, s    time step, and the scale s = h² of the compliance term
//	μ       Coulomb friction coefficient
//	p       3c proximity positions of the soft side
//
// Vectors of length 3c are grouped per contact; dense 3c×3c matrices are
// row-major []float64, entry (i, j) at i·3c + j.
//
// The contact problem (Eq. constraint system) is
//
//	δ = δ_free + s·W·λ,
//	0 ≤ δn ⊥ λn ≥ 0                                   (Signorini),
//	‖λt‖ ≤ μ·λn,  δt = 0 or λt = −μ·λn·δt/‖δt‖         (Coulomb),
//
// solved by projected Gauss–Seidel over the contact groups (Eq. PGS,
// Algorithm 1, type PGS) with an exact local solver per group (local.go).
// The fast scheme (Algorithm 3) then needs only two dense kernels per
// Newton iteration: RebuildWLower (RebuildWLowerWork with a work buffer,
// RebuildW for the full matrix), W = C·W_H·Cᵀ (Eq. schur reformulated),
// and CorrectP, p = p_free + s·W_H·Cᵀ·λ (Eq. recursive motion correction 7
// in the total-force form of docs/method.md).
//
// Symmetric storage. W_H and W are stored full, but every kernel reads only
// their lower block triangles (the 3×3 blocks (a, b) with b ≤ a) and gets
// the rest by symmetry, so each O(c²) pass streams half the matrix: at the
// paper's sizes (480 contacts, 16.6 MB per matrix) the kernels are bound by
// memory bandwidth, not arithmetic. The strict upper block triangles are
// never read; RebuildW writes W's for callers that want the full matrix.
//
// The inner loops, y += a0·r0 + a1·r1 + a2·r2, three dot products in one
// pass (or one, for the normal row of a contact without force), and the
// block sandwich C_a·(W_H)_ab·C_bᵀ four blocks at a time, run with AVX2
// fused multiply-adds on amd64 processors that have them (simd_amd64.s),
// and as unrolled Go elsewhere or with the purego build tag. None of the
// kernels allocates once its buffers are warm.
//
// PGS sweeps stream the lower triangle of W from the last-level cache:
// they are bound by memory traffic. A contact without force is therefore
// tested on its normal row first and, when the others leave its gap open,
// its two tangential rows are never read.
//
// References
//
//	Zeng, Courtecuisse. An efficient implicit constraint resolution scheme
//	for interactive FE simulations.
//	Duriez, Dubois, Kheddar, Andriot. Realistic haptic rendering of
//	interacting deformable objects in virtual environments. IEEE TVCG 2006
//	(the PGS with a local Coulomb solver per contact).
package contact
