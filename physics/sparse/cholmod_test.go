package sparse

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

// relErr returns ‖got − want‖₂ / ‖want‖₂.
func relErr(got, want []float64) float64 {
	num, den := 0.0, 0.0
	for i := range want {
		d := got[i] - want[i]
		num += d * d
		den += want[i] * want[i]
	}
	return math.Sqrt(num / den)
}

func randomVector(n int, rng *rand.Rand) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// mustFactor analyses and factors A, failing the test on error.
func mustFactor(t testing.TB, A *SymCSC) *Factor {
	t.Helper()
	f, err := Analyze(A)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	t.Cleanup(f.Free)
	if err := f.Factorize(A); err != nil {
		t.Fatalf("Factorize: %v", err)
	}
	return f
}

func TestSolveMatchesDenseCholesky(t *testing.T) {
	for _, tc := range []struct {
		name string
		grid testGrid
	}{
		{"one cell", testGrid{2, 2, 2}},
		{"slab", testGrid{5, 4, 2}},
		{"block", testGrid{6, 5, 4}},
		{"bar", testGrid{12, 3, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(7))
			A := tc.grid.matrix(11)
			f := mustFactor(t, A)
			b := randomVector(A.N, rng)
			want, err := denseSolve(A, b)
			if err != nil {
				t.Fatal(err)
			}
			x := make([]float64, A.N)
			if err := f.Solve(x, b); err != nil {
				t.Fatal(err)
			}
			if e := relErr(x, want); e > 1e-10 {
				t.Errorf("relative error %.3g against dense Cholesky", e)
			}
			// Residual, independently of the reference: ‖A·x − b‖ / ‖b‖.
			Ax := make([]float64, A.N)
			A.MulVec(Ax, x)
			if e := relErr(Ax, b); e > 1e-10 {
				t.Errorf("relative residual %.3g", e)
			}
			// Aliasing: solve in place.
			copy(x, b)
			if err := f.Solve(x, x); err != nil {
				t.Fatal(err)
			}
			if e := relErr(x, want); e > 1e-10 {
				t.Errorf("in-place solve: relative error %.3g", e)
			}
		})
	}
}

// TestRefactorize changes the values (same pattern) and checks that the
// solve follows the new matrix, not the old one.
func TestRefactorize(t *testing.T) {
	g := testGrid{5, 4, 3}
	A := g.matrix(1)
	f := mustFactor(t, A)
	rng := rand.New(rand.NewSource(3))
	b := randomVector(A.N, rng)
	old, _ := denseSolve(A, b)
	g.assemble(A, rng, 0.5)
	if err := f.Factorize(A); err != nil {
		t.Fatal(err)
	}
	want, err := denseSolve(A, b)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, A.N)
	if err := f.Solve(x, b); err != nil {
		t.Fatal(err)
	}
	if e := relErr(x, want); e > 1e-10 {
		t.Errorf("after refactorisation: relative error %.3g", e)
	}
	if relErr(old, want) < 1e-3 {
		t.Fatalf("test is vacuous: new values give the same solution")
	}
}

func TestNotPositiveDefinite(t *testing.T) {
	g := testGrid{4, 3, 3}
	A := g.matrix(2)
	f, err := Analyze(A)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Free()
	const bad = 17
	saved := A.Val[A.Index(bad, bad)]
	A.Val[A.Index(bad, bad)] = -1e3
	err = f.Factorize(A)
	if !errors.Is(err, ErrNotPositiveDefinite) {
		t.Fatalf("Factorize of an indefinite matrix: error %v, want ErrNotPositiveDefinite", err)
	}
	// Every column eliminated before DOF bad belongs to an SPD principal
	// submatrix untouched by the change, so the first non-positive pivot is
	// exactly that DOF's.
	if !strings.Contains(err.Error(), fmt.Sprintf("column %d of A", bad)) {
		t.Errorf("error %q does not name column %d", err, bad)
	}
	x := make([]float64, A.N)
	if err := f.Solve(x, x); err == nil {
		t.Errorf("Solve after a failed factorisation succeeded")
	}
	// The factor recovers with valid values.
	A.Val[A.Index(bad, bad)] = saved
	if err := f.Factorize(A); err != nil {
		t.Fatalf("refactorisation after failure: %v", err)
	}
	b := randomVector(A.N, rand.New(rand.NewSource(1)))
	want, _ := denseSolve(A, b)
	if err := f.Solve(x, b); err != nil || relErr(x, want) > 1e-10 {
		t.Errorf("solve after recovery: err %v, relative error %.3g", err, relErr(x, want))
	}
}

