package collide

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
)

// Detector finds the proximity pairs between one soft body's surface and
// the kinematic rigid bodies at the start of each step (docs/method.md,
// "Collision detection"): discrete detection within an alarm distance, with
// both kinds of pairs so that neither side's corners can sink between the
// other side's vertices.
//
// It owns the BVH over the soft surface (built on the first Detect, refitted
// on every one) and its scratch buffers, so it is not safe for concurrent
// use; the physics goroutine owns it.
type Detector struct {
	surf   *mesh.Surface
	fit    *surfaceFit // nil when the surface is malformed (err)
	err    error
	nNodes int // positions the surface references: max index + 1
	// pointPart and triPart give the part of the soft body (a connected
	// component of its mesh) of each position and each triangle, when
	// there are several (SetParts); nil otherwise.
	pointPart, triPart []int32
	thin               *Thinning // nil: every soft-vertex pair (SetThinning)
}

// SetParts tells the detector which part of the soft body each position
// belongs to (part[i] for position i; parts are the connected components
// of the mesh), so that Detect also finds the SoftSoft pairs between
// parts. Fewer than two distinct parts, or a slice shorter than the
// positions the surface references, turn them off.
func (d *Detector) SetParts(part []int32) {
	d.pointPart, d.triPart = nil, nil
	if d.err != nil || len(part) < d.nNodes || len(d.surf.Tris) == 0 {
		return
	}
	first, several := part[d.surf.Tris[0][0]], false
	tp := make([]int32, len(d.surf.Tris))
	for t, tri := range d.surf.Tris {
		tp[t] = part[tri[0]]
		several = several || tp[t] != first
	}
	if several {
		d.pointPart, d.triPart = part, tp
	}
}

// NewDetector returns a detector for the surface. A malformed surface (nil,
// negative or inconsistent indices) does not panic: Validate reports it and
// Detect then finds nothing.
func NewDetector(surf *mesh.Surface) *Detector {
	d := &Detector{surf: surf}
	d.nNodes, d.err = checkSurface(surf)
	if d.err == nil {
		d.fit = newSurfaceFit(surf)
	}
	return d
}

// SurfaceDepth returns a depth query on the detector's surface that shares
// its BVH: a refit for one serves the other at the same positions. The
// query's answers hold for the positions of its own last Refit until the
// next Detect at other positions moves the shared BVH.
func (d *Detector) SurfaceDepth() *SurfaceDepth {
	fit := d.fit
	if fit == nil {
		fit = &surfaceFit{}
	}
	return &SurfaceDepth{surf: d.surf, fit: fit}
}

// checkSurface returns the number of positions a surface references, or
// an error naming what is wrong with it.
func checkSurface(surf *mesh.Surface) (int, error) {
	if surf == nil {
		return 0, errors.New("collision detection needs a surface, got nil")
	}
	n := 0
	for t, tri := range surf.Tris {
		for k, v := range tri {
			if v < 0 {
				return 0, fmt.Errorf("surface triangle %d corner %d has negative node index %d", t, k, v)
			}
			n = max(n, v+1)
		}
	}
	for i, v := range surf.Vertices {
		if v < 0 {
			return 0, fmt.Errorf("surface vertex %d has negative node index %d", i, v)
		}
		n = max(n, v+1)
	}
	return n, nil
}

// Validate reports what would make Detect find nothing or find nonsense: a
// malformed surface, positions too short for the surface's nodes, a
// negative or non-finite alarm distance, a body without a shape or with a
// pose that is not a rigid transform.
func (d *Detector) Validate(q []float64, bodies []rigid.Body, alarm float64) error {
	if d.err != nil {
		return d.err
	}
	if len(q) < 3*d.nNodes {
		return fmt.Errorf("positions have %d entries, the surface needs %d (3 per node)", len(q), 3*d.nNodes)
	}
	if math.IsNaN(alarm) || math.IsInf(alarm, 0) || alarm < 0 {
		return fmt.Errorf("alarm distance %g: must be a finite length ≥ 0 in metres", alarm)
	}
	for i := range bodies {
		b := &bodies[i]
		if b.Shape == nil {
			return fmt.Errorf("body %d (%q) has no shape", i, b.Name)
		}
		if err := b.Start.Validate(); err != nil {
			return fmt.Errorf("body %d (%q) start pose: %w", i, b.Name, err)
		}
		if err := b.End.Validate(); err != nil {
			return fmt.Errorf("body %d (%q) end pose: %w", i, b.Name, err)
		}
	}
	return nil
}

