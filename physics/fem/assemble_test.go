package fem

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
)

// denseReference assembles A and b the textbook way, independently of
// the Model's kernels: shape-function gradients from the inverse of the
// 4×4 barycentric matrix, K_e = V·Bᵀ·D·B in Voigt notation, the 12×12
// rotation blockdiag(R, R, R, R), and the elastic force from absolute
// rest positions f_e = R̂·K_e·(R̂ᵀ·x_e − X_e).
func denseReference(t *testing.T, msh *mesh.TetMesh, mt settings.Material, q, v []float64, h float64, g r3.Vec) (*mat.SymDense, []float64) {
	t.Helper()
	n := 3 * len(msh.Nodes)
	K := mat.NewDense(n, n, nil)
	fel := make([]float64, n)
	mass := make([]float64, len(msh.Nodes))
	for _, tet := range msh.Tets {
		KR, fe, vol := referenceElement(t, msh, tet, mt, q)
		for k, i := range tet {
			mass[i] += mt.Density * vol / 4
			for a := 0; a < 3; a++ {
				fel[3*i+a] += fe.AtVec(3*k + a)
				for l, j := range tet {
					for b := 0; b < 3; b++ {
						K.Set(3*i+a, 3*j+b, K.At(3*i+a, 3*j+b)+KR.At(3*k+a, 3*l+b))
					}
				}
			}
		}
	}
	// A = M + h·B + h²·K and b = h·(M·g − f_el − B·v) − h²·K·v with
	// B = α·M + β·K, term by term as in the paper.
	alpha, beta := mt.MassDamping, mt.StiffnessDamping
	A := mat.NewSymDense(n, nil)
	var Kv mat.VecDense
	Kv.MulVec(K, mat.NewVecDense(n, append([]float64(nil), v...)))
	b := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			A.SetSym(i, j, (h*beta+h*h)*K.At(i, j))
		}
		mi := mass[i/3]
		A.SetSym(i, i, A.At(i, i)+(1+h*alpha)*mi)
		Bv := alpha*mi*v[i] + beta*Kv.AtVec(i)
		b[i] = h*(mi*coord(g, i%3)-fel[i]-Bv) - h*h*Kv.AtVec(i)
	}
	return A, b
}

// referenceElement returns the rotated stiffness R̂·K_e·R̂ᵀ, the elastic
// force and the rest volume of one tetrahedron at positions q.
func referenceElement(t *testing.T, msh *mesh.TetMesh, tet [4]int, mt settings.Material, q []float64) (*mat.Dense, *mat.VecDense, float64) {
	t.Helper()
	C := mat.NewDense(4, 4, nil)
	for r, i := range tet {
		p := msh.Nodes[i]
		C.SetRow(r, []float64{1, p.X, p.Y, p.Z})
	}
	vol := mat.Det(C) / 6
	var Ci mat.Dense
	if err := Ci.Inverse(C); err != nil {
		t.Fatal(err)
	}
	// N_i(X) = Ci[0,i] + Ci[1:4,i]·X: column i of Ci holds ∇N_i.
	B := mat.NewDense(6, 12, nil)
	for i := 0; i < 4; i++ {
		bx, by, bz := Ci.At(1, i), Ci.At(2, i), Ci.At(3, i)
		c := 3 * i
		B.Set(0, c, bx)
		B.Set(1, c+1, by)
		B.Set(2, c+2, bz)
		B.Set(3, c, by) // γxy
		B.Set(3, c+1, bx)
		B.Set(4, c+1, bz) // γyz
		B.Set(4, c+2, by)
		B.Set(5, c, bz) // γxz
		B.Set(5, c+2, bx)
	}
	var DB, Ke mat.Dense
	DB.Mul(voigtElasticity(mt), B)
	Ke.Mul(B.T(), &DB)
	Ke.Scale(vol, &Ke)

	Rh := referenceRotation(msh, tet, q)
	var RK, KR mat.Dense
	RK.Mul(Rh, &Ke)
	KR.Mul(&RK, Rh.T())
	xe, Xe := mat.NewVecDense(12, nil), mat.NewVecDense(12, nil)
	for k, i := range tet {
		for a := 0; a < 3; a++ {
			xe.SetVec(3*k+a, q[3*i+a])
			Xe.SetVec(3*k+a, coord(msh.Nodes[i], a))
		}
	}
	var d, fe mat.VecDense
	d.MulVec(Rh.T(), xe)
	d.SubVec(&d, Xe)
	fe.MulVec(&RK, &d)
	return &KR, &fe, vol
}

