package linsolve

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/m3"
	"softgrasp/physics/sparse"
)

// chain returns the pattern of a chain of n nodes (node i coupled with
// i+1) and their unit masses.
func chain(n int) (*sparse.SymCSC, []float64) {
	var pairs [][2]int
	for i := 0; i+1 < n; i++ {
		pairs = append(pairs, [2]int{i, i + 1})
	}
	mass := make([]float64, n)
	for i := range mass {
		mass[i] = 1
	}
	return sparse.NewBlockPattern(n, pairs), mass
}

// assembleChain writes A = m·I + Σ_links k_i·(e_i − e_{i+1})(e_i − e_{i+1})ᵀ ⊗ I₃,
// symmetric positive definite, with the link stiffnesses k drawn from rng
// around stiffness.
func assembleChain(A *sparse.SymCSC, rng *rand.Rand, stiffness float64) {
	A.Zero()
	n := A.N / 3
	for i := 0; i < n; i++ {
		for d := 0; d < 3; d++ {
			A.Val[A.Index(3*i+d, 3*i+d)] += 1
		}
		if i+1 == n {
			continue
		}
		k := stiffness * (0.5 + rng.Float64())
		for d := 0; d < 3; d++ {
			a, b := 3*i+d, 3*(i+1)+d
			A.Val[A.Index(a, a)] += k
			A.Val[A.Index(b, b)] += k
			A.Val[A.Index(b, a)] -= k
		}
	}
}

