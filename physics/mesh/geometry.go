package mesh

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// SignedVolume returns the signed volume of the tetrahedron (a, b, c, d),
//
//	V = (b−a)·((c−a)×(d−a)) / 6,
//
// positive when the four points are in positive orientation (d lies on the
// side of the triangle (a, b, c) that the right-hand rule points to).
func SignedVolume(a, b, c, d r3.Vec) float64 {
	return r3.Dot(r3.Sub(b, a), r3.Cross(r3.Sub(c, a), r3.Sub(d, a))) / 6
}

// TriangleNormal returns the unit normal of the triangle (a, b, c), the
// direction of (b−a)×(c−a): it points towards the viewer when the vertices
// appear counter-clockwise. A degenerate triangle has the zero normal.
func TriangleNormal(a, b, c r3.Vec) r3.Vec {
	n := r3.Cross(r3.Sub(b, a), r3.Sub(c, a))
	l := r3.Norm(n)
	if l == 0 || math.IsNaN(l) {
		return r3.Vec{}
	}
	return r3.Scale(1/l, n)
}

// TetVolume returns the signed volume (SignedVolume) of the tetrahedron
// whose nodes t lists.
func (m *TetMesh) TetVolume(t [4]int) float64 {
	return SignedVolume(m.Nodes[t[0]], m.Nodes[t[1]], m.Nodes[t[2]], m.Nodes[t[3]])
}

// Bounds returns the axis-aligned bounding box of the nodes. A mesh without
// nodes has the zero box.
func (m *TetMesh) Bounds() r3.Box {
	return BoundsOf(m.Nodes)
}

// BoundsOf returns the bounding box of points (the zero box for none).
func BoundsOf(nodes []r3.Vec) r3.Box {
	if len(nodes) == 0 {
		return r3.Box{}
	}
	b := r3.Box{Min: nodes[0], Max: nodes[0]}
	for _, p := range nodes[1:] {
		b.Min = r3.Vec{X: math.Min(b.Min.X, p.X), Y: math.Min(b.Min.Y, p.Y), Z: math.Min(b.Min.Z, p.Z)}
		b.Max = r3.Vec{X: math.Max(b.Max.X, p.X), Y: math.Max(b.Max.Y, p.Y), Z: math.Max(b.Max.Z, p.Z)}
	}
	return b
}

// Volume returns the sum of the signed volumes of the tetrahedra, in m³.
// For a valid mesh every term is positive and the sum is the volume of the
// body.
func (m *TetMesh) Volume() float64 {
	var v float64
	for _, t := range m.Tets {
		v += m.TetVolume(t)
	}
	return v
}

// Centroid returns the centre of the volume of the tetrahedra (the centre
// of mass at uniform density): Σ Vₜ·cₜ / Σ Vₜ over the tetrahedra's
// volumes Vₜ and centroids cₜ (the mean of their four nodes). A mesh
// without volume has the mean of its nodes.
func (m *TetMesh) Centroid() r3.Vec {
	var c r3.Vec
	var v float64
	for _, t := range m.Tets {
		vt := m.TetVolume(t)
		mid := r3.Scale(0.25, r3.Add(r3.Add(m.Nodes[t[0]], m.Nodes[t[1]]), r3.Add(m.Nodes[t[2]], m.Nodes[t[3]])))
		c, v = r3.Add(c, r3.Scale(vt, mid)), v+vt
	}
	if v > 0 {
		return r3.Scale(1/v, c)
	}
	return meanOf(m.Nodes)
}

// meanOf is the mean of the points (the zero vector for none).
func meanOf(p []r3.Vec) r3.Vec {
	var c r3.Vec
	for _, x := range p {
		c = r3.Add(c, x)
	}
	if len(p) == 0 {
		return c
	}
	return r3.Scale(1/float64(len(p)), c)
}

// Transform replaces every node x by f(x). The map must preserve
// orientation (rotations, translations, positive scalings and smooth
// deformations close to those); a reflection would invert every
// tetrahedron, which Validate then reports.
func (m *TetMesh) Transform(f func(r3.Vec) r3.Vec) {
	for i, p := range m.Nodes {
		m.Nodes[i] = f(p)
	}
}

// Translate moves every node by d.
func (m *TetMesh) Translate(d r3.Vec) {
	m.Transform(func(p r3.Vec) r3.Vec { return r3.Add(p, d) })
}

// Scale multiplies every coordinate by s, which must be positive and finite.
func (m *TetMesh) Scale(s float64) error {
	if !(s > 0) || math.IsInf(s, 0) {
		return fmt.Errorf("mesh: scale factor %v must be positive and finite", s)
	}
	m.Transform(func(p r3.Vec) r3.Vec { return r3.Scale(s, p) })
	return nil
}

// Clone returns a deep copy of the mesh.
func (m *TetMesh) Clone() *TetMesh {
	return &TetMesh{
		Nodes: append([]r3.Vec(nil), m.Nodes...),
		Tets:  append([][4]int(nil), m.Tets...),
	}
}