// voigtElasticity returns the 6×6 isotropic elasticity matrix D for
// engineering strains (εxx, εyy, εzz, γxy, γyz, γxz).
func voigtElasticity(mt settings.Material) *mat.Dense {
	lambda, mu := mt.Lame()
	D := mat.NewDense(6, 6, nil)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			D.Set(i, j, lambda)
		}
		D.Set(i, i, lambda+2*mu)
		D.Set(3+i, 3+i, mu)
	}
	return D
}

// referenceRotation returns blockdiag(R, R, R, R) with R the polar
// rotation of F = D_s·D_m⁻¹ built from the element's edge matrices.
func referenceRotation(msh *mesh.TetMesh, tet [4]int, q []float64) *mat.Dense {
	var Dm, Ds m3.Mat3
	for j := 1; j < 4; j++ {
		for a := 0; a < 3; a++ {
			Dm[3*a+j-1] = coord(msh.Nodes[tet[j]], a) - coord(msh.Nodes[tet[0]], a)
			Ds[3*a+j-1] = q[3*tet[j]+a] - q[3*tet[0]+a]
		}
	}
	DmInv, _ := Dm.Inverse()
	R, _ := m3.Polar(m3.Mul(Ds, DmInv))
	Rh := mat.NewDense(12, 12, nil)
	for blk := 0; blk < 4; blk++ {
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				Rh.Set(3*blk+a, 3*blk+b, R[3*a+b])
			}
		}
	}
	return Rh
}

func coord(p r3.Vec, a int) float64 { return [3]float64{p.X, p.Y, p.Z}[a] }

// expand returns the full symmetric matrix stored in the lower triangle
// of A.
func expand(A *sparse.SymCSC) *mat.SymDense {
	S := mat.NewSymDense(A.N, nil)
	for j := 0; j < A.N; j++ {
		for k := A.ColPtr[j]; k < A.ColPtr[j+1]; k++ {
			S.SetSym(A.RowIdx[k], j, A.Val[k])
		}
	}
	return S
}

// deformedState returns a rotated, non-affinely deformed configuration of
// msh and random velocities.
func deformedState(msh *mesh.TetMesh, rng *rand.Rand, amp float64) (q, v []float64) {
	q = affine(msh, rotation(r3.Vec{X: 1, Y: -1, Z: 2}, 0.7), r3.Vec{X: 0.5, Y: 0.1})
	for i, d := range randomVec(rng, len(q), amp) {
		q[i] += d
	}
	return q, randomVec(rng, len(q), 0.3)
}

