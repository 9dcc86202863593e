package scenario

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/mesh/meshtest"
	"softgrasp/physics/settings"
)

// TestGraspAimsAtTheMappedSurface builds the grasp around a coarse box
// 50 mm wide carrying the surface of a 30 mm box (a mesh larger than the
// surface it carries, as a grid of tetrahedra around a user's surface is):
// the scene sizes the object, aims the script and re-aims it at the
// surface, not at the mesh, and lifts the surface, not the mesh, onto the
// floor's contact distance.
func TestGraspAimsAtTheMappedSurface(t *testing.T) {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	const big, small = 0.05, 0.03
	coarse, err := mesh.BoxForDOFs(r3.Vec{X: big, Y: big, Z: big}, 300)
	if err != nil {
		t.Fatal(err)
	}
	fine, err := mesh.BoxForDOFs(r3.Vec{X: small, Y: small, Z: small}, 1500)
	if err != nil {
		t.Fatal(err)
	}
	for i := range fine.Nodes {
		fine.Nodes[i].Z += 0.004 // inside the coarse box, above its bottom
	}
	id, err := mesh.BoundaryEmbedding(fine)
	if err != nil {
		t.Fatal(err)
	}
	emb, err := meshtest.EmbedSurface(coarse, id.Surface.Nodes, id.Surface.Tris)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := BuildObject(cfg, coarse, emb)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	if math.Abs(sc.width-small) > 1e-9 || math.Abs(sc.height-small) > 1e-9 {
		t.Fatalf("object %.4g m wide and %.4g m high, want the surface's %.4g m", sc.width, sc.height, small)
	}
	p := sc.Sim.SurfacePositions()
	lo := math.Inf(1)
	for i := 2; i < len(p); i += 3 {
		lo = math.Min(lo, p[i])
	}
	if dc := sc.Sim.Settings().ContactDistance; math.Abs(lo-dc) > 1e-12 {
		t.Fatalf("the surface's bottom is at %.6g m, want the contact distance %.6g m", lo, dc)
	}
	sc.SetScripted(true)
	if math.Abs(sc.width-small) > 1e-9 {
		t.Fatalf("re-aimed at an object %.4g m wide, want the surface's %.4g m", sc.width, small)
	}
}
