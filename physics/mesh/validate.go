package mesh

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// degenerateRatio is the threshold below which a tetrahedron counts as
// degenerate: |V| ≤ degenerateRatio·D³ with D the bounding-box diagonal of
// the mesh. The ratio is scale-free, so the same mesh in millimetres or in
// metres gets the same verdict. A well-shaped element of a mesh with a
// million elements has |V| ≈ 10⁻⁷·D³, far above it; a sliver at 10⁻¹²·D³
// has a stiffness matrix with a condition number beyond what double
// precision resolves.
const degenerateRatio = 1e-12

// Validate checks that the mesh can be simulated: at least one
// tetrahedron, node indices in range, four distinct nodes per tetrahedron,
// finite coordinates, no degenerate and no negatively oriented tetrahedron,
// and no node that no tetrahedron uses (an isolated node would make the
// stiffness matrix singular). The error names the first offending node or
// tetrahedron and how many share the problem.
func (m *TetMesh) Validate() error {
	if m == nil || len(m.Tets) == 0 {
		return fmt.Errorf("mesh has no tetrahedra")
	}
	if err := CheckCoordinates(m.Nodes); err != nil {
		return err
	}
	if err := m.checkConnectivity(); err != nil {
		return err
	}
	if err := m.checkIsolated(); err != nil {
		return err
	}
	return m.checkOrientation()
}

// CheckCoordinates rejects NaN and infinite coordinates, and point sets
// so large that volumes (cubes of lengths) overflow.
func CheckCoordinates(nodes []r3.Vec) error {
	for i, p := range nodes {
		if !finite(p.X) || !finite(p.Y) || !finite(p.Z) {
			return fmt.Errorf("mesh: node %d has a non-finite coordinate (%v, %v, %v)", i, p.X, p.Y, p.Z)
		}
	}
	if d := r3.Norm(BoundsOf(nodes).Size()); !finite(d * d * d) {
		return fmt.Errorf("mesh: bounding box diagonal %g is too large to compute volumes", d)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkConnectivity checks the index ranges and that the four nodes of each
// tetrahedron are distinct; it is all that ExtractSurface needs to run
// without indexing out of range.
func (m *TetMesh) checkConnectivity() error {
	n := len(m.Nodes)
	for ti, t := range m.Tets {
		for k, v := range t {
			if v < 0 || v >= n {
				return fmt.Errorf("mesh: tetrahedron %d references node %d outside [0, %d)", ti, v, n)
			}
			for _, w := range t[:k] {
				if w == v {
					return fmt.Errorf("mesh: tetrahedron %d lists node %d twice", ti, v)
				}
			}
		}
	}
	return nil
}

// checkIsolated reports nodes that no tetrahedron uses. It assumes the
// connectivity has been checked.
func (m *TetMesh) checkIsolated() error {
	used := make([]bool, len(m.Nodes))
	for _, t := range m.Tets {
		for _, v := range t {
			used[v] = true
		}
	}
	first, count := -1, 0
	for i, u := range used {
		if !u {
			if first < 0 {
				first = i
			}
			count++
		}
	}
	if count > 0 {
		return fmt.Errorf("mesh: %d node(s) are used by no tetrahedron, the first is node %d", count, first)
	}
	return nil
}

// DegenerateVolume returns the volume at or below which a tetrahedron of
// the mesh is degenerate: degenerateRatio·D³, D the diagonal of the
// bounding box of its nodes.
func (m *TetMesh) DegenerateVolume() float64 {
	d := r3.Norm(m.Bounds().Size())
	return degenerateRatio * d * d * d
}

// checkOrientation rejects degenerate and negatively oriented tetrahedra.
func (m *TetMesh) checkOrientation() error {
	eps := m.DegenerateVolume()
	firstFlat, flat, firstNeg, neg := -1, 0, -1, 0
	for ti, t := range m.Tets {
		v := m.TetVolume(t)
		switch {
		case math.Abs(v) <= eps:
			if firstFlat < 0 {
				firstFlat = ti
			}
			flat++
		case v < 0:
			if firstNeg < 0 {
				firstNeg = ti
			}
			neg++
		}
	}
	if flat > 0 {
		return fmt.Errorf("mesh: %d tetrahedra are degenerate (|volume| ≤ %.3g), the first is tetrahedron %d %v with volume %.3g",
			flat, eps, firstFlat, m.Tets[firstFlat], m.TetVolume(m.Tets[firstFlat]))
	}
	if neg > 0 {
		return fmt.Errorf("mesh: %d tetrahedra are negatively oriented, the first is tetrahedron %d %v", neg, firstNeg, m.Tets[firstNeg])
	}
	return nil
}