// TestAssembleAgainstDense compares A and b with the independent dense
// assembly, checks that A is positive definite, and that the stored
// lower triangle is exactly the pattern's.
func TestAssembleAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	tests := []struct {
		name string
		msh  *mesh.TetMesh
		amp  float64
	}{
		{"single tet deformed", unitTet(), 0.1},
		{"cube 6 tets", gridBox(1, 1, 1, 0.1, 0.1, 0.1), 0.01},
		{"grid 2x2x3", gridBox(2, 2, 3, 0.1, 0.12, 0.2), 0.01},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mt := testMaterial()
			m := newTestModel(t, tc.msh, mt)
			q, v := deformedState(tc.msh, rng, tc.amp)
			h, g := 0.01, r3.Vec{X: 1, Z: -9.81}
			A := m.Pattern()
			b := make([]float64, len(q))
			if rep := m.Assemble(m.NewState(), m.NewWorkspace(), q, v, h, g, A, b); rep.Err != nil || rep.Inverted != 0 {
				t.Fatalf("report %+v", rep)
			}
			Aref, bref := denseReference(t, tc.msh, mt, q, v, h, g)
			Agot := expand(A)
			scale := mat.Norm(Aref, math.Inf(1))
			var diff mat.Dense
			diff.Sub(Agot, Aref)
			if d := mat.Norm(&diff, math.Inf(1)); d > 1e-12*scale {
				t.Errorf("‖A − A_ref‖∞ = %g (‖A_ref‖∞ = %g)", d, scale)
			}
			bs := maxAbs(bref)
			for i := range b {
				if math.Abs(b[i]-bref[i]) > 1e-10*bs {
					t.Fatalf("b[%d] = %v, want %v", i, b[i], bref[i])
				}
			}
			var chol mat.Cholesky
			if !chol.Factorize(Agot) {
				t.Error("A is not positive definite")
			}
		})
	}
}

// TestAssembleGravityAtRest checks b = h·M·g at rest with zero velocity:
// there is no elastic force and no damping force.
func TestAssembleGravityAtRest(t *testing.T) {
	msh := gridBox(2, 2, 2, 0.1, 0.1, 0.1)
	m := newTestModel(t, msh, testMaterial())
	q := restPositions(msh)
	A := m.Pattern()
	b := make([]float64, len(q))
	const h = 0.005
	g := r3.Vec{X: 0.5, Y: -1, Z: -9.81}
	rep := m.Assemble(m.NewState(), m.NewWorkspace(), q, make([]float64, len(q)), h, g, A, b)
	if rep.Err != nil || rep.Inverted != 0 || math.Abs(rep.MinDetF-1) > 1e-12 {
		t.Fatalf("report %+v, want no error, no inversion, det F = 1", rep)
	}
	scale := h * maxAbs(m.Mass()) * r3.Norm(g)
	for i, mi := range m.Mass() {
		want := r3.Scale(h*mi, g)
		if d := r3.Norm(r3.Sub(nodeVec(b, i), want)); d > 1e-9*scale {
			t.Fatalf("node %d: b = %v, want h·m·g = %v", i, nodeVec(b, i), want)
		}
	}
}

// TestAssembleDeterministic checks that the parallel element pass and
// scatter give bit-identical results to the serial ones, in Assemble and
// in ElasticForces.
func TestAssembleDeterministic(t *testing.T) {
	msh := gridBox(8, 8, 8, 0.1, 0.1, 0.1) // 3072 elements: above the parallel threshold
	if 6*8*8*8 < minParallelElements {
		t.Fatal("mesh too small to exercise the parallel pass")
	}
	rng := rand.New(rand.NewPCG(41, 42))
	q, v := deformedState(msh, rng, 0.002)
	var As []*sparse.SymCSC
	var bs, fs [][]float64
	// One goroutine, the pool of 3, and the pool of 3 set serial.
	for _, cfg := range []struct {
		procs  int
		serial bool
	}{{1, false}, {3, false}, {3, true}} {
		m := newTestModel(t, msh, testMaterial())
		m.pool = newWorkerPool(m, cfg.procs)
		m.SetSerial(cfg.serial)
		A, b := m.Pattern(), make([]float64, len(q))
		if rep := m.Assemble(m.NewState(), m.NewWorkspace(), q, v, 0.01, r3.Vec{Z: -9.81}, A, b); rep.Err != nil {
			t.Fatal(rep.Err)
		}
		f := make([]float64, len(q))
		if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), q, f); err != nil {
			t.Fatal(err)
		}
		As, bs, fs = append(As, A), append(bs, b), append(fs, f)
	}
	for r := 1; r < len(As); r++ {
		for k := range As[0].Val {
			if As[0].Val[k] != As[r].Val[k] {
				t.Fatalf("run %d: A.Val[%d]: serial %v, got %v", r, k, As[0].Val[k], As[r].Val[k])
			}
		}
		for i := range bs[0] {
			if bs[0][i] != bs[r][i] {
				t.Fatalf("run %d: b[%d]: serial %v, got %v", r, i, bs[0][i], bs[r][i])
			}
			if fs[0][i] != fs[r][i] {
				t.Fatalf("run %d: f_el[%d]: serial %v, got %v", r, i, fs[0][i], fs[r][i])
			}
		}
	}
}

