package mesh

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Hull is the convex hull of a set of points: triangles that index the
// points, counter-clockwise seen from outside (outward normals), with the
// neighbour across each edge. A soft object rests on the floor on a face
// of its convex hull (RestFace), so the hull is what the resting pose is
// chosen on.
type Hull struct {
	Points []r3.Vec
	Tris   [][3]int
	// Adj[t][k] is the triangle across the edge Tris[t][k] → Tris[t][k+1]
	// (indices taken modulo 3).
	Adj [][3]int
}

// ErrFlatHull is ConvexHull's error for points that span no volume: all
// of them on one plane (within the hull's tolerance), on one line, or
// fewer than four.
var ErrFlatHull = errors.New("mesh: the points span no volume (flat, or fewer than four)")

// hullFace is a triangle of the hull under construction: its corners,
// outward plane n·x = d, the neighbours across its edges, whether it is
// still part of the hull, and the points above it that are not yet
// processed (its conflict list).
type hullFace struct {
	v       [3]int
	n       r3.Vec
	d       float64
	adj     [3]int
	alive   bool
	outside []int
}

// ConvexHull returns the convex hull of points by the quickhull algorithm:
// a first tetrahedron of extreme points, then repeatedly the point
// farthest above a face is added, the faces it sees removed and the hole
// closed by a cone of new faces from the point to the horizon. A point
// within eps of a face's plane counts as on it (eps is 10⁻⁹ of the points'
// extent, far below any mesh's resolution), so coplanar points (a box's
// faces) add no slivers. The order of the points decides nothing but
// ties.
//
// References:
//
//	C. B. Barber, D. P. Dobkin and H. Huhdanpaa, "The quickhull algorithm
//	for convex hulls", ACM Transactions on Mathematical Software 22(4),
//	1996.
func ConvexHull(points []r3.Vec) (*Hull, error) {
	if len(points) < 4 {
		return nil, ErrFlatHull
	}
	b := BoundsOf(points)
	extent := r3.Norm(r3.Sub(b.Max, b.Min))
	if !(extent > 0) || math.IsInf(extent, 0) {
		return nil, ErrFlatHull
	}
	q := quickhull{pts: points, eps: 1e-9 * extent}
	if err := q.start(); err != nil {
		return nil, err
	}
	for f := 0; f < len(q.faces); f++ {
		// Faces are appended as they are made; a face whose conflict list
		// is emptied or that is removed needs no more work.
		for q.faces[f].alive && len(q.faces[f].outside) > 0 {
			q.add(f)
		}
	}
	return q.result(), nil
}

type quickhull struct {
	pts   []r3.Vec
	eps   float64
	faces []hullFace
}

// dist is the signed distance of point p above face f's plane.
func (q *quickhull) dist(f int, p int) float64 {
	return r3.Dot(q.faces[f].n, q.pts[p]) - q.faces[f].d
}

// start builds the first tetrahedron: the two points farthest apart along
// the axis of largest extent, the point farthest from their line, and the
// point farthest from the plane of the three; every other point goes to
// the conflict list of the first face it lies above.
func (q *quickhull) start() error {
	p := q.pts
	axis := func(v r3.Vec, k int) float64 { return [3]float64{v.X, v.Y, v.Z}[k] }
	b := BoundsOf(p)
	ext := r3.Sub(b.Max, b.Min)
	k := 0
	if ext.Y > ext.X {
		k = 1
	}
	if ext.Z > math.Max(ext.X, ext.Y) {
		k = 2
	}
	i0, i1 := 0, 0
	for i := range p {
		if axis(p[i], k) < axis(p[i0], k) {
			i0 = i
		}
		if axis(p[i], k) > axis(p[i1], k) {
			i1 = i
		}
	}
	line := r3.Unit(r3.Sub(p[i1], p[i0]))
	i2, best := -1, q.eps
	for i := range p {
		d := r3.Sub(p[i], p[i0])
		if off := r3.Norm(r3.Sub(d, r3.Scale(r3.Dot(d, line), line))); off > best {
			i2, best = i, off
		}
	}
	if i2 < 0 {
		return ErrFlatHull
	}
	n := r3.Unit(r3.Cross(r3.Sub(p[i1], p[i0]), r3.Sub(p[i2], p[i0])))
	i3, best := -1, q.eps
	for i := range p {
		if d := math.Abs(r3.Dot(n, r3.Sub(p[i], p[i0]))); d > best {
			i3, best = i, d
		}
	}
	if i3 < 0 {
		return ErrFlatHull
	}
	// Orient the base (i0, i1, i2) so that i3 lies below it (inside).
	if r3.Dot(n, r3.Sub(p[i3], p[i0])) > 0 {
		i1, i2 = i2, i1
	}
	tris := [4][3]int{{i0, i1, i2}, {i0, i3, i1}, {i1, i3, i2}, {i2, i3, i0}}
	for _, t := range tris {
		q.newFace(t)
	}
	q.link([]int{0, 1, 2, 3})
	corner := map[int]bool{i0: true, i1: true, i2: true, i3: true}
	for i := range p {
		if !corner[i] {
			q.assign(i, []int{0, 1, 2, 3})
		}
	}
	return nil
}

