package fem

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/mesh"
)

// interior reports the nodes of gridBox(n, n, n, …) that are not on the
// boundary.
func interior(n int) []int {
	var ids []int
	for k := 1; k < n; k++ {
		for j := 1; j < n; j++ {
			for i := 1; i < n; i++ {
				ids = append(ids, i+(n+1)*(j+(n+1)*k))
			}
		}
	}
	return ids
}

// TestPatch is the patch test: under an affine field x = F·X + t every
// element has the same strain, so interior nodes are in equilibrium, the
// forces sum to zero, every node reports the von Mises stress of that
// strain, and a rotation F produces no force at all.
func TestPatch(t *testing.T) {
	const n = 3
	msh := gridBox(n, n, n, 0.3, 0.3, 0.3)
	mat := testMaterial()
	m := newTestModel(t, msh, mat)
	rng := rand.New(rand.NewPCG(11, 12))
	Q := rotation(r3.Vec{X: 0.3, Y: -1, Z: 0.5}, 2.1)
	tests := []struct {
		name string
		F    m3.Mat3
	}{
		{"stretch", m3.Mat3{1.1, 0, 0, 0, 0.95, 0, 0, 0, 1.02}},
		{"shear", m3.Mat3{1, 0.2, 0, 0, 1, 0.1, 0, 0, 1}},
		{"rotated stretch", m3.Mul(Q, m3.Mat3{1.2, 0.05, 0, 0.05, 0.9, 0, 0, 0, 1})},
		{"random", m3.Add(m3.Identity(), m3.Mat3(randomVec(rng, 9, 0.15)))},
		{"rotation", Q},
		{"half turn", rotation(r3.Vec{Z: 1}, math.Pi)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := affine(msh, tc.F, r3.Vec{X: 3, Y: -2, Z: 1})
			f := make([]float64, len(q))
			if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), q, f); err != nil {
				t.Fatal(err)
			}
			// Force scale: stress (≤ E·‖F−R‖) times an element face area.
			R, S := m3.Polar(tc.F)
			strain := m3.Sub(S, m3.Identity())
			scale := mat.YoungModulus * math.Max(strain.MaxAbs(), 1e-3) * 0.1 * 0.1
			tol := 1e-10 * scale
			for _, i := range interior(n) {
				if fi := r3.Norm(nodeVec(f, i)); fi > tol {
					t.Errorf("interior node %d: |f| = %g > %g", i, fi, tol)
				}
			}
			var sum r3.Vec
			for i := range msh.Nodes {
				sum = r3.Add(sum, nodeVec(f, i))
			}
			if r3.Norm(sum) > tol {
				t.Errorf("Σ f = %v, want 0", sum)
			}
			isRotation := strain.MaxAbs() < 1e-12
			if isRotation && maxAbs(f) > tol {
				t.Errorf("rotation: max |f| = %g, want 0", maxAbs(f))
			}
			if !isRotation && maxAbs(f) < 1e-3*scale {
				t.Errorf("deformation produces no force (max %g): test is vacuous", maxAbs(f))
			}
			// Constant strain: every node's volume average equals the
			// element value, computed here from the polar part of F.
			want := vonMises(linearStress(m3.TMul(R, tc.F), 1, m.lambda, m.mu))
			vm := make([]float64, len(msh.Nodes))
			if err := m.VonMises(m.NewState(), m.NewWorkspace(), q, vm); err != nil {
				t.Fatal(err)
			}
			for i, v := range vm {
				if math.Abs(v-want) > 1e-9*want+1e-12*mat.YoungModulus { // round-off of F−R is ~1e-15·E
					t.Fatalf("node %d: von Mises %v, want the constant %v", i, v, want)
				}
			}
		})
	}
}

