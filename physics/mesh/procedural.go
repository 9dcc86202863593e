package mesh

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Box returns a box of the given size (metres) meshed by a structured grid
// of nx×ny×nz nodes (at least 2 per axis), each hexahedral cell split into
// six tetrahedra (see grid.appendCell). The box is centred on the z axis
// and rests on the floor: it spans [−X/2, X/2]×[−Y/2, Y/2]×[0, Z].
func Box(size r3.Vec, nx, ny, nz int) (*TetMesh, error) {
	if err := checkLengths("box size", size.X, size.Y, size.Z); err != nil {
		return nil, err
	}
	g, err := newGrid(nx, ny, nz)
	if err != nil {
		return nil, fmt.Errorf("box: %w", err)
	}
	return g.mesh(func(i, j, k int) r3.Vec {
		return r3.Vec{
			X: size.X * (float64(i)/float64(nx-1) - 0.5),
			Y: size.Y * (float64(j)/float64(ny-1) - 0.5),
			Z: size.Z * float64(k) / float64(nz-1),
		}
	}), nil
}

// Cylinder returns a solid cylinder of the given radius and height
// (metres), its axis along z, centred on the z axis and resting on the
// floor (0 ≤ z ≤ height).
//
// The cross-section is a square grid of nr×nr cells mapped onto the disk
// (see squareToDisk), so nr is the number of cells across the diameter;
// it must be even, so that at the four points where the square's corners
// land on the circle the cell diagonals of the tetrahedral split run
// through the corner instead of cutting it off (see grid.appendCell). The section is extruded over nz layers of cells.
// The boundary is a polygon inscribed in the circle with 4·nr edges.
func Cylinder(radius, height float64, nr, nz int) (*TetMesh, error) {
	if err := checkLengths("cylinder radius and height", radius, height); err != nil {
		return nil, err
	}
	if nr < 2 || nr%2 != 0 {
		return nil, fmt.Errorf("cylinder: cells across the diameter must be even and at least 2, got %d", nr)
	}
	if nz < 1 {
		return nil, fmt.Errorf("cylinder: cell layers along the axis must be at least 1, got %d", nz)
	}
	g, err := newGrid(nr+1, nr+1, nz+1)
	if err != nil {
		return nil, fmt.Errorf("cylinder: %w", err)
	}
	return g.mesh(func(i, j, k int) r3.Vec {
		a := 2*float64(i)/float64(nr) - 1
		b := 2*float64(j)/float64(nr) - 1
		u, v := squareToDisk(a, b)
		return r3.Vec{X: radius * u, Y: radius * v, Z: height * float64(k) / float64(nz)}
	}), nil
}

// squareToDisk maps the square [−1, 1]² onto the unit disk, sending the
// concentric squares max(|a|, |b|) = σ onto curves that blend from squares
// near the centre to circles at the rim:
//
//	(u, v) = (a, b)·(1 − σ + σ²/r),   σ = max(|a|, |b|),  r = √(a² + b²).
//
// Derivation of its properties, in the sector |b| ≤ a (the others follow
// by symmetry): a point of the square ring σ at polar angle φ has
// r = σ/cos φ. The map keeps φ and sends r to
//
//	ρ(σ, φ) = σ(1 − σ)/cos φ + σ².
//
// At σ = 1, ρ = 1: the square's boundary lands on the circle, each side on
// a quarter, at angles φ = atan(b), which are at most 2/nr apart for a
// grid of nr cells (atan is 1-Lipschitz). For |φ| ≤ 45°,
//
//	∂ρ/∂σ = 1/cos φ − 2σ(1/cos φ − 1) ≥ 2 − 1/cos φ ≥ 2 − √2 > 0,
//
// so rays are stretched monotonically: the map is one-to-one and keeps
// orientation, and no cell folds. Near the centre it is the identity to
// first order. At the rim, radial spacing stays proportional to the cell
// size even at the corners (along the diagonal, the ring one cell of size
// δ inside the rim sits at ρ ≈ 1 − (2 − √2)·δ), unlike maps whose Jacobian vanishes at the corners (the elliptical grid
// map), which squash the corner cells into slivers as the grid is refined:
// on cubic cells the worst tetrahedron keeps a shape quality near 0.5 at
// every resolution. The 90° corner angle of the square still opens to
// 180° on the circle, which the Union-Jack split of the grid handles.
func squareToDisk(a, b float64) (u, v float64) {
	sigma, r := math.Max(math.Abs(a), math.Abs(b)), math.Hypot(a, b)
	if r == 0 {
		return 0, 0
	}
	scale := 1 - sigma + sigma*sigma/r
	return a * scale, b * scale
}

// checkLengths rejects lengths that are not positive and finite.
func checkLengths(what string, xs ...float64) error {
	for _, x := range xs {
		if !(x > 0) || math.IsInf(x, 0) {
			return fmt.Errorf("mesh: %s must be positive and finite, got %v", what, xs)
		}
	}
	return nil
}

