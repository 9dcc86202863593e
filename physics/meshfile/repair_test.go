package meshfile

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// Surfaces that are not clean but are solids open with a note that says
// what was repaired; the files come from testdata/gen.

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

// TestOpenRepairsSlivers opens an organ-like surface extracted by
// marching tetrahedra (binary legacy VTK POLYDATA): edges down to a
// millionth of its size and nearly flat triangles, on which TetGen's
// quality mesh with today's switches leaves degenerate tetrahedra. It
// opens with its shortest edges merged and the surface kept, and the
// mesh fills the surface.
func TestOpenRepairsSlivers(t *testing.T) {
	needTetGen(t)
	l, err := Open("testdata/organ_slivers.vtk", Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(l.Notes, "\n")
	for _, want := range []string{
		"the surface has edges down to 0.000931 (5.1e-06 of its size), far below the others",
		"merged 107 surface edges shorter than 0.182 (0.001 of the size) and kept the surface's triangles as they are (TetGen -Y)",
		"tetrahedralised the closed surface (5278 triangles, 2641 points) with TetGen",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("notes %q\nlack %q", l.Notes, want)
		}
	}
	if err := l.Mesh.Validate(); err != nil {
		t.Error(err)
	}
	// The merged edges move the surface by less than 0.1 mm: the volume
	// stays within a thousandth of the surface's.
	f, err := os.Open("testdata/organ_slivers.vtk")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := parseAs(bufio.NewReader(f), FormatVTK)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := b.surface()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.Mesh.Volume(), s.Volume(); !sameFloat(got, want, 1e-3) {
		t.Errorf("volume %g, the surface encloses %g", got, want)
	}
}

// TestTetrahedralizeMergesShortEdge meshes a cube whose edge from corner
// 0 to corner 1 is split a hundred-thousandth of the way along: the edge
// that short is merged before TetGen runs, and the coarse surface is
// still refined (no -Y).
func TestTetrahedralizeMergesShortEdge(t *testing.T) {
	needTetGen(t)
	s := &mesh.TriSurface{Nodes: append(slices.Clone(cubeCorners), r3.Add(cubeCorners[0], r3.Scale(1e-5, r3.Sub(cubeCorners[1], cubeCorners[0]))))}
	p := len(s.Nodes) - 1
	for _, e := range cubeSurface().elems {
		switch tri := [3]int(e.nodes); tri {
		case [3]int{0, 2, 1}:
			s.Tris = append(s.Tris, [3]int{0, 2, p}, [3]int{p, 2, 1})
		case [3]int{0, 1, 5}:
			s.Tris = append(s.Tris, [3]int{0, p, 5}, [3]int{p, 1, 5})
		default:
			s.Tris = append(s.Tris, tri)
		}
	}
	m, notes, err := Tetrahedralize(s, TetGenOptions{TargetNodes: 200})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(notes, "\n")
	if !strings.Contains(all, "the surface has edges down to 1e-05") || !strings.Contains(all, "merged 1 surface edge shorter than 0.00173 (0.001 of the size)") ||
		strings.Contains(all, "-Y") || !strings.Contains(all, "tetrahedralised the closed surface (12 triangles, 8 points)") {
		t.Errorf("notes %q", notes)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
	if v := m.Volume(); !sameFloat(v, 1, 1e-4) || len(m.Nodes) < 100 {
		t.Errorf("volume %g, %d nodes; want 1 and about 200", v, len(m.Nodes))
	}
}

// TestOpenUntangles opens a surface with two folds (two points pushed
// sideways past their neighbours, so that 13 pairs of triangles cross):
// the triangles that cross are taken out, the tips of the folds that this
// cuts off dropped and the holes filled.
func TestOpenUntangles(t *testing.T) {
	needTetGen(t)
	l, err := Open("testdata/folds.obj", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "the surface intersects itself (TetGen finds 13 pairs of crossing triangles, the first near (17.6443, -9.47995, -3.84935)): " +
		"took out 14 triangles around them, dropped 2 pieces cut off (3 triangles) and filled the 2 holes left"
	if !slices.Contains(l.Notes, want) {
		t.Errorf("notes %q\nlack %q", l.Notes, want)
	}
	if err := l.Mesh.Validate(); err != nil {
		t.Error(err)
	}
	// The ball has a radius of 20 ± 2; the two folds change its volume by
	// less than a hundredth.
	if v := l.Mesh.Volume(); v < 0.7*33510 || v > 1.3*33510 {
		t.Errorf("volume %g", v)
	}
}