// BVH returns the hierarchy over the soft surface, nil before the first
// Detect.
func (d *Detector) BVH() *BVH {
	if d.fit == nil {
		return nil
	}
	return d.fit.bvh
}

// Detect refits the BVH to q (the positions the surface's indices refer
// to, flat, 3 per index: the node positions for the mesh's boundary, the
// mapped points G(q) for a surface mapped onto the mesh) and
// appends to out the proximity pairs between the soft surface at q and
// every body at its Start pose within the alarm distance:
//
//   - SoftVertex, for each soft surface vertex x and each body: with
//     (pt, n, d) = Shape.Closest(Start⁻¹·x), a pair when d < alarm, with
//     RigidLocal = pt, Normal = Start.Rotate(n), Distance = d. Bodies whose
//     bounds, grown by alarm, do not contain Start⁻¹·x are skipped. With
//     a Thinning (SetThinning), only the Thinning.PerSupport deepest such
//     pairs of each body and support stay.
//
//   - RigidVertex, for each vertex r of a body's shape (placed by Start):
//     the closest soft triangle among those whose boxes meet the cube of
//     half-side alarm around r (the lowest index on ties), its closest
//     point p (barycentric weights w) and outward normal n_tri; a pair
//     when |r − p| < alarm (which implies s = n_tri·(r − p) > −alarm),
//     with Normal = −n_tri (from the rigid body towards the soft one),
//     Distance = s, Nodes the triangle's vertices, Weights = w,
//     RigidLocal = r in the body frame.
//
//   - SoftSoft, when the soft body has several parts (SetParts), for each
//     soft surface vertex x: the closest triangle of another part within
//     the alarm distance (ties to the lowest index), its closest point p
//     (weights w) and outward normal n_tri; a pair when |x − p| < alarm,
//     with Normal from the triangle's part towards the vertex's: (x − p)/|x − p|
//     and Distance |x − p| when x lies outside (n_tri·(x − p) ≥ 0), else
//     n_tri and n_tri·(x − p); Nodes {x, the triangle's vertices},
//     Weights {1, −w}, Body −1. Each side's vertices meet the other side's
//     triangles, so both ways are covered; contact within one part is not
//     looked for.
//
// Bodies whose shape has no vertices (a plane) give only SoftVertex pairs.
// The order is deterministic: body by body, the soft-vertex pairs in the
// order of Surface.Vertices, then the rigid-vertex pairs in the order of
// Shape.Vertices; the soft–soft pairs last, in the order of
// Surface.Vertices. Once warm (BVH built, scratch grown) and with out large
// enough, Detect allocates nothing. When Validate would fail, Detect
// returns out unchanged.
func (d *Detector) Detect(q []float64, bodies []rigid.Body, alarm float64, out []Pair) []Pair {
	return d.detect(q, bodies, alarm, false, out)
}

