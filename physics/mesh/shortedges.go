package mesh

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"
)

// CollapseShortEdges merges the two ends of each edge shorter than tol
// into their midpoint, shortest first, and returns how many edges went.
// A surface extracted from an image (marching cubes or tetrahedra) has
// edges thousands of times shorter than its others wherever the level
// set passes close to a sample; a quality tetrahedral mesh must resolve
// such an edge with tetrahedra of its size, far below what the surface
// means. An edge is kept when merging its ends would change the topology
// (its ends share a neighbour other than the two opposite corners, or an
// opposite corner would keep only two triangles) or turn over a triangle
// around it, so that a closed, oriented manifold surface stays one. The
// surface must have been closed and oriented (Close).
func (s *TriSurface) CollapseShortEdges(tol float64) int {
	if !(tol > 0) || len(s.Tris) == 0 {
		return 0
	}
	type cand struct {
		a, b int
		l    float64
	}
	var cands []cand
	for _, t := range s.Tris {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			if a < b {
				if l := r3.Norm(r3.Sub(s.Nodes[a], s.Nodes[b])); l < tol {
					cands = append(cands, cand{a, b, l})
				}
			}
		}
	}
	if len(cands) == 0 {
		return 0
	}
	slices.SortFunc(cands, func(p, q cand) int {
		switch {
		case p.l < q.l:
			return -1
		case p.l > q.l:
			return 1
		case p.a != q.a:
			return p.a - q.a
		}
		return p.b - q.b
	})
	c := newCollapser(s)
	n := 0
	for _, e := range cands {
		if c.collapse(e.a, e.b, tol) {
			n++
		}
	}
	if n > 0 {
		c.finish()
	}
	return n
}

// collapser holds the triangles around each point while edges collapse.
type collapser struct {
	s      *TriSurface
	around [][]int32 // live triangles at each point
	dead   []bool    // triangles removed
}

func newCollapser(s *TriSurface) *collapser {
	c := &collapser{s: s, around: make([][]int32, len(s.Nodes)), dead: make([]bool, len(s.Tris))}
	for ti, t := range s.Tris {
		for _, v := range t {
			c.around[v] = append(c.around[v], int32(ti))
		}
	}
	return c
}

// neighbours returns the points that share a triangle with v.
func (c *collapser) neighbours(v int) []int {
	var out []int
	for _, ti := range c.around[v] {
		for _, w := range c.s.Tris[ti] {
			if w != v && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// collapse merges b into a at their midpoint if the edge is still there,
// still shorter than tol, and merging keeps the surface a manifold with
// no triangle turned over.
func (c *collapser) collapse(a, b int, tol float64) bool {
	s := c.s
	var shared []int32
	for _, ti := range c.around[a] {
		if slices.Contains(s.Tris[ti][:], b) {
			shared = append(shared, ti)
		}
	}
	if len(shared) != 2 {
		return false
	}
	m := r3.Scale(0.5, r3.Add(s.Nodes[a], s.Nodes[b]))
	if r3.Norm(r3.Sub(s.Nodes[a], s.Nodes[b])) >= tol {
		return false
	}
	var opp [2]int
	for i, ti := range shared {
		for _, w := range s.Tris[ti] {
			if w != a && w != b {
				opp[i] = w
			}
		}
	}
	if opp[0] == opp[1] || len(c.around[opp[0]]) < 4 || len(c.around[opp[1]]) < 4 ||
		len(c.around[a])+len(c.around[b]) < 7 {
		return false
	}
	na := c.neighbours(a)
	for _, w := range c.neighbours(b) {
		if w != a && w != opp[0] && w != opp[1] && slices.Contains(na, w) {
			return false
		}
	}
	// No triangle that stays may turn over.
	moved := func(v int) r3.Vec {
		if v == a || v == b {
			return m
		}
		return s.Nodes[v]
	}
	for _, v := range [2]int{a, b} {
		for _, ti := range c.around[v] {
			if ti == shared[0] || ti == shared[1] {
				continue
			}
			t := s.Tris[ti]
			n0 := r3.Cross(r3.Sub(s.Nodes[t[1]], s.Nodes[t[0]]), r3.Sub(s.Nodes[t[2]], s.Nodes[t[0]]))
			n1 := r3.Cross(r3.Sub(moved(t[1]), moved(t[0])), r3.Sub(moved(t[2]), moved(t[0])))
			if !(r3.Dot(n0, n1) > 0) {
				return false
			}
		}
	}
	for _, ti := range shared {
		c.dead[ti] = true
		for _, w := range s.Tris[ti] {
			c.around[w] = slices.DeleteFunc(c.around[w], func(x int32) bool { return x == ti })
		}
	}
	for _, ti := range c.around[b] {
		for k, w := range s.Tris[ti] {
			if w == b {
				s.Tris[ti][k] = a
			}
		}
		c.around[a] = append(c.around[a], ti)
	}
	c.around[b] = nil
	s.Nodes[a] = m
	return true
}

// finish drops the dead triangles and the points no triangle uses.
func (c *collapser) finish() {
	s := c.s
	keep := s.Tris[:0]
	for ti, t := range s.Tris {
		if !c.dead[ti] {
			keep = append(keep, t)
		}
	}
	s.Tris = keep
	s.Compact()
}

// ShortestEdge returns the length of the surface's shortest edge.
func (s *TriSurface) ShortestEdge() float64 {
	l := math.Inf(1)
	for _, t := range s.Tris {
		for k := 0; k < 3; k++ {
			l = math.Min(l, r3.Norm(r3.Sub(s.Nodes[t[k]], s.Nodes[t[(k+1)%3]])))
		}
	}
	return l
}
