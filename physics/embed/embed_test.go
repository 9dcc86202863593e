package embed

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// sphereVolume is the volume of a ball of radius r.
func sphereVolume(r float64) float64 { return 4.0 / 3 * math.Pi * r * r * r }

// TestBuildSphere: a closed icosphere opens without notes, every point
// embedded, and the mesh's volume approaches the sphere's as the budget
// grows (the mesh wraps the surface in the cells it crosses, so it is
// larger by about half a layer of cells).
func TestBuildSphere(t *testing.T) {
	const r = 0.02
	s := icosphere(4, r, r3.Vec{X: 0.1, Y: -0.03, Z: 0.01}, 0)
	prev := math.Inf(1)
	for _, c := range []struct {
		dofs   int
		excess float64 // most relative volume excess
		filled float64 // most relative error of the filled volume Σ fill·V (measured 0.037, 0.022, 0.023, 0.011)
	}{
		{1000, 0.75, 0.045}, {3000, 0.45, 0.03}, {10000, 0.30, 0.03}, {30000, 0.20, 0.015},
	} {
		m, e, notes, err := Build(s, c.dofs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkBuilt(t, s, m, e)
		if len(notes) > 0 {
			t.Errorf("dofs %d: notes for a clean sphere: %q", c.dofs, notes)
		}
		excess := m.Volume()/s.Volume() - 1
		t.Logf("dofs %d: %d nodes, %d tetrahedra, volume %.3f times the sphere's", c.dofs, len(m.Nodes), len(m.Tets), 1+excess)
		if excess < 0 || excess > c.excess || excess >= prev {
			t.Errorf("dofs %d: the mesh's volume is %.3f times the surface's, want in [1, %.2f] and below the coarser budget's %.3f",
				c.dofs, 1+excess, 1+c.excess, 1+prev)
		}
		prev = excess
		filled := 0.0
		for k := range m.Tets {
			filled += e.Fill[k] * m.TetVolume(m.Tets[k])
		}
		t.Logf("dofs %d: filled volume %.4f times the sphere's", c.dofs, filled/s.Volume())
		if r := filled / s.Volume(); math.Abs(r-1) > c.filled {
			t.Errorf("dofs %d: the filled volume Σ fill·V is %.4f times the sphere's, want within %.2f", c.dofs, r, c.filled)
		}
		if p := m.Pieces(); len(p) != 1 {
			t.Errorf("dofs %d: %d pieces", c.dofs, len(p))
		}
	}
}

// TestBuildWorkarounds: dirty surfaces open, with a note saying what was
// worked around, and a mesh of the right volume.
func TestBuildWorkarounds(t *testing.T) {
	const r = 0.02
	ball := icosphere(4, r, r3.Vec{}, 0)
	lens := math.Pi * (4*r + r) * (2*r - r) * (2*r - r) / 12 // two balls r apart
	plate := boxSurface(t, r3.Vec{X: 0.04, Y: 0.04, Z: 0.001}, 40)
	coarsePlate := boxSurface(t, r3.Vec{X: 0.04, Y: 0.04, Z: 0.001}, 1)
	for _, c := range []struct {
		name   string
		surf   *mesh.TriSurface
		volume float64 // of the solid
		excess float64 // most relative volume excess at 3000 DOFs
		notes  []string
		pieces int
		tris   [][3]int // the embedded surface's triangles, when not the input's
	}{
		{name: "three small holes", surf: withHoles(ball, r3.Vec{}, r3.Vec{X: 1}, r3.Vec{Y: 1, Z: 0.3}, r3.Vec{X: -0.2, Z: -1}),
			volume: sphereVolume(r), excess: 0.45, pieces: 1, notes: []string{"18 open edges", "found by its winding number"}},
		// A scan without its base: the winding number closes it.
		{name: "ball without its bottom eighth", surf: above(ball, -0.75*r), volume: sphereVolume(r), excess: 0.45, pieces: 1,
			notes: []string{"60 open edges"}},
		{name: "two overlapping balls in one surface", surf: union(ball, icosphere(4, r, r3.Vec{X: r}, 0)),
			volume: 2*sphereVolume(r) - lens, excess: 0.45, pieces: 1},
		{name: "inside out", surf: turned(ball), volume: sphereVolume(r), excess: 0.45, pieces: 1,
			notes: []string{"inside out"}, tris: ball.Tris},
		{name: "three triangles turned", surf: turned(ball, 5, 700, 4000), volume: sphereVolume(r), excess: 0.45, pieces: 1,
			notes: []string{"turned 3 triangles"}, tris: ball.Tris},
		{name: "thin plate 1 mm × 40 mm", surf: plate, volume: 0.04 * 0.04 * 0.001, excess: 1e-6, pieces: 1},
		{name: "thin plate of 12 triangles", surf: coarsePlate, volume: 0.04 * 0.04 * 0.001, excess: 1e-6, pieces: 1},
		// A tilted plate gets a grid along its own axes.
		{name: "tilted thin plate", surf: tilted(plate), volume: 0.04 * 0.04 * 0.001, excess: 0.1, pieces: 1},
		{name: "tilted thin plate of 12 triangles", surf: tilted(coarsePlate), volume: 0.04 * 0.04 * 0.001, excess: 0.1, pieces: 1},
		// Two crossed plates: no grid follows both.
		{name: "two crossed thin plates", surf: union(plate, tilted(plate)), volume: 2 * 0.04 * 0.04 * 0.001, excess: 8, pieces: 1,
			notes: []string{"times the surface's: parts thinner than a cell"}},
		{name: "ball and a stray triangle", surf: union(ball, &mesh.TriSurface{
			Nodes: []r3.Vec{{X: 2 * r, Y: 0, Z: 0}, {X: 2.2 * r, Y: 0, Z: 0}, {X: 2 * r, Y: 0.2 * r, Z: 0}},
			Tris:  [][3]int{{0, 1, 2}}}), volume: sphereVolume(r), excess: 0.45, pieces: 2,
			notes: []string{"3 open edges", "kept 2 cells for surface points outside the solid", "2 separate pieces"}},
		{name: "two separate balls", surf: union(ball, icosphere(3, r/2, r3.Vec{X: 3 * r}, 0)),
			volume: sphereVolume(r) + sphereVolume(r/2), excess: 0.6, pieces: 2, notes: []string{"2 separate pieces"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := &mesh.TriSurface{Nodes: slices.Clone(c.surf.Nodes), Tris: slices.Clone(c.surf.Tris)}
			m, e, notes, err := Build(c.surf, 3000, Options{})
			if !slices.Equal(before.Nodes, c.surf.Nodes) || !slices.Equal(before.Tris, c.surf.Tris) {
				t.Errorf("Build changed its input")
			}
			if err != nil {
				t.Fatal(err)
			}
			checkBuilt(t, c.surf, m, e)
			t.Logf("%d nodes, volume %.3f times the solid's, notes %q", len(m.Nodes), m.Volume()/c.volume, notes)
			all := strings.Join(notes, "\n")
			for _, want := range c.notes {
				if !strings.Contains(all, want) {
					t.Errorf("notes %q lack %q", notes, want)
				}
			}
			if len(c.notes) == 0 && len(notes) > 0 {
				t.Errorf("unexpected notes %q", notes)
			}
			if v := m.Volume() / c.volume; v < 1-1e-9 || v > 1+c.excess {
				t.Errorf("volume is %.3f times the solid's, want in [1, %.2f]", v, 1+c.excess)
			}
			if p := m.Pieces(); len(p) != c.pieces {
				t.Errorf("%d pieces %v, want %d", len(p), p, c.pieces)
			}
			want := c.surf.Tris
			if c.tris != nil {
				want = c.tris
			}
			if !slices.Equal(e.Surface.Tris, want) {
				t.Errorf("the embedded surface's triangles are not the expected ones")
			}
			if &e.Surface.Tris[0] == &c.surf.Tris[0] || &e.Surface.Nodes[0] == &c.surf.Nodes[0] {
				t.Errorf("the embedded surface shares memory with the input")
			}
		})
	}
}

// tilted returns s turned by 30° about x and then 20° about y, so that
// its faces cross the grid's cells obliquely.
func tilted(s *mesh.TriSurface) *mesh.TriSurface {
	out := &mesh.TriSurface{Tris: s.Tris}
	a, b := math.Pi/6, math.Pi/9
	for _, p := range s.Nodes {
		p = r3.Vec{X: p.X, Y: math.Cos(a)*p.Y - math.Sin(a)*p.Z, Z: math.Sin(a)*p.Y + math.Cos(a)*p.Z}
		p = r3.Vec{X: math.Cos(b)*p.X + math.Sin(b)*p.Z, Y: p.Y, Z: -math.Sin(b)*p.X + math.Cos(b)*p.Z}
		out.Nodes = append(out.Nodes, p)
	}
	return out
}

// TestBuildRefuses: what is not a solid, or not a surface, is refused
// with a message saying what is wrong.
func TestBuildRefuses(t *testing.T) {
	bad := sheet(0.04, 1)
	bad.Tris = append(bad.Tris, [3]int{0, 1, 9})
	nan := icosphere(1, 0.02, r3.Vec{}, 0)
	nan.Nodes[3].Y = math.NaN()
	for _, c := range []struct {
		name string
		surf *mesh.TriSurface
		dofs int
		want []string
	}{
		{"open square sheet", sheet(0.04, 10), 3000, []string{"encloses no volume", "open sheet", "40 of its edges border a single triangle"}},
		{"two triangles", sheet(0.04, 1), 3000, []string{"encloses no volume", "open sheet"}},
		{"a spherical cap, a quarter of the sphere", above(icosphere(4, 0.02, r3.Vec{}, 0), 0.01), 3000,
			[]string{"encloses no volume", "reaches at most 0.72"}},
		{"no triangles", &mesh.TriSurface{}, 3000, []string{"no triangles"}},
		{"nil", nil, 3000, []string{"no triangles"}},
		{"point out of range", bad, 3000, []string{"triangle 2 uses point 9"}},
		{"not a number", nan, 3000, []string{"non-finite"}},
		{"too few DOFs", icosphere(1, 0.02, r3.Vec{}, 0), 10, []string{"10 degrees of freedom"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, err := Build(c.surf, c.dofs, Options{})
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestMappingJacobian compares the weights with finite differences of
// G(q): H = ∂G/∂q has the weight w_k·I₃ in the block of point i and node
// Nodes[k], and zeros elsewhere.
func TestMappingJacobian(t *testing.T) {
	s := icosphere(2, 0.02, r3.Vec{}, 0.1)
	m, e, _, err := Build(s, 150, Options{})
	if err != nil {
		t.Fatal(err)
	}
	np, nq := 3*len(s.Nodes), 3*len(m.Nodes)
	h := make([]float64, np*nq) // row-major 3P×3N
	for i, pw := range e.Points {
		for k := range pw.Count {
			for a := range 3 {
				h[(3*i+a)*nq+3*pw.Nodes[k]+a] += pw.Weights[k]
			}
		}
	}
	q := restPositions(m)
	p0, p1 := make([]float64, np), make([]float64, np)
	e.Map(p0, q)
	const eps = 1e-7
	var worst float64
	for j := range nq {
		q[j] += eps
		e.Map(p1, q)
		q[j] -= eps
		for i := range np {
			fd := (p1[i] - p0[i]) / eps
			worst = math.Max(worst, math.Abs(fd-h[i*nq+j]))
		}
	}
	t.Logf("%d points on %d nodes: largest |FD − H| = %.2g", len(s.Nodes), len(m.Nodes), worst)
	if worst > 1e-6 {
		t.Errorf("finite differences differ from the weights by %g", worst)
	}
}

// TestDOFsNearTarget: the mesh's DOFs are within 10 % of the budget for
// budgets from 300 to 30000, on a sphere, a diagonal rod, an elongated
// bumpy body and a plate.
func TestDOFsNearTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds twenty grid meshes up to 30k DOFs")
	}
	long := icosphere(4, 0.02, r3.Vec{}, 0.2)
	for i, p := range long.Nodes {
		long.Nodes[i] = r3.Vec{X: 3 * p.X, Y: p.Y, Z: 0.5 * p.Z}
	}
	rod := icosphere(4, 1, r3.Vec{}, 0)
	u, v := r3.Unit(r3.Vec{X: 1, Y: 1, Z: 1}), r3.Unit(r3.Vec{X: -1, Y: 1})
	for i, p := range rod.Nodes { // 100 mm × 2 mm along (1, 1, 1)
		rod.Nodes[i] = r3.Add(r3.Scale(0.05*p.X, u), r3.Add(r3.Scale(0.001*p.Y, v), r3.Scale(0.001*p.Z, r3.Cross(u, v))))
	}
	for _, c := range []struct {
		name string
		surf *mesh.TriSurface
	}{
		{"sphere", icosphere(4, 0.02, r3.Vec{}, 0)},
		{"rod 50:1 along (1, 1, 1)", rod},
		{"bumpy ellipsoid 6:2:1", long},
		{"plate 40:40:1", boxSurface(t, r3.Vec{X: 0.04, Y: 0.04, Z: 0.001}, 40)},
	} {
		for _, dofs := range []int{300, 1000, 3000, 10000, 30000} {
			m, _, _, err := Build(c.surf, dofs, Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := float64(m.DOFs()) / float64(dofs)
			t.Logf("%s: budget %d, %d DOFs (%.3f)", c.name, dofs, m.DOFs(), r)
			if r < 0.9 || r > 1.1 {
				t.Errorf("%s: budget %d gives %d DOFs, %.2f times it", c.name, dofs, m.DOFs(), r)
			}
		}
	}
}

// TestOptions: the grid bound limits the mesh with a note; the inside
// threshold must lie strictly between 0 and 1, and a higher one keeps
// fewer cells.
func TestOptions(t *testing.T) {
	s := icosphere(3, 0.02, r3.Vec{}, 0)
	m, e, notes, err := Build(s, 30000, Options{MaxCells: 1000})
	if err != nil {
		t.Fatal(err)
	}
	checkBuilt(t, s, m, e)
	if len(notes) != 1 || !strings.Contains(notes[0], "the grid was limited to 1000 cells") {
		t.Errorf("notes %q, want one saying the grid was limited", notes)
	}
	for _, bad := range []float64{-0.5, 1, 2, math.NaN()} {
		if _, _, _, err := Build(s, 3000, Options{Inside: bad}); err == nil || !strings.Contains(err.Error(), "inside threshold") {
			t.Errorf("Inside %v: error %v", bad, err)
		}
	}
	lo, _, _, err := Build(s, 3000, Options{Inside: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	hi, _, _, err := Build(s, 3000, Options{Inside: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	if lo.Volume() < hi.Volume()*(1-1e-9) {
		t.Errorf("Inside 0.1 gives %g m³, 0.9 gives %g: want no less", lo.Volume(), hi.Volume())
	}
}
