package cuda

import (
	"fmt"
	"math"
)

// The PGS kernel pgs_solve (kernels/pgs.cu) as the host sees it: its block
// size rules, its scalar parameters, and the constants of its outputs.
// kernels_test.go checks these against the #defines of pgs.cu. The kernel
// itself runs on the device, or, in the tests, on the CPU stand-in of the
// CUDA driver (cuda/standin), which executes the same source.

// warpSize is the number of lanes of a warp (PGS_WARP).
const warpSize = 32

// pgsThreads is the default size of the one block the PGS kernel runs on
// (PGS_THREADS): eight warps, warp 0 for the serial local solves and seven
// for the off-diagonal products beside them, which at the paper's sizes
// (900–1500 rows) give each of those threads 4–7 rows.
const pgsThreads = 256

// pgsRecord is the number of float64 of a contact's record (PGS_RECORD):
// its factored diagonal block and the root of its last slip solve.
const pgsRecord = 10

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

// pgsArgs are the scalar parameters of pgs_solve.
type pgsArgs struct {
	c             int     // contacts
	s, mu         float64 // s = h², friction coefficient
	maxIterations int     // sweeps at most
	tolerance     float64 // stop once ε ≤ tolerance (if > 0)
	bilateral     []int32 // 1 marks a bilateral contact (contact.PGS.Bilateral); nil: none
}

// checkThreads reports a block size the kernel cannot run with: whole warps
// (warp 0 solves the contacts with every lane), at most 1024 threads (the
// CUDA limit).
func checkThreads(threads int) error {
	if threads < warpSize || threads > warpSize*warpSize || threads%warpSize != 0 {
		return fmt.Errorf("PGS block of %d threads: want a multiple of %d in [%d, %d]", threads, warpSize, warpSize, warpSize*warpSize)
	}
	return nil
}

// finite reports that x is neither NaN nor infinite (CUDA's isfinite).
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
