package meshfile

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

var (
	le = binary.LittleEndian
	be = binary.BigEndian
)

// volumeVariant is one way of writing the mixed cube.
type volumeVariant struct {
	name   string // file name given to Read (its extension is a hint)
	data   []byte
	format string // Loaded.Format
	note   string // a note besides mixedCubeNote, if any
}

// volumeVariants writes mixedCube in every binary and XML variant.
func volumeVariants() []volumeVariant {
	f := mixedCube()
	xml := func(st xmlStyle) []byte { return vtkXML(st, false, f) }
	return []volumeVariant{
		{"cube22le.msh", gmsh22Binary(le, f), "Gmsh 2.2 binary", ""},
		{"cube22be.msh", gmsh22Binary(be, f), "Gmsh 2.2 binary", ""},
		{"cube41le.msh", gmsh41Binary(le, 8, f), "Gmsh 4.1 binary", ""},
		{"cube41be.msh", gmsh41Binary(be, 8, f), "Gmsh 4.1 binary", ""},
		{"cube41size4.msh", gmsh41Binary(le, 4, f), "Gmsh 4.1 binary", ""},
		{"cube30.vtk", vtkLegacyBinary("3.0", false, f), "legacy VTK 3.0 BINARY UNSTRUCTURED_GRID", ""},
		{"cube51.vtk", vtkLegacyBinary("5.1", false, f), "legacy VTK 5.1 BINARY UNSTRUCTURED_GRID", ""},
		{"ascii.vtu", xml(xmlStyle{format: "ascii"}), "VTK XML UnstructuredGrid (ascii)", ""},
		{"binary.vtu", xml(xmlStyle{format: "binary"}), "VTK XML UnstructuredGrid (binary)", ""},
		{"binary64.vtu", xml(xmlStyle{format: "binary", header64: true, float64: true, int64: true}), "VTK XML UnstructuredGrid (binary)", ""},
		{"binarybe.vtu", xml(xmlStyle{format: "binary", big: true}), "VTK XML UnstructuredGrid (binary)", ""},
		{"joint.vtu", xml(xmlStyle{format: "binary", joint: true, header64: true}), "VTK XML UnstructuredGrid (binary)", ""},
		{"zlib.vtu", xml(xmlStyle{format: "binary", zlib: true}), "VTK XML UnstructuredGrid (binary, zlib)", ""},
		{"zlib64be.vtu", xml(xmlStyle{format: "binary", zlib: true, header64: true, big: true, float64: true, int64: true, blocks: 3}),
			"VTK XML UnstructuredGrid (binary, zlib)", ""},
		{"raw.vtu", xml(xmlStyle{format: "appended", encoding: "raw"}), "VTK XML UnstructuredGrid (appended raw)", ""},
		{"rawzlib.vtu", xml(xmlStyle{format: "appended", encoding: "raw", zlib: true, header64: true, blocks: 2}),
			"VTK XML UnstructuredGrid (appended raw, zlib)", ""},
		{"rawbe.vtu", xml(xmlStyle{format: "appended", encoding: "raw", big: true, int64: true}), "VTK XML UnstructuredGrid (appended raw)", ""},
		{"b64.vtu", xml(xmlStyle{format: "appended", encoding: "base64"}), "VTK XML UnstructuredGrid (appended base64)", ""},
		{"b64zlib.vtu", xml(xmlStyle{format: "appended", encoding: "base64", zlib: true, float64: true}),
			"VTK XML UnstructuredGrid (appended base64, zlib)", ""},
		// The content decides; the extension is a hint.
		{"xml-behind.vtk", xml(xmlStyle{format: "binary"}), "VTK XML UnstructuredGrid (binary)",
			"the content is VTK XML although the name ends in .vtk"},
		{"no-extension", gmsh22Binary(le, f), "Gmsh 2.2 binary", ""},
	}
}

func TestReadVolumeVariants(t *testing.T) {
	for _, v := range volumeVariants() {
		t.Run(v.name, func(t *testing.T) {
			l, err := Read(bytes.NewReader(v.data), v.name, Options{})
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if !slices.Equal(l.Mesh.Nodes, cubeCorners) || !slices.Equal(l.Mesh.Tets, cubeTets) {
				t.Errorf("mesh = %v %v, want the cube", l.Mesh.Nodes, l.Mesh.Tets)
			}
			if l.Format != v.format {
				t.Errorf("Format = %q, want %q", l.Format, v.format)
			}
			want := []string{mixedCubeNote}
			if v.note != "" {
				want = []string{v.note, mixedCubeNote}
			}
			if !slices.Equal(l.Notes, want) {
				t.Errorf("Notes = %q, want %q", l.Notes, want)
			}
		})
	}
}

