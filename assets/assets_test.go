package assets

import (
	"math"
	"strings"
	"testing"

	"softgrasp/physics/mesh"
	"softgrasp/physics/meshfile"
)

// TestEmbeddedMeshes loads every embedded mesh, validates it and checks
// that its boundary is closed: every edge of the surface is shared by
// exactly two triangles, which traverse it in opposite directions.
func TestEmbeddedMeshes(t *testing.T) {
	names := Names()
	if len(names) < 2 {
		t.Fatalf("embedded meshes %v, want at least the bean as .msh and .vtk", names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			m := load(t, name)
			if err := m.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			s, err := mesh.ExtractSurface(m)
			if err != nil {
				t.Fatalf("ExtractSurface: %v", err)
			}
			directed := make(map[[2]int]int)
			for _, tri := range s.Tris {
				for k := 0; k < 3; k++ {
					directed[[2]int{tri[k], tri[(k+1)%3]}]++
				}
			}
			for e, n := range directed {
				if n != 1 || directed[[2]int{e[1], e[0]}] != 1 {
					t.Fatalf("edge %v is not shared by exactly two consistently oriented triangles", e)
				}
			}
			if size := m.Bounds().Size(); size.X < 0.01 || size.X > 0.2 {
				t.Errorf("mesh is %v m across; want a few centimetres", size)
			}
		})
	}
}

// TestBeanFormatsAgree checks that the .msh and .vtk beans are the same
// mesh.
func TestBeanFormatsAgree(t *testing.T) {
	a, b := load(t, "bean.msh"), load(t, "bean.vtk")
	if len(a.Nodes) != len(b.Nodes) || len(a.Tets) != len(b.Tets) {
		t.Fatalf("bean.msh has %d nodes, %d tets; bean.vtk %d, %d", len(a.Nodes), len(a.Tets), len(b.Nodes), len(b.Tets))
	}
	for i := range a.Nodes {
		if a.Nodes[i] != b.Nodes[i] {
			t.Fatalf("node %d differs: %v vs %v", i, a.Nodes[i], b.Nodes[i])
		}
	}
	for i := range a.Tets {
		if a.Tets[i] != b.Tets[i] {
			t.Fatalf("tetrahedron %d differs: %v vs %v", i, a.Tets[i], b.Tets[i])
		}
	}
}

// TestBeanVolume compares the bean's volume with the analytic volume of the
// shape bean.geo describes: a capsule (cylinder of length L and radius R
// plus a sphere of radius R) scaled by 0.8 in height. The tetrahedral mesh
// inscribes the curved surface, so it falls short by a small fraction.
func TestBeanVolume(t *testing.T) {
	const L, R, squash = 0.032, 0.014, 0.8
	want := squash * (math.Pi*R*R*L + 4*math.Pi*R*R*R/3)
	v := load(t, "bean.msh").Volume()
	if v > want || v < 0.97*want {
		t.Errorf("bean volume %.4g m³, want within 3 %% below %.4g m³", v, want)
	}
}

func TestOpenUnknown(t *testing.T) {
	_, err := Open("nope.msh")
	if err == nil || !strings.Contains(err.Error(), "bean.msh") {
		t.Fatalf("error = %v, want one listing the available meshes", err)
	}
	r, err := Open("bean.geo")
	if err != nil {
		t.Fatalf("the .geo source is not embedded: %v", err)
	}
	r.Close()
}

func load(t *testing.T, name string) *mesh.TetMesh {
	t.Helper()
	r, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	format, err := meshfile.FormatOf(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := meshfile.Parse(r, format)
	if err != nil {
		t.Fatalf("Parse %s: %v", name, err)
	}
	return m
}
