package render

import (
	"strings"
	"testing"

	"softgrasp/internal/boundary"
)

// TestPackageBoundaries holds the rule that the renderer only reads
// published frames: it depends on neither the UI layer (window, ImGui)
// nor the application, and of the project it imports only the frames
// (physics/loop) and the shaders, never the simulation itself.
func TestPackageBoundaries(t *testing.T) {
	deps, err := boundary.List("-deps", "softgrasp/render")
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	banned := []string{"softgrasp/ui", "softgrasp/app", "github.com/inkyblackness/imgui-go", "github.com/go-gl/glfw"}
	for _, dep := range boundary.Banned(deps, banned) {
		t.Errorf("softgrasp/render depends on %s", dep)
	}
	imports, err := boundary.List("-f", `{{join .Imports "\n"}}`, "softgrasp/render")
	if err != nil {
		t.Fatalf("go list -f: %v", err)
	}
	allowed := map[string]bool{"softgrasp/physics/loop": true, "softgrasp/shaders": true}
	own := 0
	for _, imp := range imports {
		if strings.HasPrefix(imp, "softgrasp/") {
			own++
			if !allowed[imp] {
				t.Errorf("softgrasp/render imports %s: it may read only published frames (physics/loop) and the shaders", imp)
			}
		}
	}
	if own == 0 {
		t.Error("softgrasp/render imports no project package: the import listing is wrong")
	}
}
