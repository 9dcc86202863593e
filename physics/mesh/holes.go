package mesh

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"
)

// Small holes: scans and exported surfaces often miss a few triangles, so
// that a few edges border only one triangle. FillHoles closes each loop of
// such edges with triangles that face the same way as their neighbours,
// as long as the patches added are small beside the surface they close; a
// surface that is open beyond that (a single sheet, a bowl) is an error
// that says where its largest hole is.

// DefaultHoleFraction is the share of a shell's area that FillHoles may
// add to close it: a tenth, which covers a few missing triangles of a
// coarse surface (one of a cube's twelve) and any number of small holes
// of a scan, and excludes a sheet, a hemisphere or a box without a lid.
const DefaultHoleFraction = 0.1

// strayFraction bounds the share of the whole surface's area that an
// open shell may have to be dropped as stray debris rather than refused.
const strayFraction = 0.01

// HoleStats says what FillHoles changed.
type HoleStats struct {
	Holes     int // loops of open edges closed
	OpenEdges int // the edges of those loops
	Points    int // points added (the centres of the patches)
	Stray     int // open pieces dropped as debris
	StrayTris int // their triangles
}

// FillHoles closes the small holes of the surface (see above). A hole is
// a loop of edges that border only one triangle; it is closed by one
// triangle (a loop of three edges) or by a fan of triangles around the
// loop's centroid, each facing as the triangle across its edge does. The
// patches of one shell (a connected piece) may add at most maxFraction of
// its area (0 uses DefaultHoleFraction). An open shell of less than a
// hundredth of the surface's area whose holes are too large (a stray
// triangle of a scan) is dropped. A surface with an edge shared by more
// than two triangles is left as it is (Close says where), as is one whose
// holes are too large: the error says which hole and where.
func (s *TriSurface) FillHoles(maxFraction float64) (HoleStats, error) {
	var st HoleStats
	if maxFraction <= 0 {
		maxFraction = DefaultHoleFraction
	}
	edges := s.edgeMap()
	open := 0
	for _, ts := range edges {
		if len(ts) > 2 {
			return st, nil
		}
		if len(ts) == 1 {
			open++
		}
	}
	if open == 0 {
		return st, nil
	}
	shells, count, err := s.orientation(edges)
	if err != nil {
		return HoleStats{}, err
	}
	loops := s.holeLoops(edges, shells)
	area := make([]float64, count)
	var total float64
	for ti, t := range s.Tris {
		a := triArea(s.Nodes[t[0]], s.Nodes[t[1]], s.Nodes[t[2]])
		area[shells[ti].id] += a
		total += a
	}
	patch := make([]float64, count)
	worst := make([]int, count) // the largest loop of each shell
	for i := range worst {
		worst[i] = -1
	}
	for li, l := range loops {
		patch[l.shell] += l.patchArea(s.Nodes)
		if w := worst[l.shell]; w < 0 || len(l.verts) > len(loops[w].verts) {
			worst[l.shell] = li
		}
	}
	drop := make([]bool, count)
	for id := range patch {
		if worst[id] < 0 || patch[id] <= maxFraction*area[id] {
			continue
		}
		if area[id] < strayFraction*total {
			drop[id] = true
			continue
		}
		l := loops[worst[id]]
		return HoleStats{}, fmt.Errorf("the surface is open: %s only one triangle; the largest hole, a loop of %d edges around %s spanning %.3g, "+
			"needs %.3g%% of the area of its piece to close (at most %g%% is filled): an open sheet encloses no volume to fill with tetrahedra",
			nouns(open, "edge borders", "edges border"), len(l.verts), fmtPoint(l.centre(s.Nodes)), l.span(s.Nodes),
			100*patch[id]/area[id], 100*maxFraction)
	}
	var patches [][3]int
	for _, l := range loops {
		if drop[l.shell] {
			continue
		}
		st.Holes++
		v := l.verts
		st.OpenEdges += len(v)
		if len(v) == 3 {
			patches = append(patches, [3]int{v[0], v[1], v[2]})
			continue
		}
		c := len(s.Nodes)
		s.Nodes = append(s.Nodes, l.centre(s.Nodes))
		st.Points++
		for k := range v {
			patches = append(patches, [3]int{v[k], v[(k+1)%len(v)], c})
		}
	}
	if slices.Contains(drop, true) {
		st.Stray, st.StrayTris = s.dropShells(shells, drop)
	}
	s.Tris = append(s.Tris, patches...)
	if st.Stray > 0 {
		s.Compact()
	}
	return st, nil
}

