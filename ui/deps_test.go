package ui

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPackageBoundaries holds the rule that the UI never reaches into the
// 3D renderer or the simulation: only the application wires them.
func TestPackageBoundaries(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "list", "-deps", "softgrasp/ui").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"softgrasp/render", "softgrasp/physics", "softgrasp/app"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("softgrasp/ui depends on %s", dep)
			}
		}
	}
}