// MaxProceduralNodes bounds the size of the procedural meshes (12 million
// degrees of freedom), far beyond what an interactive simulation can step,
// so that a mistyped resolution fails with an error instead of exhausting
// memory.
const MaxProceduralNodes = 4 << 20

// kuhnPaths are the six monotone lattice paths from corner 000 to corner 111
// of the unit cube: path p visits 000, e_p0, e_p0+e_p1, 111. The six
// tetrahedra spanned by these paths tile the cube (Kuhn/Freudenthal) and
// all share the main diagonal 000–111.
//
// Orientation: with v0 = 0, v1 = e_a, v2 = e_a+e_b, v3 = e_a+e_b+e_c,
//
//	det[v1−v0, v2−v0, v3−v0] = det[e_a, e_a+e_b, e_a+e_b+e_c] = det[e_a, e_b, e_c],
//
// by subtracting columns, which is the sign of the permutation (a, b, c).
var kuhnPaths = [6]struct {
	axes [3]int
	sign int
}{
	{[3]int{0, 1, 2}, +1}, {[3]int{1, 2, 0}, +1}, {[3]int{2, 0, 1}, +1},
	{[3]int{0, 2, 1}, -1}, {[3]int{2, 1, 0}, -1}, {[3]int{1, 0, 2}, -1},
}

// grid is a structured lattice of nx×ny×nz nodes and (nx−1)×(ny−1)×(nz−1)
// hexahedral cells; node (i, j, k) has index i + nx·(j + ny·k).
type grid struct{ nx, ny, nz int }

// newGrid checks the node counts of a structured grid: at least two along
// each axis and at most MaxProceduralNodes in total.
func newGrid(nx, ny, nz int) (grid, error) {
	if nx < 2 || ny < 2 || nz < 2 {
		return grid{}, fmt.Errorf("mesh: grid needs at least 2 nodes per axis, got %d×%d×%d", nx, ny, nz)
	}
	if nx > MaxProceduralNodes || ny > MaxProceduralNodes || nz > MaxProceduralNodes ||
		nx*ny > MaxProceduralNodes || nx*ny*nz > MaxProceduralNodes {
		return grid{}, fmt.Errorf("mesh: grid of %d×%d×%d nodes exceeds the limit of %d nodes", nx, ny, nz, MaxProceduralNodes)
	}
	return grid{nx, ny, nz}, nil
}

func (g grid) index(i, j, k int) int { return i + g.nx*(j+g.ny*k) }

// mesh places node (i, j, k) at place(i, j, k) and splits every cell into
// six tetrahedra.
func (g grid) mesh(place func(i, j, k int) r3.Vec) *TetMesh {
	m := &TetMesh{
		Nodes: make([]r3.Vec, 0, g.nx*g.ny*g.nz),
		Tets:  make([][4]int, 0, 6*(g.nx-1)*(g.ny-1)*(g.nz-1)),
	}
	for k := 0; k < g.nz; k++ {
		for j := 0; j < g.ny; j++ {
			for i := 0; i < g.nx; i++ {
				m.Nodes = append(m.Nodes, place(i, j, k))
			}
		}
	}
	for k := 0; k+1 < g.nz; k++ {
		for j := 0; j+1 < g.ny; j++ {
			for i := 0; i+1 < g.nx; i++ {
				m.Tets = g.appendCell(m.Tets, i, j, k)
			}
		}
	}
	return m
}

// appendCell appends the six tetrahedra of cell (i, j, k).
//
// Plain Kuhn splitting puts every face diagonal along the same direction.
// Here the cell is first mirrored along each axis whose cell index is odd,
// so that every diagonal, in every face, passes through the cell corner
// whose three lattice indices are even (the "Union Jack" pattern in each
// plane). Two neighbouring cells are mirror images across their common
// face and both use the same reflections in the two directions of that
// face, so they cut it along the same diagonal: the tetrahedra conform.
// The benefit is for grids mapped onto curved domains: with an even number
// of cells per axis, the corners of the lattice are even corners, so no
// diagonal ever cuts off a corner of the domain (a corner cell of a square
// grid mapped onto a disk has a 180° angle at the corner, and a triangle
// cutting it off would be flat).
//
// Each mirror reverses orientation; a tetrahedron whose path sign times
// (−1)^(number of mirrors) is negative gets two nodes swapped.
func (g grid) appendCell(tets [][4]int, i, j, k int) [][4]int {
	mirror := (i & 1) | (j&1)<<1 | (k&1)<<2
	mirrors := (i & 1) + (j & 1) + (k & 1)
	corner := func(bits int) int {
		bits ^= mirror
		return g.index(i+(bits&1), j+((bits>>1)&1), k+((bits>>2)&1))
	}
	for _, p := range kuhnPaths {
		c1 := 1 << p.axes[0]
		c2 := c1 | 1<<p.axes[1]
		t := [4]int{corner(0), corner(c1), corner(c2), corner(7)}
		if p.sign*(1-2*(mirrors&1)) < 0 {
			t[2], t[3] = t[3], t[2]
		}
		tets = append(tets, t)
	}
	return tets
}
