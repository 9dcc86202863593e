package collide

import "slices"

// surfaceFit is the BVH over a surface's triangles, built on the first
// fit and refitted on the later ones, that the Detector and the
// SurfaceDepth of one surface share (Detector.SurfaceDepth): the step
// measures its end state and detects on the next step's start state, the
// same positions, and one refit serves both. It keeps a copy of the
// positions it was last fitted to and skips a refit at equal positions,
// so that a second query at the same state (the wider detection of the
// nodes to precompute) costs no refit either.
type surfaceFit struct {
	tris [][3]int
	bvh  *BVH
	at   []float64 // the positions of the last fit
}

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
	return f.bvh, nil
}