// detect is Detect; with firstOnly and a Thinning, each body keeps the
// first soft-vertex pair of each support (DetectSupports).
func (d *Detector) detect(q []float64, bodies []rigid.Body, alarm float64, firstOnly bool, out []Pair) []Pair {
	if d.err != nil || len(q) < 3*d.nNodes || !(alarm >= 0) || math.IsInf(alarm, 0) {
		return out
	}
	if _, err := d.fit.fit(q); err != nil {
		if d.fit.bvh == nil { // the first build failed: the surface cannot be fitted
			d.err = err
		}
		return out
	}
	if d.thin != nil {
		d.thin.Dropped = 0
	}
	for i := range bodies {
		b := &bodies[i]
		if b.Shape == nil {
			continue
		}
		f := frame{R: b.Start.RotationMatrix(), t: b.Start.Position}
		out = d.softVertexPairs(q, i, b, f, alarm, firstOnly, out)
		out = d.rigidVertexPairs(q, i, b.Shape, f, alarm, out)
	}
	if d.triPart != nil {
		out = d.softSoftPairs(q, alarm, out)
	}
	return out
}

// DetectSupports is Detect for the mesh nodes that its pairs reach rather
// than for the pairs themselves: with a Thinning, each body keeps only the
// first soft-vertex pair (in the order of Surface.Vertices) of each
// support, and the later vertices of a support that has one are passed
// over without asking the body. The points of a support follow the same
// nodes, so the pairs reach the nodes that Detect's reach at the same
// arguments, for a fraction of the closest-point queries on a fine
// surface. Without a Thinning it is Detect.
func (d *Detector) DetectSupports(q []float64, bodies []rigid.Body, alarm float64, out []Pair) []Pair {
	return d.detect(q, bodies, alarm, true, out)
}

// nearestFace returns the soft triangle nearest to x within the alarm
// distance among those whose part is not skip (all with part nil), its
// closest point, barycentric weights and outward normal; best is −1 when
// there is none or it is degenerate (no normal).
func (d *Detector) nearestFace(q []float64, x r3.Vec, alarm float64, part []int32, skip int32) (best int, p r3.Vec, w [3]float64, n r3.Vec) {
	best, _, p, w = d.fit.bvh.NearestExcept(q, x, alarm*alarm, part, skip)
	if best < 0 {
		return -1, p, w, n
	}
	if n = TriangleNormal(q, d.surf.Tris[best]); n == (r3.Vec{}) {
		return -1, p, w, n
	}
	return best, p, w, n
}

// mirrored reports whether vertex v's pair with triangle tri (weights w)
// repeats another: its closest point is (within mirrorWeight) a vertex u
// of a part numbered below v's, and u's own closest point on v's part is
// (as closely) v itself, so that u's pair states the same constraint with
// both sides swapped (where two parts' grids meet vertex to vertex). Only
// that one is kept.
func (d *Detector) mirrored(q []float64, v int, tri [3]int, w [3]float64, alarm float64) bool {
	k := -1
	for i, wi := range w {
		if wi >= 1-mirrorWeight {
			k = i
		}
	}
	if k < 0 {
		return false
	}
	u := tri[k]
	if d.pointPart[u] > d.pointPart[v] {
		return false
	}
	back, _, _, wb := d.fit.bvh.NearestExcept(q, node(q, u), alarm*alarm, d.triPart, d.pointPart[u])
	if back < 0 {
		return false
	}
	for i, c := range d.surf.Tris[back] {
		if c == v && wb[i] >= 1-mirrorWeight {
			return true
		}
	}
	return false
}

// mirrorWeight is how far from 1 a barycentric weight may be for its
// point to count as the triangle's vertex in mirrored: a thousandth of
// the triangle's size, the lateral shift that two matching grids take
// from their unequal bulge under load (their two pairs then differ by as
// little).
const mirrorWeight = 1e-3

