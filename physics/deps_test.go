package physics

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPackageBoundaries holds the rule of the simulation layer: physics/
// and every package below it import the standard library, gonum and the
// project's own physics packages (with the CHOLMOD binding) only, never
// GL, GLFW, ImGui, CUDA, or the renderer, UI and application above them.
func TestPackageBoundaries(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, "list", "-deps", "softgrasp/physics/...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	deps := strings.Fields(string(out))
	banned := []string{
		"github.com/go-gl", "github.com/inkyblackness", "gorgonia.org",
		"softgrasp/render", "softgrasp/ui", "softgrasp/app", "softgrasp/cuda", "softgrasp/shaders",
	}
	for _, dep := range deps {
		for _, b := range banned {
			if dep == b || strings.HasPrefix(dep, b+"/") {
				t.Errorf("softgrasp/physics/... depends on %s", dep)
			}
		}
	}
	// The list really is physics' dependencies (a rule over an empty list
	// would prove nothing): gonum and the sparse binding are among them.
	for _, want := range []string{"gonum.org/v1/gonum/mat", "softgrasp/physics/sparse"} {
		found := false
		for _, dep := range deps {
			found = found || dep == want
		}
		if !found {
			t.Errorf("softgrasp/physics/... does not depend on %s: the listing is not physics'", want)
		}
	}
}
