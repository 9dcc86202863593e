package mesh

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// TestCollapseShortEdges splits an edge of a ball a hundred-thousandth of
// the way along: the short edge is merged, and the ball is as before.
func TestCollapseShortEdges(t *testing.T) {
	s := subdivided(octahedron(), 2)
	want := len(s.Tris)
	vol := s.Volume()
	a, b := s.Tris[0][0], s.Tris[0][1]
	p := len(s.Nodes)
	s.Nodes = append(s.Nodes, r3.Add(s.Nodes[a], r3.Scale(1e-5, r3.Sub(s.Nodes[b], s.Nodes[a]))))
	var tris [][3]int
	for _, tri := range s.Tris {
		k := slices.Index(tri[:], a)
		if k >= 0 && tri[(k+1)%3] == b {
			tris = append(tris, [3]int{a, p, tri[(k+2)%3]}, [3]int{p, b, tri[(k+2)%3]})
			continue
		}
		if k >= 0 && tri[(k+2)%3] == b {
			tris = append(tris, [3]int{b, p, tri[(k+1)%3]}, [3]int{p, a, tri[(k+1)%3]})
			continue
		}
		tris = append(tris, tri)
	}
	s.Tris = tris
	if _, err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := s.CollapseShortEdges(1e-3); n != 1 {
		t.Errorf("collapsed %d edges; want 1", n)
	}
	if len(s.Tris) != want || len(s.Nodes) != p {
		t.Errorf("%d triangles, %d points; want %d, %d", len(s.Tris), len(s.Nodes), want, p)
	}
	if st, err := s.Close(); err != nil || st.Flipped != 0 || !sameFloat(st.Volume, vol, 1e-4) {
		t.Errorf("Close: %+v, %v; want volume %g and nothing turned", st, err, vol)
	}
	if l := s.ShortestEdge(); l < 0.1 {
		t.Errorf("shortest edge %g", l)
	}
}

// TestCollapseShortEdgesKeepsTopology: on a tetrahedron every collapse
// would fold the surface onto itself, so none is made.
func TestCollapseShortEdgesKeepsTopology(t *testing.T) {
	s := &TriSurface{
		Nodes: []r3.Vec{{}, {X: 1e-4}, {Y: 1e-4}, {Z: 1e-4}},
		Tris:  [][3]int{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}},
	}
	if n := s.CollapseShortEdges(1); n != 0 || len(s.Tris) != 4 {
		t.Errorf("collapsed %d edges, %d triangles left; want none and 4", n, len(s.Tris))
	}
}

func TestRemoveAround(t *testing.T) {
	s := subdivided(octahedron(), 2) // 128 triangles
	// Triangle 0 alone; with one ring, every triangle that shares a point
	// with it.
	one := &TriSurface{Nodes: slices.Clone(s.Nodes), Tris: slices.Clone(s.Tris)}
	if n := one.RemoveAround([]int{0}, 0); n != 1 || len(one.Tris) != 127 || len(one.Nodes) != len(s.Nodes) {
		t.Errorf("removed %d, %d triangles and %d points left", n, len(one.Tris), len(one.Nodes))
	}
	ring := &TriSurface{Nodes: slices.Clone(s.Nodes), Tris: slices.Clone(s.Tris)}
	near := 0
	for _, tri := range s.Tris {
		for _, v := range tri {
			if slices.Contains(s.Tris[0][:], v) {
				near++
				break
			}
		}
	}
	if n := ring.RemoveAround([]int{0}, 1); n != near {
		t.Errorf("removed %d with a ring; want %d", n, near)
	}
	st, err := ring.FillHoles(0)
	if err != nil || st.Holes != 1 {
		t.Errorf("FillHoles after: %+v, %v", st, err)
	}
	if _, err := ring.Close(); err != nil {
		t.Error(err)
	}
}
