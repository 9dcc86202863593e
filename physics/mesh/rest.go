package mesh

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"
)

// How a rigid-ish object comes to rest on a floor: on a face of its convex
// hull, the one it lands on when put down with a given side down and
// rolled over the edges its centre of mass lies beyond (quasi-static
// toppling: each roll lowers the centre of mass, so the walk ends). A
// face is the union of the hull's triangles that lie in one plane
// (within faceAngle), since an object rests on all of them at once.

// faceAngle is the largest angle between two neighbouring hull triangles
// that belong to one face, rad: scans and marching-cubes surfaces are
// flat only to about this.
const faceAngle = 0.5 * math.Pi / 180

// Rest is a face of the hull the object can rest on, as seen from its
// centre of mass c.
type Rest struct {
	// Normal is the face's outward unit normal: resting on it, gravity
	// points along Normal.
	Normal r3.Vec
	// Margin is the signed distance from the projection of c onto the
	// face's plane to the face's boundary, positive inside: the object
	// rests on the face only where Margin > 0.
	Margin float64
	// Height is c's distance above the face's plane.
	Height float64
	// Saddle is the lowest height c must be raised to, balanced on an edge
	// or a corner of the hull, to leave the faces that roll back onto this
	// one (its basin) for another face's: the energy barrier of the rest,
	// +Inf when every face rolls onto this one.
	Saddle float64
	// Rolls counts the faces rolled over to reach this one (RestOn; 0:
	// the face the object was put down on).
	Rolls int
}

// Stable reports whether c projects inside the face.
func (r Rest) Stable() bool { return r.Margin > 0 }

// TipAngle is the angle the object must be tilted by before it rolls onto
// another rest: acos(Height/Saddle), the angle at which c, turning about
// the saddle's edge, comes over it. For a box on its bottom that is
// atan(margin/height); a curved bottom's many small faces roll back onto
// the lowest, so an egg on its side has a large tip angle although each
// face's margin is tiny. 0 for a face the object does not rest on.
func (r Rest) TipAngle() float64 {
	if !r.Stable() || !(r.Saddle > 0) {
		return 0
	}
	return math.Acos(math.Min(1, r.Height/r.Saddle))
}

// rests is the hull's faces seen from a centre of mass: each face's rest
// and the face it rolls onto (next, −1 for a stable one), and the stable
// face every face ends on (root).
type rests struct {
	face      []int // face of each hull triangle
	rest      []Rest
	next      []int
	root      []int
	triangles [][]int // the triangles of each face
}

// restsFrom analyses the hull's faces from c: which face each rolls onto
// (faceRest), where each ends, and the basins' saddles (mergeBasins).
func (h *Hull) restsFrom(c r3.Vec) *rests {
	face, nf := h.hullFaces()
	rs := &rests{face: face, rest: make([]Rest, nf), next: make([]int, nf), root: make([]int, nf), triangles: make([][]int, nf)}
	for t, f := range face {
		rs.triangles[f] = append(rs.triangles[f], t)
	}
	for f := 0; f < nf; f++ {
		rs.rest[f], rs.next[f] = h.faceRest(rs, f, c)
		rs.rest[f].Saddle = math.Inf(1)
		if rs.rest[f].Stable() {
			rs.next[f] = -1
		}
	}
	for f := 0; f < nf; f++ {
		g := f
		for k := 0; k <= nf && rs.next[g] >= 0; k++ {
			g = rs.next[g]
		}
		rs.root[f] = g
	}
	rs.mergeBasins(h, c)
	return rs
}

// minPersistence is the tip angle below which a rest is round-off of the
// hull rather than a rest (a curved side sampled by points has many faces
// that are lowest by a hair), rad: its basin joins its neighbour's.
const minPersistence = 1 * math.Pi / 180

// mergeBasins finds each stable face's saddle, by the merge tree of the
// basins (each stable face's, from rolls): the edges between basins are
// taken by rising saddle height s (the distance from c to the edge's
// nearest point, a corner where c's foot falls beyond the edge's ends);
// where two basins meet, the one whose lowest face is higher joins the
// other if its tip angle at s, acos(Height/s), is below minPersistence;
// otherwise s is the saddle of both, unless they have a lower one.
// root then names the basin each face ends in after the joins.
func (rs *rests) mergeBasins(h *Hull, c r3.Vec) {
	type edge struct {
		a, b int
		s    float64
	}
	var edges []edge
	for t, tri := range h.Tris {
		for k, w := range h.Adj[t] {
			if w < 0 || w < t {
				continue // each edge once
			}
			if a, b := rs.root[rs.face[t]], rs.root[rs.face[w]]; a != b {
				edges = append(edges, edge{a, b, segmentDistance(c, h.Points[tri[k]], h.Points[tri[(k+1)%3]])})
			}
		}
	}
	sort.Slice(edges, func(i, j int) bool { return edges[i].s < edges[j].s })
	parent := make([]int, len(rs.rest))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, e := range edges {
		a, b := find(e.a), find(e.b)
		if a == b {
			continue
		}
		if rs.rest[a].Height > rs.rest[b].Height {
			a, b = b, a // a: the lower
		}
		if math.Acos(math.Min(1, rs.rest[b].Height/e.s)) < minPersistence {
			parent[b] = a
			continue
		}
		for _, x := range []int{a, b} {
			rs.rest[x].Saddle = math.Min(rs.rest[x].Saddle, e.s)
		}
	}
	for f := range rs.root {
		rs.root[f] = find(rs.root[f])
	}
}

