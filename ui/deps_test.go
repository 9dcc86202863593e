package ui

import (
	"testing"

	"softgrasp/internal/boundary"
)

// TestPackageBoundaries holds the rules of the UI layer: it is GLFW input
// and ImGui widgets, with no OpenGL of its own (every GL call is in
// render/); it edits settings and sends commands to the physics loop
// through the frames package, and builds without the simulation behind it
// (no physics loop, scenarios, solver or CHOLMOD binding); it never
// reaches into the 3D renderer or the application, and nothing of the GPU
// backend.
func TestPackageBoundaries(t *testing.T) {
	deps, err := boundary.List("-deps", "softgrasp/ui")
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	banned := []string{
		"softgrasp/render", "softgrasp/app", "softgrasp/cuda", "gorgonia.org/cu", "github.com/go-gl/gl",
		"softgrasp/physics/loop", "softgrasp/physics/scenario", "softgrasp/physics/sparse",
		"softgrasp/physics/linsolve", "softgrasp/physics/fem",
	}
	for _, dep := range boundary.Banned(deps, banned) {
		t.Errorf("softgrasp/ui depends on %s", dep)
	}
	if boundary.Contains(deps, "softgrasp/physics") {
		t.Error("softgrasp/ui depends on softgrasp/physics: it must build without the simulation")
	}
	// The panels talk to the physics through the frames' commands: the
	// frames package must be a dependency (a test of this rule that could
	// not fail would prove nothing).
	if !boundary.Contains(deps, "softgrasp/physics/frame") {
		t.Error("softgrasp/ui does not use softgrasp/physics/frame: the panels send no commands")
	}
}
