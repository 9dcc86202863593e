// Register sequences shared by the dot kernels of simd_amd64.s (double
// rows) and simd32_amd64.s (single rows), which keep their sums in the
// same registers and fold them the same way, so that both round alike.

// ZERO_DOT3 clears the twelve accumulators of a three-row product: Y4–Y7
// sum the first row, Y8–Y11 the second, Y12–Y15 the third.
#define ZERO_DOT3 \
	VXORPD Y4, Y4, Y4; \
	VXORPD Y5, Y5, Y5; \
	VXORPD Y6, Y6, Y6; \
	VXORPD Y7, Y7, Y7; \
	VXORPD Y8, Y8, Y8; \
	VXORPD Y9, Y9, Y9; \
	VXORPD Y10, Y10, Y10; \
	VXORPD Y11, Y11, Y11; \
	VXORPD Y12, Y12, Y12; \
	VXORPD Y13, Y13, Y13; \
	VXORPD Y14, Y14, Y14; \
	VXORPD Y15, Y15, Y15

// REDUCE_DOT3 folds the four accumulators of each sum, (p0+p1)+(p2+p3),
// then its four lanes, (l0+l2)+(l1+l3), into the low lanes of X4, X8 and
// X12 (sparsedot.go's fold16 is the same in Go).
#define REDUCE_DOT3 \
	VADDPD       Y5, Y4, Y4; \
	VADDPD       Y7, Y6, Y6; \
	VADDPD       Y6, Y4, Y4; \
	VADDPD       Y9, Y8, Y8; \
	VADDPD       Y11, Y10, Y10; \
	VADDPD       Y10, Y8, Y8; \
	VADDPD       Y13, Y12, Y12; \
	VADDPD       Y15, Y14, Y14; \
	VADDPD       Y14, Y12, Y12; \
	VEXTRACTF128 $1, Y4, X5; \
	VEXTRACTF128 $1, Y8, X9; \
	VEXTRACTF128 $1, Y12, X13; \
	VADDPD       X5, X4, X4; \
	VADDPD       X9, X8, X8; \
	VADDPD       X13, X12, X12; \
	VHADDPD      X4, X4, X4; \
	VHADDPD      X8, X8, X8; \
	VHADDPD      X12, X12, X12

// ZERO_DOT1 and REDUCE_DOT1 are the first sum's part of ZERO_DOT3 and
// REDUCE_DOT3: the one-row kernels round as the three-row kernels' first
// sum.
#define ZERO_DOT1 \
	VXORPD Y4, Y4, Y4; \
	VXORPD Y5, Y5, Y5; \
	VXORPD Y6, Y6, Y6; \
	VXORPD Y7, Y7, Y7

#define REDUCE_DOT1 \
	VADDPD       Y5, Y4, Y4; \
	VADDPD       Y7, Y6, Y6; \
	VADDPD       Y6, Y4, Y4; \
	VEXTRACTF128 $1, Y4, X5; \
	VADDPD       X5, X4, X4; \
	VHADDPD      X4, X4, X4
