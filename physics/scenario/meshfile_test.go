package scenario

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/meshfile"
	"softgrasp/physics/settings"
)

// writeBoxFile writes a box of the given extent (file units) as a Gmsh
// file and returns its path.
func writeBoxFile(t *testing.T, extent r3.Vec) string {
	t.Helper()
	m, err := mesh.BoxForDOFs(extent, 300)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "box.msh")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := meshfile.WriteGmsh41(f, m); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadObjectMeshScales(t *testing.T) {
	path := writeBoxFile(t, r3.Vec{X: 30, Y: 20, Z: 10}) // millimetres
	tests := []struct {
		scale   float64
		size    float64 // largest extent after loading, m
		name    string
		fitted  bool
		wantErr string
	}{
		{0, 0.04, "fitted to 40 mm: coordinates ×0.001333", true, ""},
		{0.001, 0.03, "in mm: coordinates ×0.001", false, ""},
		{0.0025, 0.075, "coordinates ×0.0025", false, ""},
		{1, 0, "", false, "at ×1 the mesh is 30 m across (largest extent), outside the 0.001 m to 1 m the scene holds; in cm it would be 0.3 m, in mm it would be 0.03 m"},
	}
	for _, tt := range tests {
		cfg := settings.DefaultScenario(settings.Drop)
		cfg.MeshFile, cfg.MeshScale = path, tt.scale
		obj, info, err := loadObjectMesh(cfg, 600)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), path) {
				t.Errorf("scale %g: error %v, want %q", tt.scale, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("scale %g: %v", tt.scale, err)
		}
		m := obj.mesh
		b := m.Bounds()
		if math.Abs(m.LargestExtent()-tt.size) > 1e-12 || math.Abs(b.Min.Z) > 1e-15 {
			t.Errorf("scale %g: bounds %v, want largest extent %g resting on z = 0", tt.scale, b, tt.size)
		}
		if info.name != path+" ("+tt.name+")" || info.fitted != tt.fitted || info.format != "Gmsh 4.1 ASCII" {
			t.Errorf("scale %g: info %+v, want name %q", tt.scale, info, tt.name)
		}
	}
}

// TestSummaryReportsMeshScale builds a scene from a mesh file and checks
// that the summary (the JSON of the headless runner) says by what factor
// it was scaled.
func TestSummaryReportsMeshScale(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Drop)
	cfg.MeshFile = writeBoxFile(t, r3.Vec{X: 2, Y: 2, Z: 1})
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	s := sc.Summary()
	if !s.MeshFitted || math.Abs(s.MeshScale-0.02) > 1e-15 || s.MeshFormat != "Gmsh 4.1 ASCII" ||
		!strings.HasSuffix(s.Mesh, "(fitted to 40 mm: coordinates ×0.02)") {
		t.Errorf("summary mesh fields: %q %q %g %v %q", s.Mesh, s.MeshFormat, s.MeshScale, s.MeshFitted, s.MeshNotes)
	}
}
