package mesh

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// TriSurface is a triangle surface mesh: what STL, OBJ and VTK POLYDATA
// files hold, and what a Gmsh or VTK file without volume elements holds.
// A closed surface bounds a volume that meshfile.Tetrahedralize fills.
type TriSurface struct {
	Nodes []r3.Vec
	Tris  [][3]int
}

// edgeKey is an undirected edge, smaller node first.
type edgeKey [2]int

func edgeOf(a, b int) edgeKey {
	if a > b {
		a, b = b, a
	}
	return edgeKey{a, b}
}

// ShellStats describes a closed surface: its connected pieces (shells),
// how many triangles Close turned to make each shell face outwards, and
// the volume the shells enclose.
type ShellStats struct {
	Shells  int
	Flipped int
	Volume  float64
}

// Close checks that the surface is closed (every edge shared by exactly
// two triangles) and orientable, and orients every shell so that its
// triangles face outwards (positive enclosed volume). An open or
// non-manifold surface is an error that locates the first bad edge.
func (s *TriSurface) Close() (ShellStats, error) {
	var st ShellStats
	edges := s.edgeMap()
	if err := s.checkEdges(edges); err != nil {
		return st, err
	}
	shell := make([]int, len(s.Tris))
	for i := range shell {
		shell[i] = -1
	}
	for seed := range s.Tris {
		if shell[seed] >= 0 {
			continue
		}
		flipped, vol, err := s.orientShell(seed, st.Shells, shell, edges)
		if err != nil {
			return st, err
		}
		st.Shells++
		st.Flipped += flipped
		st.Volume += vol
	}
	return st, nil
}

// checkEdges reports the first open or non-manifold edge, and how many
// there are.
func (s *TriSurface) checkEdges(edges map[edgeKey][]int32) error {
	var open, crowded int
	var firstOpen, firstCrowded edgeKey
	crowd := 0
	for e, ts := range edges {
		switch {
		case len(ts) == 1:
			if open == 0 || lessEdge(e, firstOpen) {
				firstOpen = e
			}
			open++
		case len(ts) > 2:
			if crowded == 0 || lessEdge(e, firstCrowded) {
				firstCrowded, crowd = e, len(ts)
			}
			crowded++
		}
	}
	if open > 0 {
		return fmt.Errorf("the surface is open: %s only one triangle, the first from %s to %s; only a closed surface encloses a volume to fill with tetrahedra",
			nouns(open, "edge borders", "edges border"), fmtPoint(s.Nodes[firstOpen[0]]), fmtPoint(s.Nodes[firstOpen[1]]))
	}
	if crowded > 0 {
		return fmt.Errorf("the surface is not a manifold: %s shared by more than two triangles, the first (from %s to %s) by %d",
			nouns(crowded, "edge is", "edges are"), fmtPoint(s.Nodes[firstCrowded[0]]), fmtPoint(s.Nodes[firstCrowded[1]]), crowd)
	}
	return nil
}

// lessEdge orders edges so that the reported edge does not depend on map
// iteration order.
func lessEdge(a, b edgeKey) bool { return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]) }

// nouns phrases n things: "1 edge borders", "3 edges border".
func nouns(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// fmtPoint formats a point for a message.
func fmtPoint(p r3.Vec) string { return fmt.Sprintf("(%.6g, %.6g, %.6g)", p.X, p.Y, p.Z) }

// orientShell walks the shell of triangle seed, turning each triangle to
// agree with its neighbour across every edge (two triangles agree when
// they run through their common edge in opposite directions), then turns
// the whole shell if it encloses a negative volume. It returns how many
// triangles end up turned and the shell's volume.
func (s *TriSurface) orientShell(seed, id int, shell []int, edges map[edgeKey][]int32) (int, float64, error) {
	members := []int{seed}
	shell[seed] = id
	turned := make(map[int]bool)
	for q := 0; q < len(members); q++ {
		t := s.Tris[members[q]]
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			for _, o := range edges[edgeOf(a, b)] {
				n := int(o)
				if n == members[q] {
					continue
				}
				same := runsFrom(s.Tris[n], a, b) // same direction: disagree
				if shell[n] >= 0 {
					if same {
						return 0, 0, fmt.Errorf("the surface is not orientable (a Möbius-like shell) at the edge from %s to %s",
							fmtPoint(s.Nodes[a]), fmtPoint(s.Nodes[b]))
					}
					continue
				}
				if same {
					s.Tris[n][1], s.Tris[n][2] = s.Tris[n][2], s.Tris[n][1]
					turned[n] = true
				}
				shell[n] = id
				members = append(members, n)
			}
		}
	}
	vol := s.shellVolume(members)
	if vol < 0 {
		for _, ti := range members {
			s.Tris[ti][1], s.Tris[ti][2] = s.Tris[ti][2], s.Tris[ti][1]
			turned[ti] = !turned[ti]
		}
		vol = -vol
	}
	n := 0
	for _, t := range turned {
		if t {
			n++
		}
	}
	return n, vol, nil
}

