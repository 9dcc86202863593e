package mesh

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// Two tetrahedra on either side of the triangle (0, 1, 2) in the plane
// z = 0: node 3 above, node 4 below, both positively oriented.
var (
	bipyramidNodes = []r3.Vec{{}, {X: 1}, {Y: 1}, {Z: 1}, {Z: -1}, {X: 0.2, Y: 0.2, Z: 2}}
	upperTet       = [4]int{0, 1, 2, 3}
	lowerTet       = [4]int{0, 2, 1, 4}
)

func TestExtractSurfaceSmall(t *testing.T) {
	tests := []struct {
		name  string
		tets  [][4]int
		tris  int
		verts []int
	}{
		{"one tetrahedron", [][4]int{upperTet}, 4, []int{0, 1, 2, 3}},
		{"two sharing a face", [][4]int{upperTet, lowerTet}, 6, []int{0, 1, 2, 3, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &TetMesh{Nodes: bipyramidNodes[:5], Tets: tt.tets}
			s := surfaceOf(t, m)
			if len(s.Tris) != tt.tris {
				t.Fatalf("%d triangles, want %d", len(s.Tris), tt.tris)
			}
			if !slices.Equal(s.Vertices, tt.verts) {
				t.Errorf("vertices %v, want %v", s.Vertices, tt.verts)
			}
			checkClosed(t, s)
			checkOutward(t, m, s, r3.Scale(1.0/5, r3.Add(r3.Add(m.Nodes[1], m.Nodes[2]), r3.Vec{Z: 0.5})))
			checkVertexTables(t, s, len(m.Nodes))
		})
	}
}