func TestAnalyzeRejectsBadPatterns(t *testing.T) {
	good := func() *SymCSC { return testGrid{2, 2, 2}.matrix(1) }
	for _, tc := range []struct {
		name   string
		mutate func(A *SymCSC) *SymCSC
	}{
		{"nil", func(*SymCSC) *SymCSC { return nil }},
		{"empty", func(*SymCSC) *SymCSC { return &SymCSC{ColPtr: []int{0}} }},
		{"short ColPtr", func(A *SymCSC) *SymCSC { A.ColPtr = A.ColPtr[:A.N]; return A }},
		{"short Val", func(A *SymCSC) *SymCSC { A.Val = A.Val[:len(A.Val)-1]; return A }},
		{"missing diagonal", func(A *SymCSC) *SymCSC { A.RowIdx[A.ColPtr[4]] = 5; return A }},
		{"unsorted rows", func(A *SymCSC) *SymCSC {
			k := A.ColPtr[0]
			A.RowIdx[k+1], A.RowIdx[k+2] = A.RowIdx[k+2], A.RowIdx[k+1]
			return A
		}},
		{"row out of range", func(A *SymCSC) *SymCSC { A.RowIdx[A.ColPtr[A.N]-1] = A.N; return A }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Analyze(tc.mutate(good()))
			if err == nil {
				f.Free()
				t.Fatal("Analyze accepted a malformed matrix")
			}
		})
	}
}

func TestSizeMismatches(t *testing.T) {
	g := testGrid{3, 3, 2}
	A := g.matrix(4)
	f := mustFactor(t, A)
	n := A.N
	other := testGrid{3, 2, 3}.matrix(4) // same N, different pattern
	bigger := testGrid{3, 3, 3}.matrix(4)
	X := g.contactRows(6, []rowKind{vertexRows}, rand.New(rand.NewSource(1)))
	wide := *X
	wide.Cols = n + 3
	bad := *X
	bad.ColIdx = append([]int(nil), X.ColIdx...)
	bad.ColIdx[0] = n
	W := make([]float64, 36)
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"solve short b", func() error { return f.Solve(make([]float64, n), make([]float64, n-1)) }},
		{"solve long x", func() error { return f.Solve(make([]float64, n+1), make([]float64, n)) }},
		{"compliance X.Cols", func() error { return f.Compliance(&wide, W) }},
		{"compliance column out of range", func() error { return f.Compliance(&bad, W) }},
		{"compliance short W", func() error { return f.Compliance(X, W[:35]) }},
		{"dense compliance short W", func() error { return f.ComplianceDense(X, W[:35]) }},
		{"compliance nil X", func() error { return f.Compliance(nil, W) }},
		{"factorize other pattern", func() error { return f.Factorize(other) }},
		{"factorize other size", func() error { return f.Factorize(bigger) }},
		{"factorize nil", func() error { return f.Factorize(nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); err == nil {
				t.Error("no error")
			}
		})
	}
	if other.N != n {
		t.Fatalf("test setup: other pattern has N = %d, want %d", other.N, n)
	}
}

func TestFreedFactor(t *testing.T) {
	A := testGrid{2, 2, 2}.matrix(1)
	f, err := Analyze(A)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, A.N)
	if err := f.Solve(x, x); err == nil {
		t.Error("Solve before Factorize succeeded")
	}
	f.Free()
	f.Free() // idempotent
	if err := f.Factorize(A); err == nil {
		t.Error("Factorize after Free succeeded")
	}
	if err := f.Solve(x, x); err == nil {
		t.Error("Solve after Free succeeded")
	}
	if s := f.Stats(); s != (FactorStats{}) {
		t.Errorf("Stats after Free = %+v, want zero", s)
	}
}

func TestStats(t *testing.T) {
	g := testGrid{8, 6, 5}
	A := g.matrix(1)
	f := mustFactor(t, A)
	s := f.Stats()
	if s.N != A.N || s.NonZerosA != A.ColPtr[A.N] {
		t.Errorf("Stats N = %d, NonZerosA = %d, want %d, %d", s.N, s.NonZerosA, A.N, A.ColPtr[A.N])
	}
	// L holds at least the lower triangle of A (no cancellation here).
	if s.NonZerosL < int64(s.NonZerosA) {
		t.Errorf("nnz(L) = %d < nnz(tril A) = %d", s.NonZerosL, s.NonZerosA)
	}
	if s.Supernodes < 2 || s.Supernodes > A.N {
		t.Errorf("%d supernodes for N = %d", s.Supernodes, A.N)
	}
	if s.Ordering != "METIS" && s.Ordering != "AMD" {
		t.Errorf("ordering %q", s.Ordering)
	}
}

