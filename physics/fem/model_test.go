package fem

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

func TestMaterialValidate(t *testing.T) {
	good := testMaterial()
	with := func(f func(*settings.Material)) settings.Material { m := good; f(&m); return m }
	tests := []struct {
		name    string
		mat     settings.Material
		wantErr string // substring of the error, "" for valid
	}{
		{"valid", good, ""},
		{"zero damping", with(func(m *settings.Material) { m.MassDamping, m.StiffnessDamping = 0, 0 }), ""},
		{"auxetic", with(func(m *settings.Material) { m.PoissonRatio = -0.9 }), ""},
		{"nearly incompressible", with(func(m *settings.Material) { m.PoissonRatio = 0.499 }), ""},
		{"NaN E", with(func(m *settings.Material) { m.YoungModulus = math.NaN() }), "YoungModulus"},
		{"Inf E", with(func(m *settings.Material) { m.YoungModulus = math.Inf(1) }), "YoungModulus"},
		{"negative E", with(func(m *settings.Material) { m.YoungModulus = -1 }), "YoungModulus"},
		{"zero E", with(func(m *settings.Material) { m.YoungModulus = 0 }), "YoungModulus"},
		{"nu = 0.5", with(func(m *settings.Material) { m.PoissonRatio = 0.5 }), "PoissonRatio"},
		{"nu = -1", with(func(m *settings.Material) { m.PoissonRatio = -1 }), "PoissonRatio"},
		{"NaN nu", with(func(m *settings.Material) { m.PoissonRatio = math.NaN() }), "PoissonRatio"},
		{"zero density", with(func(m *settings.Material) { m.Density = 0 }), "Density"},
		{"negative alpha", with(func(m *settings.Material) { m.MassDamping = -0.1 }), "MassDamping"},
		{"negative beta", with(func(m *settings.Material) { m.StiffnessDamping = -1e-3 }), "StiffnessDamping"},
		{"Inf beta", with(func(m *settings.Material) { m.StiffnessDamping = math.Inf(1) }), "StiffnessDamping"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.mat.Validate()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("no error, want one naming %s", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("error %q does not name %s", err, tc.wantErr)
			}
		})
	}
}

// TestLame checks the Lamé parameters against the textbook identities
// E = μ(3λ+2μ)/(λ+μ) and ν = λ/(2(λ+μ)).
func TestLame(t *testing.T) {
	for _, nu := range []float64{-0.5, 0, 0.3, 0.45, 0.49} {
		m := settings.Material{YoungModulus: 2e6, PoissonRatio: nu, Density: 1}
		l, mu := m.Lame()
		if E := mu * (3*l + 2*mu) / (l + mu); math.Abs(E-2e6) > 1e-6 {
			t.Errorf("ν=%v: recovered E = %v", nu, E)
		}
		if n := l / (2 * (l + mu)); math.Abs(n-nu) > 1e-12 {
			t.Errorf("ν=%v: recovered ν = %v", nu, n)
		}
	}
}

func TestNewModelRejects(t *testing.T) {
	tet := unitTet()
	tests := []struct {
		name    string
		msh     *mesh.TetMesh
		mat     settings.Material
		wantErr string
	}{
		{"nil mesh", nil, testMaterial(), "nil mesh"},
		{"bad material", tet, settings.Material{YoungModulus: 1, PoissonRatio: 0.5, Density: 1}, "PoissonRatio"},
		{"no tets", &mesh.TetMesh{Nodes: tet.Nodes}, testMaterial(), "no tetrahedron"},
		{"no nodes", &mesh.TetMesh{Tets: tet.Tets}, testMaterial(), "no node"},
		{"index out of range", &mesh.TetMesh{Nodes: tet.Nodes, Tets: [][4]int{{0, 1, 2, 4}}}, testMaterial(), "out of range"},
		{"negative index", &mesh.TetMesh{Nodes: tet.Nodes, Tets: [][4]int{{0, 1, -1, 3}}}, testMaterial(), "out of range"},
		{"repeated node", &mesh.TetMesh{Nodes: tet.Nodes, Tets: [][4]int{{0, 1, 1, 3}}}, testMaterial(), "repeated"},
		{"inverted", &mesh.TetMesh{Nodes: tet.Nodes, Tets: [][4]int{{0, 2, 1, 3}}}, testMaterial(), "not positive"},
		{"flat", &mesh.TetMesh{Nodes: []r3.Vec{{}, {X: 1}, {Y: 1}, {X: 1, Y: 1}}, Tets: [][4]int{{0, 1, 2, 3}}}, testMaterial(), "not positive"},
		{"NaN node", &mesh.TetMesh{Nodes: []r3.Vec{{}, {X: 1}, {Y: math.NaN()}, {Z: 1}}, Tets: [][4]int{{0, 1, 2, 3}}}, testMaterial(), "non-finite"},
		{"orphan node", &mesh.TetMesh{Nodes: append(append([]r3.Vec(nil), tet.Nodes...), r3.Vec{X: 5}), Tets: tet.Tets}, testMaterial(), "node 4 belongs to no"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewModel(tc.msh, tc.mat)
			if err == nil {
				t.Fatalf("no error (model %v), want one mentioning %q", m != nil, tc.wantErr)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %q does not mention %q", err, tc.wantErr)
			}
		})
	}
}

