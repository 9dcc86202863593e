package fem

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

// Small meshes built by hand for the tests, independent of the mesh
// package's generators.

// unitTet is the reference tetrahedron, volume 1/6.
func unitTet() *mesh.TetMesh {
	return &mesh.TetMesh{
		Nodes: []r3.Vec{{}, {X: 1}, {Y: 1}, {Z: 1}},
		Tets:  [][4]int{{0, 1, 2, 3}},
	}
}

// gridBox returns the box [0, lx]×[0, ly]×[0, lz] divided into nx×ny×nz
// cells, each split into the six tetrahedra of the Kuhn triangulation
// (one per ordering of the axes, all sharing the cell diagonal), which is
// conforming across cells. Node (i, j, k) has index i + (nx+1)·(j + (ny+1)·k).
func gridBox(nx, ny, nz int, lx, ly, lz float64) *mesh.TetMesh {
	id := func(i, j, k int) int { return i + (nx+1)*(j+(ny+1)*k) }
	msh := &mesh.TetMesh{}
	for k := 0; k <= nz; k++ {
		for j := 0; j <= ny; j++ {
			for i := 0; i <= nx; i++ {
				msh.Nodes = append(msh.Nodes, r3.Vec{
					X: lx * float64(i) / float64(nx),
					Y: ly * float64(j) / float64(ny),
					Z: lz * float64(k) / float64(nz),
				})
			}
		}
	}
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for k := 0; k < nz; k++ {
		for j := 0; j < ny; j++ {
			for i := 0; i < nx; i++ {
				for _, p := range perms {
					c := [3]int{i, j, k}
					var tet [4]int
					tet[0] = id(c[0], c[1], c[2])
					for s, axis := range p {
						c[axis]++
						tet[s+1] = id(c[0], c[1], c[2])
					}
					msh.Tets = append(msh.Tets, orient(msh.Nodes, tet))
				}
			}
		}
	}
	return msh
}

// orient swaps two nodes of tet if its volume is negative.
func orient(nodes []r3.Vec, tet [4]int) [4]int {
	a, b, c := r3.Sub(nodes[tet[1]], nodes[tet[0]]), r3.Sub(nodes[tet[2]], nodes[tet[0]]), r3.Sub(nodes[tet[3]], nodes[tet[0]])
	if r3.Dot(a, r3.Cross(b, c)) < 0 {
		tet[2], tet[3] = tet[3], tet[2]
	}
	return tet
}

// testMaterial is a soft rubber-like material.
func testMaterial() settings.Material {
	return settings.Material{YoungModulus: 1e5, PoissonRatio: 0.3, Density: 1000, MassDamping: 0.2, StiffnessDamping: 0.01}
}

func newTestModel(t testing.TB, msh *mesh.TetMesh, mat settings.Material) *Model {
	t.Helper()
	m, err := NewModel(msh, mat)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// restPositions flattens the mesh nodes into q.
func restPositions(msh *mesh.TetMesh) []float64 {
	q := make([]float64, 3*len(msh.Nodes))
	for i, p := range msh.Nodes {
		q[3*i], q[3*i+1], q[3*i+2] = p.X, p.Y, p.Z
	}
	return q
}

// affine returns the positions x = F·X + t of the mesh nodes.
func affine(msh *mesh.TetMesh, F m3.Mat3, t r3.Vec) []float64 {
	q := make([]float64, 3*len(msh.Nodes))
	for i, p := range msh.Nodes {
		x := r3.Add(F.MulVec(p), t)
		q[3*i], q[3*i+1], q[3*i+2] = x.X, x.Y, x.Z
	}
	return q
}

// rotation returns the rotation by angle about axis (Rodrigues).
func rotation(axis r3.Vec, angle float64) m3.Mat3 {
	n := r3.Unit(axis)
	K := m3.Mat3{0, -n.Z, n.Y, n.Z, 0, -n.X, -n.Y, n.X, 0}
	return m3.Add(m3.Add(m3.Identity(), m3.Scale(math.Sin(angle), K)), m3.Scale(1-math.Cos(angle), m3.Mul(K, K)))
}

func randomVec(rng *rand.Rand, n int, scale float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = scale * (2*rng.Float64() - 1)
	}
	return x
}

func maxAbs(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s = math.Max(s, math.Abs(v))
	}
	return s
}

// nodeVec returns the 3-vector of node i in x.
func nodeVec(x []float64, i int) r3.Vec { return r3.Vec{X: x[3*i], Y: x[3*i+1], Z: x[3*i+2]} }
