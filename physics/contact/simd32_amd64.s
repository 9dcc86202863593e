//go:build amd64 && !purego

#include "textflag.h"

// The single-precision forms of axpy3AVX2, dot3AVX2 and dot1AVX2: the rows
// r are float32 (a compliance W kept in single precision), x and y float64.
// Each group of four row entries is widened to float64 (VCVTPS2PD, exact)
// and enters the same fused multiply-adds, into the same partial sums, in
// the same order, as the double kernels': the sums are those of the double
// kernels on the widened rows, bit for bit, so dot1F32AVX2 rounds as
// dot3F32AVX2's first sum and the sparse forms (sparsedot.go) as both.

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
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	VXORPD Y12, Y12, Y12
	VXORPD Y13, Y13, Y13
	VXORPD Y14, Y14, Y14
	VXORPD Y15, Y15, Y15
	XORQ   AX, AX
	MOVQ   CX, BX
	ANDQ   $-16, BX

dot32_loop16:
	CMPQ        AX, BX
	JGE         dot32_loop4_start
	VCVTPS2PD   (SI)(AX*4), Y0
	VCVTPS2PD   16(SI)(AX*4), Y1
	VCVTPS2PD   32(SI)(AX*4), Y2
	VCVTPS2PD   48(SI)(AX*4), Y3
	VFMADD231PD (DI)(AX*8), Y0, Y4
	VFMADD231PD 32(DI)(AX*8), Y1, Y5
	VFMADD231PD 64(DI)(AX*8), Y2, Y6
	VFMADD231PD 96(DI)(AX*8), Y3, Y7
	VCVTPS2PD   (R8)(AX*4), Y0
	VCVTPS2PD   16(R8)(AX*4), Y1
	VCVTPS2PD   32(R8)(AX*4), Y2
	VCVTPS2PD   48(R8)(AX*4), Y3
	VFMADD231PD (DI)(AX*8), Y0, Y8
	VFMADD231PD 32(DI)(AX*8), Y1, Y9
	VFMADD231PD 64(DI)(AX*8), Y2, Y10
	VFMADD231PD 96(DI)(AX*8), Y3, Y11
	VCVTPS2PD   (R9)(AX*4), Y0
	VCVTPS2PD   16(R9)(AX*4), Y1
	VCVTPS2PD   32(R9)(AX*4), Y2
	VCVTPS2PD   48(R9)(AX*4), Y3
	VFMADD231PD (DI)(AX*8), Y0, Y12
	VFMADD231PD 32(DI)(AX*8), Y1, Y13
	VFMADD231PD 64(DI)(AX*8), Y2, Y14
	VFMADD231PD 96(DI)(AX*8), Y3, Y15
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
	VADDPD       Y5, Y4, Y4
	VADDPD       Y7, Y6, Y6
	VADDPD       Y6, Y4, Y4
	VADDPD       Y9, Y8, Y8
	VADDPD       Y11, Y10, Y10
	VADDPD       Y10, Y8, Y8
	VADDPD       Y13, Y12, Y12
	VADDPD       Y15, Y14, Y14
	VADDPD       Y14, Y12, Y12
	VEXTRACTF128 $1, Y4, X5
	VEXTRACTF128 $1, Y8, X9
	VEXTRACTF128 $1, Y12, X13
	VADDPD       X5, X4, X4
	VADDPD       X9, X8, X8
	VADDPD       X13, X12, X12
	VHADDPD      X4, X4, X4
	VHADDPD      X8, X8, X8
	VHADDPD      X12, X12, X12

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
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	XORQ   AX, AX
	MOVQ   CX, BX
	ANDQ   $-16, BX

dot132_loop16:
	CMPQ        AX, BX
	JGE         dot132_loop4_start
	VCVTPS2PD   (SI)(AX*4), Y0
	VCVTPS2PD   16(SI)(AX*4), Y1
	VCVTPS2PD   32(SI)(AX*4), Y2
	VCVTPS2PD   48(SI)(AX*4), Y3
	VFMADD231PD (DI)(AX*8), Y0, Y4
	VFMADD231PD 32(DI)(AX*8), Y1, Y5
	VFMADD231PD 64(DI)(AX*8), Y2, Y6
	VFMADD231PD 96(DI)(AX*8), Y3, Y7
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
	VADDPD       Y5, Y4, Y4
	VADDPD       Y7, Y6, Y6
	VADDPD       Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPD       X5, X4, X4
	VHADDPD      X4, X4, X4

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