// TestStiffnessFiniteDifference compares StiffnessMul with central
// differences of ElasticForces. At rigidly rotated configurations the
// corotational tangent is exact; elsewhere it misses the ∂R/∂x term,
// which is proportional to the stress, so the mismatch must scale
// linearly with the deformation amplitude.
func TestStiffnessFiniteDifference(t *testing.T) {
	msh := gridBox(2, 2, 2, 0.2, 0.2, 0.2)
	m := newTestModel(t, msh, testMaterial())
	rng := rand.New(rand.NewPCG(21, 22))
	Q := rotation(r3.Vec{X: 1, Y: 2, Z: -0.5}, 0.8)
	pattern := randomVec(rng, 3*len(msh.Nodes), 1) // deformation shape
	// mismatch returns ‖K·dx − FD‖ / ‖K·dx‖ at x = Q·(X + amp·pattern).
	mismatch := func(amp float64) float64 {
		q := affine(msh, Q, r3.Vec{X: 1})
		d := make([]float64, len(q))
		for i := range d {
			d[i] = amp * pattern[i]
		}
		rotateField(Q, d)
		for i := range q {
			q[i] += d[i]
		}
		dx := randomVec(rand.New(rand.NewPCG(23, 24)), len(q), 1)
		Kdx := make([]float64, len(q))
		if err := m.StiffnessMul(m.NewState(), m.NewWorkspace(), q, dx, Kdx); err != nil {
			t.Fatal(err)
		}
		fd := centralDifference(t, m, q, dx, 1e-7)
		return relDiff(Kdx, fd)
	}
	if e := mismatch(0); e > 1e-7 {
		t.Errorf("rigidly rotated: relative mismatch %g > 1e-7", e)
	}
	e1, e2 := mismatch(0.004), mismatch(0.002)
	if e1 < 1e-5 {
		t.Fatalf("deformed: mismatch %g is at round-off level; the ∂R term should show", e1)
	}
	if ratio := e1 / e2; ratio < 1.7 || ratio > 2.3 {
		t.Errorf("mismatch %g at amplitude 0.004 and %g at 0.002: ratio %v, want ≈ 2 (linear in the deformation)", e1, e2, ratio)
	}
}

// rotateField replaces every node vector of d by Q·d_i.
func rotateField(Q m3.Mat3, d []float64) {
	for i := 0; i < len(d); i += 3 {
		v := Q.MulVec(r3.Vec{X: d[i], Y: d[i+1], Z: d[i+2]})
		d[i], d[i+1], d[i+2] = v.X, v.Y, v.Z
	}
}

// centralDifference returns (f_el(q + ε·dx) − f_el(q − ε·dx)) / (2ε).
func centralDifference(t *testing.T, m *Model, q, dx []float64, eps float64) []float64 {
	t.Helper()
	qp, qm := make([]float64, len(q)), make([]float64, len(q))
	for i := range q {
		qp[i], qm[i] = q[i]+eps*dx[i], q[i]-eps*dx[i]
	}
	fp, fm := make([]float64, len(q)), make([]float64, len(q))
	if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), qp, fp); err != nil {
		t.Fatal(err)
	}
	if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), qm, fm); err != nil {
		t.Fatal(err)
	}
	for i := range fp {
		fp[i] = (fp[i] - fm[i]) / (2 * eps)
	}
	return fp
}

// relDiff returns ‖a − b‖₂ / ‖a‖₂.
func relDiff(a, b []float64) float64 {
	var d, n float64
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
		n += a[i] * a[i]
	}
	return math.Sqrt(d / n)
}

// TestUniaxial stretches a prism along x by prescribing u_x on its end
// faces, leaves the lateral faces free, and solves K·u = 0 for the other
// displacements. Linear tetrahedra reproduce the exact uniaxial-stress
// field, so the reaction is E·A·ε, the lateral contraction ν·ε and the
// von Mises stress E·ε everywhere.
func TestUniaxial(t *testing.T) {
	for _, nu := range []float64{0, 0.3, 0.45} {
		t.Run("nu="+formatNu(nu), func(t *testing.T) {
			const lx, ly, lz, eps = 0.4, 0.1, 0.15, 1e-3
			msh := gridBox(4, 2, 2, lx, ly, lz)
			mat := testMaterial()
			mat.PoissonRatio = nu
			m := newTestModel(t, msh, mat)
			u := solveUniaxial(t, m, msh, lx, eps)
			q := restPositions(msh)
			for i := range q {
				q[i] += u[i]
			}
			f := make([]float64, len(q))
			if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), q, f); err != nil {
				t.Fatal(err)
			}
			reaction := 0.0
			for i, p := range msh.Nodes {
				if p.X == lx {
					reaction += f[3*i]
				}
				wantY, wantZ := -nu*eps*p.Y, -nu*eps*p.Z
				if math.Abs(u[3*i+1]-wantY) > 1e-9*eps*ly || math.Abs(u[3*i+2]-wantZ) > 1e-9*eps*lz {
					t.Fatalf("node %d at %v: lateral displacement (%g, %g), want (−νεy, −νεz) = (%g, %g)",
						i, p, u[3*i+1], u[3*i+2], wantY, wantZ)
				}
			}
			want := mat.YoungModulus * ly * lz * eps
			if math.Abs(reaction-want) > 1e-9*want {
				t.Errorf("reaction %v N, want E·A·ε = %v N", reaction, want)
			}
			vm := make([]float64, len(msh.Nodes))
			if err := m.VonMises(m.NewState(), m.NewWorkspace(), q, vm); err != nil {
				t.Fatal(err)
			}
			for i, v := range vm {
				if math.Abs(v-mat.YoungModulus*eps) > 1e-8*mat.YoungModulus*eps {
					t.Fatalf("node %d: von Mises %v, want E·ε = %v", i, v, mat.YoungModulus*eps)
				}
			}
		})
	}
}

