package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randProblem is a random frictional problem with SPD W = B·Bᵀ + diag·I
// and free gaps of mixed sign.
func randProblem(rng *rand.Rand, c int, diag, pressFraction float64) (W, deltaFree []float64) {
	n := 3 * c
	W = randSPD(rng, n, 1/math.Sqrt(float64(n)), diag)
	deltaFree = make([]float64, n)
	for a := 0; a < c; a++ {
		deltaFree[3*a] = rng.Float64()
		if rng.Float64() < pressFraction {
			deltaFree[3*a] = -rng.Float64()
		}
		deltaFree[3*a+1] = 0.5 * rng.NormFloat64()
		deltaFree[3*a+2] = 0.5 * rng.NormFloat64()
	}
	return W, deltaFree
}

func TestPGSSingleContactIsLocalSolver(t *testing.T) {
	tests := []struct {
		name string
		d    [3]float64
		mu   float64
	}{
		{"separated", [3]float64{0.2, 1, 1}, 0.5},
		{"stick", [3]float64{-2, 0.1, 0.05}, 0.9},
		{"slip", [3]float64{-1, 3, -1}, 0.3},
		{"frictionless", [3]float64{-1, 3, -1}, 0},
	}
	const s = 0.25
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			W := make([]float64, 9)
			for i := range W {
				W[i] = coupledG[i] / s // G = s·W_aa = coupledG
			}
			want, wantSt := solveG(t, coupledG, tc.d, tc.mu)
			pgs := PGS{MaxIterations: 5, Tolerance: 1e-12}
			lambda := []float64{0.3, 0.1, -0.2} // a wrong warm start
			res, err := pgs.Solve(W, 1, s, tc.d[:], tc.mu, lambda)
			if err != nil {
				t.Fatal(err)
			}
			for r := range want {
				if math.Abs(lambda[r]-want[r]) > 1e-14*(1+math.Abs(want[r])) {
					t.Fatalf("λ = %v, want the local solution %v", lambda, want)
				}
			}
			if pgs.States[0] != wantSt {
				t.Errorf("state = %v, want %v", pgs.States[0], wantSt)
			}
			// The second sweep changes nothing but round-off: one contact is
			// solved exactly in one.
			if res.Iterations != 2 || !res.Converged || res.Error > 1e-15 {
				t.Errorf("result = %+v, want 2 sweeps ending with ε ≤ 1e-15", res)
			}
		})
	}
}

func TestPGSFrictionlessMatchesLCP(t *testing.T) {
	// lifted counts contacts pressed in (δfree_n < 0) that the exact
	// solution leaves open: the cases where the active set is not simply
	// the pressed contacts, which a naive solver would get wrong.
	lifted := 0
	defer func() {
		if lifted == 0 && !t.Failed() {
			t.Errorf("no case lifts a pressed contact: the LCP cases are trivial")
		}
	}()
	for _, c := range []int{2, 3} {
		for seed := uint64(1); seed <= 6; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(c)))
			t.Run(fmt.Sprintf("c=%d_seed=%d", c, seed), func(t *testing.T) {
				// Strong coupling (small diagonal) makes the active set
				// non-trivial: a contact pushed in may be lifted by the others.
				W, deltaFree := randProblem(rng, c, 0.1, 0.7)
				const s = 2.0
				want := bruteForceLCP(t, W, c, s, deltaFree)
				pgs := PGS{MaxIterations: 20000, Tolerance: 1e-14}
				lambda := make([]float64, 3*c)
				res, err := pgs.Solve(W, c, s, deltaFree, 0, lambda)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Converged {
					t.Fatalf("not converged: %+v", res)
				}
				for a := 0; a < c; a++ {
					if deltaFree[3*a] < 0 && want[a] == 0 {
						lifted++
					}
					if math.Abs(lambda[3*a]-want[a]) > 1e-9*(1+math.Abs(want[a])) {
						t.Errorf("λn[%d] = %.15g, want %.15g (exact LCP)", a, lambda[3*a], want[a])
					}
					if lambda[3*a+1] != 0 || lambda[3*a+2] != 0 {
						t.Errorf("λt[%d] = (%g, %g), want 0 without friction", a, lambda[3*a+1], lambda[3*a+2])
					}
				}
			})
		}
	}
}