// segmentDistance is the distance from p to the segment a–b.
func segmentDistance(p, a, b r3.Vec) float64 {
	ab := r3.Sub(b, a)
	u := 0.0
	if l := r3.Dot(ab, ab); l > 0 {
		u = math.Max(0, math.Min(1, r3.Dot(r3.Sub(p, a), ab)/l))
	}
	return r3.Norm(r3.Sub(p, r3.Add(a, r3.Scale(u, ab))))
}

// hullFaces groups the hull's triangles into faces: face[t] is the face
// of triangle t, numbered from 0; neighbours join one face when their
// normals are within faceAngle of the first triangle's of the face.
func (h *Hull) hullFaces() (face []int, n int) {
	face = make([]int, len(h.Tris))
	for i := range face {
		face[i] = -1
	}
	cos := math.Cos(faceAngle)
	for t := range h.Tris {
		if face[t] >= 0 {
			continue
		}
		seed := h.normal(t)
		face[t] = n
		stack := []int{t}
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range h.Adj[u] {
				if w >= 0 && face[w] < 0 && r3.Dot(h.normal(w), seed) >= cos {
					face[w] = n
					stack = append(stack, w)
				}
			}
		}
		n++
	}
	return face, n
}

func (h *Hull) normal(t int) r3.Vec {
	v := h.Tris[t]
	return TriangleNormal(h.Points[v[0]], h.Points[v[1]], h.Points[v[2]])
}

// faceRest describes face f seen from c: its area-weighted normal, c's
// height above it, and the signed distance of c's projection to its
// boundary (the nearest of its edges to other faces), with the face across
// the boundary edge c's projection lies farthest beyond: the face it rolls
// onto when it does not rest on f.
func (h *Hull) faceRest(rs *rests, f int, c r3.Vec) (r Rest, next int) {
	var n r3.Vec
	for _, t := range rs.triangles[f] {
		v := h.Tris[t]
		n = r3.Add(n, r3.Cross(r3.Sub(h.Points[v[1]], h.Points[v[0]]), r3.Sub(h.Points[v[2]], h.Points[v[0]])))
	}
	n = r3.Unit(n)
	d := math.Inf(-1)
	for _, t := range rs.triangles[f] {
		for _, i := range h.Tris[t] {
			d = math.Max(d, r3.Dot(n, h.Points[i]))
		}
	}
	r = Rest{Normal: n, Height: d - r3.Dot(n, c), Margin: math.Inf(1)}
	next = -1
	p := r3.Add(c, r3.Scale(r.Height, n)) // c's projection onto the plane
	for _, t := range rs.triangles[f] {
		for k, w := range h.Adj[t] {
			if w < 0 || rs.face[w] == f {
				continue
			}
			a, b := h.Points[h.Tris[t][k]], h.Points[h.Tris[t][(k+1)%3]]
			in := r3.Unit(r3.Cross(n, r3.Sub(b, a))) // towards the face's inside, in its plane
			if s := r3.Dot(r3.Sub(p, a), in); s < r.Margin {
				r.Margin, next = s, rs.face[w]
			}
		}
	}
	return r, next
}

// RestOn returns the rest the object whose centre of mass is c comes to
// when it is put down with down (a unit vector, in the hull's frame)
// pointing at the floor: it lands on the face the ray from c along down
// leaves the hull through, then, while c projects outside the face, rolls
// onto the face across the edge it lies farthest beyond. ok is false for
// a c outside the hull.
func (h *Hull) RestOn(c, down r3.Vec) (r Rest, ok bool) {
	start, best := -1, math.Inf(1)
	for t := range h.Tris {
		n := h.normal(t)
		nd := r3.Dot(n, down)
		if nd <= 1e-12 {
			continue
		}
		height := r3.Dot(n, h.Points[h.Tris[t][0]]) - r3.Dot(n, c)
		if height < 0 {
			return Rest{}, false
		}
		if s := height / nd; s < best {
			start, best = t, s
		}
	}
	if start < 0 {
		return Rest{}, false
	}
	rs := h.restsFrom(c)
	f, rolls := rs.face[start], 0
	for rs.next[f] >= 0 && rolls < len(rs.next) {
		f, rolls = rs.next[f], rolls+1
	}
	if g := rs.root[f]; g != f {
		f, rolls = g, rolls+1 // a rest too shallow to hold: on to the basin it joined
	}
	r = rs.rest[f]
	r.Rolls = rolls
	return r, r.Stable()
}

// Rests returns every rest of the hull: the stable faces (c projects
// inside them) whose tip angle is at least minPersistence, in the hull's
// order.
func (h *Hull) Rests(c r3.Vec) []Rest {
	rs := h.restsFrom(c)
	var out []Rest
	for f, r := range rs.rest {
		if r.Stable() && rs.root[f] == f {
			out = append(out, r)
		}
	}
	return out
}