// edgeMap returns the triangles on each edge.
func (s *TriSurface) edgeMap() map[edgeKey][]int32 {
	edges := make(map[edgeKey][]int32, 3*len(s.Tris)/2)
	for ti, t := range s.Tris {
		for k := 0; k < 3; k++ {
			e := edgeOf(t[k], t[(k+1)%3])
			edges[e] = append(edges[e], int32(ti))
		}
	}
	return edges
}

// triShell is a triangle's shell and whether it runs against the shell's
// orientation (the seed's).
type triShell struct {
	id      int
	against bool
}

// orientation finds the shells of a surface whose edges border at most
// two triangles, and how each triangle runs relative to its shell's seed,
// without changing the triangles.
func (s *TriSurface) orientation(edges map[edgeKey][]int32) ([]triShell, int, error) {
	shells := make([]triShell, len(s.Tris))
	seen := make([]bool, len(s.Tris))
	count := 0
	for seed := range s.Tris {
		if seen[seed] {
			continue
		}
		seen[seed] = true
		shells[seed] = triShell{id: count}
		queue := []int{seed}
		for len(queue) > 0 {
			ti := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			t := s.Tris[ti]
			for k := 0; k < 3; k++ {
				a, b := t[k], t[(k+1)%3]
				for _, o := range edges[edgeOf(a, b)] {
					n := int(o)
					if n == ti {
						continue
					}
					// Two triangles agree when they run through their
					// common edge in opposite directions.
					against := runsFrom(s.Tris[n], a, b) != shells[ti].against
					if seen[n] {
						if against != shells[n].against {
							return nil, 0, fmt.Errorf("the surface is not orientable (a Möbius-like shell) at the edge from %s to %s",
								fmtPoint(s.Nodes[a]), fmtPoint(s.Nodes[b]))
						}
						continue
					}
					seen[n] = true
					shells[n] = triShell{id: count, against: against}
					queue = append(queue, n)
				}
			}
		}
		count++
	}
	return shells, count, nil
}

// holeLoop is one hole: its corners in the order a patch triangle runs
// through them to agree with the triangles around it.
type holeLoop struct {
	shell int
	verts []int
}

func (l holeLoop) centre(nodes []r3.Vec) r3.Vec {
	var c r3.Vec
	for _, v := range l.verts {
		c = r3.Add(c, nodes[v])
	}
	return r3.Scale(1/float64(len(l.verts)), c)
}

// span is the largest distance between two corners of the loop.
func (l holeLoop) span(nodes []r3.Vec) float64 {
	var d float64
	for i, a := range l.verts {
		for _, b := range l.verts[:i] {
			d = math.Max(d, r3.Norm(r3.Sub(nodes[a], nodes[b])))
		}
	}
	return d
}

// patchArea is the area of the triangles that close the loop.
func (l holeLoop) patchArea(nodes []r3.Vec) float64 {
	v := l.verts
	if len(v) == 3 {
		return triArea(nodes[v[0]], nodes[v[1]], nodes[v[2]])
	}
	c := l.centre(nodes)
	var a float64
	for k := range v {
		a += triArea(nodes[v[k]], nodes[v[(k+1)%len(v)]], c)
	}
	return a
}

func triArea(a, b, c r3.Vec) float64 { return 0.5 * r3.Norm(r3.Cross(r3.Sub(b, a), r3.Sub(c, a))) }

