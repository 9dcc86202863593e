package mesh

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
func checkLoaded(t *testing.T, m *TetMesh, err error, prefix string) {
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
	_, _ = ExtractSurface(m)
	for _, w := range []struct {
		write  func(io.Writer, *TetMesh) error
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
		if !equalNodes(back.Nodes, m.Nodes) || !equalTets(back.Tets, m.Tets) {
			t.Fatalf("the %v round trip changed the mesh", w.format)
		}
	}
}

func FuzzGmsh(f *testing.F) {
	seedFromTestdata(f, ".msh")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := LoadGmsh(bytes.NewReader(data))
		checkLoaded(t, m, err, "msh: ")
	})
}

func FuzzVTK(f *testing.F) {
	seedFromTestdata(f, ".vtk")
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := LoadVTK(bytes.NewReader(data))
		checkLoaded(t, m, err, "vtk: ")
	})
}
