package main

import (
	"strings"
	"testing"
)

// TestFlatStarSetDownInTheLoop runs the flat star of the mesh set through
// two grasps of the repeating script at the defaults. Its elements
// inverted twice before: at t = 1.04 s, when a squeezed point's sharp
// velocity change widened the whole body's alarm until the contact budget
// dropped the pairs that mattered (the alarm's fall is now capped at
// gravity's, physics.capFall); and at 4.27 s, when the set-down lowered
// the jaws to the grasp's height although the star had slid up in them,
// pressing it into the floor until the release (the set-down now stops
// where the floor takes it).
func TestFlatStarSetDownInTheLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two grasps of the loop")
	}
	code, out, errs := headless("-mesh", "../testdata/meshes/09_star_logo_volume.vtu", "-grasp-loop", "repeat", "-steps", "600", "-json")
	if code != 0 || strings.Contains(errs, "diverged") || !strings.Contains(out, `"final_checksum"`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
}
