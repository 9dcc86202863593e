package mesh

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

func TestBox(t *testing.T) {
	tests := []struct {
		size       r3.Vec
		nx, ny, nz int
	}{
		{r3.Vec{X: 1, Y: 1, Z: 1}, 2, 2, 2},
		{r3.Vec{X: 0.05, Y: 0.03, Z: 0.02}, 6, 4, 3},
		{r3.Vec{X: 0.2, Y: 0.01, Z: 0.01}, 21, 2, 2},
		{r3.Vec{X: 0.04, Y: 0.04, Z: 0.04}, 5, 7, 9},
	}
	for _, tt := range tests {
		t.Run(gridName(tt.nx, tt.ny, tt.nz), func(t *testing.T) {
			m, err := Box(tt.size, tt.nx, tt.ny, tt.nz)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			cx, cy, cz := tt.nx-1, tt.ny-1, tt.nz-1
			if got, want := len(m.Nodes), tt.nx*tt.ny*tt.nz; got != want {
				t.Errorf("%d nodes, want %d", got, want)
			}
			// Every Kuhn tetrahedron is a sixth of its cell.
			cell := tt.size.X * tt.size.Y * tt.size.Z / float64(cx*cy*cz)
			for i, tet := range m.Tets {
				if v := m.TetVolume(tet); !sameFloat(v, cell/6, 1e-9) {
					t.Fatalf("tetrahedron %d has volume %g, want %g", i, v, cell/6)
				}
			}
			if v, want := m.Volume(), tt.size.X*tt.size.Y*tt.size.Z; !sameFloat(v, want, 1e-12) {
				t.Errorf("volume %g, want %g", v, want)
			}
			wantBox := r3.Box{Min: r3.Vec{X: -tt.size.X / 2, Y: -tt.size.Y / 2}, Max: r3.Vec{X: tt.size.X / 2, Y: tt.size.Y / 2, Z: tt.size.Z}}
			if b := m.Bounds(); b != wantBox {
				t.Errorf("bounds %v, want %v", b, wantBox)
			}
			s := surfaceOf(t, m)
			checkClosed(t, s)
			if chi := eulerCharacteristic(s); chi != 2 {
				t.Errorf("Euler characteristic %d, want 2", chi)
			}
			if got, want := len(s.Tris), 4*(cx*cy+cy*cz+cz*cx); got != want {
				t.Errorf("%d surface triangles, want %d", got, want)
			}
			a, want := s.Area(nodePos(m)), 2*(tt.size.X*tt.size.Y+tt.size.Y*tt.size.Z+tt.size.Z*tt.size.X)
			if !sameFloat(a, want, 1e-12) {
				t.Errorf("area %g, want %g", a, want)
			}
			checkOutward(t, m, s, r3.Vec{Z: tt.size.Z / 2})
		})
	}
}

// checkOutward checks, for a convex body containing centre, that every
// surface triangle faces away from the centre.
func checkOutward(t *testing.T, m *TetMesh, s *Surface, centre r3.Vec) {
	t.Helper()
	for i, tri := range s.Tris {
		a, b, c := m.Nodes[tri[0]], m.Nodes[tri[1]], m.Nodes[tri[2]]
		g := r3.Scale(1.0/3, r3.Add(a, r3.Add(b, c)))
		if r3.Dot(TriangleNormal(a, b, c), r3.Sub(g, centre)) <= 0 {
			t.Fatalf("triangle %d %v faces inward", i, tri)
		}
	}
}

func TestCylinder(t *testing.T) {
	tests := []struct {
		radius, height float64
		nr, nz         int
	}{
		{1, 1, 2, 1},
		{0.02, 0.05, 4, 6},
		{0.02, 0.05, 8, 10},
		{0.05, 0.01, 16, 2},
		{0.01, 0.1, 6, 40},
		{0.03, 0.06, 32, 32},
	}
	for _, tt := range tests {
		t.Run(gridName(tt.nr, tt.nr, tt.nz), func(t *testing.T) {
			m, err := Cylinder(tt.radius, tt.height, tt.nr, tt.nz)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			checkCylinderGeometry(t, m, tt.radius, tt.height, tt.nr)
			s := surfaceOf(t, m)
			checkClosed(t, s)
			if chi := eulerCharacteristic(s); chi != 2 {
				t.Errorf("Euler characteristic %d, want 2", chi)
			}
			checkOutward(t, m, s, r3.Vec{Z: tt.height / 2})
			// The shape quality of the worst element stays bounded away
			// from zero (see squareToDisk); 0.15 flags slivers.
			if q := minQuality(m); q < 0.15 {
				t.Errorf("worst element quality %.3f", q)
			}
		})
	}
}

