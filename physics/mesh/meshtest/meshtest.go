// Package meshtest builds the meshes that tests of a surface mapped onto a
// tetrahedral mesh (mesh.Embedding) share: the boundary of a fine box
// mapped onto a coarse one by brute force, an icosphere, a cube's surface.
package meshtest

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// EmbedSurface maps the surface of points and triangles onto the coarse
// mesh by brute force: each point gets the barycentric weights of the
// tetrahedron that contains it best (the largest smallest weight), all
// four kept even when some are zero.
func EmbedSurface(coarse *mesh.TetMesh, points []r3.Vec, tris [][3]int) (*mesh.Embedding, error) {
	e := &mesh.Embedding{Surface: mesh.TriSurface{Nodes: points, Tris: tris}}
	for i, p := range points {
		best, bestMin := mesh.NodeWeights{}, math.Inf(-1)
		for _, t := range coarse.Tets {
			a, b, c, d := coarse.Nodes[t[0]], coarse.Nodes[t[1]], coarse.Nodes[t[2]], coarse.Nodes[t[3]]
			e1, e2, e3, r := r3.Sub(b, a), r3.Sub(c, a), r3.Sub(d, a), r3.Sub(p, a)
			det := r3.Dot(e1, r3.Cross(e2, e3))
			l1 := r3.Dot(r, r3.Cross(e2, e3)) / det
			l2 := r3.Dot(e1, r3.Cross(r, e3)) / det
			l3 := r3.Dot(e1, r3.Cross(e2, r)) / det
			w := [4]float64{1 - l1 - l2 - l3, l1, l2, l3}
			if m := min(w[0], w[1], w[2], w[3]); m > bestMin {
				best, bestMin = mesh.NodeWeights{Count: 4, Nodes: t, Weights: w}, m
			}
		}
		if bestMin < -1e-9 {
			return nil, fmt.Errorf("point %d (%v) is outside the coarse mesh (weight %g)", i, p, bestMin)
		}
		e.Points = append(e.Points, best)
	}
	return e, nil
}

// BoxWithFineSurface returns a coarse box of about coarseDOFs degrees of
// freedom with the boundary of a finer box of the same size and place
// (about fineDOFs) mapped onto it.
func BoxWithFineSurface(size float64, coarseDOFs, fineDOFs int) (*mesh.TetMesh, *mesh.Embedding, error) {
	dims := r3.Vec{X: size, Y: size, Z: size}
	coarse, err := mesh.BoxForDOFs(dims, coarseDOFs)
	if err != nil {
		return nil, nil, err
	}
	fine, err := mesh.BoxForDOFs(dims, fineDOFs)
	if err != nil {
		return nil, nil, err
	}
	id, err := mesh.BoundaryEmbedding(fine)
	if err != nil {
		return nil, nil, err
	}
	emb, err := EmbedSurface(coarse, id.Surface.Nodes, id.Surface.Tris)
	return coarse, emb, err
}

// CubeSurface is a closed axis-aligned cube [lo, hi]³ as twelve outward
// triangles, in the frames' layout: three float32 per point, three
// indices per triangle.
func CubeSurface(lo, hi float32) ([]float32, []uint32) {
	var pos []float32
	for i := 0; i < 8; i++ {
		c := func(bit int) float32 {
			if i&bit != 0 {
				return hi
			}
			return lo
		}
		pos = append(pos, c(1), c(2), c(4))
	}
	tris := []uint32{
		0, 2, 1, 1, 2, 3, // z = lo
		4, 5, 6, 5, 7, 6, // z = hi
		0, 1, 4, 1, 5, 4, // y = lo
		2, 6, 3, 3, 6, 7, // y = hi
		0, 4, 2, 2, 4, 6, // x = lo
		1, 3, 5, 3, 7, 5, // x = hi
	}
	return pos, tris
}

// Icosphere returns the unit sphere made by subdividing an icosahedron
// level times: 10·4^level + 2 points, 20·4^level triangles facing
// outwards.
func Icosphere(level int) *mesh.TriSurface {
	g := (1 + math.Sqrt(5)) / 2
	s := &mesh.TriSurface{Nodes: []r3.Vec{
		{X: -1, Y: g}, {X: 1, Y: g}, {X: -1, Y: -g}, {X: 1, Y: -g},
		{Y: -1, Z: g}, {Y: 1, Z: g}, {Y: -1, Z: -g}, {Y: 1, Z: -g},
		{X: g, Z: -1}, {X: g, Z: 1}, {X: -g, Z: -1}, {X: -g, Z: 1},
	}, Tris: [][3]int{
		{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11},
		{1, 5, 9}, {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
		{3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9},
		{4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1},
	}}
	for i, p := range s.Nodes {
		s.Nodes[i] = r3.Unit(p)
	}
	s.SubdivideOnSphere(level)
	return s
}
