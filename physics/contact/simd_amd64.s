//go:build amd64 && !purego

#include "textflag.h"
#include "simd_amd64.h"

// The dense loops of the contact kernels, with 256-bit AVX2 fused
// multiply-adds: four float64 lanes per instruction, several registers per
// iteration so that many elements are in flight. The Go versions in
// simd.go (and sandwichBlocks in update.go) define what they compute;
// simd_test.go and rebuild_work_test.go hold them equal.

// func axpy3AVX2(y, r0, r1, r2 []float64, a0, a1, a2 float64)
// y[i] += a0·r0[i] + a1·r1[i] + a2·r2[i] for i < len(y); the r's are at
// least as long as y (the caller checks).
TEXT ·axpy3AVX2(SB), NOSPLIT, $0-120
	MOVQ         y_base+0(FP), DI
	MOVQ         y_len+8(FP), CX
	MOVQ         r0_base+24(FP), SI
	MOVQ         r1_base+48(FP), R8
	MOVQ         r2_base+72(FP), R9
	VBROADCASTSD a0+96(FP), Y0
	VBROADCASTSD a1+104(FP), Y1
	VBROADCASTSD a2+112(FP), Y2
	XORQ         AX, AX
	MOVQ         CX, BX
	ANDQ         $-8, BX

axpy_loop8:
	CMPQ        AX, BX
	JGE         axpy_tail
	VMOVUPD     (DI)(AX*8), Y3
	VMOVUPD     32(DI)(AX*8), Y4
	VFMADD231PD (SI)(AX*8), Y0, Y3
	VFMADD231PD 32(SI)(AX*8), Y0, Y4
	VFMADD231PD (R8)(AX*8), Y1, Y3
	VFMADD231PD 32(R8)(AX*8), Y1, Y4
	VFMADD231PD (R9)(AX*8), Y2, Y3
	VFMADD231PD 32(R9)(AX*8), Y2, Y4
	VMOVUPD     Y3, (DI)(AX*8)
	VMOVUPD     Y4, 32(DI)(AX*8)
	ADDQ        $8, AX
	JMP         axpy_loop8

axpy_tail:
	CMPQ        AX, CX
	JGE         axpy_done
	VMOVSD      (DI)(AX*8), X3
	VFMADD231SD (SI)(AX*8), X0, X3
	VFMADD231SD (R8)(AX*8), X1, X3
	VFMADD231SD (R9)(AX*8), X2, X3
	VMOVSD      X3, (DI)(AX*8)
	INCQ        AX
	JMP         axpy_tail

axpy_done:
	VZEROUPPER
	RET

// func dot3AVX2(r0, r1, r2, x []float64) (s0, s1, s2 float64)
// s_k = Σ_i r_k[i]·x[i] for i < len(x); the r's are at least as long as x.
// Sixteen elements per iteration into twelve accumulators (four per sum),
// so that the 4-cycle latency of the fused multiply-add is hidden.
TEXT ·dot3AVX2(SB), NOSPLIT, $0-120
	MOVQ   r0_base+0(FP), SI
	MOVQ   r1_base+24(FP), R8
	MOVQ   r2_base+48(FP), R9
	MOVQ   x_base+72(FP), DI
	MOVQ   x_len+80(FP), CX
	ZERO_DOT3
	XORQ   AX, AX
	MOVQ   CX, BX
	ANDQ   $-16, BX

dot_loop16:
	// Y4–Y7 sum r0, Y8–Y11 sum r1, Y12–Y15 sum r2; Y0–Y3 hold x.
	CMPQ        AX, BX
	JGE         dot_loop4_start
	VMOVUPD     (DI)(AX*8), Y0
	VMOVUPD     32(DI)(AX*8), Y1
	VMOVUPD     64(DI)(AX*8), Y2
	VMOVUPD     96(DI)(AX*8), Y3
	VFMADD231PD (SI)(AX*8), Y0, Y4
	VFMADD231PD 32(SI)(AX*8), Y1, Y5
	VFMADD231PD 64(SI)(AX*8), Y2, Y6
	VFMADD231PD 96(SI)(AX*8), Y3, Y7
	VFMADD231PD (R8)(AX*8), Y0, Y8
	VFMADD231PD 32(R8)(AX*8), Y1, Y9
	VFMADD231PD 64(R8)(AX*8), Y2, Y10
	VFMADD231PD 96(R8)(AX*8), Y3, Y11
	VFMADD231PD (R9)(AX*8), Y0, Y12
	VFMADD231PD 32(R9)(AX*8), Y1, Y13
	VFMADD231PD 64(R9)(AX*8), Y2, Y14
	VFMADD231PD 96(R9)(AX*8), Y3, Y15
	ADDQ        $16, AX
	JMP         dot_loop16