// TestAMDOrdering checks that the AMD fallback path gives the same
// solutions as the default.
func TestAMDOrdering(t *testing.T) {
	A := testGrid{5, 4, 4}.matrix(9)
	f, err := analyze(A, orderingAMD)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Free()
	if err := f.Factorize(A); err != nil {
		t.Fatal(err)
	}
	if o := f.Stats().Ordering; o != "AMD" {
		t.Errorf("ordering %q, want AMD", o)
	}
	b := randomVector(A.N, rand.New(rand.NewSource(2)))
	want, _ := denseSolve(A, b)
	x := make([]float64, A.N)
	if err := f.Solve(x, b); err != nil || relErr(x, want) > 1e-10 {
		t.Errorf("err %v, relative error %.3g", err, relErr(x, want))
	}
}

func TestFactorizeAndSolveAllocateNothing(t *testing.T) {
	A := testGrid{6, 5, 4}.matrix(1)
	f := mustFactor(t, A)
	if allocs := testing.AllocsPerRun(5, func() { _ = f.Factorize(A) }); allocs != 0 {
		t.Errorf("Factorize allocates %v times per call", allocs)
	}
	b := randomVector(A.N, rand.New(rand.NewSource(1)))
	x := make([]float64, A.N)
	if err := f.Solve(x, b); err != nil { // warm up
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(20, func() { _ = f.Solve(x, b) }); allocs != 0 {
		t.Errorf("Solve allocates %v times per call once warm", allocs)
	}
}

// TestBLASThreads checks that the thread count reaches OpenBLAS and that
// results do not depend on it.
func TestBLASThreads(t *testing.T) {
	defer SetBLASThreads(BLASThreads())
	A := testGrid{6, 5, 4}.matrix(3)
	b := randomVector(A.N, rand.New(rand.NewSource(4)))
	want, _ := denseSolve(A, b)
	for _, n := range []int{1, 2} {
		if n > runtime.NumCPU() {
			continue // OpenBLAS caps the count at the number of CPUs
		}
		SetBLASThreads(n)
		if got := BLASThreads(); got != n {
			t.Errorf("SetBLASThreads(%d): OpenBLAS reports %d threads", n, got)
		}
		f := mustFactor(t, A)
		x := make([]float64, A.N)
		if err := f.Solve(x, b); err != nil || relErr(x, want) > 1e-10 {
			t.Errorf("%d threads: err %v, relative error %.3g", n, err, relErr(x, want))
		}
	}
	SetBLASThreads(0)
	if got := BLASThreads(); got != 1 {
		t.Errorf("SetBLASThreads(0): %d threads, want 1", got)
	}
}

// TestSolveSingle checks the single-precision solve against the double
// one: within single precision's rounding (relative 1e-5 on this
// well-conditioned grid, whose double solve is exact to 1e-12), refused
// before a copy and after a new factorisation, and x may alias b.
func TestSolveSingle(t *testing.T) {
	A := testGrid{6, 5, 4}.matrix(3)
	b := randomVector(A.N, rand.New(rand.NewSource(5)))
	f := mustFactor(t, A)
	want := make([]float64, A.N)
	if err := f.Solve(want, b); err != nil {
		t.Fatal(err)
	}
	x := make([]float64, A.N)
	if err := f.SolveSingle(x, b); err == nil {
		t.Fatal("SolveSingle before CopySingle: no error")
	}
	if err := f.CopySingle(); err != nil {
		t.Fatal(err)
	}
	if err := f.SolveSingle(x, b); err != nil {
		t.Fatal(err)
	}
	e := relErr(x, want)
	t.Logf("relative error %.3g", e)
	if e > 1e-5 || e == 0 {
		t.Fatalf("single-precision solve: relative error %.3g, want within (0, 1e-5]", e)
	}
	y := append([]float64(nil), b...)
	if err := f.SolveSingle(y, y); err != nil || relErr(y, x) != 0 {
		t.Fatalf("aliased x and b: err %v, differs from the unaliased solve by %.3g", err, relErr(y, x))
	}
	if err := f.Factorize(A); err != nil {
		t.Fatal(err)
	}
	if err := f.SolveSingle(x, b); err == nil {
		t.Fatal("SolveSingle after a new Factorize: no error (the copy is of the old factor)")
	}
}