func TestPGSFrictionalComplementarity(t *testing.T) {
	tests := []struct {
		c    int
		mu   float64
		diag float64
	}{
		{4, 0.3, 1},
		{10, 0.8, 1},
		{20, 0.5, 0.6},
		{30, 1.5, 0.6},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("c=%d_mu=%g", tc.c, tc.mu), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.c), 3))
			W, deltaFree := randProblem(rng, tc.c, tc.diag, 0.75)
			const s = 1.0
			pgs := PGS{MaxIterations: 5000, Tolerance: 1e-13}
			lambda := make([]float64, 3*tc.c)
			res, err := pgs.Solve(W, tc.c, s, deltaFree, tc.mu, lambda)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Converged {
				t.Fatalf("not converged after %d sweeps: ε = %g", res.Iterations, res.Error)
			}
			delta := gapsOf(W, s, deltaFree, lambda)
			count := map[State]int{}
			for a := 0; a < tc.c; a++ {
				st := pgs.States[a]
				count[st]++
				l := [3]float64(lambda[3*a : 3*a+3])
				d := [3]float64(delta[3*a : 3*a+3])
				checkContactLaw(t, a, l, d, tc.mu, st, lawTolerance{1e-9, 1e-9, 1e-7})
			}
			if count[Separated] == 0 || count[Stick]+count[Slip] == 0 {
				t.Errorf("states %v: the problem should mix open and closed contacts", count)
			}
		})
	}
}

// TestPGSFaceProblemSatisfiesContactLaw solves the benchmark problem (a
// curved face pressed into a jaw and dragged) to convergence and checks
// the contact law on every contact, at the problem's own scales: gaps of a
// millimetre, forces of a few newtons times h².
func TestPGSFaceProblemSatisfiesContactLaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	p := newFaceProblem(t, rng, 80)
	n := 3 * p.c
	pgs := PGS{MaxIterations: 20000, Tolerance: 1e-14}
	lambda := make([]float64, n)
	res, err := pgs.Solve(p.W, p.c, p.s, p.deltaFree, p.mu, lambda)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged {
		t.Fatalf("not converged: %+v", res)
	}
	delta := make([]float64, n)
	if err := Violation(delta, p.deltaFree, p.W, lambda, p.s); err != nil {
		t.Fatal(err)
	}
	maxF := 0.0
	for _, l := range lambda {
		maxF = math.Max(maxF, math.Abs(l))
	}
	tol := lawTolerance{gapTol: 1e-12, forceTol: 1e-10 * maxF, rel: 1e-7}
	count := map[State]int{}
	for a := 0; a < p.c; a++ {
		count[pgs.States[a]]++
		checkContactLaw(t, a, [3]float64(lambda[3*a:3*a+3]), [3]float64(delta[3*a:3*a+3]), p.mu, pgs.States[a], tol)
	}
	if count[Stick] == 0 || count[Slip] == 0 || count[Separated] == 0 {
		t.Errorf("states %v: want all three regimes in the face problem", count)
	}
}

// TestPGSGatheredProductIsExact checks the invariant of the sweeps: after
// Solve, v_a = Σ_{b>a} W_ab·λ_b for the returned forces, against a fresh
// product with gonum.
func TestPGSGatheredProductIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	p := newFaceProblem(t, rng, 64)
	pgs := PGS{MaxIterations: 300}
	lambda := make([]float64, 3*p.c)
	if _, err := pgs.Solve(p.W, p.c, p.s, p.deltaFree, p.mu, lambda); err != nil {
		t.Fatal(err)
	}
	n := 3 * p.c
	upper := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 3*(i/3) + 3; j < n; j++ {
			upper.Set(i, j, p.W[i*n+j])
		}
	}
	var want mat.VecDense
	want.MulVec(upper, mat.NewVecDense(n, lambda))
	scale := mat.Norm(&want, math.Inf(1))
	for i := 0; i < n; i++ {
		if math.Abs(pgs.v[i]-want.AtVec(i)) > 1e-13*scale {
			t.Fatalf("v[%d] = %.17g, want Σ_{b>a} W_ab·λ_b = %.17g", i, pgs.v[i], want.AtVec(i))
		}
	}
}