func TestExtractSurfaceErrors(t *testing.T) {
	inverted := [4]int{0, 1, 2, 4} // lies below (0, 1, 2) like lowerTet, but negatively oriented
	tests := []struct {
		name string
		m    *TetMesh
		want string
	}{
		{"nil", nil, "no tetrahedra"},
		{"empty", &TetMesh{Nodes: bipyramidNodes}, "no tetrahedra"},
		{"out of range", &TetMesh{Nodes: bipyramidNodes[:4], Tets: [][4]int{{0, 1, 2, 7}}}, "references node 7"},
		{"negative index", &TetMesh{Nodes: bipyramidNodes[:4], Tets: [][4]int{{0, -1, 2, 3}}}, "references node -1"},
		{"repeated node", &TetMesh{Nodes: bipyramidNodes[:4], Tets: [][4]int{{0, 1, 1, 3}}}, "lists node 1 twice"},
		{"non-manifold", &TetMesh{Nodes: bipyramidNodes, Tets: [][4]int{upperTet, lowerTet, {0, 1, 2, 5}}}, "shared by 3 tetrahedra"},
		{"inverted neighbour", &TetMesh{Nodes: bipyramidNodes[:5], Tets: [][4]int{upperTet, inverted}}, "same orientation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ExtractSurface(tt.m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// checkVertexTables checks Vertices, Local and VertexTris against Tris.
func checkVertexTables(t *testing.T, s *Surface, nodes int) {
	t.Helper()
	if !slices.IsSorted(s.Vertices) || len(s.Local) != nodes || len(s.VertexTris) != len(s.Vertices) {
		t.Fatalf("inconsistent table sizes: %d vertices, %d local, %d vertex lists", len(s.Vertices), len(s.Local), len(s.VertexTris))
	}
	onSurface := make([]bool, nodes)
	for _, tri := range s.Tris {
		for _, v := range tri {
			onSurface[v] = true
		}
	}
	for v, l := range s.Local {
		if onSurface[v] != (l >= 0) || (l >= 0 && s.Vertices[l] != v) {
			t.Fatalf("Local[%d] = %d is wrong", v, l)
		}
	}
	total := 0
	for l, tris := range s.VertexTris {
		total += len(tris)
		for _, ti := range tris {
			if !slices.Contains(s.Tris[ti][:], s.Vertices[l]) {
				t.Fatalf("VertexTris[%d] lists triangle %d which does not touch node %d", l, ti, s.Vertices[l])
			}
		}
	}
	if total != 3*len(s.Tris) {
		t.Fatalf("VertexTris hold %d entries, want %d", total, 3*len(s.Tris))
	}
}

func TestSurfaceOfBox(t *testing.T) {
	m, err := Box(r3.Vec{X: 1, Y: 1, Z: 1}, 3, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	s := surfaceOf(t, m)
	checkVertexTables(t, s, len(m.Nodes))
	if got, want := len(s.Vertices), 26; got != want {
		t.Errorf("%d surface vertices, want %d (all but the centre)", got, want)
	}
	centre := 1 + 3*(1+3*1)
	if s.Local[centre] != -1 {
		t.Errorf("centre node %d is on the surface", centre)
	}
}

// TestVertexNormals checks the area-weighted normals of the unit cube on a
// 3×3×3 grid: a vertex inside a face has the face normal, and at a corner
// the three faces contribute the same area (one cell each, the cell
// diagonal passing through the corner), giving the diagonal direction.
// Rotating the positions must rotate the normals.
func TestVertexNormals(t *testing.T) {
	m, err := Box(r3.Vec{X: 1, Y: 1, Z: 1}, 3, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	s := surfaceOf(t, m)
	centre := r3.Vec{Z: 0.5}
	rot := r3.NewRotation(0.7, r3.Vec{X: 1, Y: 2, Z: 3})
	tests := []struct {
		name string
		pos  func(int) r3.Vec
		turn func(r3.Vec) r3.Vec
	}{
		{"rest", nodePos(m), func(v r3.Vec) r3.Vec { return v }},
		{"rotated", func(i int) r3.Vec { return rot.Rotate(m.Nodes[i]) }, rot.Rotate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := make([]r3.Vec, len(s.Vertices))
			if err := s.VertexNormals(tt.pos, out); err != nil {
				t.Fatal(err)
			}
			for l, v := range s.Vertices {
				d := r3.Sub(m.Nodes[v], centre)
				var want r3.Vec
				switch extreme := countExtreme(d); extreme {
				case 1, 3: // inside a face, or a corner
					want = tt.turn(r3.Unit(r3.Vec{X: snap(d.X), Y: snap(d.Y), Z: snap(d.Z)}))
				default:
					continue
				}
				if r3.Norm(r3.Sub(out[l], want)) > 1e-12 {
					t.Errorf("normal at node %d %v = %v, want %v", v, m.Nodes[v], out[l], want)
				}
			}
		})
	}
	if err := s.VertexNormals(nodePos(m), make([]r3.Vec, 3)); err == nil {
		t.Error("VertexNormals accepted a buffer of the wrong length")
	}
}

// countExtreme counts the coordinates of d (relative to the cube centre)
// that lie on a face of the unit cube.
func countExtreme(d r3.Vec) int {
	n := 0
	for _, x := range []float64{d.X, d.Y, d.Z} {
		if math.Abs(x) == 0.5 {
			n++
		}
	}
	return n
}

// snap keeps ±1 for a coordinate on a face and 0 otherwise.
func snap(x float64) float64 {
	if math.Abs(x) == 0.5 {
		return math.Copysign(1, x)
	}
	return 0
}

func TestTriangleNormal(t *testing.T) {
	tests := []struct {
		name    string
		a, b, c r3.Vec
		want    r3.Vec
	}{
		{"ccw in xy", r3.Vec{}, r3.Vec{X: 2}, r3.Vec{Y: 3}, r3.Vec{Z: 1}},
		{"cw in xy", r3.Vec{}, r3.Vec{Y: 3}, r3.Vec{X: 2}, r3.Vec{Z: -1}},
		{"degenerate", r3.Vec{}, r3.Vec{X: 1}, r3.Vec{X: 2}, r3.Vec{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TriangleNormal(tt.a, tt.b, tt.c); got != tt.want {
				t.Errorf("TriangleNormal = %v, want %v", got, tt.want)
			}
		})
	}
}