// newFace appends the face of corners t and returns its index.
func (q *quickhull) newFace(t [3]int) int {
	a, b, c := q.pts[t[0]], q.pts[t[1]], q.pts[t[2]]
	n := TriangleNormal(a, b, c)
	q.faces = append(q.faces, hullFace{v: t, n: n, d: r3.Dot(n, a), adj: [3]int{-1, -1, -1}, alive: true})
	return len(q.faces) - 1
}

// link sets the neighbours among the faces fs that share edges.
func (q *quickhull) link(fs []int) {
	type edge [2]int
	owner := map[edge][2]int{}
	for _, f := range fs {
		for k := 0; k < 3; k++ {
			owner[edge{q.faces[f].v[k], q.faces[f].v[(k+1)%3]}] = [2]int{f, k}
		}
	}
	for _, f := range fs {
		for k := 0; k < 3; k++ {
			if o, ok := owner[edge{q.faces[f].v[(k+1)%3], q.faces[f].v[k]}]; ok {
				q.faces[f].adj[k] = o[0]
			}
		}
	}
}

// assign puts point i on the conflict list of the first face of fs it
// lies above by more than eps; a point above none is inside the hull.
func (q *quickhull) assign(i int, fs []int) {
	for _, f := range fs {
		if q.dist(f, i) > q.eps {
			q.faces[f].outside = append(q.faces[f].outside, i)
			return
		}
	}
}

// add adds the point of face f's conflict list that lies farthest above
// it: the faces it sees (found by walking the neighbours from f) are
// removed, the horizon (their edges to faces it does not see) is joined
// to it by new faces, and the removed faces' points are given to the new
// faces.
func (q *quickhull) add(f int) {
	out := q.faces[f].outside
	far, best := 0, -1.0
	for j, i := range out {
		if d := q.dist(f, i); d > best {
			far, best = j, d
		}
	}
	p := out[far]
	out[far] = out[len(out)-1]
	q.faces[f].outside = out[:len(out)-1]

	// The faces p sees, found by walking the neighbours from f, in the
	// order found (a map's order would make the hull depend on the run).
	visible := []int{f}
	seen := map[int]bool{f: true}
	for k := 0; k < len(visible); k++ {
		for _, h := range q.faces[visible[k]].adj {
			if h >= 0 && !seen[h] && q.faces[h].alive && q.dist(h, p) > q.eps {
				seen[h] = true
				visible = append(visible, h)
			}
		}
	}
	type horizonEdge struct{ a, b, outer int }
	var horizon []horizonEdge
	for _, g := range visible {
		for k, h := range q.faces[g].adj {
			if !seen[h] {
				horizon = append(horizon, horizonEdge{q.faces[g].v[k], q.faces[g].v[(k+1)%3], h})
			}
		}
	}
	// A horizon that is not one simple loop (round-off on nearly coplanar
	// faces) would make a hull with holes: the point is dropped instead,
	// and the hull misses it by its small height above those faces.
	starts := map[int]int{}
	for j, e := range horizon {
		if _, dup := starts[e.a]; dup {
			return
		}
		starts[e.a] = j
	}
	var orphans []int
	for _, g := range visible {
		q.faces[g].alive = false
		orphans = append(orphans, q.faces[g].outside...)
		q.faces[g].outside = nil
	}
	first := len(q.faces)
	made := make([]int, 0, len(horizon))
	for _, e := range horizon {
		nf := q.newFace([3]int{e.a, e.b, p})
		made = append(made, nf)
		q.faces[nf].adj[0] = e.outer
		o := &q.faces[e.outer]
		for k := 0; k < 3; k++ {
			if o.v[k] == e.b && o.v[(k+1)%3] == e.a {
				o.adj[k] = nf
			}
		}
	}
	for j, e := range horizon {
		nf := first + j
		q.faces[nf].adj[1] = first + starts[e.b] // edge b → p: the face whose horizon edge starts at b
	}
	for j := range horizon {
		nf := first + j
		next := q.faces[nf].adj[1]
		q.faces[next].adj[2] = nf // edge p → b of the next face is edge b → p of this one
	}
	for _, i := range orphans {
		q.assign(i, made)
	}
}

// result compacts the live faces into a Hull.
func (q *quickhull) result() *Hull {
	index := make([]int, len(q.faces))
	h := &Hull{Points: q.pts}
	for f := range q.faces {
		index[f] = -1
		if q.faces[f].alive {
			index[f] = len(h.Tris)
			h.Tris = append(h.Tris, q.faces[f].v)
		}
	}
	for f := range q.faces {
		if !q.faces[f].alive {
			continue
		}
		var a [3]int
		for k, g := range q.faces[f].adj {
			a[k] = index[g]
		}
		h.Adj = append(h.Adj, a)
	}
	return h
}