// TestReadASCIIFixtures opens the text fixtures of the formats the older
// tests do not cover: Gmsh 1.0, mixed element types, VTK XML in ASCII.
func TestReadASCIIFixtures(t *testing.T) {
	tests := []struct {
		file   string
		format string
		notes  []string
	}{
		{"good_v1_cube.msh", "Gmsh 1.0", []string{"kept 6 tetrahedra, skipped 1 triangle, 1 point and 1 line"}},
		{"good_v22_mixed.msh", "Gmsh 2.2 ASCII", []string{"kept 6 tetrahedra, skipped 2 triangles, 1 quadrangle, 1 hexahedron, 1 prism and 1 pyramid"}},
		{"good_v41_mixed.msh", "Gmsh 4.1 ASCII", []string{"kept 6 tetrahedra, skipped 1 triangle and 1 hexahedron"}},
		{"good_cube.vtu", "VTK XML UnstructuredGrid (ascii)", []string{"kept 6 tetrahedra, skipped 1 triangle"}},
		{"good_v3_mixed.vtk", "legacy VTK 3.0 ASCII UNSTRUCTURED_GRID", []string{"kept 6 tetrahedra, skipped 1 quadrangle, 1 vertex and 1 wedge"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			l, err := Open(filepath.Join("testdata", tt.file), Options{})
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if !slices.Equal(l.Mesh.Nodes, cubeCorners) || !slices.Equal(l.Mesh.Tets, cubeTets) {
				t.Errorf("mesh = %v %v, want the cube", l.Mesh.Nodes, l.Mesh.Tets)
			}
			if l.Format != tt.format || !slices.Equal(l.Notes, tt.notes) {
				t.Errorf("Format, Notes = %q, %q; want %q, %q", l.Format, l.Notes, tt.format, tt.notes)
			}
		})
	}
}

// surfaceVariants writes the cube's closed surface in every surface
// format; two of its triangles face inwards.
func surfaceVariants(t testing.TB) []volumeVariant {
	f := cubeSurface()
	f.elems[0].nodes = []int{0, 1, 2}
	f.elems[2].nodes = []int{4, 6, 5}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	xml := func(st xmlStyle) []byte { return vtkXML(st, true, f) }
	return []volumeVariant{
		{"cube.stl", stlBinary("binary cube", f), "STL binary", ""},
		{"solid-header.stl", stlBinary("solid cube, binary all the same", f), "STL binary", ""},
		{"ascii.stl", stlASCII(f), "STL ASCII", ""},
		{"end-solid.stl", endInTwoWords(stlASCII(f)), "STL ASCII", ""},
		{"cube.obj", read("good_cube.obj"), "Wavefront OBJ", ""},
		{"poly.vtk", read("good_polydata_cube.vtk"), "legacy VTK 3.0 ASCII POLYDATA", ""},
		{"poly30.vtk", vtkLegacyBinary("3.0", true, f), "legacy VTK 3.0 BINARY POLYDATA", ""},
		{"poly51.vtk", vtkLegacyBinary("5.1", true, f), "legacy VTK 5.1 BINARY POLYDATA", ""},
		{"ascii.vtp", xml(xmlStyle{format: "ascii"}), "VTK XML PolyData (ascii)", ""},
		{"zlib.vtp", xml(xmlStyle{format: "binary", zlib: true}), "VTK XML PolyData (binary, zlib)", ""},
		{"raw.vtp", xml(xmlStyle{format: "appended", encoding: "raw", header64: true}), "VTK XML PolyData (appended raw)", ""},
		{"surface.msh", gmsh22Binary(le, f), "Gmsh 2.2 binary", ""},
		{"stl-named.obj", stlASCII(f), "STL ASCII", "the content is STL although the name ends in .obj"},
	}
}