func formatNu(nu float64) string {
	return map[float64]string{0: "0", 0.3: "0.3", 0.45: "0.45"}[nu]
}

// solveUniaxial returns the displacement u with u_x = 0 on x = 0,
// u_x = ε·lx on x = lx, u_y = u_z = 0 at the origin and u_z = 0 at the
// node (0, ly, 0) (removing the rigid modes the end faces leave free),
// and zero force at every other degree of freedom. K is built column by
// column from StiffnessMul at rest and the free block solved by a dense
// Cholesky factorisation.
func solveUniaxial(t *testing.T, m *Model, msh *mesh.TetMesh, lx, eps float64) []float64 {
	t.Helper()
	nd := 3 * len(msh.Nodes)
	u := make([]float64, nd)
	fixed := make([]bool, nd)
	for i, p := range msh.Nodes {
		switch {
		case p.X == 0:
			fixed[3*i] = true
		case p.X == lx:
			fixed[3*i], u[3*i] = true, eps*lx
		}
		if p == (r3.Vec{}) {
			fixed[3*i+1], fixed[3*i+2] = true, true
		}
		if p.X == 0 && p.Z == 0 && p.Y > 0 && p.Y == maxY(msh) {
			fixed[3*i+2] = true
		}
	}
	K := denseStiffness(t, m, restPositions(msh))
	var free []int
	for i, f := range fixed {
		if !f {
			free = append(free, i)
		}
	}
	Kff := mat.NewSymDense(len(free), nil)
	rhs := mat.NewVecDense(len(free), nil)
	for a, i := range free {
		for b, j := range free {
			Kff.SetSym(a, b, K.At(i, j))
		}
		s := 0.0
		for j := range u {
			s -= K.At(i, j) * u[j]
		}
		rhs.SetVec(a, s)
	}
	var chol mat.Cholesky
	if !chol.Factorize(Kff) {
		t.Fatal("free stiffness block is not positive definite: rigid modes left")
	}
	var x mat.VecDense
	if err := chol.SolveVecTo(&x, rhs); err != nil {
		t.Fatal(err)
	}
	for a, i := range free {
		u[i] = x.AtVec(a)
	}
	return u
}

func maxY(msh *mesh.TetMesh) float64 {
	y := 0.0
	for _, p := range msh.Nodes {
		y = math.Max(y, p.Y)
	}
	return y
}

// denseStiffness returns K(q) as a dense matrix, one StiffnessMul per
// column.
func denseStiffness(t *testing.T, m *Model, q []float64) *mat.Dense {
	t.Helper()
	n := len(q)
	K := mat.NewDense(n, n, nil)
	e, col := make([]float64, n), make([]float64, n)
	for j := 0; j < n; j++ {
		e[j] = 1
		if err := m.StiffnessMul(m.NewState(), m.NewWorkspace(), q, e, col); err != nil {
			t.Fatal(err)
		}
		K.SetCol(j, col)
		e[j] = 0
	}
	return K
}

