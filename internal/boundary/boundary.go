// Package boundary lists package dependencies for the tests that hold the
// project's layering rules (physics/ free of GL, UI and CUDA; ui/ free of
// the renderer; render/ reading published frames only).
package boundary

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// List runs `go list` with args (for example "-deps", "softgrasp/ui") and
// returns the packages it prints.
func List(args ...string) ([]string, error) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goTool, append([]string{"list"}, args...)...).Output()
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// Banned returns the packages of deps that are one of banned or lie below
// one of them.
func Banned(deps, banned []string) []string {
	var bad []string
	for _, dep := range deps {
		for _, b := range banned {
			if dep == b || strings.HasPrefix(dep, b+"/") {
				bad = append(bad, dep)
			}
		}
	}
	return bad
}

// Contains reports whether pkg is among deps.
func Contains(deps []string, pkg string) bool {
	for _, d := range deps {
		if d == pkg {
			return true
		}
	}
	return false
}
