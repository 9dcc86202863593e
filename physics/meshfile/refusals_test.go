package meshfile

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Files that must be refused, each with the parts of the message that
// say where and what: a declared count one off, truncated binary data, a
// compressed block that does not inflate, XML that is not VTK, and a file
// with neither tetrahedra nor a closed surface.

// mutate returns data with the first old replaced by new; the test fails
// if old is not there.
func mutate(t testing.TB, data []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%q not in the test file", old)
	}
	return bytes.Replace(data, []byte(old), []byte(new), 1)
}

// fixtureFile reads a file of testdata.
func fixtureFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// appendedOffset returns where the data of the named array starts in a
// file with raw appended data.
func appendedOffset(t testing.TB, data []byte, name string) int {
	t.Helper()
	m := regexp.MustCompile(`Name="` + name + `"[^>]*offset="(\d+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("no appended array %s", name)
	}
	off, _ := strconv.Atoi(string(m[1]))
	start := bytes.Index(data, []byte("<AppendedData"))
	return start + bytes.IndexByte(data[start:], '_') + 1 + off
}

type refusal struct {
	name string
	data []byte
	want []string
}

func gmshRefusals(t *testing.T) []refusal {
	f := mixedCube()
	g22, g41 := gmsh22Binary(le, f), gmsh41Binary(le, 8, f)
	at := bytes.Index(g41, []byte("$Elements\n")) + len("$Elements\n")
	g41count := append([]byte(nil), g41...)
	binary.LittleEndian.PutUint64(g41count[at+8:], 10) // numElements 9 → 10
	g41type := append([]byte(nil), g41...)
	binary.LittleEndian.PutUint32(g41type[at+32+8:], 999) // first block's type
	return []refusal{
		{"nodes-one-more.msh", mutate(t, g22, "$Nodes\n9\n", "$Nodes\n10\n"),
			[]string{"binary data after line 10", "expected $EndNodes after the 10 nodes of the binary $Nodes block", "does the declared count match the data?"}},
		{"nodes-one-less.msh", mutate(t, g22, "$Nodes\n9\n", "$Nodes\n8\n"),
			[]string{"binary data after line 10", "expected $EndNodes after the 8 nodes", "does the declared count match the data?"}},
		{"elements-one-more.msh", mutate(t, g22, "$Elements\n9\n", "$Elements\n10\n"),
			[]string{"binary data after line 13", "$Elements declares 10 elements but its blocks hold 9"}},
		{"truncated.msh", g22[:200],
			[]string{"binary data after line 10", "the file ends inside the binary $Nodes block after 3 of 9 nodes"}},
		{"count41.msh", g41count, []string{"$Elements declares 10 elements but its blocks hold 9"}},
		{"type41.msh", g41type, []string{"binary element block 1 of unknown type 999"}},
		{"bad_v1_count.msh", fixtureFile(t, "bad_v1_count.msh"),
			[]string{"line 12", "$NOD ends early: expected node 10 of 10, found \"$ENDNOD\""}},
		{"bad_no_tets.msh", fixtureFile(t, "bad_no_tets.msh"),
			[]string{"msh: the file holds no tetrahedra, and its surface (1 triangle) cannot be filled with them: the surface is open: 3 edges border only one triangle"}},
	}
}

func legacyVTKRefusals(t *testing.T) []refusal {
	f := mixedCube()
	v30 := vtkLegacyBinary("3.0", false, f)
	cube := fixtureFile(t, "good_v3_cube.vtk")
	typesAt := bytes.Index(v30, []byte("CELL_TYPES"))
	return []refusal{
		{"points-one-more.vtk", mutate(t, v30, "POINTS 9 double", "POINTS 10 double"),
			[]string{"expected a keyword after the binary data of POINTS declares 10 points", "does the declared count match the data?"}},
		{"points-one-less.vtk", mutate(t, v30, "POINTS 9 double", "POINTS 8 double"),
			[]string{"line 6", "expected a keyword after the binary data of POINTS declares 8 points", "does the declared count match the data?"}},
		{"cells-one-more.vtk", mutate(t, v30, "CELLS 9 46", "CELLS 10 46"),
			[]string{"binary data after line", "CELLS declares 10 cells but its 46 integers hold 9"}},
		{"size-one-more.vtk", mutate(t, v30, "CELLS 9 46", "CELLS 9 47"),
			[]string{"CELLS declares 9 cells but its 47 integers hold more"}},
		{"truncated.vtk", v30[:typesAt+20],
			[]string{"binary data after line", "the binary data of CELL_TYPES is truncated: the file ends before value 9 of 9"}},
		{"ascii-points-one-more.vtk", mutate(t, cube, "POINTS 9 float", "POINTS 10 float"),
			[]string{"line 15", "POINTS declares 10 points but its data ends after 9 (found \"CELLS\")"}},
		{"ascii-points-one-less.vtk", mutate(t, cube, "POINTS 9 float", "POINTS 8 float"),
			[]string{"line 13", "expected a keyword, found the number \"5\": POINTS declares 8 points, but more values follow"}},
		{"ascii-cells-one-more.vtk", mutate(t, cube, "CELLS 9 39", "CELLS 10 39"),
			[]string{"line 25", "CELLS declares 10 cells but its data ends inside cell 9 (found \"CELL_TYPES\")"}},
		{"ascii-cells-one-less.vtk", mutate(t, cube, "CELLS 9 39", "CELLS 8 39"),
			[]string{"line 23", "CELLS declares size 39 but its 8 cells hold 34 numbers"}},
		{"lines-only.vtk", []byte("# vtk DataFile Version 3.0\nx\nASCII\nDATASET POLYDATA\nPOINTS 2 float\n0 0 0 1 0 0\nLINES 1 3\n2 0 1\n"),
			[]string{"vtk: the file contains no tetrahedra, only 1 line; only tetrahedra are simulated"}},
	}
}

func xmlRefusals(t *testing.T) []refusal {
	f := mixedCube()
	bin := vtkXML(xmlStyle{format: "binary"}, false, f)
	raw := vtkXML(xmlStyle{format: "appended", encoding: "raw", zlib: true}, false, f)
	corrupt := append([]byte(nil), raw...)
	at := appendedOffset(t, corrupt, "Points") + 16 // past the 4-integer header of one block
	corrupt[at+4] ^= 0xff
	pts := regexp.MustCompile(`(?s)(Name="Points"[^>]*>\s*)([A-Za-z0-9+/=]+)`).FindSubmatchIndex(bin)
	truncated := append(append(append([]byte(nil), bin[:pts[4]]...), bin[pts[4]:pts[4]+20]...), bin[pts[5]:]...)
	return []refusal{
		{"ascii-points-one-more.vtu", mutate(t, fixtureFile(t, "good_cube.vtu"), `NumberOfPoints="8"`, `NumberOfPoints="9"`),
			[]string{`vtk xml: line 6: <DataArray>: it holds 24 values, but the counts of the piece need 27 (NumberOfPoints=9)`}},
		{"cells-one-less.vtu", mutate(t, bin, `NumberOfCells="9"`, `NumberOfCells="8"`),
			[]string{`line 19: <DataArray Name="offsets">: its header declares 36 bytes of data, but the counts of the piece need 32`}},
		{"truncated-base64.vtu", truncated,
			[]string{`line 11: <DataArray Name="Points">: its data is truncated: 108 bytes declared: unexpected EOF (NumberOfPoints=9)`}},
		{"truncated-appended.vtu", raw[:len(raw)-60],
			[]string{"<AppendedData> is not closed by </AppendedData> (truncated file?)"}},
		{"no-inflate.vtu", corrupt,
			[]string{`<DataArray Name="Points">: compressed block 1 of 1 does not inflate`}},
		{"not-vtk.vtu", []byte("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">\n<rect/>\n</svg>\n"),
			[]string{"vtk xml: line 2: the root element is <svg>, not <VTKFile>: not a VTK XML file"}},
		{"not-xml.vtu", []byte("<VTKFile><Piece></VTKFile>"), []string{"vtk xml: not well-formed XML"}},
		{"lz4.vtu", mutate(t, raw, "vtkZLibDataCompressor", "vtkLZ4DataCompressor"),
			[]string{`line 2: <VTKFile>: compressor "vtkLZ4DataCompressor" is not supported`}},
		{"parallel.pvtu", []byte(`<VTKFile type="PUnstructuredGrid"><PUnstructuredGrid/></VTKFile>`),
			[]string{"a parallel VTK file only names the files of its pieces"}},
		{"offset-out.vtu", mutate(t, raw, `Name="Points" NumberOfComponents="3" format="appended" offset="`,
			`Name="Points" NumberOfComponents="3" format="appended" offset="99999`),
			[]string{`<DataArray Name="Points">: offset`, "is not within the"}},
	}
}