// TestNoAllocations checks the per-step kernels once warm, on a mesh
// small enough for the serial path and one large enough for the pool.
func TestNoAllocations(t *testing.T) {
	for _, n := range []int{2, 8} {
		msh := gridBox(n, n, n, 0.1, 0.1, 0.1)
		m := newTestModel(t, msh, testMaterial())
		q, v := deformedState(msh, rand.New(rand.NewPCG(51, 52)), 0.001)
		A, b, f := m.Pattern(), make([]float64, len(q)), make([]float64, len(q))
		vm := make([]float64, len(msh.Nodes))
		st, w := m.NewState(), m.NewWorkspace()
		kernels := map[string]func(){
			"Assemble":      func() { m.Assemble(st, w, q, v, 0.01, r3.Vec{Z: -9.81}, A, b) },
			"ElasticForces": func() { _ = m.ElasticForces(st, w, q, f) },
			"StiffnessMul":  func() { _ = m.StiffnessMul(st, w, q, v, f) },
			"VonMises":      func() { _ = m.VonMises(st, w, q, vm) },
		}
		for name, k := range kernels {
			if allocs := testing.AllocsPerRun(5, k); allocs != 0 {
				t.Errorf("%s on %d elements: %v allocations per call", name, len(msh.Tets), allocs)
			}
		}
	}
}

// assembleArgs holds the arguments of one Assemble call.
type assembleArgs struct {
	q, v, b []float64
	h       float64
	g       r3.Vec
	A       *sparse.SymCSC
}

func TestAssembleRejects(t *testing.T) {
	msh := gridBox(1, 1, 1, 1, 1, 1)
	m := newTestModel(t, msh, testMaterial())
	n := 3 * len(msh.Nodes)
	other := newTestModel(t, gridBox(1, 1, 2, 1, 1, 1), testMaterial()).Pattern()
	tests := []struct {
		name    string
		mutate  func(a *assembleArgs)
		wantErr string
	}{
		{"short q", func(a *assembleArgs) { a.q = a.q[:n-1] }, "q has length"},
		{"nil v", func(a *assembleArgs) { a.v = nil }, "v has length"},
		{"long b", func(a *assembleArgs) { a.b = make([]float64, n+3) }, "b has length"},
		{"zero h", func(a *assembleArgs) { a.h = 0 }, "time step"},
		{"NaN h", func(a *assembleArgs) { a.h = math.NaN() }, "time step"},
		{"Inf h", func(a *assembleArgs) { a.h = math.Inf(1) }, "time step"},
		{"NaN gravity", func(a *assembleArgs) { a.g.Y = math.NaN() }, "gravity"},
		{"nil A", func(a *assembleArgs) { a.A = nil }, "pattern"},
		{"foreign A", func(a *assembleArgs) { a.A = other }, "pattern"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := assembleArgs{q: restPositions(msh), v: make([]float64, n), b: make([]float64, n), h: 0.01, A: m.Pattern()}
			tc.mutate(&a)
			for i := range a.b {
				a.b[i] = 7
			}
			rep := m.Assemble(m.NewState(), m.NewWorkspace(), a.q, a.v, a.h, a.g, a.A, a.b)
			if rep.Err == nil || !strings.Contains(rep.Err.Error(), tc.wantErr) {
				t.Fatalf("Err = %v, want one mentioning %q", rep.Err, tc.wantErr)
			}
			for i, x := range a.b {
				if x != 7 {
					t.Fatalf("b[%d] written (%v) by a rejected call", i, x)
				}
			}
		})
	}
	if err := m.ElasticForces(m.NewState(), m.NewWorkspace(), make([]float64, n), make([]float64, n-1)); err == nil || !strings.Contains(err.Error(), "f has length") {
		t.Errorf("ElasticForces with a short f: err = %v", err)
	}
	if err := m.VonMises(m.NewState(), m.NewWorkspace(), make([]float64, n), make([]float64, n)); err == nil || !strings.Contains(err.Error(), "perNode") {
		t.Errorf("VonMises with a 3N-long perNode: err = %v", err)
	}
}