// softSoftPairs appends the SoftSoft pairs between the soft body's parts.
func (d *Detector) softSoftPairs(q []float64, alarm float64, out []Pair) []Pair {
	for _, v := range d.surf.Vertices {
		x := node(q, v)
		best, p, w, n := d.nearestFace(q, x, alarm, d.triPart, d.pointPart[v])
		if best < 0 {
			continue
		}
		tri := d.surf.Tris[best]
		if d.mirrored(q, v, tri, w, alarm) {
			continue
		}
		u := r3.Sub(x, p)
		s := r3.Dot(n, u)
		if l := r3.Norm(u); l > 0 && s >= -1e-9*l {
			// Outside the other part (or in the plane of its triangle,
			// beyond an edge): the normal is the direction from its
			// closest point, which is the triangle's normal inside the
			// triangle and, at an edge or a corner shared with another
			// face, the direction that does not depend on which of the
			// equally near triangles was picked.
			n, s = r3.Scale(1/l, u), l
		}
		out = append(out, Pair{
			Kind: SoftSoft, Body: -1, Count: 4,
			Nodes:   [MaxNodes]int{v, tri[0], tri[1], tri[2]},
			Weights: [MaxNodes]float64{1, -w[0], -w[1], -w[2]},
			Point:   v, Tri: best, Vertex: -1,
			Normal: n, Distance: s,
		})
	}
	return out
}

// frame is a body pose as a rotation matrix and a translation: a matrix
// product is cheaper than the quaternion sandwich when one pose maps
// thousands of points.
type frame struct {
	R m3.Mat3
	t r3.Vec
}

// toLocal maps a world point into the body frame: Rᵀ·(x − t).
func (f *frame) toLocal(x r3.Vec) r3.Vec { return f.R.MulVecT(r3.Sub(x, f.t)) }

// toWorld maps a body-frame point to the world: R·x + t.
func (f *frame) toWorld(x r3.Vec) r3.Vec { return r3.Add(f.R.MulVec(x), f.t) }

// alarmZone answers the closest point of a shape to points in its frame
// that lie within the alarm distance of it: those outside its bounds grown
// by the alarm distance are passed over without asking the shape.
type alarmZone struct {
	shape   rigid.Shape
	box     r3.Box
	bounded bool
	alarm   float64
}

func newAlarmZone(shape rigid.Shape, alarm float64) alarmZone {
	box, bounded := shape.Bounds()
	a := r3.Vec{X: alarm, Y: alarm, Z: alarm}
	box.Min, box.Max = r3.Sub(box.Min, a), r3.Add(box.Max, a)
	return alarmZone{shape: shape, box: box, bounded: bounded, alarm: alarm}
}

// worldBox returns a world box that holds the zone's bounds placed by
// pose p (rigid.TransformBox), widened by a nanometre against the rounding
// between the pose and the frame by which toLocal brings points into the
// zone, so that a point outside it is passed over without being brought
// into the body's frame. Meaningful only when the zone is bounded.
func (z *alarmZone) worldBox(p rigid.Pose) r3.Box {
	w := rigid.TransformBox(p, z.box)
	pad := r3.Vec{X: 1e-9, Y: 1e-9, Z: 1e-9}
	return r3.Box{Min: r3.Sub(w.Min, pad), Max: r3.Add(w.Max, pad)}
}

// closest is shape.Closest(x) when x lies nearer than the alarm distance
// (ok), and nothing otherwise.
func (z *alarmZone) closest(x r3.Vec) (pt, n r3.Vec, d float64, ok bool) {
	if z.bounded && !rigid.InBox(&z.box, x) {
		return pt, n, d, false
	}
	pt, n, d = z.shape.Closest(x)
	return pt, n, d, d < z.alarm
}

