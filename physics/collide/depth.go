package collide

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// SurfaceDepth measures how deep points lie inside the closed soft
// surface, for the end-of-step penetration of the rigid side into the soft
// side (the soft side into the rigid one is SignedDistance). It keeps its
// BVH over the surface (its own, or the detector's: Detector.SurfaceDepth),
// refitted at the positions it is asked about.
//
// A point is inside when rays cast from it cross the surface an odd number
// of times (three fixed directions, majority vote, so that a ray grazing an
// edge or a vertex cannot decide alone); its depth is then its
// distance to the nearest surface triangle, found by BVH queries in boxes
// that double until the nearest triangle is certain.
type SurfaceDepth struct {
	surf *mesh.Surface
	fit  *surfaceFit
	bvh  *BVH // the fit's, at q
	q    []float64
	cand []int
}

// rayDirs are the inside-test directions: near the three axes, so that a
// ray's BVH query box stays thin, and skewed off them by irrational-looking
// amounts, so that the faces and edges of meshes built on grids are not
// grazed along a whole row.
var rayDirs = [3]r3.Vec{
	r3.Unit(r3.Vec{X: 0.01731, Y: 0.01414, Z: 1}),
	r3.Unit(r3.Vec{X: -1, Y: 0.01273, Z: -0.01119}),
	r3.Unit(r3.Vec{X: 0.01197, Y: -1, Z: 0.01623}),
}

// NewSurfaceDepth returns a depth query for the surface.
func NewSurfaceDepth(surf *mesh.Surface) *SurfaceDepth {
	return &SurfaceDepth{surf: surf, fit: newSurfaceFit(surf)}
}

// Refit places the surface at positions q (3N); later queries use them.
func (s *SurfaceDepth) Refit(q []float64) error {
	b, err := s.fit.fit(q)
	if err != nil {
		return err
	}
	s.q, s.bvh = q, b
	return nil
}

// VertexRuns returns the bounding boxes of the surface's vertices at the
// last Refit, run by run: box k holds Surface.Vertices[k·VertexRun :
// (k+1)·VertexRun]. Empty before the first Refit or for a malformed
// surface. The slice is the query's: do not modify it.
func (s *SurfaceDepth) VertexRuns() []r3.Box {
	if s.bvh == nil {
		return nil
	}
	return s.fit.runs
}

// Bounds returns the surface's bounding box at the last Refit.
func (s *SurfaceDepth) Bounds() (r3.Box, bool) {
	if s.bvh == nil {
		return r3.Box{}, false
	}
	return s.bvh.Bounds()
}

// SignedDistance returns the distance from x to the surface, negative
// inside. The search for the nearest triangle stops at inLimit for a point
// inside and at outLimit for one outside, and the result is then clamped
// to −inLimit or outLimit: callers ask for depths up to a bound and only
// care whether an outside point is closer than a small distance.
func (s *SurfaceDepth) SignedDistance(x r3.Vec, inLimit, outLimit float64) float64 {
	box, ok := s.Bounds()
	if !ok {
		return outLimit
	}
	if s.inside(x, box) {
		return -s.nearest(x, inLimit)
	}
	grown := r3.Box{Min: r3.Sub(box.Min, r3.Vec{X: outLimit, Y: outLimit, Z: outLimit}), Max: r3.Add(box.Max, r3.Vec{X: outLimit, Y: outLimit, Z: outLimit})}
	if !grown.Contains(x) {
		return outLimit
	}
	return s.nearest(x, outLimit)
}

// inside reports whether x is enclosed by the surface (majority of three
// ray parities).
func (s *SurfaceDepth) inside(x r3.Vec, box r3.Box) bool {
	if !box.Contains(x) {
		return false
	}
	// Two agreeing rays are a majority: the third is cast only to break
	// a tie. Each goes the way, forwards or backwards along its
	// direction, that leaves the box sooner: the parity of a closed
	// surface is the same both ways, and the shorter ray's query box
	// meets fewer of the BVH's boxes and triangles.
	votes := 0
	for i, dir := range rayDirs {
		tExit := exitTime(x, dir, box)
		back := r3.Scale(-1, dir)
		if tBack := exitTime(x, back, box); tBack < tExit {
			dir, tExit = back, tBack
		}
		if s.crossings(x, dir, tExit)%2 == 1 {
			votes++
		}
		if i == 1 && votes != 1 {
			break
		}
	}
	return votes >= 2
}

