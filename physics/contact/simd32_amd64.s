//go:build amd64 && !purego

#include "textflag.h"
#include "simd_amd64.h"

// The single-precision forms of axpy3AVX2, dot3AVX2 and dot1AVX2: the rows
// r are float32 (a compliance W kept in single precision), x and y float64.
// Each group of four row entries is widened to float64 (VCVTPS2PD, exact)
// and enters the same fused multiply-adds, into the same partial sums, in
// the same order, as the double kernels': the sums are those of the double
// kernels on the widened rows, bit for bit, so dot1F32AVX2 rounds as
// dot3F32AVX2's first sum and the sparse forms (sparsedot.go) as both.

// ROW16(R, A0, A1, A2, A3) adds sixteen terms r[i..i+15]·x[i..i+15], i =
// AX, of the float32 row at R and the float64 x at DI into the
// accumulators A0–A3, four each, the row widened through Y0–Y3.
#define ROW16(R, A0, A1, A2, A3) \
	VCVTPS2PD   (R)(AX*4), Y0; \
	VCVTPS2PD   16(R)(AX*4), Y1; \
	VCVTPS2PD   32(R)(AX*4), Y2; \
	VCVTPS2PD   48(R)(AX*4), Y3; \
	VFMADD231PD (DI)(AX*8), Y0, A0; \
	VFMADD231PD 32(DI)(AX*8), Y1, A1; \
	VFMADD231PD 64(DI)(AX*8), Y2, A2; \
	VFMADD231PD 96(DI)(AX*8), Y3, A3

// func axpy3F32AVX2(y []float64, r0, r1, r2 []float32, a0, a1, a2 float64)
TEXT ·axpy3F32AVX2(SB), NOSPLIT, $0-120
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

axpy32_loop8:
	CMPQ        AX, BX
	JGE         axpy32_tail
	VMOVUPD     (DI)(AX*8), Y3
	VMOVUPD     32(DI)(AX*8), Y4
	VCVTPS2PD   (SI)(AX*4), Y5
	VCVTPS2PD   16(SI)(AX*4), Y6
	VCVTPS2PD   (R8)(AX*4), Y7
	VCVTPS2PD   16(R8)(AX*4), Y8
	VCVTPS2PD   (R9)(AX*4), Y9
	VCVTPS2PD   16(R9)(AX*4), Y10
	VFMADD231PD Y5, Y0, Y3
	VFMADD231PD Y6, Y0, Y4
	VFMADD231PD Y7, Y1, Y3
	VFMADD231PD Y8, Y1, Y4
	VFMADD231PD Y9, Y2, Y3
	VFMADD231PD Y10, Y2, Y4
	VMOVUPD     Y3, (DI)(AX*8)
	VMOVUPD     Y4, 32(DI)(AX*8)
	ADDQ        $8, AX
	JMP         axpy32_loop8

axpy32_tail:
	CMPQ        AX, CX
	JGE         axpy32_done
	VMOVSD      (DI)(AX*8), X3
	VCVTSS2SD   (SI)(AX*4), X5, X5
	VCVTSS2SD   (R8)(AX*4), X7, X7
	VCVTSS2SD   (R9)(AX*4), X9, X9
	VFMADD231SD X5, X0, X3
	VFMADD231SD X7, X1, X3
	VFMADD231SD X9, X2, X3
	VMOVSD      X3, (DI)(AX*8)
	INCQ        AX
	JMP         axpy32_tail

axpy32_done:
	VZEROUPPER
	RET

// func dot3F32AVX2(r0, r1, r2 []float32, x []float64) (s0, s1, s2 float64)
// Sixteen elements per iteration into twelve accumulators (Y4–Y15, four
// per sum, as dot3AVX2); the widened rows go through Y0–Y3 and x is read
// from memory by the multiply-adds.
TEXT ·dot3F32AVX2(SB), NOSPLIT, $0-120
	MOVQ   r0_base+0(FP), SI
	MOVQ   r1_base+24(FP), R8
	MOVQ   r2_base+48(FP), R9
	MOVQ   x_base+72(FP), DI
	MOVQ   x_len+80(FP), CX
	ZERO_DOT3
	XORQ   AX, AX
	MOVQ   CX, BX
	ANDQ   $-16, BX

