package ui

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPackageBoundaries holds the rules of the UI layer: it edits settings
// and sends commands to the physics loop (so it may use physics/loop,
// physics/scenario and the physics types), but it never reaches into the
// 3D renderer or the application, and nothing of the GPU backend.
func TestPackageBoundaries(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "list", "-deps", "softgrasp/ui").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	deps := strings.Fields(string(out))
	banned := []string{"softgrasp/render", "softgrasp/app", "softgrasp/cuda", "gorgonia.org/cu"}
	for _, dep := range deps {
		for _, b := range banned {
			if dep == b || strings.HasPrefix(dep, b+"/") {
				t.Errorf("softgrasp/ui depends on %s", dep)
			}
		}
	}
	// The panels talk to the physics through the loop's commands: the
	// loop must be a dependency (a test of this rule that could not fail
	// would prove nothing).
	found := false
	for _, dep := range deps {
		found = found || dep == "softgrasp/physics/loop"
	}
	if !found {
		t.Error("softgrasp/ui does not use softgrasp/physics/loop: the panels send no commands")
	}
}