dot_loop4_start:
	MOVQ CX, BX
	ANDQ $-4, BX

dot_loop4:
	CMPQ        AX, BX
	JGE         dot_reduce
	VMOVUPD     (DI)(AX*8), Y0
	VFMADD231PD (SI)(AX*8), Y0, Y4
	VFMADD231PD (R8)(AX*8), Y0, Y8
	VFMADD231PD (R9)(AX*8), Y0, Y12
	ADDQ        $4, AX
	JMP         dot_loop4

dot_reduce:
	// Fold the four accumulators and the four lanes of each sum.
	REDUCE_DOT3

dot_tail:
	CMPQ        AX, CX
	JGE         dot_done
	VMOVSD      (DI)(AX*8), X0
	VFMADD231SD (SI)(AX*8), X0, X4
	VFMADD231SD (R8)(AX*8), X0, X8
	VFMADD231SD (R9)(AX*8), X0, X12
	INCQ        AX
	JMP         dot_tail

dot_done:
	VMOVSD     X4, s0+96(FP)
	VMOVSD     X8, s1+104(FP)
	VMOVSD     X12, s2+112(FP)
	VZEROUPPER
	RET

// func dot1AVX2(r, x []float64) float64
// Σ_i r[i]·x[i] for i < len(x) (r at least as long), with exactly the
// accumulators, order and reduction of dot3AVX2's first sum, so that both
// round the same: a contact's normal row gives the same gap whichever of
// the two computed it.
TEXT ·dot1AVX2(SB), NOSPLIT, $0-56
	MOVQ   r_base+0(FP), SI
	MOVQ   x_base+24(FP), DI
	MOVQ   x_len+32(FP), CX
	ZERO_DOT1
	XORQ   AX, AX
	MOVQ   CX, BX
	ANDQ   $-16, BX

dot1_loop16:
	CMPQ        AX, BX
	JGE         dot1_loop4_start
	VMOVUPD     (DI)(AX*8), Y0
	VMOVUPD     32(DI)(AX*8), Y1
	VMOVUPD     64(DI)(AX*8), Y2
	VMOVUPD     96(DI)(AX*8), Y3
	VFMADD231PD (SI)(AX*8), Y0, Y4
	VFMADD231PD 32(SI)(AX*8), Y1, Y5
	VFMADD231PD 64(SI)(AX*8), Y2, Y6
	VFMADD231PD 96(SI)(AX*8), Y3, Y7
	ADDQ        $16, AX
	JMP         dot1_loop16

dot1_loop4_start:
	MOVQ CX, BX
	ANDQ $-4, BX

dot1_loop4:
	CMPQ        AX, BX
	JGE         dot1_reduce
	VMOVUPD     (DI)(AX*8), Y0
	VFMADD231PD (SI)(AX*8), Y0, Y4
	ADDQ        $4, AX
	JMP         dot1_loop4

dot1_reduce:
	REDUCE_DOT1

dot1_tail:
	CMPQ        AX, CX
	JGE         dot1_done
	VMOVSD      (DI)(AX*8), X0
	VFMADD231SD (SI)(AX*8), X0, X4
	INCQ        AX
	JMP         dot1_tail

dot1_done:
	VMOVSD     X4, ret+48(FP)
	VZEROUPPER
	RET

