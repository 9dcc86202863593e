package mesh

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"
)

// Units and placement of loaded meshes. Mesh files carry no unit: the same
// organ may come in metres, centimetres or millimetres. Either the user
// says which (a unit or a scale factor, Place), or the mesh is fitted to
// the scene's object size (Fit) and the factor is reported. Nor do they
// say which way is up: a file modelled with +y up is turned first
// (TurnYUp).

// UnitScale returns the metres per unit of a length unit: "m", "cm" or
// "mm".
func UnitScale(unit string) (float64, error) {
	switch strings.ToLower(strings.TrimSpace(unit)) {
	case "m":
		return 1, nil
	case "cm":
		return 0.01, nil
	case "mm":
		return 0.001, nil
	}
	return 0, fmt.Errorf("unknown length unit %q: want m, cm or mm", unit)
}

// UnitName returns "m", "cm" or "mm" for their scale factors, and "" for
// any other factor.
func UnitName(scale float64) string {
	switch scale {
	case 1:
		return "m"
	case 0.01:
		return "cm"
	case 0.001:
		return "mm"
	}
	return ""
}

// Fit scales the mesh uniformly so that its largest bounding-box extent is
// size metres, places it like Place, and returns the factor it applied
// (metres per file unit).
func (m *TetMesh) Fit(size float64) (float64, error) {
	if !(size > 0) || math.IsInf(size, 0) {
		return 0, fmt.Errorf("mesh: fit size %v must be positive and finite", size)
	}
	if len(m.Nodes) == 0 {
		return 0, fmt.Errorf("mesh: cannot fit a mesh without nodes")
	}
	largest := m.LargestExtent()
	if !(largest > 0) || math.IsInf(largest, 0) {
		return 0, fmt.Errorf("mesh: cannot fit a mesh whose largest extent is %v", largest)
	}
	s := size / largest
	return s, m.Place(s)
}

// FitInto is Fit without the factor: the placement of a soft object
// resting on the floor, largest extent size metres.
func (m *TetMesh) FitInto(size float64) error {
	_, err := m.Fit(size)
	return err
}

// Place multiplies every coordinate by scale (metres per file unit) and
// moves the mesh so that its bounding box is centred on the z axis with
// its bottom at z = 0: the placement of a soft object resting on the
// floor.
func (m *TetMesh) Place(scale float64) error {
	if !(scale > 0) || math.IsInf(scale, 0) {
		return fmt.Errorf("mesh: scale factor %v must be positive and finite", scale)
	}
	if len(m.Nodes) == 0 {
		return fmt.Errorf("mesh: cannot place a mesh without nodes")
	}
	b := m.Bounds()
	// Anchor: the centre of the bottom face of the box goes to the origin.
	anchor := r3.Vec{X: (b.Min.X + b.Max.X) / 2, Y: (b.Min.Y + b.Max.Y) / 2, Z: b.Min.Z}
	m.Transform(func(p r3.Vec) r3.Vec { return r3.Scale(scale, r3.Sub(p, anchor)) })
	return nil
}

// TurnYUp turns the mesh a quarter turn about the x axis so that its +y
// points along +z, for a file modelled with +y up: (x, y, z) becomes
// (x, −z, y). A rotation keeps the tetrahedra's orientation and shape.
func (m *TetMesh) TurnYUp() {
	m.Transform(func(p r3.Vec) r3.Vec { return r3.Vec{X: p.X, Y: -p.Z, Z: p.Y} })
}

// Components numbers the connected pieces of the mesh (nodes joined by a
// tetrahedron), in the order of their lowest node, and returns each
// node's piece and their number. A node in no tetrahedron is a piece of
// its own.
func (m *TetMesh) Components() ([]int32, int) {
	parent := make([]int32, len(m.Nodes))
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, t := range m.Tets {
		r := find(int32(t[0]))
		for _, v := range t[1:] {
			if o := find(int32(v)); o != r {
				r, o = min(r, o), max(r, o)
				parent[o] = r
			}
		}
	}
	piece := make([]int32, len(m.Nodes))
	ids := make(map[int32]int32)
	for i := range piece {
		root := find(int32(i))
		id, ok := ids[root]
		if !ok {
			id = int32(len(ids))
			ids[root] = id
		}
		piece[i] = id
	}
	return piece, len(ids)
}

// LargestExtent returns the largest side of the bounding box.
func (m *TetMesh) LargestExtent() float64 {
	ext := m.Bounds().Size()
	return math.Max(ext.X, math.Max(ext.Y, ext.Z))
}

// Pieces returns the number of tetrahedra of each connected piece of the
// mesh (tetrahedra sharing a node are connected), largest first.
func (m *TetMesh) Pieces() []int {
	piece, n := m.Components()
	sizes := make([]int, n)
	for _, t := range m.Tets {
		sizes[piece[t[0]]]++
	}
	sizes = slices.DeleteFunc(sizes, func(k int) bool { return k == 0 }) // nodes in no tetrahedron
	slices.SortFunc(sizes, func(a, b int) int { return b - a })
	return sizes
}
