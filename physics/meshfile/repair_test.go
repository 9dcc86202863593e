package meshfile

import (
	"slices"
	"strings"
	"testing"
)

// Surfaces that are not clean but are solids open with a note that says
// what was repaired; each comes from testdata/gen.

// TestOpenFillsHoles opens a surface with three small holes (two missing
// triangles and the six triangles around a point) and a stray triangle
// apart from it.
func TestOpenFillsHoles(t *testing.T) {
	needTetGen(t)
	l, err := Open("testdata/holes.stl", Options{TargetDOFs: 1500})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"dropped 1 loose piece of open surface apart from the rest (1 triangle, under 1% of the area each): they bound no volume",
		"filled 3 small holes (12 open edges) in the surface",
	} {
		if !slices.Contains(l.Notes, want) {
			t.Errorf("notes %q\nlack %q", l.Notes, want)
		}
	}
	if !strings.Contains(strings.Join(l.Notes, "\n"), "tetrahedralised the closed surface (320 triangles, 162 points)") {
		t.Errorf("notes %q", l.Notes)
	}
	// The bumpy ball has a radius of 20 ± 2: its volume is within 30 %
	// of 4/3·π·20³, and the three patches change it by far less.
	if v := l.Mesh.Volume(); v < 0.7*33510 || v > 1.3*33510 {
		t.Errorf("volume %g", v)
	}
	if err := l.Mesh.Validate(); err != nil {
		t.Error(err)
	}
}