func TestPGSErrorRecord(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	// Well conditioned: strongly diagonal, every contact pressed in and
	// sticking (large μ), so PGS is block Gauss–Seidel on an SPD system.
	const c = 12
	W, deltaFree := randProblem(rng, c, 4, 1)
	for a := 0; a < c; a++ {
		deltaFree[3*a] -= 1 // deep enough that no neighbour lifts it
	}
	pgs := PGS{MaxIterations: 40}
	lambda := make([]float64, 3*c)
	res, err := pgs.Solve(W, c, 1, deltaFree, 10, lambda)
	if err != nil {
		t.Fatal(err)
	}
	if len(pgs.Errors) != res.Iterations || res.Iterations != 40 {
		t.Fatalf("len(Errors) = %d, Iterations = %d, want both 40 with Tolerance 0", len(pgs.Errors), res.Iterations)
	}
	if res.Error != pgs.Errors[len(pgs.Errors)-1] {
		t.Errorf("Result.Error = %g, want the last recorded ε %g", res.Error, pgs.Errors[len(pgs.Errors)-1])
	}
	for i := 1; i < len(pgs.Errors); i++ {
		if pgs.Errors[i] > pgs.Errors[i-1] && pgs.Errors[i] > 1e-15 {
			t.Errorf("ε[%d] = %g > ε[%d] = %g: not non-increasing", i, pgs.Errors[i], i-1, pgs.Errors[i-1])
		}
	}
	if pgs.Errors[0] != 1 || pgs.Errors[len(pgs.Errors)-1] > 1e-12 {
		t.Errorf("ε goes from %g to %g, want 1 (cold start) down to ≤ 1e-12", pgs.Errors[0], pgs.Errors[len(pgs.Errors)-1])
	}
	for a, st := range pgs.States {
		if st != Stick {
			t.Errorf("contact %d is %v, want stick", a, st)
		}
	}
}

func TestPGSTolerance(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2))
	const c = 25
	W, deltaFree := randProblem(rng, c, 1, 0.8)
	const mu = 0.6

	t.Run("stops early", func(t *testing.T) {
		pgs := PGS{MaxIterations: 1000, Tolerance: 1e-6}
		lambda := make([]float64, 3*c)
		res, err := pgs.Solve(W, c, 1, deltaFree, mu, lambda)
		if err != nil {
			t.Fatal(err)
		}
		k := res.Iterations
		if !res.Converged || k >= 1000 || k < 2 {
			t.Fatalf("result %+v: want convergence well before 1000 sweeps", res)
		}
		if pgs.Errors[k-1] > 1e-6 || pgs.Errors[k-2] <= 1e-6 {
			t.Errorf("ε of the last two sweeps = %g, %g: want the first one ≤ 1e-6 to stop", pgs.Errors[k-2], pgs.Errors[k-1])
		}
	})
	t.Run("zero runs every sweep", func(t *testing.T) {
		pgs := PGS{MaxIterations: 77}
		lambda := make([]float64, 3*c)
		res, err := pgs.Solve(W, c, 1, deltaFree, mu, lambda)
		if err != nil {
			t.Fatal(err)
		}
		if res.Iterations != 77 || len(pgs.Errors) != 77 {
			t.Errorf("%d sweeps, %d errors: want 77", res.Iterations, len(pgs.Errors))
		}
	})
	t.Run("warm start from the solution", func(t *testing.T) {
		pgs := PGS{MaxIterations: 5000, Tolerance: 1e-15}
		lambda := make([]float64, 3*c)
		if res, err := pgs.Solve(W, c, 1, deltaFree, mu, lambda); err != nil || !res.Converged {
			t.Fatalf("cold solve: %+v, %v", res, err)
		}
		pgs.Tolerance = 1e-10
		res, err := pgs.Solve(W, c, 1, deltaFree, mu, lambda)
		if err != nil {
			t.Fatal(err)
		}
		if res.Iterations != 1 || !res.Converged {
			t.Errorf("warm start: %+v, want convergence in 1 sweep", res)
		}
	})
}

