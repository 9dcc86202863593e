package physics

import (
	"testing"

	"softgrasp/internal/boundary"
)

// TestPackageBoundaries holds the rule of the simulation layer: physics/
// and every package below it import the standard library, gonum, the
// TOML reader of the scene files and the project's own physics packages
// (with the CHOLMOD binding) only, never GL, GLFW, ImGui, CUDA, or the
// renderer, UI and application above them.
func TestPackageBoundaries(t *testing.T) {
	deps, err := boundary.List("-deps", "softgrasp/physics/...")
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	banned := []string{
		"github.com/go-gl", "github.com/inkyblackness", "gorgonia.org",
		"softgrasp/render", "softgrasp/ui", "softgrasp/app", "softgrasp/cuda", "softgrasp/shaders",
	}
	for _, dep := range boundary.Banned(deps, banned) {
		t.Errorf("softgrasp/physics/... depends on %s", dep)
	}
	// The list really is physics' dependencies (a rule over an empty list
	// would prove nothing): gonum and the sparse binding are among them.
	for _, want := range []string{"gonum.org/v1/gonum/mat", "softgrasp/physics/sparse"} {
		if !boundary.Contains(deps, want) {
			t.Errorf("softgrasp/physics/... does not depend on %s: the listing is not physics'", want)
		}
	}
}
