package frame

import (
	"strings"
	"testing"

	"softgrasp/internal/boundary"
)

// TestLeafPackage holds the rule that frames are a leaf: the frames
// package and the settings it shows import the standard library, gonum
// (r3 and quaternions, and what r3 builds on) and of the project only the
// settings, the stage times and the rigid poses they carry, so that a viewer builds
// without the simulation (no cgo, no CHOLMOD).
func TestLeafPackage(t *testing.T) {
	deps, err := boundary.List("-deps", "softgrasp/physics/frame")
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	allowed := map[string]bool{
		"softgrasp/physics/frame": true, "softgrasp/physics/settings": true, "softgrasp/physics/stage": true,
		"softgrasp/physics/rigid": true, "softgrasp/physics/m3": true,
	}
	own := 0
	for _, dep := range deps {
		if !strings.Contains(dep, ".") && !strings.HasPrefix(dep, "softgrasp/") {
			continue // the standard library
		}
		if strings.HasPrefix(dep, "softgrasp/") {
			own++
		}
		if !allowed[dep] && !strings.HasPrefix(dep, "gonum.org/v1/gonum/") {
			t.Errorf("softgrasp/physics/frame depends on %s", dep)
		}
	}
	if own < 2 {
		t.Error("softgrasp/physics/frame depends on no settings: the listing is wrong")
	}
}
