package mesh

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// octahedron returns a closed surface with six points: a coarse sphere
// of radius 1 whose every point is shared by four triangles.
func octahedron() *TriSurface {
	return &TriSurface{
		Nodes: []r3.Vec{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}},
		Tris: [][3]int{
			{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
			{2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5},
		},
	}
}

// subdivided refines s n times on the unit sphere.
func subdivided(s *TriSurface, n int) *TriSurface {
	s.SubdivideOnSphere(n)
	return s
}

func TestFillHoles(t *testing.T) {
	ball := subdivided(octahedron(), 3) // 512 triangles
	want := ball.Volume()
	s := &TriSurface{Nodes: append([]r3.Vec(nil), ball.Nodes...)}
	// Remove two triangles and the star of point 10 (a hole of six or
	// four edges), and turn one of the remaining triangles over.
	for i, tri := range ball.Tris {
		if i == 7 || i == 300 || tri[0] == 10 || tri[1] == 10 || tri[2] == 10 {
			continue
		}
		s.Tris = append(s.Tris, tri)
	}
	s.Tris[100][1], s.Tris[100][2] = s.Tris[100][2], s.Tris[100][1]
	removed := len(ball.Tris) - len(s.Tris)
	st, err := s.FillHoles(0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Holes != 3 || st.Points != 1 || st.Stray != 0 || st.OpenEdges != 6+removed-2 {
		t.Errorf("stats %+v; want 3 holes, 1 point added, %d open edges", st, 6+removed-2)
	}
	cs, err := s.Close()
	if err != nil {
		t.Fatalf("Close after FillHoles: %v", err)
	}
	// Close turns the one triangle turned over back, and none of the patches.
	if cs.Shells != 1 || cs.Flipped != 1 {
		t.Errorf("Close: %+v; want 1 shell and 1 triangle turned", cs)
	}
	if got := s.Volume(); !sameFloat(got, want, 0.01) {
		t.Errorf("volume %g after filling, %g before the holes", got, want)
	}
}

// TestFillHolesPinch fills two holes that touch at a point: two
// triangles around one point, apart from each other.
func TestFillHolesPinch(t *testing.T) {
	s := subdivided(octahedron(), 2)
	v := len(s.Nodes) - 1 // walked after the points around it
	var star []int
	for i, tri := range s.Tris {
		if tri[0] == v || tri[1] == v || tri[2] == v {
			star = append(star, i)
		}
	}
	// Two triangles of the star that share no edge.
	a, b := star[0], -1
	for _, i := range star[1:] {
		shared := 0
		for _, p := range s.Tris[i] {
			if slices.Contains(s.Tris[a][:], p) {
				shared++
			}
		}
		if shared == 1 {
			b = i
			break
		}
	}
	if b < 0 {
		t.Fatal("no two triangles of the star meet at the point only")
	}
	s.Tris = slices.Delete(s.Tris, max(a, b), max(a, b)+1)
	s.Tris = slices.Delete(s.Tris, min(a, b), min(a, b)+1)
	st, err := s.FillHoles(0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Holes != 2 || st.OpenEdges != 6 || st.Points != 0 {
		t.Errorf("stats %+v; want 2 holes of 3 edges", st)
	}
	if _, err := s.Close(); err != nil {
		t.Error(err)
	}
}

// TestFillHolesTouchingShells fills a hole (the triangles around node 0
// of a ball taken out) at whose edge, at node 1, a stray triangle touches
// the ball: the hole is closed within the ball and the triangle dropped,
// whatever the numbering of the points (the loops are walked in the order
// of their point numbers).
func TestFillHolesTouchingShells(t *testing.T) {
	ball := subdivided(octahedron(), 2)
	var base [][3]int
	for _, tri := range ball.Tris {
		if !slices.Contains(tri[:], 0) {
			base = append(base, tri)
		}
	}
	// Node 0 is (1, 0, 0); node 4 is (0, 0, 1), and the triangles around
	// node 0 have a point on the arc between them: the stray triangle
	// leaves that point outwards.
	pinch := -1
	for _, tri := range ball.Tris {
		for _, v := range tri {
			if slices.Contains(tri[:], 0) && v != 0 && ball.Nodes[v].Y == 0 && ball.Nodes[v].Z > 0 {
				pinch = v
			}
		}
	}
	if pinch < 0 {
		t.Fatal("no point around node 0 on the arc")
	}
	q := ball.Nodes[pinch]
	nodes := append(slices.Clone(ball.Nodes), r3.Scale(1.1, r3.Add(q, r3.Vec{Y: 0.01})), r3.Scale(1.1, r3.Add(q, r3.Vec{Y: -0.01, Z: 0.01})))
	n := len(ball.Nodes)
	tris := append(base, [3]int{pinch, n, n + 1})
	rng := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 30; round++ {
		perm := rng.Perm(len(nodes))
		s := &TriSurface{Nodes: make([]r3.Vec, len(nodes))}
		for i, p := range nodes {
			s.Nodes[perm[i]] = p
		}
		for _, tri := range tris {
			s.Tris = append(s.Tris, [3]int{perm[tri[0]], perm[tri[1]], perm[tri[2]]})
		}
		st, err := s.FillHoles(0)
		if err != nil {
			t.Fatal(err)
		}
		if st.Holes != 1 || st.Stray != 1 {
			t.Errorf("numbering %d: stats %+v; want 1 hole and 1 stray piece", round, st)
		}
		if cs, err := s.Close(); err != nil || cs.Shells != 1 {
			t.Errorf("numbering %d: Close: %+v, %v; want 1 shell", round, cs, err)
		}
	}
}

func TestFillHolesDropsStray(t *testing.T) {
	s := subdivided(octahedron(), 3)
	n := len(s.Nodes)
	s.Nodes = append(s.Nodes, r3.Vec{X: 3}, r3.Vec{X: 3.1}, r3.Vec{X: 3, Y: 0.1})
	s.Tris = append(s.Tris, [3]int{n, n + 1, n + 2})
	st, err := s.FillHoles(0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Stray != 1 || st.StrayTris != 1 || st.Holes != 0 || len(s.Nodes) != n || len(s.Tris) != 512 {
		t.Errorf("stats %+v, %d points, %d triangles; want the stray triangle and its points dropped", st, len(s.Nodes), len(s.Tris))
	}
	if _, err := s.Close(); err != nil {
		t.Error(err)
	}
}

func TestFillHolesRefusesSheets(t *testing.T) {
	half := subdivided(octahedron(), 2)
	var upper [][3]int
	for _, tri := range half.Tris {
		if half.Nodes[tri[0]].Z+half.Nodes[tri[1]].Z+half.Nodes[tri[2]].Z > 0 {
			upper = append(upper, tri)
		}
	}
	half.Tris = upper
	single := &TriSurface{Nodes: []r3.Vec{{}, {X: 1}, {Y: 1}}, Tris: [][3]int{{0, 1, 2}}}
	for _, c := range []struct {
		name string
		s    *TriSurface
		want string
	}{
		{"hemisphere", half, "the surface is open: 16 edges border only one triangle; the largest hole, a loop of 16 edges around"},
		{"triangle", single, "the surface is open: 3 edges border only one triangle; the largest hole, a loop of 3 edges around (0.333333, 0.333333, 0)"},
	} {
		n := len(c.s.Tris)
		_, err := c.s.FillHoles(0)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "an open sheet encloses no volume") {
			t.Errorf("%s: error %v\nwant %q", c.name, err, c.want)
		}
		if len(c.s.Tris) != n {
			t.Errorf("%s: the refused surface changed", c.name)
		}
	}
}
