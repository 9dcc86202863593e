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

// TestGridMesherOpensDirtyMeshes builds the default grasp scene from each
// kind of surface the readers' tests keep (small holes and a stray
// triangle, crossing folds, an organ whose TetGen mesh has slivers, a Y-up
// bar) with the grid mesher: each opens without TetGen, with a mechanical
// mesh near the DOF budget whatever the surface's detail, its own surface
// kept whole for contact, and a few steps run; an open sheet is refused
// with what is wrong.
func TestGridMesherOpensDirtyMeshes(t *testing.T) {
	const budget = 1000
	dir := filepath.Join("..", "meshfile", "testdata")
	for _, tc := range []struct {
		file    string
		tris    int    // triangles of the surface kept (holes filled)
		wantErr string // a refusal
	}{
		{filepath.Join(dir, "holes.stl"), 320, ""},
		{filepath.Join(dir, "folds.obj"), 1280, ""},
		{filepath.Join(dir, "organ_slivers.vtk"), 5492, ""},
		{barFile, 496, ""},
		// Half a ball, open along its rim: the winding number closes it
		// like a scan missing its bottom.
		{filepath.Join(dir, "sheet.stl"), 168, ""},
		{flatSheet(t), 0, "encloses no volume"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			cfg := settings.DefaultScenario(settings.GraspRotate)
			cfg.MeshFile, cfg.TargetDOFs = tc.file, budget
			sc, err := Build(cfg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), tc.file) {
					t.Fatalf("error %v, want one naming the file and %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer sc.Close()
			s := sc.Summary()
			if d := float64(s.DOFs) / budget; d < 0.9 || d > 1.1 {
				t.Errorf("%d mechanical DOFs for a budget of %d", s.DOFs, budget)
			}
			if s.SurfaceTriangles != tc.tris {
				t.Errorf("%d surface triangles, want %d", s.SurfaceTriangles, tc.tris)
			}
			for i := 0; i < 20; i++ {
				if _, err := sc.Step(); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
			}
		})
	}
}

// TestVolumeMeshAboveTheBudget loads the shipped volume mesh at a budget
// below its size: its boundary is mapped onto a grid mesh at the budget,
// with a note, unless -volume-mesh as-is keeps it as it is (its boundary
// then mapped onto itself, for the contact budget).
func TestVolumeMeshAboveTheBudget(t *testing.T) {
	const budget = 600
	file := filepath.Join("..", "..", "assets", "bean.msh")
	asIs, err := meshfile.Open(file, meshfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []settings.VolumeMesh{settings.VolumeToBudget, settings.VolumeAsIs} {
		cfg := settings.DefaultScenario(settings.Drop)
		cfg.MeshFile, cfg.TargetDOFs, cfg.VolumeMesh = file, budget, v
		obj, info, err := loadObjectMesh(cfg, budget)
		if err != nil {
			t.Fatal(err)
		}
		noted := strings.Contains(strings.Join(info.notes, "\n"), "its boundary is mapped onto a grid mesh")
		switch v {
		case settings.VolumeToBudget:
			if d := float64(obj.mesh.DOFs()) / budget; obj.emb == nil || d < 0.9 || d > 1.1 || !noted {
				t.Errorf("budget: %d DOFs (file %d), embedded %v, noted %v; want about %d DOFs, embedded, noted",
					obj.mesh.DOFs(), asIs.Mesh.DOFs(), obj.emb != nil, noted, budget)
			}
		case settings.VolumeAsIs:
			identity := obj.emb != nil
			if identity {
				for _, p := range obj.emb.Points {
					identity = identity && p.Count == 1 && p.Weights[0] == 1
				}
			}
			if !identity || obj.mesh.DOFs() != asIs.Mesh.DOFs() || noted {
				t.Errorf("as-is: %d DOFs, boundary mapped onto itself %v, noted %v; want the file's %d, its boundary mapped onto itself", obj.mesh.DOFs(), identity, noted, asIs.Mesh.DOFs())
			}
		}
	}
}

// flatSheet writes a flat square of two triangles as an ASCII STL file: a
// sheet that bounds no volume.
func flatSheet(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "square.stl")
	const stl = `solid square
facet normal 0 0 1
outer loop
vertex 0 0 0
vertex 1 0 0
vertex 1 1 0
endloop
endfacet
facet normal 0 0 1
outer loop
vertex 0 0 0
vertex 1 1 0
vertex 0 1 0
endloop
endfacet
endsolid square
`
	if err := os.WriteFile(path, []byte(stl), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