// runsFrom reports whether triangle t has the directed edge a→b.
func runsFrom(t [3]int, a, b int) bool {
	for k := 0; k < 3; k++ {
		if t[k] == a && t[(k+1)%3] == b {
			return true
		}
	}
	return false
}

// shellVolume returns the signed volume that the triangles enclose: the
// sum of the tetrahedra they span with a reference point (the first
// corner, to keep the terms small), positive for outward triangles.
func (s *TriSurface) shellVolume(tris []int) float64 {
	if len(tris) == 0 {
		return 0
	}
	o := s.Nodes[s.Tris[tris[0]][0]]
	var v float64
	for _, ti := range tris {
		t := s.Tris[ti]
		v += SignedVolume(o, s.Nodes[t[0]], s.Nodes[t[1]], s.Nodes[t[2]])
	}
	return v
}

// Volume returns the volume the surface encloses (every shell counted
// positive once Close has oriented it).
func (s *TriSurface) Volume() float64 {
	all := make([]int, len(s.Tris))
	for i := range all {
		all[i] = i
	}
	return math.Abs(s.shellVolume(all))
}

// Centroid returns the centre of the volume the surface encloses, by the
// divergence theorem: the tetrahedra spanned by each triangle and a
// reference point o have signed volumes Vₜ and centroids (o + a + b + c)/4,
// and Σ Vₜ·cₜ / Σ Vₜ is the solid's centroid whatever o, for outward
// triangles. A surface that encloses no volume (an open sheet) has the
// area-weighted mean of its triangles' centroids.
func (s *TriSurface) Centroid() r3.Vec {
	if len(s.Tris) == 0 {
		return meanOf(s.Nodes)
	}
	o := s.Nodes[s.Tris[0][0]]
	var c, ca r3.Vec
	var v, area float64
	for _, t := range s.Tris {
		a, b, d := s.Nodes[t[0]], s.Nodes[t[1]], s.Nodes[t[2]]
		vt := SignedVolume(o, a, b, d)
		mid := r3.Scale(0.25, r3.Add(r3.Add(o, a), r3.Add(b, d)))
		c, v = r3.Add(c, r3.Scale(vt, mid)), v+vt
		at := r3.Norm(r3.Cross(r3.Sub(b, a), r3.Sub(d, a))) / 2
		ca, area = r3.Add(ca, r3.Scale(at/3, r3.Add(r3.Add(a, b), d))), area+at
	}
	box := s.Bounds()
	size := r3.Sub(box.Max, box.Min)
	if math.Abs(v) > 1e-6*size.X*size.Y*size.Z {
		return r3.Scale(1/v, c)
	}
	if area > 0 {
		return r3.Scale(1/area, ca)
	}
	return meanOf(s.Nodes)
}

// Bounds returns the bounding box of the surface's points.
func (s *TriSurface) Bounds() r3.Box { return BoundsOf(s.Nodes) }

// SubdivideOnSphere splits every triangle into four, n times, each new
// point the midpoint of its edge (made once for the two triangles that
// share the edge) pushed onto the unit sphere: a unit polyhedron refined
// into a finer sphere, as test surfaces are made (meshtest.Icosphere).
// Each triangle's four children come in its place, corner children first,
// in the order of its corners, so that the numbering is reproducible.
func (s *TriSurface) SubdivideOnSphere(n int) {
	for range n {
		mid := make(map[edgeKey]int)
		at := func(a, b int) int {
			e := edgeOf(a, b)
			if i, ok := mid[e]; ok {
				return i
			}
			mid[e] = len(s.Nodes)
			s.Nodes = append(s.Nodes, r3.Unit(r3.Add(s.Nodes[a], s.Nodes[b])))
			return mid[e]
		}
		next := make([][3]int, 0, 4*len(s.Tris))
		for _, t := range s.Tris {
			ab, bc, ca := at(t[0], t[1]), at(t[1], t[2]), at(t[2], t[0])
			next = append(next, [3]int{t[0], ab, ca}, [3]int{t[1], bc, ab}, [3]int{t[2], ca, bc}, [3]int{ab, bc, ca})
		}
		s.Tris = next
	}
}
