package main

import (
	"strings"
	"testing"
)

// TestFlatStarSetDownInTheLoop: the repeating script sets the flat star of
// the mesh set down where the floor takes it. The star slides up in the
// jaws as it is carried; lowered to the grasp's height regardless, it was
// pressed into the floor and its elements inverted as the jaws let go
// (step 427, t = 4.27 s).
func TestFlatStarSetDownInTheLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two grasps of the loop")
	}
	code, out, errs := headless("-mesh", "../testdata/meshes/09_star_logo_volume.vtu", "-grasp-loop", "repeat", "-steps", "600", "-json")
	if code != 0 || strings.Contains(errs, "diverged") || !strings.Contains(out, `"final_checksum"`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
}