func maxDiff(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// denseSolve returns x = A⁻¹·b by gonum's dense Cholesky factorisation of
// the symmetric A (lower triangle stored), the reference of the tests.
func denseSolve(A *sparse.SymCSC, b []float64) ([]float64, error) {
	S := mat.NewSymDense(A.N, nil)
	for j := 0; j < A.N; j++ {
		for k := A.ColPtr[j]; k < A.ColPtr[j+1]; k++ {
			S.SetSym(A.RowIdx[k], j, A.Val[k])
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(S) {
		return nil, sparse.ErrNotPositiveDefinite
	}
	var x mat.VecDense
	if err := chol.SolveVecTo(&x, mat.NewVecDense(A.N, append([]float64(nil), b...))); err != nil {
		return nil, err
	}
	return x.RawVector().Data, nil
}

// TestSolveExactAndAsync checks x = A⁻¹·b against a dense solve: exactly
// in exact mode, and to the conjugate gradient's tolerance in the
// asynchronous mode once A has changed since the factor in use.
func TestSolveExactAndAsync(t *testing.T) {
	const n = 30
	rng := rand.New(rand.NewSource(1))
	for _, tc := range []struct {
		name  string
		async bool
	}{{"exact", false}, {"async", true}} {
		t.Run(tc.name, func(t *testing.T) {
			A, mass := chain(n)
			s, err := New(A, mass, Options{Async: tc.async, Lag: 1, PCGTolerance: 1e-12, PCGMaxIterations: 200})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			q := make([]float64, 3*n) // a body that does not turn: R = I
			b := make([]float64, 3*n)
			for i := range b {
				q[i], b[i] = rng.Float64(), rng.NormFloat64()
			}
			near := nearNodes(0, 1, 2)
			x := make([]float64, 3*n)
			for step := 0; step < 4; step++ {
				assembleChain(s.Matrix(), rng, 100*float64(step+1))
				if err := s.Refactor(q, near); err != nil {
					t.Fatal(err)
				}
				if _, converged, err := s.Solve(x, b); err != nil || !converged {
					t.Fatalf("step %d: solve converged %v, error %v", step, converged, err)
				}
				want, err := denseSolve(s.Matrix(), b)
				if err != nil {
					t.Fatal(err)
				}
				if d := maxDiff(x, want); d > 1e-9 {
					t.Fatalf("step %d: x off by %g", step, d)
				}
				if !tc.async && s.Age() != 0 {
					t.Fatalf("exact mode reports a factor %d steps old", s.Age())
				}
				if R, _ := s.Warp(); maxDiff(R[:], []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}) > 1e-12 {
					t.Fatalf("step %d: warp %v for a body at rest, want the identity", step, R)
				}
			}
			if tc.async && s.Age() == 0 {
				t.Fatal("async mode after four steps still uses the factor of this step's A")
			}
		})
	}
}

// asyncChain returns a solver of a chain of n nodes with options opt, the
// (zero) positions its A is assembled at, a random right-hand side drawn
// from rng and a solution vector.
func asyncChain(t *testing.T, n int, rng *rand.Rand, opt Options) (s *Solver, q, b, x []float64) {
	t.Helper()
	A, mass := chain(n)
	s, err := New(A, mass, opt)
	if err != nil {
		t.Fatal(err)
	}
	q, b, x = make([]float64, 3*n), make([]float64, 3*n), make([]float64, 3*n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	return s, q, b, x
}

// TestSolveReportsTheIterationCap checks that a conjugate gradient that
// runs out of iterations says so: with the factor of an older A and a cap
// of one iteration the tolerance cannot be reached.
func TestSolveReportsTheIterationCap(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	s, q, b, x := asyncChain(t, 30, rng, Options{Async: true, Lag: 1, PCGTolerance: 1e-14, PCGMaxIterations: 1})
	defer s.Close()
	for step := 0; step < 4; step++ {
		assembleChain(s.Matrix(), rng, 100*float64(step+1))
		if err := s.Refactor(q, nearNodes()); err != nil {
			t.Fatal(err)
		}
		it, converged, err := s.Solve(x, b)
		if err != nil {
			t.Fatal(err)
		}
		if step > 0 && (converged || it != 1) {
			t.Fatalf("step %d: %d iterations, converged %v: an old factor and a cap of 1 cannot reach 1e-14", step, it, converged)
		}
	}
}

// TestPairComplianceFromNodeCompliance checks that W_H gathered from a
// node compliance equals the sparse kernel's H·P⁻¹·Hᵀ on the lower block
// triangle: from the worker's G for pairs on the nodes it was asked for,
// and from the step's own (gExt) for pairs that reach other nodes, built
// once for them, served again while it covers the pairs and the factor
// stays, and built anew with the factor swapped in after.
func TestPairComplianceFromNodeCompliance(t *testing.T) {
	const n = 20
	rng := rand.New(rand.NewSource(2))
	A, mass := chain(n)
	s, err := New(A, mass, Options{Async: true, Lag: 1, PCGTolerance: 1e-10, PCGMaxIterations: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q := make([]float64, 3*n)
	near := nearNodes(3, 4, 5, 6, 7)
	step := func() {
		assembleChain(s.Matrix(), rng, 50)
		if err := s.Refactor(q, near); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 { // prime, start a job, swap it in
		step()
	}
	covered := []collide.Pair{
		{Count: 1, Nodes: [collide.MaxNodes]int{4}, Weights: [collide.MaxNodes]float64{1}},
		{Count: 3, Nodes: [collide.MaxNodes]int{3, 5, 7}, Weights: [collide.MaxNodes]float64{0.2, 0.5, 0.3}},
	}
	missed := append(covered[:2:2],
		collide.Pair{Count: 2, Nodes: [collide.MaxNodes]int{7, 12}, Weights: [collide.MaxNodes]float64{0.6, 0.4}},
		collide.Pair{Count: 1, Nodes: [collide.MaxNodes]int{15}, Weights: [collide.MaxNodes]float64{1}})
	if !s.bg.gCur.covers(covered) || s.bg.gCur.covers(missed) {
		t.Fatal("the worker's node compliance does not split the pair sets as the test needs")
	}
	for _, tc := range []struct {
		name   string
		pairs  []collide.Pair
		swap   bool // a step first, which swaps a new factor in
		builds int  // builds of gExt so far
	}{
		{"covered by the worker's G", covered, false, 0},
		{"two nodes outside it", missed, false, 1},
		{"the same pairs again", missed, false, 1},
		{"a part of them", missed[2:], false, 1},
		{"after a swap", missed, true, 2},
	} {
		if tc.swap {
			step()
		}
		checkPairCompliance(t, tc.name, s, tc.pairs, n)
		if s.bg.gExt.builds != tc.builds {
			t.Fatalf("%s: gExt built %d times, want %d", tc.name, s.bg.gExt.builds, tc.builds)
		}
	}
	// The asynchronous mode off and on again starts a new worker, with
	// factors of its own: W_H after it must be that of its factor.
	for _, async := range []bool{false, true} {
		if err := s.SetOptions(Options{Async: async, Lag: 1, PCGTolerance: 1e-10, PCGMaxIterations: 100}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 { // prime, start a job, swap it in
		step()
	}
	checkPairCompliance(t, "after the mode was switched off and on", s, missed, n)
}

// checkPairCompliance compares PairCompliance with the sparse kernel on
// the pairs' H, on the lower block triangle.
func checkPairCompliance(t *testing.T, name string, s *Solver, pairs []collide.Pair, n int) {
	t.Helper()
	H := pairRows(pairs, n)
	c := 3 * len(pairs)
	got, want := make([]float64, c*c), make([]float64, c*c)
	if err := s.PairCompliance(got, pairs, H); err != nil {
		t.Fatal(err)
	}
	if err := s.Compliance(H, want); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < c; i++ {
		for j := 0; j < 3*(i/3+1); j++ { // lower block triangle
			if d := math.Abs(got[i*c+j] - want[i*c+j]); d > 1e-12 {
				t.Fatalf("%s: W_H(%d,%d) = %g gathered, %g from the kernel", name, i, j, got[i*c+j], want[i*c+j])
			}
		}
	}
}

// pairRows returns the mapping Jacobian H of the pairs on n nodes.
func pairRows(pairs []collide.Pair, n int) *sparse.CSR {
	H := &sparse.CSR{}
	H.Reset(3*len(pairs), 3*n)
	var cols [collide.MaxNodes]int
	for _, pr := range pairs {
		for d := 0; d < 3; d++ {
			for i := 0; i < pr.Count; i++ {
				cols[i] = 3*pr.Nodes[i] + d
			}
			H.Append(cols[:pr.Count], pr.Weights[:pr.Count])
		}
	}
	return H
}

// TestSingleCompliance: with Options.SingleCompliance, W_H from the
// kernel (exact mode) and from the node compliances (asynchronous mode:
// the worker's G, and the step's own for pairs outside it) is the double
// precision W_H of the same factor to float's rounding (the kernel's
// bound, sparse's singleComplianceTol), and differs from it: the option
// reaches every path.
func TestSingleCompliance(t *testing.T) {
	const n = 20
	covered := []collide.Pair{
		{Count: 1, Nodes: [collide.MaxNodes]int{4}, Weights: [collide.MaxNodes]float64{1}},
		{Count: 3, Nodes: [collide.MaxNodes]int{3, 5, 7}, Weights: [collide.MaxNodes]float64{0.2, 0.5, 0.3}},
	}
	missed := append(covered[:2:2],
		collide.Pair{Count: 2, Nodes: [collide.MaxNodes]int{7, 12}, Weights: [collide.MaxNodes]float64{0.6, 0.4}})
	for _, async := range []bool{false, true} {
		rng := rand.New(rand.NewSource(3))
		A, mass := chain(n)
		s, err := New(A, mass, Options{Async: async, Lag: 1, PCGTolerance: 1e-10, PCGMaxIterations: 100, SingleCompliance: true})
		if err != nil {
			t.Fatal(err)
		}
		q := make([]float64, 3*n)
		for range 3 { // prime, start a job, swap it in
			assembleChain(s.Matrix(), rng, 50)
			if err := s.Refactor(q, nearNodes(3, 4, 5, 6, 7)); err != nil {
				t.Fatal(err)
			}
		}
		for _, pairs := range [][]collide.Pair{covered, missed} {
			H := pairRows(pairs, n)
			c := 3 * len(pairs)
			got, want := make([]float64, c*c), make([]float64, c*c)
			if err := s.PairCompliance(got, pairs, H); err != nil {
				t.Fatal(err)
			}
			if err := s.factor.Compliance(H, want); err != nil {
				t.Fatal(err)
			}
			diff, size := 0.0, 0.0
			for i := 0; i < c; i++ {
				for j := 0; j < 3*(i/3+1); j++ { // lower block triangle
					diff = max(diff, math.Abs(got[i*c+j]-want[i*c+j]))
					size = max(size, math.Abs(want[i*c+j]))
				}
			}
			if rel := diff / size; !(rel > 1e-10 && rel <= 5e-7) {
				t.Errorf("async %v, %d pairs: W_H in single precision %.3g (relative) from double's, want within (1e-10, 5e-7]", async, len(pairs), rel)
			}
		}
		s.Close()
	}
}

// TestFailedBackgroundFactorKeepsTheOldOne checks the asynchronous
// solver's answer to a background job whose A was not positive definite:
// Refactor reports ErrBackgroundFactor, and the solver goes on with the
// factor it had, which still solves the current A by conjugate gradient.
func TestFailedBackgroundFactorKeepsTheOldOne(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	s, q, b, x := asyncChain(t, 20, rng, Options{Async: true, Lag: 1, PCGTolerance: 1e-12, PCGMaxIterations: 200})
	defer s.Close()
	near := nearNodes()
	assembleChain(s.Matrix(), rng, 100)
	if err := s.Refactor(q, near); err != nil { // the first factor, synchronous
		t.Fatal(err)
	}
	for i := range s.Matrix().Val { // the job started next gets −A
		s.Matrix().Val[i] = -s.Matrix().Val[i]
	}
	if err := s.Refactor(q, near); err != nil {
		t.Fatalf("starting the job: %v", err)
	}
	assembleChain(s.Matrix(), rng, 120)
	err := s.Refactor(q, near)
	if !errors.Is(err, ErrBackgroundFactor) {
		t.Fatalf("the failed job reported %v, want ErrBackgroundFactor", err)
	}
	if s.Age() < 2 {
		t.Fatalf("factor age %d after the failed swap: the old factor should still be in use", s.Age())
	}
	if _, converged, err := s.Solve(x, b); err != nil || !converged {
		t.Fatalf("solve with the kept factor: converged %v, error %v", converged, err)
	}
	want, err := denseSolve(s.Matrix(), b)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(x, want); d > 1e-8 {
		t.Fatalf("x off by %g", d)
	}
}

// TestEarlyPreconditioner checks that a job's factor preconditions from
// half the lag on (Lag 4: two steps after the job started), before it
// becomes the factor in use at the swap, on the deterministic schedule
// (Refresh 0: the next job starts at the swap): the factor's age runs to
// the lag and past it while the preconditioner's drops back to two; the
// solves with it still reach the current A's solution.
func TestEarlyPreconditioner(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	s, q, b, x := asyncChain(t, 10, rng, Options{Async: true, Lag: 4, PCGTolerance: 1e-12, PCGMaxIterations: 100})
	defer s.Close()
	wantAge := []int{0, 1, 2, 3, 4, 4, 5, 6, 7, 4}
	wantPC := []int{0, 1, 2, 2, 3, 4, 5, 2, 3, 4}
	var age, pc []int
	for range wantAge {
		assembleChain(s.Matrix(), rng, 100)
		if err := s.Refactor(q, nearNodes()); err != nil {
			t.Fatal(err)
		}
		age, pc = append(age, s.Age()), append(pc, s.PreconditionerAge())
		if _, converged, err := s.Solve(x, b); err != nil || !converged {
			t.Fatalf("step %d: converged %v, error %v", len(age)-1, converged, err)
		}
		want, err := denseSolve(s.Matrix(), b)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxDiff(x, want); d > 1e-8 {
			t.Fatalf("step %d: x off by %g", len(age)-1, d)
		}
	}
	if fmt.Sprint(age) != fmt.Sprint(wantAge) || fmt.Sprint(pc) != fmt.Sprint(wantPC) {
		t.Fatalf("factor ages %v, want %v; preconditioner ages %v, want %v", age, wantAge, pc, wantPC)
	}
}

// TestAsyncRefreshAgesTheFactor checks Options.Refresh on the deterministic
// schedule (Lag 1): a job starts only once the factor in use is Refresh
// steps old and is swapped in one step later, so the factor's age runs
// 1, 2, …, Refresh and back to 1 (one factorisation per Refresh steps);
// without Refresh a job starts at every step and the age stays at 1.
func TestAsyncRefreshAgesTheFactor(t *testing.T) {
	for _, tc := range []struct {
		refresh int
		want    []int // ages after each Refactor from the first on
	}{
		{0, []int{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{4, []int{0, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3}},
	} {
		rng := rand.New(rand.NewSource(4))
		s, q, _, _ := asyncChain(t, 10, rng, Options{Async: true, Lag: 1, Refresh: tc.refresh, PCGTolerance: 1e-12, PCGMaxIterations: 100})
		var got []int
		for range tc.want {
			assembleChain(s.Matrix(), rng, 100)
			if err := s.Refactor(q, nearNodes()); err != nil {
				t.Fatal(err)
			}
			got = append(got, s.Age())
		}
		s.Close()
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("Refresh %d: factor ages %v, want %v", tc.refresh, got, tc.want)
		}
	}
}

// TestBackgroundRunning: the exact solver never reports a running
// worker; the asynchronous one does from the step that hands it a job
// until the worker has finished it (the job's Near holds the worker
// until the test lets it go), and not while the finished job waits for
// its swap (Lag) or Refresh holds the next job back.
func TestBackgroundRunning(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	exact, q, _, _ := asyncChain(t, 10, rng, Options{PCGTolerance: 1e-12, PCGMaxIterations: 100})
	assembleChain(exact.Matrix(), rng, 100)
	if err := exact.Refactor(q, nearNodes()); err != nil || exact.BackgroundRunning() {
		t.Fatalf("exact solver: running %v, error %v", exact.BackgroundRunning(), err)
	}
	exact.Close()
	s, q, _, _ := asyncChain(t, 10, rng, Options{Async: true, Lag: 3, Refresh: 2, PCGTolerance: 1e-12, PCGMaxIterations: 100})
	defer s.Close()
	release := make(chan struct{})
	defer close(release) // before Close, which waits for a held worker
	held := func() func() []int {
		return func() []int { <-release; return nil }
	}
	// Refresh 2, Lag 3: the first step factors synchronously; a job starts
	// at step 2 (the factor 2 steps old) and is swapped in at step 5, when
	// the next one starts (its factor then 3 steps old).
	starts := map[int]bool{2: true, 5: true}
	for step := 0; step < 7; step++ {
		assembleChain(s.Matrix(), rng, 100)
		if err := s.Refactor(q, held); err != nil {
			t.Fatal(err)
		}
		if got := s.BackgroundRunning(); got != starts[step] {
			t.Fatalf("step %d: running %v, want %v", step, got, starts[step])
		}
		if !starts[step] {
			continue
		}
		release <- struct{}{} // the worker takes it once it has factored
		for start := time.Now(); s.BackgroundRunning(); time.Sleep(time.Millisecond) {
			if time.Since(start) > 30*time.Second {
				t.Fatalf("step %d: the worker still runs 30 s after its job's end", step)
			}
		}
	}
}

// TestSolveRotated checks x = Q·A⁻¹·Qᵀ·b, Q = blockdiag(R), against a
// dense solve of the current A turned by R: exactly in exact mode, and to
// the conjugate gradient's tolerance in the asynchronous mode, whose
// factor is of an older A; and RotationBetween recovers the rotation of a
// turned configuration.
func TestSolveRotated(t *testing.T) {
	const n = 30
	rng := rand.New(rand.NewSource(5))
	R := m3.FromRows(r3.Vec{X: 0.36, Y: 0.48, Z: -0.8}, r3.Vec{X: -0.8, Y: 0.6, Z: 0}, r3.Vec{X: 0.48, Y: 0.64, Z: 0.6})
	for _, async := range []bool{false, true} {
		A, mass := chain(n)
		s, err := New(A, mass, Options{Async: async, Lag: 1, PCGTolerance: 1e-12, PCGMaxIterations: 200})
		if err != nil {
			t.Fatal(err)
		}
		q, b, x := make([]float64, 3*n), make([]float64, 3*n), make([]float64, 3*n)
		for i := range b {
			q[i], b[i] = rng.Float64(), rng.NormFloat64()
		}
		for step := 0; step < 3; step++ {
			assembleChain(s.Matrix(), rng, 100*float64(step+1))
			if err := s.Refactor(q, nearNodes(0)); err != nil {
				t.Fatal(err)
			}
		}
		if _, converged, err := s.SolveRotated(x, b, &R); err != nil || !converged {
			t.Fatalf("async %v: converged %v, error %v", async, converged, err)
		}
		tb := make([]float64, 3*n)
		rotateNodes(tb, b, &R, true)
		want, err := denseSolve(s.Matrix(), tb)
		if err != nil {
			t.Fatal(err)
		}
		rotateNodes(want, want, &R, false)
		if d := maxDiff(x, want); d > 1e-9 {
			t.Errorf("async %v: x off by %g", async, d)
		}
		turned := make([]float64, 3*n)
		rotateNodes(turned, q, &R, false)
		got := s.RotationBetween(q, turned)
		if d := maxDiff(got[:], R[:]); d > 1e-9 {
			t.Errorf("async %v: RotationBetween off by %g", async, d)
		}
		s.Close()
	}
}

// nearNodes is a Near of a fixed node list.
func nearNodes(nodes ...int) Near {
	return func() func() []int { return func() []int { return nodes } }
}