// checkCylinderGeometry compares volume and area with the analytic values.
// The boundary is a polygon inscribed in the circle whose edges subtend
// angles θ_i ≤ θ = 2/nr (see squareToDisk). A circular segment of angle θ_i
// has area r²(θ_i − sin θ_i)/2 ≤ r²θ_i³/12, so the polygon misses at most
// Σ r²θ_i³/12 ≤ r²θ²·2π/12, a fraction θ²/6 of the disk; its perimeter
// Σ 2r·sin(θ_i/2) misses at most a fraction θ²/24. Both fall short, never
// over.
func checkCylinderGeometry(t *testing.T, m *TetMesh, radius, height float64, nr int) {
	t.Helper()
	theta := 2 / float64(nr)
	tol := theta * theta / 6
	wantV := math.Pi * radius * radius * height
	if v := m.Volume(); v > wantV*(1+1e-12) || v < wantV*(1-tol) {
		t.Errorf("volume %g outside [%g, %g]", v, wantV*(1-tol), wantV)
	}
	s := surfaceOf(t, m)
	wantA := 2*math.Pi*radius*radius + 2*math.Pi*radius*height
	if a := s.Area(nodePos(m)); a > wantA*(1+1e-12) || a < wantA*(1-tol) {
		t.Errorf("area %g outside [%g, %g]", a, wantA*(1-tol), wantA)
	}
	onRim := 0
	for i, p := range m.Nodes {
		r := math.Hypot(p.X, p.Y)
		if r > radius*(1+1e-12) || p.Z < 0 || p.Z > height*(1+1e-12) {
			t.Fatalf("node %d at %v lies outside the cylinder", i, p)
		}
		if math.Abs(r-radius) <= 1e-12*radius {
			onRim++
		}
	}
	// The rim of each of the nz+1 layers holds 4·nr nodes.
	layers := len(m.Nodes) / ((nr + 1) * (nr + 1))
	if want := 4 * nr * layers; onRim != want {
		t.Errorf("%d nodes on the cylindrical side, want %d", onRim, want)
	}
}

func TestProceduralErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	unit := r3.Vec{X: 1, Y: 1, Z: 1}
	tests := []struct {
		name string
		make func() (*TetMesh, error)
		want string
	}{
		{"box NaN size", func() (*TetMesh, error) { return Box(r3.Vec{X: nan, Y: 1, Z: 1}, 2, 2, 2) }, "box size must be positive and finite"},
		{"box zero size", func() (*TetMesh, error) { return Box(r3.Vec{X: 1, Y: 0, Z: 1}, 2, 2, 2) }, "box size"},
		{"box infinite size", func() (*TetMesh, error) { return Box(r3.Vec{X: 1, Y: 1, Z: inf}, 2, 2, 2) }, "box size"},
		{"box one node", func() (*TetMesh, error) { return Box(unit, 1, 2, 2) }, "at least 2 nodes per axis"},
		{"box too many nodes", func() (*TetMesh, error) { return Box(unit, 1<<20, 1<<20, 1<<20) }, "exceeds the limit"},
		{"cylinder odd nr", func() (*TetMesh, error) { return Cylinder(1, 1, 5, 2) }, "must be even"},
		{"cylinder no layers", func() (*TetMesh, error) { return Cylinder(1, 1, 4, 0) }, "at least 1"},
		{"cylinder negative radius", func() (*TetMesh, error) { return Cylinder(-1, 1, 4, 2) }, "radius and height"},
		{"cylinder NaN height", func() (*TetMesh, error) { return Cylinder(1, nan, 4, 2) }, "radius and height"},
		{"box dofs too small", func() (*TetMesh, error) { return BoxForDOFs(unit, 23) }, "requested 23 degrees of freedom"},
		{"box dofs too large", func() (*TetMesh, error) { return BoxForDOFs(unit, 1<<40) }, "degrees of freedom"},
		{"box dofs NaN size", func() (*TetMesh, error) { return BoxForDOFs(r3.Vec{X: nan, Y: 1, Z: 1}, 300) }, "box size"},
		{"cylinder dofs negative", func() (*TetMesh, error) { return CylinderForDOFs(1, 1, -300) }, "degrees of freedom"},
		{"cylinder dofs zero radius", func() (*TetMesh, error) { return CylinderForDOFs(0, 1, 300) }, "radius and height"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := tt.make()
			if err == nil {
				t.Fatalf("no error; got a mesh of %d nodes", len(m.Nodes))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

func gridName(nx, ny, nz int) string { return fmt.Sprintf("%dx%dx%d", nx, ny, nz) }