func surfaceRefusals(t *testing.T) []refusal {
	f := cubeSurface()
	stl := stlBinary("cube", f)
	count := append([]byte(nil), stl...)
	binary.LittleEndian.PutUint32(count[80:], 13)
	ascii := stlASCII(f)
	open := f
	open.elems = open.elems[2:] // a box without its lid
	return []refusal{
		{"count-one-more.stl", count,
			[]string{"stl: the binary header declares 13 triangles, which need 734 bytes, but the file has 684 (12 triangles)"}},
		{"truncated.stl", ascii[:300], []string{"stl: line 19: the file ends inside a loop (want vertex or endloop) (truncated file?)"}},
		{"open.stl", stlASCII(open),
			[]string{"stl: the file holds no tetrahedra, and its surface (10 triangles) cannot be filled with them: the surface is open: 4 edges border only one triangle; " +
				"the largest hole, a loop of 4 edges around (0.5, 0.5, 0) spanning 1.41, needs 20% of the area of its piece to close (at most 10% is filled): an open sheet encloses no volume"}},
		{"sheet.stl", fixtureFile(t, "sheet.stl"),
			[]string{"stl: the file holds no tetrahedra, and its surface (168 triangles) cannot be filled with them: the surface is open: 24 edges border only one triangle; " +
				"the largest hole, a loop of 24 edges around", "spanning 42.5, needs 52.8% of the area of its piece to close"}},
		{"corner.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n"),
			[]string{"obj: line 4: face corner \"9\" refers to vertex 9, but 3 vertices are defined so far"}},
		{"fin.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 2 5\n"),
			[]string{"the surface is open"}},
		{"book.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 -1 0\nv 0 0 -1\n" +
			"f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\nf 1 2 5\nf 1 6 2\nf 1 5 6\nf 2 6 5\n"),
			[]string{"the surface is not a manifold: 1 edge is shared by more than two triangles, the first (from (0, 0, 0) to (1, 0, 0)) by 4"}},
	}
}

