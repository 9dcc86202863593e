package embed

import (
	"cmp"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// edgeStats counts what is wrong with a surface's edges: open edges
// (bordered by one triangle), crowded edges (shared by more than two) and
// the first open edge's end points.
type edgeStats struct {
	open, crowded int
	firstOpen     [2]int
}

// halfEdge is one triangle's side: the undirected edge key (smaller point
// first), the triangle, and whether the triangle runs it from the smaller
// point to the larger.
type halfEdge struct {
	a, b    int
	tri     int
	forward bool
}

// orientation is the result of orient: the triangles turned and why.
type orientation struct {
	edges edgeStats
	// turned lists, per triangle, whether it was turned.
	turned []bool
	// disagreeing counts the triangles turned to agree with their
	// neighbours; inward the patches turned to face outwards, of patches.
	disagreeing     int
	inward, patches int
	// insideOut is set when every triangle was turned; turnedTriangles
	// counts them; nonOrientable counts the links that no orientation of
	// a patch satisfies (a Möbius-like patch).
	insideOut       bool
	turnedTriangles int
	nonOrientable   int
}

// orient makes the triangles of s face outwards consistently, in place.
// Triangles that meet across an edge shared by exactly two of them form a
// patch; within a patch every triangle is turned to agree with its
// neighbours (two triangles agree when they run through their common edge
// in opposite directions), the minority of each patch giving way. Each
// patch then faces outwards: it is turned whole when the volume it spans
// with the surface's area centroid is negative (for a closed patch, the
// volume it encloses). This is what mesh.TriSurface.Close does to a closed
// surface, extended to open and non-manifold ones.
func orient(s *mesh.TriSurface) orientation {
	var o orientation
	half := make([]halfEdge, 0, 3*len(s.Tris))
	for t, tri := range s.Tris {
		for k := range 3 {
			a, b := tri[k], tri[(k+1)%3]
			if a == b {
				continue
			}
			half = append(half, halfEdge{a: min(a, b), b: max(a, b), tri: t, forward: a < b})
		}
	}
	slices.SortFunc(half, func(x, y halfEdge) int {
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		if c := cmp.Compare(x.b, y.b); c != 0 {
			return c
		}
		return cmp.Compare(x.tri, y.tri)
	})
	// Neighbours across manifold edges, with whether the pair disagrees.
	type link struct {
		tri      int
		disagree bool
	}
	nb := make([][3]link, len(s.Tris))
	deg := make([]int, len(s.Tris))
	for i := 0; i < len(half); {
		j := i + 1
		for j < len(half) && half[j].a == half[i].a && half[j].b == half[i].b {
			j++
		}
		switch n := j - i; {
		case n == 1:
			if o.edges.open == 0 {
				o.edges.firstOpen = [2]int{half[i].a, half[i].b}
			}
			o.edges.open++
		case n > 2:
			o.edges.crowded++
		case half[i].tri != half[i+1].tri:
			x, y := half[i], half[i+1]
			d := x.forward == y.forward
			if deg[x.tri] < 3 && deg[y.tri] < 3 {
				nb[x.tri][deg[x.tri]] = link{y.tri, d}
				deg[x.tri]++
				nb[y.tri][deg[y.tri]] = link{x.tri, d}
				deg[y.tri]++
			}
		}
		i = j
	}
	ref := areaCentroid(s)
	o.turned = make([]bool, len(s.Tris))
	seen := make([]bool, len(s.Tris))
	var patch []int
	for seed := range s.Tris {
		if seen[seed] {
			continue
		}
		o.patches++
		patch = append(patch[:0], seed)
		seen[seed] = true
		flips := 0
		for q := 0; q < len(patch); q++ {
			t := patch[q]
			for _, l := range nb[t][:deg[t]] {
				want := o.turned[t] != l.disagree
				if seen[l.tri] {
					if o.turned[l.tri] != want {
						o.nonOrientable++
					}
					continue
				}
				seen[l.tri] = true
				o.turned[l.tri] = want
				if want {
					flips++
				}
				patch = append(patch, l.tri)
			}
		}
		if 2*flips > len(patch) { // the minority gives way
			for _, t := range patch {
				o.turned[t] = !o.turned[t]
			}
			flips = len(patch) - flips
		}
		o.disagreeing += flips
		var vol float64
		for _, t := range patch {
			tri := s.Tris[t]
			v := mesh.SignedVolume(ref, s.Nodes[tri[0]], s.Nodes[tri[1]], s.Nodes[tri[2]])
			if o.turned[t] {
				v = -v
			}
			vol += v
		}
		if vol < 0 {
			o.inward++
			for _, t := range patch {
				o.turned[t] = !o.turned[t]
			}
		}
	}
	for t, turn := range o.turned {
		if turn {
			s.Tris[t][1], s.Tris[t][2] = s.Tris[t][2], s.Tris[t][1]
			o.turnedTriangles++
		}
	}
	o.insideOut = len(s.Tris) > 0 && o.turnedTriangles == len(s.Tris)
	return o
}

// areaCentroid returns the area-weighted centroid of the triangles (the
// mean of the points if they have no area).
func areaCentroid(s *mesh.TriSurface) r3.Vec {
	var c r3.Vec
	var area float64
	for _, t := range s.Tris {
		a, b, d := s.Nodes[t[0]], s.Nodes[t[1]], s.Nodes[t[2]]
		at := r3.Norm(r3.Cross(r3.Sub(b, a), r3.Sub(d, a)))
		c = r3.Add(c, r3.Scale(at/3, r3.Add(a, r3.Add(b, d))))
		area += at
	}
	if area > 0 {
		return r3.Scale(1/area, c)
	}
	for _, p := range s.Nodes {
		c = r3.Add(c, p)
	}
	return r3.Scale(1/float64(max(1, len(s.Nodes))), c)
}
