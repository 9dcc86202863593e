package fem

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/mesh"
)

// TestProceduralMeshes runs the model on the meshes the simulation uses
// (the mesh package's box and cylinder): the mass is ρ times the mesh
// volume, and the patch test holds on their interior nodes, which the
// boundary surface identifies.
func TestProceduralMeshes(t *testing.T) {
	box, err := mesh.Box(r3.Vec{X: 0.08, Y: 0.05, Z: 0.04}, 5, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	cyl, err := mesh.Cylinder(0.03, 0.06, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		msh  *mesh.TetMesh
	}{{"box", box}, {"cylinder", cyl}} {
		t.Run(tc.name, func(t *testing.T) {
			mat := testMaterial()
			m := newTestModel(t, tc.msh, mat)
			if want := mat.Density * tc.msh.Volume(); math.Abs(m.TotalMass()-want) > 1e-12*want {
				t.Errorf("TotalMass = %v, want ρ·V = %v", m.TotalMass(), want)
			}
			surf, err := mesh.ExtractSurface(tc.msh)
			if err != nil {
				t.Fatal(err)
			}
			F := m3.Mul(rotation(r3.Vec{X: 1, Z: 1}, 0.5), m3.Mat3{1.1, 0.1, 0, 0, 0.9, 0.05, 0, 0, 1.05})
			q := affine(tc.msh, F, r3.Vec{Z: 0.2})
			f := make([]float64, len(q))
			if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), q, f); err != nil {
				t.Fatal(err)
			}
			scale := maxAbs(f)
			interior := 0
			for i, local := range surf.Local {
				if local >= 0 {
					continue
				}
				interior++
				if fi := r3.Norm(nodeVec(f, i)); fi > 1e-10*scale {
					t.Errorf("interior node %d: |f| = %g (max %g)", i, fi, scale)
				}
			}
			if interior == 0 {
				t.Fatal("mesh has no interior node: the patch test checks nothing")
			}
		})
	}
}