// holeLoops chains the open edges into loops, each within one shell
// (two shells may touch at a point). A patch triangle on the
// open edge of triangle t runs through it the other way than t does in
// its shell's orientation; the loops are made of those reversed edges, so
// that a patch through consecutive corners agrees with its neighbours.
// Loops come out in a fixed order (by their first edge), so that the
// result does not depend on map iteration.
func (s *TriSurface) holeLoops(edges map[edgeKey][]int32, shells []triShell) []holeLoop {
	type halfEdge struct{ from, to, shell int }
	var open []halfEdge
	for e, ts := range edges {
		if len(ts) != 1 {
			continue
		}
		ti := int(ts[0])
		a, b := e[0], e[1]
		forward := runsFrom(s.Tris[ti], a, b) != shells[ti].against // t runs a→b in its shell
		if forward {
			a, b = b, a
		}
		open = append(open, halfEdge{a, b, shells[ti].id})
	}
	slices.SortFunc(open, func(p, q halfEdge) int {
		if p.from != q.from {
			return p.from - q.from
		}
		return p.to - q.to
	})
	from := make(map[int][]int, len(open)) // open half-edges leaving each vertex
	for i, h := range open {
		from[h.from] = append(from[h.from], i)
	}
	used := make([]bool, len(open))
	var loops []holeLoop
	for i := range open {
		if used[i] {
			continue
		}
		l := holeLoop{shell: open[i].shell}
		start := open[i].from
		for j := i; ; {
			used[j] = true
			l.verts = append(l.verts, open[j].from)
			next := -1
			for _, k := range from[open[j].to] {
				if !used[k] && open[k].shell == open[j].shell {
					next = k
					break
				}
			}
			if open[j].to == start || next < 0 {
				break
			}
			j = next
		}
		loops = append(loops, simpleLoops(l)...)
	}
	return loops
}

// simpleLoops splits a loop that passes through a point more than once
// (two holes that touch at a corner) into loops that do not, so that the
// fan of each has one edge to each corner.
func simpleLoops(l holeLoop) []holeLoop {
	var out []holeLoop
	var stack []int
	at := make(map[int]int, len(l.verts)) // position of each point on the stack
	for _, v := range l.verts {
		if p, ok := at[v]; ok {
			if len(stack)-p >= 3 {
				out = append(out, holeLoop{shell: l.shell, verts: slices.Clone(stack[p:])})
			}
			for _, w := range stack[p+1:] {
				delete(at, w)
			}
			stack = stack[:p+1]
			continue
		}
		at[v] = len(stack)
		stack = append(stack, v)
	}
	if len(stack) >= 3 {
		out = append(out, holeLoop{shell: l.shell, verts: stack})
	}
	return out
}

// dropShells removes the triangles of the shells marked (their points
// stay until compact) and returns how many shells and triangles went.
func (s *TriSurface) dropShells(shells []triShell, drop []bool) (int, int) {
	keep := s.Tris[:0]
	n := 0
	for ti, t := range s.Tris {
		if drop[shells[ti].id] {
			n++
			continue
		}
		keep = append(keep, t)
	}
	s.Tris = keep
	dropped := 0
	for _, d := range drop {
		if d {
			dropped++
		}
	}
	return dropped, n
}

// Compact keeps only the points that the triangles use, in the order the
// triangles first use them, and renumbers the triangles onto them.
func (s *TriSurface) Compact() {
	index := make([]int, len(s.Nodes))
	for i := range index {
		index[i] = -1
	}
	var nodes []r3.Vec
	for ti, t := range s.Tris {
		for k, v := range t {
			if index[v] < 0 {
				index[v] = len(nodes)
				nodes = append(nodes, s.Nodes[v])
			}
			s.Tris[ti][k] = index[v]
		}
	}
	s.Nodes = nodes
}

// RemoveAround removes the triangles listed (seeds) and every triangle
// within rings rings of points around them (rings 1: the triangles that
// share a point with one of them), then the points no triangle uses. It
// returns how many triangles went. What is left is open where they were:
// FillHoles closes it.
func (s *TriSurface) RemoveAround(seeds []int, rings int) int {
	drop := make([]bool, len(s.Tris))
	for _, ti := range seeds {
		if ti >= 0 && ti < len(s.Tris) {
			drop[ti] = true
		}
	}
	for ; rings > 0; rings-- {
		near := make([]bool, len(s.Nodes))
		for ti, t := range s.Tris {
			if drop[ti] {
				near[t[0]], near[t[1]], near[t[2]] = true, true, true
			}
		}
		for ti, t := range s.Tris {
			drop[ti] = drop[ti] || near[t[0]] || near[t[1]] || near[t[2]]
		}
	}
	keep := s.Tris[:0]
	for ti, t := range s.Tris {
		if !drop[ti] {
			keep = append(keep, t)
		}
	}
	n := len(s.Tris) - len(keep)
	s.Tris = keep
	s.Compact()
	return n
}
