package ui

import (
	"testing"

	"softgrasp/internal/boundary"
)

// TestPackageBoundaries holds the rules of the UI layer: it edits settings
// and sends commands to the physics loop (so it may use physics/loop,
// physics/scenario and the physics types), but it never reaches into the
// 3D renderer or the application, and nothing of the GPU backend.
func TestPackageBoundaries(t *testing.T) {
	deps, err := boundary.List("-deps", "softgrasp/ui")
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	banned := []string{"softgrasp/render", "softgrasp/app", "softgrasp/cuda", "gorgonia.org/cu"}
	for _, dep := range boundary.Banned(deps, banned) {
		t.Errorf("softgrasp/ui depends on %s", dep)
	}
	// The panels talk to the physics through the loop's commands: the
	// loop must be a dependency (a test of this rule that could not fail
	// would prove nothing).
	if !boundary.Contains(deps, "softgrasp/physics/loop") {
		t.Error("softgrasp/ui does not use softgrasp/physics/loop: the panels send no commands")
	}
}
