package scenario

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

// TestRestingPoseOfTheSet loads meshes of the set with the automatic up
// axis and checks the pose each takes: the Y-up scans stand on their y
// bottom (the horse level on its hooves, the bunny on its round haunches),
// the Z-up vase and the figure lying on its back keep their z bottom, and
// the liver, modelled with no up, is turned onto its most stable side. A
// file modelled with z up and standing level is left exactly as it is.
func TestRestingPoseOfTheSet(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"03_horse_scan_yup.stl", "stands level on its y bottom"},
		{"04_statue_yup.obj", "stands level on its y bottom"},
		{"14_bunny_scan_yup.obj", "rests on its y bottom"},
		{"05_figure_lying.obj", "stands level on its z bottom"},
		{"01_liver_surface.vtk", "onto its most stable side"},
		{"16_vase_tall.stl", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			cfg := settings.DefaultScenario(settings.GraspRotate)
			cfg.MeshFile = filepath.Join("..", "..", "testdata", "meshes", tc.file)
			obj, info, err := loadObjectMesh(cfg, 600)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if i := strings.Index(info.name, "auto up: "); i >= 0 {
				got = info.name[i:]
			}
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("placed %q, want %q", info.name, tc.want)
			}
			if b := mesh.BoundsOf(obj.surface()); math.Abs(b.Min.Z) > 1e-12 {
				t.Errorf("bottom at z = %g, want on the floor", b.Min.Z)
			}
		})
	}
}

// TestTurnOnto checks the least rotation taking a normal to −z.
func TestTurnOnto(t *testing.T) {
	for _, n := range []r3.Vec{{Z: -1}, {Z: 1}, {Y: -1}, {X: 1}, r3.Unit(r3.Vec{X: 1, Y: -2, Z: 0.5})} {
		got := turnOnto(n).Rotate(n)
		if r3.Norm(r3.Sub(got, r3.Vec{Z: -1})) > 1e-12 {
			t.Errorf("turnOnto(%v) takes it to %v, want −z", n, got)
		}
	}
	if r := turnOnto(r3.Vec{Y: -1}).Rotate(r3.Vec{Z: 1}); r3.Norm(r3.Sub(r, r3.Vec{Y: -1})) > 1e-12 {
		t.Errorf("turning −y down takes +z to %v, want −y (the least turn, about x: as mesh.TurnYUp)", r)
	}
}