func TestPGSInputErrors(t *testing.T) {
	const c = 2
	good := func() (W, df, l []float64) {
		W = make([]float64, 36)
		for i := 0; i < 6; i++ {
			W[i*6+i] = 1
		}
		return W, make([]float64, 6), make([]float64, 6)
	}
	tests := []struct {
		name   string
		mutate func(p *PGS, W, df, l *[]float64, s, mu *float64)
		want   string
	}{
		{"no sweeps", func(p *PGS, W, df, l *[]float64, s, mu *float64) { p.MaxIterations = 0 }, "MaxIterations = 0"},
		{"negative tolerance", func(p *PGS, W, df, l *[]float64, s, mu *float64) { p.Tolerance = -1 }, "Tolerance = -1"},
		{"short W", func(p *PGS, W, df, l *[]float64, s, mu *float64) { *W = (*W)[:35] }, "len(W) = 35"},
		{"short deltaFree", func(p *PGS, W, df, l *[]float64, s, mu *float64) { *df = (*df)[:5] }, "len(deltaFree) = 5"},
		{"long lambda", func(p *PGS, W, df, l *[]float64, s, mu *float64) { *l = append(*l, 0) }, "len(lambda) = 7"},
		{"zero s", func(p *PGS, W, df, l *[]float64, s, mu *float64) { *s = 0 }, "s = 0"},
		{"NaN s", func(p *PGS, W, df, l *[]float64, s, mu *float64) { *s = math.NaN() }, "s = NaN"},
		{"NaN gap", func(p *PGS, W, df, l *[]float64, s, mu *float64) { (*df)[4] = math.NaN() }, "deltaFree[4] = NaN (contact 1)"},
		{"infinite lambda", func(p *PGS, W, df, l *[]float64, s, mu *float64) { (*l)[2] = math.Inf(1) }, "lambda[2] = +Inf (contact 0)"},
		{"NaN in W", func(p *PGS, W, df, l *[]float64, s, mu *float64) { (*W)[4*6+1] = math.NaN() }, "W[4,1] = NaN (contacts 1, 0)"},
		{"NaN in a diagonal block", func(p *PGS, W, df, l *[]float64, s, mu *float64) { (*W)[1*6+0] = math.NaN() }, "contact 0: diagonal block W_aa[0,1] = NaN"},
		{"Inf in W", func(p *PGS, W, df, l *[]float64, s, mu *float64) { (*W)[5*6+0] = math.Inf(-1) }, "W[5,0] = -Inf"},
		{"zero diagonal", func(p *PGS, W, df, l *[]float64, s, mu *float64) { (*W)[3*6+3] = 0 }, "contact 1: diagonal block"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			W, df, l := good()
			p := PGS{MaxIterations: 3}
			s, mu := 1.0, 0.5
			tc.mutate(&p, &W, &df, &l, &s, &mu)
			_, err := p.Solve(W, c, s, df, mu, l)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	t.Run("no contacts", func(t *testing.T) {
		p := PGS{MaxIterations: 3}
		res, err := p.Solve(nil, 0, 1, nil, 0.5, nil)
		if err != nil || !res.Converged {
			t.Errorf("c = 0: %+v, %v: want an immediate converged result", res, err)
		}
	})
}

// TestPGSReadsLowerTriangleOnly checks the contract that lets the fast
// scheme use RebuildWLower: garbage in the strict upper block triangle of W
// changes nothing.
func TestPGSReadsLowerTriangleOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	p := newFaceProblem(t, rng, 20)
	n := 3 * p.c
	garbled := append([]float64(nil), p.W...)
	for i := 0; i < n; i++ {
		for j := 3*(i/3) + 3; j < n; j++ {
			garbled[i*n+j] = math.NaN()
		}
	}
	want, got := make([]float64, n), make([]float64, n)
	for k, W := range [][]float64{p.W, garbled} {
		pgs := PGS{MaxIterations: 30}
		if _, err := pgs.Solve(W, p.c, p.s, p.deltaFree, p.mu, [][]float64{want, got}[k]); err != nil {
			t.Fatalf("W #%d: %v", k, err)
		}
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("λ[%d] = %g with a garbled upper triangle, %g without", i, got[i], want[i])
		}
	}
}

func TestPGSWarmAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	p := newFaceProblem(t, rng, 40)
	pgs := PGS{MaxIterations: 10, Tolerance: 1e-9}
	lambda := make([]float64, 3*p.c)
	allocs := testing.AllocsPerRun(20, func() {
		clear(lambda)
		if _, err := pgs.Solve(p.W, p.c, p.s, p.deltaFree, p.mu, lambda); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("warm Solve allocates %g times per call, want 0", allocs)
	}
}
