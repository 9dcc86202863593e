package meshfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"softgrasp/physics/mesh"
)

// seedFromTestdata adds every fixture with the given extension, good and
// bad, to the fuzz corpus.
func seedFromTestdata(f *testing.F, ext string) {
	files, err := filepath.Glob(filepath.Join("testdata", "*"+ext))
	if err != nil || len(files) == 0 {
		f.Fatalf("no %s fixtures: %v", ext, err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkLoaded states what a loader must guarantee for any input: either
// no mesh and an error that says which format it came from, or a mesh
// that passes Validate, survives surface extraction without a panic, and
// comes back identical through both writers and loaders.
func checkLoaded(t *testing.T, m *mesh.TetMesh, err error, prefix string) {
	if err != nil {
		if m != nil {
			t.Fatalf("mesh returned together with error %v", err)
		}
		if !strings.HasPrefix(err.Error(), prefix) {
			t.Fatalf("error %q does not start with %q", err, prefix)
		}
		return
	}
	if verr := m.Validate(); verr != nil {
		t.Fatalf("loaded mesh fails Validate: %v", verr)
	}
	// Validity does not imply a manifold (two tetrahedra may overlap), so
	// ExtractSurface may fail; it must not panic.
	_, _ = mesh.ExtractSurface(m)
	for _, w := range []struct {
		write  func(io.Writer, *mesh.TetMesh) error
		format Format
	}{{WriteGmsh41, FormatGmsh}, {WriteVTK, FormatVTK}} {
		var buf bytes.Buffer
		if err := w.write(&buf, m); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(&buf, w.format)
		if err != nil {
			t.Fatalf("reloading the written %v mesh: %v", w.format, err)
		}
		if !slices.Equal(back.Nodes, m.Nodes) || !slices.Equal(back.Tets, m.Tets) {
			t.Fatalf("the %v round trip changed the mesh", w.format)
		}
	}
}

// checkParsed states what a reader must guarantee for any input: an
// error that says which format it came from, or what it read turns into
// a valid mesh (see checkLoaded) or a surface whose check does not panic.
// TetGen is not run.
func checkParsed(t *testing.T, b *builder, err error, prefix string) {
	if err != nil {
		if b != nil {
			t.Fatalf("builder returned together with error %v", err)
		}
		if !strings.HasPrefix(err.Error(), prefix) {
			t.Fatalf("error %q does not start with %q", err, prefix)
		}
		return
	}
	if len(b.tets) > 0 {
		m, err := b.finish()
		checkLoaded(t, m, err, prefix)
		return
	}
	s, _, err := b.surface()
	if err != nil {
		if !strings.HasPrefix(err.Error(), prefix) {
			t.Fatalf("error %q does not start with %q", err, prefix)
		}
		return
	}
	if _, err := s.Close(); err == nil && len(s.Tris) < 4 {
		t.Fatalf("a closed surface of %d triangles", len(s.Tris))
	}
}

func FuzzGmsh(f *testing.F) {
	seedFromTestdata(f, ".msh")
	for _, o := range []order{le, be} {
		f.Add(gmsh22Binary(o, mixedCube()))
		f.Add(gmsh41Binary(o, 8, mixedCube()))
	}
	f.Add(gmsh41Binary(le, 4, cubeSurface()))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := parseGmsh(bytes.NewReader(data))
		checkParsed(t, b, err, "msh: ")
	})
}

func FuzzVTK(f *testing.F) {
	seedFromTestdata(f, ".vtk")
	for _, v := range []string{"3.0", "5.1"} {
		f.Add(vtkLegacyBinary(v, false, mixedCube()))
		f.Add(vtkLegacyBinary(v, true, cubeSurface()))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := parseVTK(bytes.NewReader(data))
		checkParsed(t, b, err, "vtk: ")
	})
}

func FuzzVTKXML(f *testing.F) {
	seedFromTestdata(f, ".vtu")
	for _, st := range []xmlStyle{
		{format: "ascii"}, {format: "binary", zlib: true, blocks: 2}, {format: "binary", header64: true, big: true},
		{format: "appended", encoding: "raw", zlib: true}, {format: "appended", encoding: "base64", int64: true},
	} {
		f.Add(vtkXML(st, false, mixedCube()))
		f.Add(vtkXML(st, true, cubeSurface()))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := parseVTKXML(bytes.NewReader(data))
		checkParsed(t, b, err, "vtk xml: ")
	})
}

func FuzzSTL(f *testing.F) {
	f.Add(stlASCII(cubeSurface()))
	f.Add(stlBinary("cube", cubeSurface()))
	f.Add(stlBinary("solid cube", cubeSurface()))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := parseSTL(bytes.NewReader(data))
		checkParsed(t, b, err, "stl: ")
	})
}

func FuzzOBJ(f *testing.F) {
	seedFromTestdata(f, ".obj")
	f.Add([]byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf -3 -2 -1\nl 1 2\np 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := parseOBJ(bytes.NewReader(data))
		checkParsed(t, b, err, "obj: ")
	})
}

// FuzzTetGenOutput feeds the readers of TetGen's .node and .ele files:
// data holds both, split at the first NUL byte.
func FuzzTetGenOutput(f *testing.F) {
	f.Add([]byte("4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n# tetgen\x001 4 0\n0 0 1 2 3\n"))
	f.Add([]byte("2 3 0 1\n1 0 0 0 1\n2 1 1 1 1\n\x001 10 0\n1 1 2 1 2 1 2 1 2 1 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		node, ele, _ := bytes.Cut(data, []byte{0})
		nodes, err := parseTetGenNodes(bytes.NewReader(node))
		if err != nil {
			if nodes != nil || !strings.HasPrefix(err.Error(), "tetgen .node: ") {
				t.Fatalf("nodes %v with error %v", nodes, err)
			}
			return
		}
		tets, err := parseTetGenElements(bytes.NewReader(ele), len(nodes))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "tetgen .ele: ") {
				t.Fatalf("error %v", err)
			}
			return
		}
		for _, tet := range tets {
			for _, v := range tet {
				if v < 0 || v >= len(nodes) {
					t.Fatalf("tetrahedron %v references a point outside [0, %d)", tet, len(nodes))
				}
			}
		}
	})
}