func TestReadSurfaceVariants(t *testing.T) {
	for _, v := range surfaceVariants(t) {
		t.Run(v.name, func(t *testing.T) {
			format, note, err := Detect(v.data[:min(len(v.data), 512)], v.name)
			if err != nil || note != v.note {
				t.Fatalf("Detect = %v, %q, %v; want note %q", format, note, err, v.note)
			}
			b, err := parseAs(bytes.NewReader(v.data), format)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if b.format != v.format {
				t.Errorf("format = %q, want %q", b.format, v.format)
			}
			s, notes, err := b.surface()
			if err != nil {
				t.Fatalf("surface: %v", err)
			}
			if len(notes) > 0 {
				t.Errorf("notes = %q, want none", notes)
			}
			st, err := s.Close()
			if err != nil {
				t.Fatalf("Close: %v", err)
			}
			if len(s.Nodes) != 8 || len(s.Tris) != 12 || st.Shells != 1 || st.Flipped != 2 || math.Abs(st.Volume-1) > 1e-6 {
				t.Errorf("%d points, %d triangles, %+v; want 8, 12, one shell of volume 1 with 2 triangles turned",
					len(s.Nodes), len(s.Tris), st)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		head, name string
		want       Format
		err        string
	}{
		{"$MeshFormat\n2.2 0 8\n", "x.vtk", FormatGmsh, ""},
		{"\xef\xbb\xbf  $NOD\n", "", FormatGmsh, ""},
		{"# vtk DataFile Version 2.0\n", "x", FormatVTK, ""},
		{"<?xml version=\"1.0\"?>", "x.msh", FormatVTKXML, ""},
		{"SOLID cube\n", "", FormatSTL, ""},
		{"# exported\n\nv 0 0 0\n", "", FormatOBJ, ""},
		{"# only comments\n", "mesh.obj", FormatOBJ, ""},
		{strings.Repeat("\x00", 100), "", FormatSTL, ""},
		{"hello", "x.ply", 0, "cannot tell the format"},
	}
	for _, tt := range tests {
		got, _, err := Detect([]byte(tt.head), tt.name)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("Detect(%q, %q) = %v, %v; want %v, %q", tt.head, tt.name, got, err, tt.want, tt.err)
		}
	}
}

// TestWelding checks that the surface joins points at equal positions and
// drops degenerate and repeated triangles, saying so.
func TestWelding(t *testing.T) {
	obj := "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 1 0 0\n" +
		"f 1 3 2\nf 1 2 4\nf 1 4 3\nf 5 3 4\nf 2 3 4\nf 1 1 2\n"
	b, err := parseOBJ(strings.NewReader(obj))
	if err != nil {
		t.Fatal(err)
	}
	s, notes, err := b.surface()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"merged 1 point that repeats the position of another",
		"dropped 1 degenerate triangle (a corner repeated)", "dropped 1 triangle that repeats another"}
	if !slices.Equal(notes, want) || len(s.Nodes) != 4 || len(s.Tris) != 4 {
		t.Errorf("notes %q, %d points, %d triangles; want %q, 4, 4", notes, len(s.Nodes), len(s.Tris), want)
	}
	if _, err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestSecondOrderTetrahedra reads a 10-node tetrahedron in binary and XML
// variants: its four corners make the linear tetrahedron, its edge nodes
// are dropped.
func TestSecondOrderTetrahedra(t *testing.T) {
	f := fixture{nodes: append([]r3.Vec(nil), unitTet...), tags: []int{4, 8, 15, 16, 23, 42, 108, 815, 4711, 9000}}
	for i := 0; i < 6; i++ {
		f.nodes = append(f.nodes, r3.Vec{X: float64(i) / 10, Y: 0.05, Z: 0.05})
	}
	f.elems = []fixElem{{"tet10", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}}
	for name, data := range map[string][]byte{
		"tet10.msh": gmsh41Binary(be, 8, f), "tet10-22.msh": gmsh22Binary(le, f),
		"tet10.vtk": vtkLegacyBinary("5.1", false, f), "tet10.vtu": vtkXML(xmlStyle{format: "binary", zlib: true}, false, f),
	} {
		l, err := Read(bytes.NewReader(data), name, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(l.Mesh.Nodes, unitTet) || !slices.Equal(l.Mesh.Tets, [][4]int{{0, 1, 2, 3}}) || len(l.Notes) != 0 {
			t.Errorf("%s: %v %v %q, want the unit tetrahedron and no note", name, l.Mesh.Nodes, l.Mesh.Tets, l.Notes)
		}
	}
}

// TestPiecesNote checks the one-line note on a mesh that falls apart.
func TestPiecesNote(t *testing.T) {
	msh := "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n12\n" +
		"1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 5 0 0\n6 6 0 0\n7 5 1 0\n8 5 0 1\n9 0 5 0\n10 1 5 0\n11 0 6 0\n12 1 6 1\n" +
		"$EndNodes\n$Elements\n4\n1 4 0 1 2 3 4\n2 4 0 5 6 7 8\n3 4 0 9 10 11 12\n4 4 0 2 3 4 10\n$EndElements\n"
	l, err := Read(strings.NewReader(msh), "pieces.msh", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"the mesh has 2 disconnected pieces (3, 1 tetrahedra); each moves on its own"}
	if !slices.Equal(l.Notes, want) {
		t.Errorf("notes %q, want %q", l.Notes, want)
	}
}

// TestSimplePolyType: polydata cells of the simple sizes are named as the
// simple VTK cells, the others keep their list's type.
func TestSimplePolyType(t *testing.T) {
	for _, c := range []struct{ typ, n, want int }{
		{7, 3, 5}, {7, 4, 7}, {4, 2, 3}, {4, 3, 4}, {2, 1, 1}, {2, 2, 2}, {6, 3, 6},
	} {
		if got := simplePolyType(c.typ, c.n); got != c.want {
			t.Errorf("simplePolyType(%d, %d) = %d, want %d", c.typ, c.n, got, c.want)
		}
	}
}

// endInTwoWords writes an ASCII STL file's closing keywords as some
// exporters do: "end solid", "end facet", "end loop".
func endInTwoWords(stl []byte) []byte {
	r := strings.NewReplacer("endsolid", "end solid", "endfacet", "end facet", "endloop", "end loop")
	return []byte(r.Replace(string(stl)))
}
