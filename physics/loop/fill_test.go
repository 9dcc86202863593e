package loop

import (
	"math"
	"testing"

	"softgrasp/physics/frame"
	"softgrasp/physics/mesh/meshtest"
	"softgrasp/physics/scenario"
)

// TestFramesDrawTheMappedSurface checks the drawing data of a scene whose
// surface is mapped onto a coarse mesh: the Scene holds the fine surface's
// triangles and rest points, and a frame its points at G(q), their
// displacements and the von Mises stresses interpolated from the nodes
// with the mapping's weights.
func TestFramesDrawTheMappedSurface(t *testing.T) {
	cfg := smallConfig()
	m, emb, err := meshtest.BoxWithFineSurface(cfg.ObjectSize, 300, 3000)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.BuildObject(cfg, m, emb)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for i := 0; i < 120; i++ { // into the grasp: a deformed surface
		if _, err := sc.Step(); err != nil {
			t.Fatal(err)
		}
	}
	sim := sc.Sim
	surf := sim.Surface()
	s := newScene(sc, 1)
	if len(surf.Tris) != len(emb.Surface.Tris) || len(s.SurfaceTris) != 3*len(emb.Surface.Tris) {
		t.Fatalf("%d scene indices for %d fine triangles", len(s.SurfaceTris), len(emb.Surface.Tris))
	}
	if len(s.SurfaceRest) != 3*len(surf.Vertices) {
		t.Fatalf("%d rest coordinates for %d surface vertices", len(s.SurfaceRest), len(surf.Vertices))
	}
	for _, v := range s.SurfaceTris {
		if int(v) >= len(surf.Vertices) {
			t.Fatalf("triangle index %d beyond the %d surface vertices", v, len(surf.Vertices))
		}
	}
	r := &Runner{sc: sc, stressField: true}
	var f frame.Frame
	r.fillSurface(&f)
	if len(f.Surface) != 3*len(surf.Vertices) || len(f.VonMises) != len(surf.Vertices) {
		t.Fatalf("frame: %d coordinates and %d stresses for %d surface vertices", len(f.Surface), len(f.VonMises), len(surf.Vertices))
	}
	q := sim.Positions()
	vm := make([]float64, len(q)/3)
	if err := sim.VonMises(vm); err != nil {
		t.Fatal(err)
	}
	moved := 0.0
	for i, v := range surf.Vertices {
		pw := emb.Points[v]
		var want [3]float64
		stress := 0.0
		for k := 0; k < pw.Count; k++ {
			for d := 0; d < 3; d++ {
				want[d] += pw.Weights[k] * q[3*pw.Nodes[k]+d]
			}
			stress += pw.Weights[k] * vm[pw.Nodes[k]]
		}
		for d := 0; d < 3; d++ {
			if got := float64(f.Surface[3*i+d]); math.Abs(got-want[d]) > 1e-6 {
				t.Fatalf("vertex %d axis %d drawn at %g, G(q) is %g", i, d, got, want[d])
			}
		}
		if got := float64(f.VonMises[i]); math.Abs(got-stress) > 1e-5*math.Max(1, math.Abs(stress)) {
			t.Fatalf("vertex %d: von Mises %g, interpolated %g", i, got, stress)
		}
		moved = math.Max(moved, float64(f.Displacement[i]))
	}
	if moved == 0 {
		t.Fatal("no surface vertex moved: the test needs a deformed surface")
	}
}