// TestWorkersEndWithModel checks that the worker goroutines of a Model
// return once the Model is unreachable, so that rebuilding models (a new
// mesh resolution from the UI) does not leak goroutines.
func TestWorkersEndWithModel(t *testing.T) {
	before := settledGoroutines()
	func() {
		m := newTestModel(t, gridBox(1, 1, 1, 1, 1, 1), testMaterial())
		m.pool = newWorkerPool(m, 4)
		if runtime.NumGoroutine() < before+3 {
			t.Fatalf("%d goroutines after starting 3 workers, had %d", runtime.NumGoroutine(), before)
		}
	}()
	for try := 0; try < 200; try++ {
		runtime.GC()
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("%d goroutines remain after the model was dropped, had %d before", runtime.NumGoroutine(), before)
}

// settledGoroutines returns the goroutine count once the pools of models
// dropped by earlier tests have ended (collections until two readings 5 ms
// apart agree, at most 1 s), so that their workers, still ending, are not
// counted as this test's.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for try := 0; try < 200; try++ {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			return m
		}
		n = m
	}
	return n
}

// TestStateOnlyAssemblyAdvances checks that Assemble replaces the element
// rotations of its state with those at q, and that the other kernels read
// the state and leave it as it is.
func TestStateOnlyAssemblyAdvances(t *testing.T) {
	msh := gridBox(2, 2, 2, 0.1, 0.1, 0.1)
	m := newTestModel(t, msh, testMaterial())
	q := affine(msh, rotation(r3.Vec{Z: 1}, 0.3), r3.Vec{})
	v := make([]float64, len(q))
	st, w := m.NewState(), m.NewWorkspace()
	f, vm := make([]float64, len(q)), make([]float64, len(msh.Nodes))
	_ = m.ElasticForces(st, w, q, f)
	_ = m.StiffnessMul(st, w, q, v, f)
	_ = m.VonMises(st, w, q, vm)
	for k, R := range st.Rotations() {
		if R != m3.Identity() {
			t.Fatalf("element %d: a kernel other than Assemble changed the state's rotation to %v", k, R)
		}
	}
	A, b := m.Pattern(), make([]float64, len(q))
	if rep := m.Assemble(st, w, q, v, 0.01, r3.Vec{}, A, b); rep.Err != nil {
		t.Fatal(rep.Err)
	}
	want := rotation(r3.Vec{Z: 1}, 0.3)
	for k, R := range st.Rotations() {
		for i := range R {
			if math.Abs(R[i]-want[i]) > 1e-12 {
				t.Fatalf("element %d: rotation after Assemble %v, want %v", k, R, want)
			}
		}
	}
	other := newTestModel(t, gridBox(1, 1, 1, 0.1, 0.1, 0.1), testMaterial())
	if err := m.VonMises(other.NewState(), w, q, vm); err == nil || !strings.Contains(err.Error(), "state") {
		t.Fatalf("VonMises took the state of another model: %v", err)
	}
	if err := m.VonMises(st, other.NewWorkspace(), q, vm); err == nil || !strings.Contains(err.Error(), "workspace") {
		t.Fatalf("VonMises took the workspace of another model: %v", err)
	}
}