// TestInvertedElement pushes one node of a tetrahedron through the
// opposite face: the element is counted as inverted with det F equal to
// the signed volume ratio, the forces are finite, and moving the node
// along the restoring force −f_el un-inverts it.
func TestInvertedElement(t *testing.T) {
	msh := unitTet()
	m := newTestModel(t, msh, testMaterial())
	tests := []struct {
		name    string
		x3      r3.Vec
		wantDet float64 // det F = signed volume / rest volume = x3.Z here
	}{
		{"slightly through", r3.Vec{X: 0.2, Y: 0.2, Z: -0.05}, -0.05},
		{"far through", r3.Vec{X: 0.3, Y: 0.1, Z: -0.8}, -0.8},
		{"flat", r3.Vec{X: 0.25, Y: 0.25}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := restPositions(msh)
			q[9], q[10], q[11] = tc.x3.X, tc.x3.Y, tc.x3.Z
			A := m.Pattern()
			b := make([]float64, len(q))
			rep := m.Assemble(m.NewState(), m.NewWorkspace(), q, make([]float64, len(q)), 0.01, r3.Vec{}, A, b)
			if rep.Err != nil {
				t.Fatal(rep.Err)
			}
			if rep.Inverted != 1 || math.Abs(rep.MinDetF-tc.wantDet) > 1e-12 {
				t.Fatalf("report %+v, want 1 inverted with det F = %v", rep, tc.wantDet)
			}
			f := make([]float64, len(q))
			if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), q, f); err != nil {
				t.Fatal(err)
			}
			for i, x := range append(f, b...) {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("non-finite force or rhs entry %d: %v", i, x)
				}
			}
			restoring := r3.Scale(-1, nodeVec(f, 3))
			if restoring.Z <= 0 {
				t.Fatalf("restoring force on the pushed node %v does not point back to z > 0", restoring)
			}
			step := 0.05 / r3.Norm(restoring)
			q[9] += step * restoring.X
			q[10] += step * restoring.Y
			q[11] += step * restoring.Z
			if q[11] <= tc.x3.Z {
				t.Fatalf("moving along the restoring force did not raise the node")
			}
		})
	}
}

// TestForcesSplit checks the whole internal force against its parts:
// F(q, v) = f_el(q) + β·K(q)·v + α·M·v, with f_el from ElasticForces and
// K(q)·v from StiffnessMul at the same q, for a rotated and strained
// configuration and a random velocity; at v = 0 it is f_el itself. It
// also checks that the rotation warm starts are left as they were.
func TestForcesSplit(t *testing.T) {
	const n = 3
	msh := gridBox(n, n, n, 0.3, 0.3, 0.3)
	mat := testMaterial()
	m := newTestModel(t, msh, mat)
	rng := rand.New(rand.NewPCG(21, 22))
	Q := rotation(r3.Vec{X: 1, Y: 0.4, Z: -0.2}, 0.7)
	q := affine(msh, m3.Mul(Q, m3.Mat3{1.05, 0.02, 0, 0, 0.97, 0.03, 0, 0, 1.01}), r3.Vec{X: 0.1})
	for i, x := range randomVec(rng, len(q), 0.004) {
		q[i] += x
	}
	v := randomVec(rng, len(q), 0.5)
	st, w := m.NewState(), m.NewWorkspace()
	fel, kv, f, f0 := make([]float64, len(q)), make([]float64, len(q)), make([]float64, len(q)), make([]float64, len(q))
	if err := m.ElasticForces(st, w, q, fel); err != nil {
		t.Fatal(err)
	}
	if err := m.StiffnessMul(st, w, q, v, kv); err != nil {
		t.Fatal(err)
	}
	if err := m.Forces(st, w, q, v, f); err != nil {
		t.Fatal(err)
	}
	if err := m.Forces(st, w, q, make([]float64, len(q)), f0); err != nil {
		t.Fatal(err)
	}
	scale := 0.0
	for i := range f {
		scale = math.Max(scale, math.Abs(fel[i])+math.Abs(mat.StiffnessDamping*kv[i]))
	}
	mass := m.Mass()
	for i := range f {
		want := fel[i] + mat.StiffnessDamping*kv[i] + mat.MassDamping*mass[i/3]*v[i]
		if d := math.Abs(f[i] - want); d > 1e-12*scale {
			t.Fatalf("F[%d] = %.15g, want f_el + β·K·v + α·M·v = %.15g", i, f[i], want)
		}
		if d := math.Abs(f0[i] - fel[i]); d > 1e-12*scale {
			t.Fatalf("F(q, 0)[%d] = %.15g, want f_el = %.15g", i, f0[i], fel[i])
		}
	}
	for k, R := range st.Rotations() {
		if R != m3.Identity() {
			t.Fatalf("element %d: the state's rotation changed to %v", k, R)
		}
	}
}

