package collide

import (
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// surfaceFit is the BVH over a surface's triangles, built on the first
// fit and refitted on the later ones, that the Detector and the
// SurfaceDepth of one surface share (Detector.SurfaceDepth): the step
// measures its end state and detects on the next step's start state, the
// same positions, and one refit serves both. It keeps a copy of the
// positions it was last fitted to and skips a refit at equal positions,
// so that a second query at the same state (the wider detection of the
// nodes to precompute) costs no refit either. With each fit it bounds the
// surface's vertices run by run (VertexRun), for the per-vertex loops of
// detection and measurement to pass over the runs away from a body.
type surfaceFit struct {
	tris  [][3]int
	verts []int // the surface's vertices (mesh.Surface.Vertices)
	bvh   *BVH
	at    []float64 // the positions of the last fit
	runs  []r3.Box  // the boxes of verts' runs at the last fit
}

// newSurfaceFit returns the fit of surf's triangles and vertices.
func newSurfaceFit(surf *mesh.Surface) *surfaceFit {
	return &surfaceFit{tris: surf.Tris, verts: surf.Vertices}
}

// VertexRun is how many consecutive entries of a surface's Vertices one
// box of the vertex runs holds (SurfaceDepth.VertexRuns). A mesh's
// vertices come in the order of its triangles, which meshers and
// scanners emit strip by strip, so a run of 32 is a small patch of the
// surface: in the default grasp of the 20k-triangle blob, 87 % of its
// runs lie wholly outside the floor's alarm zone and 66–69 % outside each
// jaw's.
const VertexRun = 32

// fit places the BVH at positions q (3 per surface index).
func (f *surfaceFit) fit(q []float64) (*BVH, error) {
	if f.bvh == nil {
		b, err := NewBVH(f.tris, q)
		if err != nil {
			return nil, err
		}
		f.bvh = b
	} else if !slices.Equal(f.at, q) {
		if err := f.bvh.Refit(q); err != nil {
			return nil, err
		}
	} else {
		return f.bvh, nil
	}
	f.at = append(f.at[:0], q...)
	f.fitRuns(q)
	return f.bvh, nil
}

// fitRuns bounds the vertices at positions q run by run.
func (f *surfaceFit) fitRuns(q []float64) {
	n := (len(f.verts) + VertexRun - 1) / VertexRun
	if cap(f.runs) < n {
		f.runs = make([]r3.Box, n)
	}
	f.runs = f.runs[:n]
	for k := range f.runs {
		run := f.verts[k*VertexRun : min(len(f.verts), (k+1)*VertexRun)]
		x := node(q, run[0])
		box := r3.Box{Min: x, Max: x}
		for _, v := range run[1:] {
			i := 3 * v
			box.Min.X, box.Max.X = min2(box.Min.X, q[i]), max2(box.Max.X, q[i])
			box.Min.Y, box.Max.Y = min2(box.Min.Y, q[i+1]), max2(box.Max.Y, q[i+1])
			box.Min.Z, box.Max.Z = min2(box.Min.Z, q[i+2]), max2(box.Max.Z, q[i+2])
		}
		f.runs[k] = box
	}
}
