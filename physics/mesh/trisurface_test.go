package mesh

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// unitCubeSurface returns the closed surface of the unit cube, corner b at
// (b&1, b>>1&1, b>>2&1), with the triangles of two faces turned inwards.
func unitCubeSurface() *TriSurface {
	s := &TriSurface{}
	for b := 0; b < 8; b++ {
		s.Nodes = append(s.Nodes, r3.Vec{X: float64(b & 1), Y: float64(b >> 1 & 1), Z: float64(b >> 2 & 1)})
	}
	s.Tris = [][3]int{
		{0, 1, 2}, {1, 3, 2}, // z = 0, inwards
		{4, 5, 6}, {5, 7, 6},
		{0, 1, 5}, {0, 5, 4},
		{2, 6, 7}, {2, 7, 3},
		{0, 4, 6}, {0, 6, 2},
		{1, 7, 3}, {1, 5, 7}, // x = 1, inwards
	}
	return s
}

func TestTriSurfaceClose(t *testing.T) {
	s := unitCubeSurface()
	st, err := s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if st.Shells != 1 || st.Flipped != 4 || !sameFloat(st.Volume, 1, 1e-12) || !sameFloat(s.Volume(), 1, 1e-12) {
		t.Errorf("stats %+v, volume %g; want 1 shell, 4 triangles turned, volume 1", st, s.Volume())
	}
	// Every triangle now faces outwards: its normal points away from the
	// centre.
	c := r3.Vec{X: 0.5, Y: 0.5, Z: 0.5}
	for i, tri := range s.Tris {
		n := TriangleNormal(s.Nodes[tri[0]], s.Nodes[tri[1]], s.Nodes[tri[2]])
		if r3.Dot(n, r3.Sub(s.Nodes[tri[0]], c)) <= 0 {
			t.Errorf("triangle %d %v faces inwards", i, tri)
		}
	}

	open := unitCubeSurface()
	open.Tris = open.Tris[1:]
	if _, err := open.Close(); err == nil || !strings.Contains(err.Error(), "the surface is open: 3 edges border only one triangle") {
		t.Errorf("open surface: error %v", err)
	}
	crowded := unitCubeSurface()
	crowded.Nodes = append(crowded.Nodes, r3.Vec{X: 0.5, Y: -1, Z: 0.5})
	crowded.Tris = append(crowded.Tris, [3]int{0, 1, 8}, [3]int{1, 0, 8})
	if _, err := crowded.Close(); err == nil || !strings.Contains(err.Error(), "the surface is not a manifold: 1 edge is shared by more than two triangles") {
		t.Errorf("non-manifold surface: error %v", err)
	}
}