// TestMass checks that the lumped masses sum to ρ·V for boxes of known
// volume, that every node of the single tetrahedron gets a quarter, and
// that corner nodes of a grid carry less mass than interior ones.
func TestMass(t *testing.T) {
	tests := []struct {
		name string
		msh  *mesh.TetMesh
		vol  float64
	}{
		{"unit tet", unitTet(), 1.0 / 6},
		{"cube 6 tets", gridBox(1, 1, 1, 1, 1, 1), 1},
		{"box 3x2x4", gridBox(3, 2, 4, 0.3, 0.1, 0.25), 0.3 * 0.1 * 0.25},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mat := testMaterial()
			m := newTestModel(t, tc.msh, mat)
			want := mat.Density * tc.vol
			if got := m.TotalMass(); math.Abs(got-want) > 1e-12*want {
				t.Errorf("TotalMass = %v, want ρV = %v", got, want)
			}
			sum := 0.0
			for _, mi := range m.Mass() {
				sum += mi
			}
			if math.Abs(sum-want) > 1e-12*want {
				t.Errorf("Σ Mass = %v, want %v", sum, want)
			}
			if math.Abs(m.Volume()-tc.vol) > 1e-12*tc.vol {
				t.Errorf("Volume = %v, want %v", m.Volume(), tc.vol)
			}
		})
	}
	m := newTestModel(t, unitTet(), testMaterial())
	for i, mi := range m.Mass() {
		if want := 1000.0 / 6 / 4; math.Abs(mi-want) > 1e-12 {
			t.Errorf("unit tet node %d mass %v, want ρV/4 = %v", i, mi, want)
		}
	}
}

// TestSetMaterial checks that elastic forces scale with E at fixed ν,
// masses with ρ, and that an invalid material is rejected and leaves the
// model unchanged.
func TestSetMaterial(t *testing.T) {
	msh := gridBox(2, 2, 2, 1, 1, 1)
	mat := testMaterial()
	m := newTestModel(t, msh, mat)
	q := affine(msh, rotation(r3.Vec{X: 1, Y: 1}, 0.4), r3.Vec{})
	// A non-affine deformation, so forces are non-zero inside too.
	for i := range q {
		q[i] += 0.01 * math.Sin(float64(7*i))
	}
	f1 := make([]float64, len(q))
	f2 := make([]float64, len(q))
	if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), q, f1); err != nil {
		t.Fatal(err)
	}
	mat2 := mat
	mat2.YoungModulus *= 3.5
	mat2.Density *= 2
	if err := m.SetMaterial(mat2); err != nil {
		t.Fatal(err)
	}
	if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), q, f2); err != nil {
		t.Fatal(err)
	}
	scale := maxAbs(f1)
	if scale == 0 {
		t.Fatal("zero forces: the test deformation is not a deformation")
	}
	for i := range f1 {
		if math.Abs(f2[i]-3.5*f1[i]) > 1e-12*scale*3.5 {
			t.Fatalf("f[%d]: %v after E×3.5, want %v", i, f2[i], 3.5*f1[i])
		}
	}
	if want := 2 * mat.Density; math.Abs(m.TotalMass()-want) > 1e-12*want {
		t.Errorf("TotalMass = %v after ρ×2, want %v", m.TotalMass(), want)
	}
	bad := mat2
	bad.PoissonRatio = 0.5
	if err := m.SetMaterial(bad); err == nil || !strings.Contains(err.Error(), "PoissonRatio") {
		t.Fatalf("SetMaterial(ν=0.5) error = %v, want one naming PoissonRatio", err)
	}
	if m.Material() != mat2 {
		t.Errorf("material changed by a rejected SetMaterial: %+v", m.Material())
	}
}