dot32_loop16:
	CMPQ        AX, BX
	JGE         dot32_loop4_start
	ROW16(SI, Y4, Y5, Y6, Y7)
	ROW16(R8, Y8, Y9, Y10, Y11)
	ROW16(R9, Y12, Y13, Y14, Y15)
	ADDQ        $16, AX
	JMP         dot32_loop16

dot32_loop4_start:
	MOVQ CX, BX
	ANDQ $-4, BX

dot32_loop4:
	CMPQ        AX, BX
	JGE         dot32_reduce
	VCVTPS2PD   (SI)(AX*4), Y0
	VCVTPS2PD   (R8)(AX*4), Y1
	VCVTPS2PD   (R9)(AX*4), Y2
	VFMADD231PD (DI)(AX*8), Y0, Y4
	VFMADD231PD (DI)(AX*8), Y1, Y8
	VFMADD231PD (DI)(AX*8), Y2, Y12
	ADDQ        $4, AX
	JMP         dot32_loop4

dot32_reduce:
	REDUCE_DOT3

dot32_tail:
	CMPQ        AX, CX
	JGE         dot32_done
	VCVTSS2SD   (SI)(AX*4), X0, X0
	VCVTSS2SD   (R8)(AX*4), X1, X1
	VCVTSS2SD   (R9)(AX*4), X2, X2
	VFMADD231SD (DI)(AX*8), X0, X4
	VFMADD231SD (DI)(AX*8), X1, X8
	VFMADD231SD (DI)(AX*8), X2, X12
	INCQ        AX
	JMP         dot32_tail

dot32_done:
	VMOVSD     X4, s0+96(FP)
	VMOVSD     X8, s1+104(FP)
	VMOVSD     X12, s2+112(FP)
	VZEROUPPER
	RET

// func dot1F32AVX2(r []float32, x []float64) float64
// dot3F32AVX2's first sum alone: the same accumulators, order and reduction.
TEXT ·dot1F32AVX2(SB), NOSPLIT, $0-56
	MOVQ   r_base+0(FP), SI
	MOVQ   x_base+24(FP), DI
	MOVQ   x_len+32(FP), CX
	ZERO_DOT1
	XORQ   AX, AX
	MOVQ   CX, BX
	ANDQ   $-16, BX

dot132_loop16:
	CMPQ        AX, BX
	JGE         dot132_loop4_start
	ROW16(SI, Y4, Y5, Y6, Y7)
	ADDQ        $16, AX
	JMP         dot132_loop16

dot132_loop4_start:
	MOVQ CX, BX
	ANDQ $-4, BX

dot132_loop4:
	CMPQ        AX, BX
	JGE         dot132_reduce
	VCVTPS2PD   (SI)(AX*4), Y0
	VFMADD231PD (DI)(AX*8), Y0, Y4
	ADDQ        $4, AX
	JMP         dot132_loop4

dot132_reduce:
	REDUCE_DOT1

dot132_tail:
	CMPQ        AX, CX
	JGE         dot132_done
	VCVTSS2SD   (SI)(AX*4), X0, X0
	VFMADD231SD (DI)(AX*8), X0, X4
	INCQ        AX
	JMP         dot132_tail

dot132_done:
	VMOVSD     X4, ret+48(FP)
	VZEROUPPER
	RET

// func narrowAVX2(dst []float32, src []float64)
// dst[i] = float32(src[i]) for i < len(src) (dst at least as long): four
// at a time, rounded to nearest as the conversion in Go rounds.
TEXT ·narrowAVX2(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
	XORQ AX, AX
	MOVQ CX, BX
	ANDQ $-8, BX

narrow_loop8:
	CMPQ       AX, BX
	JGE        narrow_tail
	VCVTPD2PSY (SI)(AX*8), X0
	VCVTPD2PSY 32(SI)(AX*8), X1
	VMOVUPS    X0, (DI)(AX*4)
	VMOVUPS    X1, 16(DI)(AX*4)
	ADDQ       $8, AX
	JMP        narrow_loop8

narrow_tail:
	CMPQ      AX, CX
	JGE       narrow_done
	VCVTSD2SS (SI)(AX*8), X0, X0
	VMOVSS    X0, (DI)(AX*4)
	INCQ      AX
	JMP       narrow_tail

narrow_done:
	VZEROUPPER
	RET