// TestForcesOverStep checks the stiffness damping on the stretch rate
// (ForcesOverStep): over a step in which a strained body moves rigidly,
// turning by 0.5 rad, it damps nothing, F = f_el(q) + α·M·v, where
// Forces' β·K(q)·v reads the chord as a stretch rate; for a small step
// from the rest shape it agrees with Forces to first order in h.
func TestForcesOverStep(t *testing.T) {
	const n = 3
	msh := gridBox(n, n, n, 0.3, 0.3, 0.3)
	mat := testMaterial()
	m := newTestModel(t, msh, mat)
	rng := rand.New(rand.NewPCG(23, 24))
	qt := affine(msh, m3.Mat3{1.05, 0.02, 0, 0, 0.97, 0.03, 0, 0, 1.01}, r3.Vec{})
	for i, x := range randomVec(rng, len(qt), 0.004) {
		qt[i] += x
	}
	mass := m.Mass()
	st, w := m.NewState(), m.NewWorkspace()
	N := len(qt)
	fel, f, fv := make([]float64, N), make([]float64, N), make([]float64, N)
	norm := func(x []float64) float64 {
		s := 0.0
		for _, a := range x {
			s = math.Max(s, math.Abs(a))
		}
		return s
	}

	// A rigid turn of the strained body by 0.5 rad and a shift, in h.
	const h = 0.02
	Q := rotation(r3.Vec{X: 0.2, Y: 0.1, Z: 1}, 0.5)
	q, v := make([]float64, N), make([]float64, N)
	for i := 0; i < N; i += 3 {
		x := Q.MulVec(r3.Vec{X: qt[i], Y: qt[i+1], Z: qt[i+2]})
		q[i], q[i+1], q[i+2] = x.X+0.01, x.Y-0.02, x.Z+0.005
		for d := 0; d < 3; d++ {
			v[i+d] = (q[i+d] - qt[i+d]) / h
		}
	}
	if err := m.ElasticForces(st, w, q, fel); err != nil {
		t.Fatal(err)
	}
	if err := m.ForcesOverStep(st, w, q, v, h, f); err != nil {
		t.Fatal(err)
	}
	if err := m.Forces(st, w, q, v, fv); err != nil {
		t.Fatal(err)
	}
	scale := norm(fel)
	for i := range f {
		want := fel[i] + mat.MassDamping*mass[i/3]*v[i]
		if d := math.Abs(f[i] - want); d > 1e-9*scale {
			t.Fatalf("rigid turn: F[%d] = %.15g, want f_el + α·M·v = %.15g (|Δ| %.3g, scale %.3g)", i, f[i], want, d, scale)
		}
		fv[i] -= want
	}
	if d := norm(fv); d < 0.1*scale {
		t.Fatalf("rigid turn: Forces' β·K·v is only %.3g against f_el's %.3g: the test no longer tells the two apart", d, scale)
	}

	// With the rotations at q_t that the step's assembly leaves in the
	// state, the stretch at q_t is taken from them instead of a second
	// polar decomposition: the same forces to round-off.
	fresh := make([]float64, N)
	if err := m.ForcesOverStep(m.NewState(), w, q, v, h, fresh); err != nil {
		t.Fatal(err)
	}
	assembled := m.NewState()
	m.Assemble(assembled, w, qt, v, h, r3.Vec{}, m.Pattern(), make([]float64, N))
	if err := m.ForcesOverStep(assembled, w, q, v, h, f); err != nil {
		t.Fatal(err)
	}
	for i := range f {
		if d := math.Abs(f[i] - fresh[i]); d > 1e-12*scale {
			t.Fatalf("F[%d] = %.15g with the assembly's rotations at q_t, %.15g without (|Δ| %.3g)", i, f[i], fresh[i], d)
		}
	}

	// A small step of a generic velocity from the rest shape: the two
	// forms part by O(h). (From a strained shape they part by O(strain
	// times the turn rate) too: β·K(q)·v damps the turn of a strained
	// body, which the stretch rate does not.)
	rest := affine(msh, m3.Identity(), r3.Vec{})
	u := randomVec(rng, N, 0.5)
	gap := func(h float64) float64 {
		for i := range q {
			q[i] = rest[i] + h*u[i]
		}
		if err := m.ForcesOverStep(st, w, q, u, h, f); err != nil {
			t.Fatal(err)
		}
		if err := m.Forces(st, w, q, u, fv); err != nil {
			t.Fatal(err)
		}
		for i := range f {
			fv[i] -= f[i]
		}
		return norm(fv)
	}
	g1, g2 := gap(1e-4), gap(5e-5)
	if r := g1 / g2; r < 1.8 || r > 2.2 {
		t.Fatalf("the forms part by %.3g at h = 1e-4 and %.3g at 5e-5: ratio %.3f, want about 2 (first order)", g1, g2, r)
	}
	if err := m.ForcesOverStep(st, w, q, u, 0, f); err == nil {
		t.Fatalf("h = 0 accepted")
	}
}
