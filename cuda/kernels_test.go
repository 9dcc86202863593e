package cuda

import (
	"regexp"
	"strconv"
	"testing"

	"softgrasp/cuda/kernels"
)

// TestKernelConstants checks the host's copy of pgs.cu's constants (the
// block size, the record size, the status codes and the contact states)
// against the #defines of the source the device and the stand-in compile.
func TestKernelConstants(t *testing.T) {
	defines := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^#define (\w+) (\d+)\s*$`).FindAllStringSubmatch(kernels.PGS, -1) {
		v, err := strconv.Atoi(m[2])
		if err != nil {
			t.Fatal(err)
		}
		defines[m[1]] = v
	}
	for _, c := range []struct {
		name string
		want int
	}{
		{"PGS_THREADS", pgsThreads}, {"PGS_WARP", warpSize}, {"PGS_RECORD", pgsRecord},
		{"PGS_OK", statusOK}, {"PGS_BLOCK_NOT_FINITE", statusBlockNotFinite},
		{"PGS_BLOCK_NN_NOT_POSITIVE", statusBlockNnNotPos},
		{"PGS_BLOCK_SCHUR_NOT_POSITIVE", statusBlockSchurNotPos},
		{"PGS_ROW_NOT_FINITE", statusRowNotFinite},
		{"PGS_SEPARATED", stateSeparated}, {"PGS_STICK", stateStick}, {"PGS_SLIP", stateSlip},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := defines[c.name]
			if !ok {
				t.Fatalf("pgs.cu defines no %s", c.name)
			}
			if got != c.want {
				t.Fatalf("pgs.cu: %s = %d, the host has %d", c.name, got, c.want)
			}
		})
	}
}
