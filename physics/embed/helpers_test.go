package embed

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/mesh/meshtest"
)

// icosphere returns the sphere of the given radius and centre made by
// subdividing an icosahedron level times (20·4^level triangles, facing
// outwards); bump ≠ 0 moves each point radially by bump·radius times a
// smooth function of its direction.
func icosphere(level int, radius float64, centre r3.Vec, bump float64) *mesh.TriSurface {
	s := meshtest.Icosphere(level)
	for i, p := range s.Nodes {
		r := radius * (1 + bump*math.Sin(5*p.X)*math.Sin(4*p.Y+1)*math.Cos(3*p.Z))
		s.Nodes[i] = r3.Add(centre, r3.Scale(r, p))
	}
	return s
}

// boxSurface returns the closed surface of a box of the given size at the
// origin's corner, with about n triangles' edges along the longest side.
func boxSurface(t testing.TB, size r3.Vec, n int) *mesh.TriSurface {
	t.Helper()
	l := math.Max(size.X, math.Max(size.Y, size.Z))
	cells := func(x float64) int { return max(1, int(math.Round(float64(n)*x/l))) }
	m, err := mesh.Box(size, cells(size.X)+1, cells(size.Y)+1, cells(size.Z)+1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := mesh.ExtractSurface(m)
	if err != nil {
		t.Fatal(err)
	}
	s := &mesh.TriSurface{}
	for _, v := range b.Vertices {
		s.Nodes = append(s.Nodes, m.Nodes[v])
	}
	for _, tr := range b.Tris {
		s.Tris = append(s.Tris, [3]int{b.Local[tr[0]], b.Local[tr[1]], b.Local[tr[2]]})
	}
	return s
}

// union joins surfaces into one, points and triangles side by side.
func union(parts ...*mesh.TriSurface) *mesh.TriSurface {
	s := &mesh.TriSurface{}
	for _, p := range parts {
		off := len(s.Nodes)
		s.Nodes = append(s.Nodes, p.Nodes...)
		for _, t := range p.Tris {
			s.Tris = append(s.Tris, [3]int{t[0] + off, t[1] + off, t[2] + off})
		}
	}
	return s
}

// turned returns s with the listed triangles (all if none) turned.
func turned(s *mesh.TriSurface, which ...int) *mesh.TriSurface {
	out := &mesh.TriSurface{Nodes: s.Nodes, Tris: append([][3]int(nil), s.Tris...)}
	if len(which) == 0 {
		for i := range out.Tris {
			which = append(which, i)
		}
	}
	for _, i := range which {
		out.Tris[i][1], out.Tris[i][2] = out.Tris[i][2], out.Tris[i][1]
	}
	return out
}

// withHoles returns s without the triangles around the points nearest the
// given directions from the centre (a small hole each).
func withHoles(s *mesh.TriSurface, centre r3.Vec, dirs ...r3.Vec) *mesh.TriSurface {
	drop := make(map[int]bool)
	for _, d := range dirs {
		best, bestDot := -1, -2.0
		for i, p := range s.Nodes {
			if dot := r3.Dot(r3.Unit(r3.Sub(p, centre)), r3.Unit(d)); dot > bestDot {
				best, bestDot = i, dot
			}
		}
		drop[best] = true
	}
	out := &mesh.TriSurface{Nodes: s.Nodes}
	for _, t := range s.Tris {
		if !drop[t[0]] && !drop[t[1]] && !drop[t[2]] {
			out.Tris = append(out.Tris, t)
		}
	}
	return out
}

// sheet returns a flat square of side l in the plane z = 0, n×n quads.
func sheet(l float64, n int) *mesh.TriSurface {
	s := &mesh.TriSurface{}
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			s.Nodes = append(s.Nodes, r3.Vec{X: l * float64(i) / float64(n), Y: l * float64(j) / float64(n)})
		}
	}
	id := func(i, j int) int { return i + (n+1)*j }
	for j := range n {
		for i := range n {
			s.Tris = append(s.Tris, [3]int{id(i, j), id(i+1, j), id(i+1, j+1)}, [3]int{id(i, j), id(i+1, j+1), id(i, j+1)})
		}
	}
	return s
}

// restPositions returns the mesh nodes as the flat vector q.
func restPositions(m *mesh.TetMesh) []float64 {
	q := make([]float64, 0, 3*len(m.Nodes))
	for _, p := range m.Nodes {
		q = append(q, p.X, p.Y, p.Z)
	}
	return q
}

// checkBuilt checks what every mesh and embedding Build returns must
// satisfy: a valid mesh of positive tetrahedra with a boundary, every
// surface point embedded with weights in [0, 1] summing to 1, and G(q)
// at rest reproducing the surface to 1e-12 of its size.
func checkBuilt(t *testing.T, surf *mesh.TriSurface, m *mesh.TetMesh, e *mesh.Embedding) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("mesh: %v", err)
	}
	for i, tet := range m.Tets {
		if v := m.TetVolume(tet); !(v > 0) {
			t.Fatalf("tetrahedron %d has volume %g", i, v)
		}
	}
	if _, err := mesh.ExtractSurface(m); err != nil {
		t.Fatalf("ExtractSurface: %v", err)
	}
	if err := e.Validate(m); err != nil {
		t.Fatalf("embedding: %v", err)
	}
	if len(e.Points) != len(surf.Nodes) || len(e.Surface.Tris) != len(surf.Tris) {
		t.Fatalf("embedding has %d points and %d triangles, the surface %d and %d",
			len(e.Points), len(e.Surface.Tris), len(surf.Nodes), len(surf.Tris))
	}
	for i, pw := range e.Points {
		for k := range pw.Count {
			if w := pw.Weights[k]; w < -1e-12 || w > 1+1e-12 {
				t.Fatalf("point %d: weight %d is %g", i, k, w)
			}
		}
	}
	p := make([]float64, 3*len(surf.Nodes))
	e.Map(p, restPositions(m))
	scale := r3.Norm(surf.Bounds().Size())
	for i, x := range surf.Nodes {
		got := r3.Vec{X: p[3*i], Y: p[3*i+1], Z: p[3*i+2]}
		if d := r3.Norm(r3.Sub(got, x)); d > 1e-12*scale {
			t.Fatalf("point %d: G(q) = %v, the surface has %v (off by %g)", i, got, x, d)
		}
	}
}

// above returns the triangles of s whose corners are all above z (the
// points stay, used or not).
func above(s *mesh.TriSurface, z float64) *mesh.TriSurface {
	out := &mesh.TriSurface{Nodes: s.Nodes}
	for _, t := range s.Tris {
		if s.Nodes[t[0]].Z > z && s.Nodes[t[1]].Z > z && s.Nodes[t[2]].Z > z {
			out.Tris = append(out.Tris, t)
		}
	}
	return out
}