// exitTime returns the t at which the ray x + t·dir, from x inside box,
// leaves it.
func exitTime(x, dir r3.Vec, box r3.Box) float64 {
	tExit := math.Inf(1)
	for i := 0; i < 3; i++ {
		d, o := axis(dir, i), axis(x, i)
		switch {
		case d > 0:
			tExit = math.Min(tExit, (axis(box.Max, i)-o)/d)
		case d < 0:
			tExit = math.Min(tExit, (axis(box.Min, i)-o)/d)
		}
	}
	return tExit
}

// crossings counts the surface triangles the ray x + t·dir (0 < t) crosses
// before tExit, where it leaves the surface's box (exitTime).
func (s *SurfaceDepth) crossings(x, dir r3.Vec, tExit float64) int {
	end := r3.Add(x, r3.Scale(tExit, dir))
	seg := r3.Box{
		Min: r3.Vec{X: math.Min(x.X, end.X), Y: math.Min(x.Y, end.Y), Z: math.Min(x.Z, end.Z)},
		Max: r3.Vec{X: math.Max(x.X, end.X), Y: math.Max(x.Y, end.Y), Z: math.Max(x.Z, end.Z)},
	}
	s.cand = s.bvh.AppendQuery(seg, s.cand[:0])
	n := 0
	for _, t := range s.cand {
		tri := s.surf.Tris[t]
		if rayHitsTriangle(x, dir, node(s.q, tri[0]), node(s.q, tri[1]), node(s.q, tri[2])) {
			n++
		}
	}
	return n
}

// nearest returns the distance from x to the nearest surface triangle, or
// limit when none lies closer than limit.
func (s *SurfaceDepth) nearest(x r3.Vec, limit float64) float64 {
	r := math.Min(limit, 1e-3)
	for {
		half := r3.Vec{X: r, Y: r, Z: r}
		s.cand = s.bvh.AppendQuery(r3.Box{Min: r3.Sub(x, half), Max: r3.Add(x, half)}, s.cand[:0])
		best := math.Inf(1)
		for _, t := range s.cand {
			tri := s.surf.Tris[t]
			p, _ := ClosestOnTriangle(x, node(s.q, tri[0]), node(s.q, tri[1]), node(s.q, tri[2]))
			best = math.Min(best, r3.Norm(r3.Sub(p, x)))
		}
		// Every triangle closer than r overlaps the box: a nearest one
		// within r is the nearest of all.
		if best <= r {
			return best
		}
		if r >= limit {
			return limit
		}
		r = math.Min(2*r, limit)
	}
}

// rayHitsTriangle reports whether the ray x + t·dir, t > 0, crosses the
// triangle abc (Möller–Trumbore).
func rayHitsTriangle(x, dir, a, b, c r3.Vec) bool {
	e1, e2 := r3.Sub(b, a), r3.Sub(c, a)
	pv := r3.Cross(dir, e2)
	det := r3.Dot(e1, pv)
	if math.Abs(det) < 1e-300 {
		return false
	}
	inv := 1 / det
	tv := r3.Sub(x, a)
	u := r3.Dot(tv, pv) * inv
	if u < 0 || u > 1 {
		return false
	}
	qv := r3.Cross(tv, e1)
	v := r3.Dot(dir, qv) * inv
	if v < 0 || u+v > 1 {
		return false
	}
	return r3.Dot(e2, qv)*inv > 0
}

func axis(v r3.Vec, i int) float64 {
	switch i {
	case 0:
		return v.X
	case 1:
		return v.Y
	}
	return v.Z
}
