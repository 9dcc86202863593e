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
// nor the application.
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
}