// func sandwich4AVX2(w, h *float64, n int, m *float64, mstride int, ca *m3.Mat3, groups int)
// The row block of W = C·W_H·Cᵀ for four column blocks at a time
// (sandwichBlocks defines it): w and h point at the first of three rows of
// W and W_H (row length n), m at the frames laid out by lanes, M_k at
// m + k·mstride with M_k[3b+q] = C_b[q][k], and ca at C_a. For each group
// of twelve columns and each row r,
//
//	X   = C_a[r,0]·h0 + C_a[r,1]·h1 + C_a[r,2]·h2     (rows mixed: X = C_a·W_H)
//	W_r = Σ_k M_k ⊙ S_k(X),  S_k(X)[3b+q] = X[3b+k]    (columns mixed: X·C_bᵀ)
//
// S_k repeats, in each lane, entry k of the lane's own 3-column block:
// with X in Y0 = [x0 x1 x2 x3], Y1 = [x4 … x7], Y2 = [x8 … x11] the blocks
// straddle the registers, so each S_k vector is one lane permutation or
// two blended ones.
#define SANDWICH_ROW(c0, c1, c2, W) \
	VBROADCASTSD c0(BX), Y12; \
	VBROADCASTSD c1(BX), Y13; \
	VBROADCASTSD c2(BX), Y14; \
	VMULPD       (SI)(AX*1), Y12, Y0; \
	VFMADD231PD  (R8)(AX*1), Y13, Y0; \
	VFMADD231PD  (R9)(AX*1), Y14, Y0; \
	VMULPD       32(SI)(AX*1), Y12, Y1; \
	VFMADD231PD  32(R8)(AX*1), Y13, Y1; \
	VFMADD231PD  32(R9)(AX*1), Y14, Y1; \
	VMULPD       64(SI)(AX*1), Y12, Y2; \
	VFMADD231PD  64(R8)(AX*1), Y13, Y2; \
	VFMADD231PD  64(R9)(AX*1), Y14, Y2; \
	VPERMPD      $0xC0, Y0, Y6; \
	VMULPD       (DX)(AX*1), Y6, Y3; \
	VPERMPD      $0x55, Y0, Y6; \
	VPERMPD      $0x00, Y1, Y7; \
	VBLENDPD     $0x8, Y7, Y6, Y6; \
	VFMADD231PD  (R12)(AX*1), Y6, Y3; \
	VPERMPD      $0xAA, Y0, Y6; \
	VPERMPD      $0x55, Y1, Y7; \
	VBLENDPD     $0x8, Y7, Y6, Y6; \
	VFMADD231PD  (R13)(AX*1), Y6, Y3; \
	VPERMPD      $0xFF, Y0, Y6; \
	VPERMPD      $0xAA, Y1, Y7; \
	VBLENDPD     $0xC, Y7, Y6, Y6; \
	VMULPD       32(DX)(AX*1), Y6, Y4; \
	VPERMPD      $0xF0, Y1, Y6; \
	VFMADD231PD  32(R12)(AX*1), Y6, Y4; \
	VPERMPD      $0x55, Y1, Y6; \
	VPERMPD      $0x00, Y2, Y7; \
	VBLENDPD     $0xC, Y7, Y6, Y6; \
	VFMADD231PD  32(R13)(AX*1), Y6, Y4; \
	VPERMPD      $0xAA, Y1, Y6; \
	VPERMPD      $0x55, Y2, Y7; \
	VBLENDPD     $0xE, Y7, Y6, Y6; \
	VMULPD       64(DX)(AX*1), Y6, Y5; \
	VPERMPD      $0xFF, Y1, Y6; \
	VPERMPD      $0xAA, Y2, Y7; \
	VBLENDPD     $0xE, Y7, Y6, Y6; \
	VFMADD231PD  64(R12)(AX*1), Y6, Y5; \
	VPERMPD      $0xFC, Y2, Y6; \
	VFMADD231PD  64(R13)(AX*1), Y6, Y5; \
	VMOVUPD      Y3, (W)(AX*1); \
	VMOVUPD      Y4, 32(W)(AX*1); \
	VMOVUPD      Y5, 64(W)(AX*1)

TEXT ·sandwich4AVX2(SB), NOSPLIT, $0-56
	MOVQ w+0(FP), DI
	MOVQ h+8(FP), SI
	MOVQ n+16(FP), CX
	SHLQ $3, CX
	LEAQ (DI)(CX*1), R10
	LEAQ (R10)(CX*1), R11
	LEAQ (SI)(CX*1), R8
	LEAQ (R8)(CX*1), R9
	MOVQ m+24(FP), DX
	MOVQ mstride+32(FP), CX
	SHLQ $3, CX
	LEAQ (DX)(CX*1), R12
	LEAQ (R12)(CX*1), R13
	MOVQ ca+40(FP), BX
	MOVQ groups+48(FP), CX
	XORQ AX, AX

sandwich_loop:
	// AX is the byte offset of the group's first column.
	TESTQ CX, CX
	JZ    sandwich_done
	SANDWICH_ROW(0, 8, 16, DI)
	SANDWICH_ROW(24, 32, 40, R10)
	SANDWICH_ROW(48, 56, 64, R11)
	ADDQ  $96, AX
	DECQ  CX
	JMP   sandwich_loop

sandwich_done:
	VZEROUPPER
	RET

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xcr0() uint32
// The low word of the extended control register XCR0: which register
// states the operating system saves on a context switch.
TEXT ·xcr0(SB), NOSPLIT, $0-4
	MOVL   $0, CX
	XGETBV
	MOVL   AX, ret+0(FP)
	RET