func TestRefusals(t *testing.T) {
	var all []refusal
	all = append(all, gmshRefusals(t)...)
	all = append(all, legacyVTKRefusals(t)...)
	all = append(all, xmlRefusals(t)...)
	all = append(all, surfaceRefusals(t)...)
	dir := t.TempDir()
	for _, r := range all {
		t.Run(r.name, func(t *testing.T) {
			path := filepath.Join(dir, r.name)
			if err := os.WriteFile(path, r.data, 0o600); err != nil {
				t.Fatal(err)
			}
			l, err := Open(path, Options{TetGen: "/nonexistent/tetgen"})
			if err == nil {
				t.Fatalf("Open succeeded (%s, %d tetrahedra); want an error", l.Format, len(l.Mesh.Tets))
			}
			msg := err.Error()
			t.Log(msg)
			if !strings.HasPrefix(msg, path+": ") {
				t.Errorf("error %q does not start with the file name", msg)
			}
			for _, w := range r.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q\ndoes not say %q", msg, w)
				}
			}
		})
	}
}

// TestBinaryHostileCounts checks that a binary file declaring 10¹² records
// costs no more memory than the data present, and is refused.
func TestBinaryHostileCounts(t *testing.T) {
	f := mixedCube()
	huge := []struct {
		name string
		data []byte
	}{
		{"nodes.msh", mutate(t, gmsh22Binary(le, f), "$Nodes\n9\n", "$Nodes\n1000000000000\n")},
		{"elements.msh", mutate(t, gmsh22Binary(le, f), "$Elements\n9\n", "$Elements\n1000000000000\n")},
		{"points.vtk", mutate(t, vtkLegacyBinary("3.0", false, f), "POINTS 9 double", "POINTS 1000000000000 double")},
		{"cells.vtk", mutate(t, vtkLegacyBinary("5.1", false, f), "CELLS 10 37", "CELLS 1000000000000 37")},
		{"points.vtu", mutate(t, vtkXML(xmlStyle{format: "appended", encoding: "raw"}, false, f), `NumberOfPoints="9"`, `NumberOfPoints="2000000000"`)},
		{"triangles.stl", func() []byte {
			b := stlBinary("cube", cubeSurface())
			binary.LittleEndian.PutUint32(b[80:], 0xffffffff)
			return b
		}()},
	}
	for _, h := range huge {
		t.Run(h.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Read(bytes.NewReader(h.data), h.name, Options{})
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatal("no error for a count far beyond the data")
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
				t.Errorf("reading %d bytes allocated %d bytes", len(h.data), got)
			}
		})
	}
}