// TestPattern checks that the pattern has a block for exactly the node
// pairs that share an element: on a 1×1×2 grid, nodes on opposite ends
// of the box share none.
func TestPattern(t *testing.T) {
	msh := gridBox(1, 1, 2, 1, 1, 2)
	m := newTestModel(t, msh, testMaterial())
	A := m.Pattern()
	share := make(map[[2]int]bool)
	for _, tet := range msh.Tets {
		for _, a := range tet {
			for _, b := range tet {
				share[[2]int{a, b}] = true
			}
		}
	}
	n := len(msh.Nodes)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			has := A.Index(3*i, 3*j) >= 0
			if want := i == j || share[[2]int{i, j}]; has != want {
				t.Errorf("block (%d, %d) in pattern: %v, want %v", i, j, has, want)
			}
		}
	}
	if B := m.Pattern(); &B.Val[0] == &A.Val[0] {
		t.Error("Pattern returned shared values; each call must return a new matrix")
	}
}

// TestFilledElementsScaleMassAndStiffness: an element of which the
// fraction f belongs to the solid has f times the mass and f times the
// elastic force of a full one; a fill of the wrong length is refused.
func TestFilledElementsScaleMassAndStiffness(t *testing.T) {
	msh := gridBox(2, 2, 2, 0.02, 0.02, 0.02)
	mat := testMaterial()
	full := newTestModel(t, msh, mat)
	fill := make([]float64, len(msh.Tets))
	for e := range fill {
		fill[e] = 0.25 + 0.75*float64(e%4)/3 // 0.25, 0.5, 0.75, 1
	}
	part, err := NewModelFilled(msh, mat, fill)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for e, tet := range msh.Tets {
		want += fill[e] * msh.TetVolume(tet) * mat.Density
	}
	if got := part.TotalMass(); math.Abs(got-want) > 1e-12*want {
		t.Errorf("TotalMass = %v, want Σ fill·ρ·V = %v", got, want)
	}
	if part.TotalMass() >= full.TotalMass() {
		t.Errorf("filled mass %v is not below the full %v", part.TotalMass(), full.TotalMass())
	}
	// One element alone: its force scales with its fill.
	one := &mesh.TetMesh{Nodes: unitTet().Nodes, Tets: unitTet().Tets}
	a := newTestModel(t, one, mat)
	b, err := NewModelFilled(one, mat, []float64{0.4})
	if err != nil {
		t.Fatal(err)
	}
	q := make([]float64, 12)
	for i, x := range one.Nodes {
		q[3*i], q[3*i+1], q[3*i+2] = 1.1*x.X, x.Y, 0.95*x.Z
	}
	fa, fb := make([]float64, 12), make([]float64, 12)
	for _, c := range []struct {
		m *Model
		f []float64
	}{{a, fa}, {b, fb}} {
		st, w := c.m.NewState(), c.m.NewWorkspace()
		if err := c.m.ElasticForces(st, w, q, c.f); err != nil {
			t.Fatal(err)
		}
	}
	for i := range fa {
		if math.Abs(fb[i]-0.4*fa[i]) > 1e-12*math.Abs(fa[i])+1e-15 {
			t.Errorf("force %d: %v with fill 0.4, want 0.4 × %v", i, fb[i], fa[i])
		}
	}
	if _, err := NewModelFilled(msh, mat, fill[1:]); err == nil {
		t.Error("a fill of the wrong length was accepted")
	}
}
