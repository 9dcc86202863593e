package render

import (
	"strings"
	"testing"

	"softgrasp/internal/boundary"
)

// TestPackageBoundaries holds the rule that the renderer only reads
// published frames (and ImGui's draw data): it depends on neither the UI
// layer (window, input) nor the application, nor on the simulation (the
// physics loop, the scenarios, the solver and its CHOLMOD binding); of the
// project it imports only the frames (physics/frame) and the shaders.
func TestPackageBoundaries(t *testing.T) {
	deps, err := boundary.List("-deps", "softgrasp/render")
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	banned := []string{
		"softgrasp/ui", "softgrasp/app", "github.com/go-gl/glfw",
		"softgrasp/physics/loop", "softgrasp/physics/scenario", "softgrasp/physics/sparse",
		"softgrasp/physics/linsolve", "softgrasp/physics/fem",
	}
	for _, dep := range boundary.Banned(deps, banned) {
		t.Errorf("softgrasp/render depends on %s", dep)
	}
	if boundary.Contains(deps, "softgrasp/physics") {
		t.Error("softgrasp/render depends on softgrasp/physics: it must build without the simulation")
	}
	imports, err := boundary.List("-f", `{{join .Imports "\n"}}`, "softgrasp/render")
	if err != nil {
		t.Fatalf("go list -f: %v", err)
	}
	allowed := map[string]bool{"softgrasp/physics/frame": true, "softgrasp/shaders": true}
	own := 0
	for _, imp := range imports {
		if strings.HasPrefix(imp, "softgrasp/") {
			own++
			if !allowed[imp] {
				t.Errorf("softgrasp/render imports %s: it may read only published frames (physics/frame) and the shaders", imp)
			}
		}
	}
	if own == 0 {
		t.Error("softgrasp/render imports no project package: the import listing is wrong")
	}
}
