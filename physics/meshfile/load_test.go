package meshfile

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// The cube fixtures hold the unit cube as the six Kuhn tetrahedra of its
// corners, corner b at (b&1, b>>1&1, b>>2&1), listed in this order. The
// fourth is written with negative orientation on purpose; the loaders must
// swap two of its nodes. They also hold an unused node, lower-dimensional
// elements and extra sections, all of which must vanish.
var (
	cubeCorners = func() []r3.Vec {
		var p []r3.Vec
		for b := 0; b < 8; b++ {
			p = append(p, r3.Vec{X: float64(b & 1), Y: float64(b >> 1 & 1), Z: float64(b >> 2 & 1)})
		}
		return p
	}()
	cubeTets = [][4]int{{0, 1, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 1, 7, 5}, {0, 4, 7, 6}, {0, 2, 7, 3}}
	unitTet  = []r3.Vec{{}, {X: 1}, {Y: 1}, {Z: 1}}
)

// load opens a fixture with the default options and returns its mesh.
func load(path string) (*mesh.TetMesh, error) {
	l, err := Open(path, Options{})
	if err != nil {
		return nil, err
	}
	return l.Mesh, nil
}

func TestLoadGoodFiles(t *testing.T) {
	tests := []struct {
		file  string
		nodes []r3.Vec
		tets  [][4]int
	}{
		{"good_v22_cube.msh", cubeCorners, cubeTets},
		{"good_v22_crlf.msh", cubeCorners, cubeTets},
		{"good_v41_cube.msh", cubeCorners, cubeTets},
		{"good_v41_crlf.msh", cubeCorners, cubeTets},
		{"good_v22_tet10.msh", unitTet, [][4]int{{0, 1, 2, 3}}},
		{"good_v41_tet10.msh", unitTet, [][4]int{{0, 1, 2, 3}}},
		{"good_v3_cube.vtk", cubeCorners, cubeTets},
		{"good_v3_crlf.vtk", cubeCorners, cubeTets},
		{"good_v51_cube.vtk", cubeCorners, cubeTets},
		{"good_v2_tet10.vtk", unitTet, [][4]int{{0, 1, 2, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m, err := load(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if !slices.Equal(m.Nodes, tt.nodes) {
				t.Errorf("nodes = %v, want %v", m.Nodes, tt.nodes)
			}
			if !slices.Equal(m.Tets, tt.tets) {
				t.Errorf("tets = %v, want %v", m.Tets, tt.tets)
			}
			if err := m.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestLoadBadFiles(t *testing.T) {
	tests := []struct {
		file string
		want []string // substrings of the error
	}{
		{"bad_truncated.msh", []string{"file ends inside $Nodes", "node 5 of 9"}},
		{"bad_truncated_midline.msh", []string{"line 15", "node line needs 4 fields (tag x y z), found 2"}},
		{"bad_binary.msh", []string{"binary data after line 5", "file ends inside the binary $Nodes block"}},
		{"bad_missing_elements.msh", []string{"missing $Elements"}},
		{"bad_missing_format.msh", []string{"missing $MeshFormat"}},
		{"bad_count_negative.msh", []string{"line 5", "bad node count \"-5\""}},
		{"bad_count_too_large.msh", []string{"line 10", "$Nodes ends early", "node 5 of 100"}},
		{"bad_count_too_small.msh", []string{"line 9", "expected $EndNodes"}},
		{"bad_nan.msh", []string{"line 8", "coordinate y of node 3", "not a finite number"}},
		{"bad_inf.msh", []string{"line 7", "coordinate x of node 2", "not a finite number"}},
		{"bad_reference.msh", []string{"msh: line 14: element 17 references node 99 which is not defined"}},
		{"bad_repeated.msh", []string{"line 13", "element 17 lists node 2 twice"}},
		{"bad_degenerate.msh", []string{"line 15", "element 2 is degenerate"}},
		{"bad_no_tets.msh", []string{"no tetrahedra"}},
		{"bad_hexahedron.msh", []string{"no tetrahedra, only 1 hexahedron", "only tetrahedra are simulated"}},
		{"bad_version.msh", []string{"line 2", "version \"4\" is not supported"}},
		{"bad_duplicate_tag.msh", []string{"line 8", "node 2 is defined twice"}},
		{"bad_unclosed.msh", []string{"line 4", "$PhysicalNames is not closed"}},
		{"bad_tet_node_count.msh", []string{"element 5 of type 4 needs 4 nodes, found 3"}},
		{"bad_v41_block_sum.msh", []string{"declares 5 nodes", "hold 4"}},
		{"bad_v41_missing_end.msh", []string{"line 15", "expected $EndNodes, found \"$Elements\""}},
		{"bad_v41_parametric.msh", []string{"line 11", "coordinates of node 1 need 5 fields, found 3"}},
		{"bad_huge_coordinates.msh", []string{"too large to compute volumes"}},
		{"bad_huge_count.msh", []string{"node 2 of 1000000000000"}},
		{"bad_binary.vtk", []string{"binary data after line 5", "POINTS (4 points) is truncated"}},
		{"bad_truncated.vtk", []string{"file ends inside POINTS after 2 of 4 points"}},
		{"bad_header.vtk", []string{"line 1", "# vtk DataFile Version"}},
		{"bad_dataset.vtk", []string{"line 4", "STRUCTURED_POINTS", "not supported"}},
		{"bad_cells_size.vtk", []string{"CELLS declares size 7", "hold 5"}},
		{"bad_cells_overflow.vtk", []string{"line 8", "cell 0 with 6 points overflows"}},
		{"bad_celltypes_count.vtk", []string{"CELL_TYPES lists 2 types but CELLS has 1 cells"}},
		{"bad_nan.vtk", []string{"line 6", "coordinate y of point 1", "not a finite number"}},
		{"bad_reference.vtk", []string{"line 8", "cell 0 references point 12", "only 4 points"}},
		{"bad_repeated.vtk", []string{"cell 0 lists point 1 twice"}},
		{"bad_degenerate.vtk", []string{"line 8", "element 0 is degenerate"}},
		{"bad_no_tets.vtk", []string{"no tetrahedra"}},
		{"bad_negative_count.vtk", []string{"line 5", "bad point count \"-3\""}},
		{"bad_offsets.vtk", []string{"OFFSETS must start at 0"}},
		{"bad_missing_celltypes.vtk", []string{"missing CELL_TYPES"}},
		{"bad_hexahedron.vtk", []string{"no tetrahedra, only 1 hexahedron", "only tetrahedra are simulated"}},
		{"bad_huge_count.vtk", []string{"after 2 of 1000000000000 points"}},
		{"bad_keyword.vtk", []string{"line 7", "unexpected \"POLYGONS\""}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m, err := load(filepath.Join("testdata", tt.file))
			if err == nil {
				t.Fatalf("Load succeeded with %d nodes, %d tets; want an error", len(m.Nodes), len(m.Tets))
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if !strings.Contains(err.Error(), tt.file) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestLoadRejectsLongLines(t *testing.T) {
	long := "$MeshFormat\n" + strings.Repeat("2", MaxLineBytes+1) + "\n"
	tests := []struct {
		name   string
		format Format
		text   string
	}{
		{"msh", FormatGmsh, long},
		{"vtk", FormatVTK, "# vtk DataFile Version 3.0\n" + strings.Repeat("t", MaxLineBytes+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.text), tt.format)
			if err == nil || !strings.Contains(err.Error(), "line 2: line longer than") {
				t.Fatalf("error = %v, want a line-length error at line 2", err)
			}
		})
	}
}

// TestHostileCountsDoNotPreallocate checks that a header declaring 10¹²
// records costs no more memory than the data actually present.
func TestHostileCountsDoNotPreallocate(t *testing.T) {
	for _, file := range []string{"bad_huge_count.msh", "bad_huge_count.vtk"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			format, _ := FormatOf(file)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = Parse(bytes.NewReader(data), format)
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatal("no error for a truncated file")
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
				t.Errorf("parsing %d bytes allocated %d bytes", len(data), got)
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	tests := []struct {
		path string
		want Format
		ok   bool
	}{
		{"a/b/bean.msh", FormatGmsh, true},
		{"BEAN.MSH", FormatGmsh, true},
		{"x.vtk", FormatVTK, true},
		{"x.vtu", FormatVTKXML, true},
		{"x.ply", 0, false},
		{"noext", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got, err := FormatOf(tt.path)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("FormatOf(%q) = %v, %v; want %v, ok=%v", tt.path, got, err, tt.want, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "unknown extension") {
				t.Errorf("error %q does not explain the extension", err)
			}
		})
	}
}

// TestFormatNames checks that every format's extension leads back to it
// through FormatOf, and the names of an unknown format.
func TestFormatNames(t *testing.T) {
	for f := FormatGmsh; f <= FormatOBJ; f++ {
		if got, err := FormatOf("x." + f.String()); err != nil || got != f || f.Name() == f.String() {
			t.Errorf("format %d: extension %q gives %v, %v; name %q", int(f), f.String(), got, err, f.Name())
		}
	}
	if s, n := Format(0).String(), Format(7).Name(); s != "Format(0)" || n != "Format(7)" {
		t.Errorf("unknown formats: %q, %q", s, n)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := load(filepath.Join(t.TempDir(), "absent.msh"))
	if err == nil || !strings.Contains(err.Error(), "absent.msh") {
		t.Fatalf("error = %v, want one naming the missing file", err)
	}
	if _, err := Parse(strings.NewReader(""), Format(7)); err == nil {
		t.Fatal("Parse accepted an unknown format")
	}
}

// sameFloat reports whether two volumes agree to a relative tolerance.
func sameFloat(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}
