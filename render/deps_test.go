package render

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPackageBoundaries holds the rule that the renderer only reads
// published frames: it depends on neither the UI layer (window, ImGui)
// nor the application, and of the project it imports only the frames
// (physics/loop) and the shaders, never the simulation itself.
func TestPackageBoundaries(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "list", "-deps", "softgrasp/render").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	banned := []string{"softgrasp/ui", "softgrasp/app", "github.com/inkyblackness/imgui-go", "github.com/go-gl/glfw"}
	for _, dep := range strings.Fields(string(out)) {
		for _, b := range banned {
			if dep == b || strings.HasPrefix(dep, b+"/") {
				t.Errorf("softgrasp/render depends on %s", dep)
			}
		}
	}
	out, err = exec.Command(goTool, "list", "-f", "{{join .Imports \"\\n\"}}", "softgrasp/render").Output()
	if err != nil {
		t.Fatalf("go list -f: %v", err)
	}
	allowed := map[string]bool{"softgrasp/physics/loop": true, "softgrasp/shaders": true}
	own := 0
	for _, imp := range strings.Fields(string(out)) {
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