// softVertexPairs appends the SoftVertex pairs of body b (number body, at
// its start pose, whose frame is f):
// the thinning's selection per support with a Thinning (SetThinning), and
// with firstOnly as well the first pair of each support only, the later
// vertices of a support that has one not asked about; else one per vertex
// within the alarm distance.
func (d *Detector) softVertexPairs(q []float64, body int, b *rigid.Body, f frame, alarm float64, firstOnly bool, out []Pair) []Pair {
	zone := newAlarmZone(b.Shape, alarm)
	if d.thin != nil {
		d.thin.begin()
	}
	first := firstOnly && d.thin != nil
	world := zone.worldBox(b.Start)
	cull := newRunCull(&zone, world, b, alarm)
	runs := d.fit.runs
	var own Pair // the pair without a Thinning, appended once built
	verts := d.surf.Vertices
	for i := 0; i < len(verts); i++ {
		if i%VertexRun == 0 && cull.away(&runs[i/VertexRun]) {
			i += VertexRun - 1 // no vertex of this run is near the body
			continue
		}
		v := verts[i]
		if first && d.thin.has(v) {
			continue
		}
		x := node(q, v)
		if zone.bounded && !rigid.InBox(&world, x) {
			continue
		}
		pt, n, dist, ok := zone.closest(f.toLocal(x))
		if !ok {
			continue
		}
		pr := &own
		if d.thin != nil {
			slot := d.thin.reserve(v, i, body, dist)
			if slot < 0 {
				continue
			}
			pr = &d.thin.pair[slot]
		}
		*pr = Pair{
			Kind: SoftVertex, Body: body, Count: 1,
			Nodes: [MaxNodes]int{v}, Weights: [MaxNodes]float64{1},
			Point: v, Tri: -1, Vertex: -1,
			RigidLocal: pt, Normal: f.R.MulVec(n), Distance: dist,
		}
		if d.thin == nil {
			out = append(out, *pr)
		}
	}
	if d.thin != nil {
		out = d.thin.emit(out)
	}
	return out
}

// runCull tells whether a run's box of vertices (VertexRun) lies wholly
// where no vertex can pair with one body: outside the world box of its
// bounded alarm zone (where softVertexPairs' own test passes over each
// vertex), or, for a plane, above it by the alarm distance and a
// nanometre more (where the plane's closest point to each vertex, its
// height in the plane's frame, is not within the alarm; the nanometre
// covers the rounding between the two computations of that height).
// Either way the pairs are those found vertex by vertex.
type runCull struct {
	kind  int // cullNone, cullBox or cullPlane
	world r3.Box
	n     r3.Vec  // the plane's outward normal, world
	level float64 // the height above which n·x lies out of reach
}

const (
	cullNone = iota
	cullBox
	cullPlane
)

func newRunCull(zone *alarmZone, world r3.Box, b *rigid.Body, alarm float64) runCull {
	if zone.bounded {
		return runCull{kind: cullBox, world: world}
	}
	if _, ok := b.Shape.(rigid.Plane); ok {
		n := b.Start.Rotate(r3.Vec{Z: 1})
		return runCull{kind: cullPlane, n: n, level: r3.Dot(n, b.Start.Position) + alarm + 1e-9}
	}
	return runCull{}
}

// away reports whether no vertex in box can pair with the body.
func (c *runCull) away(box *r3.Box) bool {
	switch c.kind {
	case cullBox:
		return !rigid.BoxesMeet(box, &c.world)
	case cullPlane:
		return rigid.LowestAlong(c.n, box) >= c.level
	}
	return false
}

// rigidVertexPairs appends the RigidVertex pairs of one body.
func (d *Detector) rigidVertexPairs(q []float64, body int, shape rigid.Shape, f frame, alarm float64, out []Pair) []Pair {
	for k, local := range shape.Vertices() {
		r := f.toWorld(local)
		// The closest soft triangle within the alarm distance, ties to the
		// lowest index (BVH.Nearest).
		best, p, w, n := d.nearestFace(q, r, alarm, nil, 0)
		if best < 0 {
			continue
		}
		tri := d.surf.Tris[best]
		// |s| ≤ |r − p| < alarm, so the rule's second condition,
		// s > −alarm, always holds here.
		s := r3.Dot(n, r3.Sub(r, p))
		pr := Pair{
			Kind: RigidVertex, Body: body, Count: 3,
			Point: -1, Tri: best, Vertex: k,
			RigidLocal: local, Normal: r3.Scale(-1, n), Distance: s,
		}
		copy(pr.Nodes[:3], tri[:])
		copy(pr.Weights[:3], w[:])
		pr.Bary = w
		out = append(out, pr)
	}
	return out
}
