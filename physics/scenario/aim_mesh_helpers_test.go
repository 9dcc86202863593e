package scenario

import (
	"os"
	"os/exec"
	"testing"
)

// barFile is an elongated box modelled with +y up, 24 × 40 × 16 units,
// turned 30° about its long axis (testdata/gen_bar.go): upright, its
// narrow side faces the heading −60° (or 120°).
const barFile = "testdata/bar_yup.obj"

// needTetGen skips a test of a surface file when the tetgen program that
// fills it is missing, except under make test, which installs it and sets
// SOFTGRASP_REQUIRE_TETGEN.
func needTetGen(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tetgen"); err != nil {
		if os.Getenv("SOFTGRASP_REQUIRE_TETGEN") != "" {
			t.Fatal("tetgen is not on PATH, and make test requires it (make deps installs it)")
		}
		t.Skip("tetgen is not on PATH: install it (apt-get install tetgen, or make deps) to run the tests of surface files")
	}
}
