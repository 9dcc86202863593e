package meshfile

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// writeGmsh22 writes m as Gmsh 2.2 ASCII with node tags 10, 20, 30, … (so
// the loader has to map tags) and two physical tags per element.
func writeGmsh22(w io.Writer, m *mesh.TetMesh) error {
	var b strings.Builder
	b.WriteString("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n")
	fmt.Fprintf(&b, "%d\n", len(m.Nodes))
	for i, p := range m.Nodes {
		fmt.Fprintf(&b, "%d %s %s %s\n", 10*(i+1), ftoa(p.X), ftoa(p.Y), ftoa(p.Z))
	}
	fmt.Fprintf(&b, "$EndNodes\n$Elements\n%d\n", len(m.Tets))
	for i, t := range m.Tets {
		fmt.Fprintf(&b, "%d 4 2 7 1 %d %d %d %d\n", i+1, 10*(t[0]+1), 10*(t[1]+1), 10*(t[2]+1), 10*(t[3]+1))
	}
	b.WriteString("$EndElements\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeVTK51 writes m as legacy VTK 5.1 with OFFSETS and CONNECTIVITY
// arrays, wrapping numbers across lines irregularly.
func writeVTK51(w io.Writer, m *mesh.TetMesh) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# vtk DataFile Version 5.1\nround trip\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS %d double\n", len(m.Nodes))
	for i, p := range m.Nodes {
		sep := " "
		if i%2 == 1 {
			sep = "\n"
		}
		fmt.Fprintf(&b, "%s %s %s%s", ftoa(p.X), ftoa(p.Y), ftoa(p.Z), sep)
	}
	fmt.Fprintf(&b, "\nCELLS %d %d\nOFFSETS vtktypeint64\n", len(m.Tets)+1, 4*len(m.Tets))
	for i := 0; i <= len(m.Tets); i++ {
		fmt.Fprintf(&b, "%d\n", 4*i)
	}
	b.WriteString("CONNECTIVITY vtktypeint64\n")
	for _, t := range m.Tets {
		fmt.Fprintf(&b, "%d %d %d %d ", t[0], t[1], t[2], t[3])
	}
	fmt.Fprintf(&b, "\nCELL_TYPES %d\n", len(m.Tets))
	for range m.Tets {
		b.WriteString("10\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func TestRoundTrip(t *testing.T) {
	box, err := mesh.Box(r3.Vec{X: 0.05, Y: 0.03, Z: 0.02}, 5, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	cyl, err := mesh.Cylinder(0.02, 0.05, 6, 5)
	if err != nil {
		t.Fatal(err)
	}
	writers := []struct {
		name   string
		write  func(io.Writer, *mesh.TetMesh) error
		format Format
	}{
		{"gmsh22", writeGmsh22, FormatGmsh},
		{"gmsh41", WriteGmsh41, FormatGmsh},
		{"vtk30", WriteVTK, FormatVTK},
		{"vtk51", writeVTK51, FormatVTK},
	}
	for _, c := range []struct {
		name string
		m    *mesh.TetMesh
	}{{"box", box}, {"cylinder", cyl}} {
		for _, w := range writers {
			t.Run(c.name+"/"+w.name, func(t *testing.T) {
				var buf bytes.Buffer
				if err := w.write(&buf, c.m); err != nil {
					t.Fatal(err)
				}
				got, err := Parse(&buf, w.format)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if !slices.Equal(got.Nodes, c.m.Nodes) || !slices.Equal(got.Tets, c.m.Tets) {
					t.Errorf("mesh changed in the round trip: %d/%d nodes, %d/%d tets",
						len(got.Nodes), len(c.m.Nodes), len(got.Tets), len(c.m.Tets))
				}
			})
		}
	}
}

// TestWriteErrors checks that a failing writer is reported.
func TestWriteErrors(t *testing.T) {
	m, err := mesh.Box(r3.Vec{X: 1, Y: 1, Z: 1}, 20, 20, 20)
	if err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func(io.Writer, *mesh.TetMesh) error{"gmsh41": WriteGmsh41, "vtk": WriteVTK} {
		t.Run(name, func(t *testing.T) {
			if err := write(failingWriter{}, m); err == nil || !strings.Contains(err.Error(), "disk full") {
				t.Errorf("error = %v, want the writer's error", err)
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("disk full") }
