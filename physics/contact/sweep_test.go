package contact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// plainGaussSeidel is the textbook projected Gauss–Seidel of Eq. PGS on the
// full matrix: each contact's gap from every other contact's current force
// (a full row product), then the same exact local solver. It is the
// reference for the sweeps of PGS.Solve, which read only the lower block
// triangle, gather the upper part during the previous sweep and test a
// force-free contact on its normal row first. A contact marked in
// bilateral takes λ = −G⁻¹·d, solved here by gonum's LU.
func plainGaussSeidel(t *testing.T, W []float64, c int, s float64, deltaFree []float64, mu float64, lambda []float64, sweeps int, bilateral []bool) []State {
	t.Helper()
	n := 3 * c
	states := make([]State, c)
	for it := 0; it < sweeps; it++ {
		for a := 0; a < c; a++ {
			i := 3 * a
			var d [3]float64
			for r := 0; r < 3; r++ {
				d[r] = deltaFree[i+r]
				for j := 0; j < n; j++ {
					if j/3 != a {
						d[r] += s * W[(i+r)*n+j] * lambda[j]
					}
				}
			}
			Waa := [9]float64{}
			for r := 0; r < 3; r++ {
				for q := 0; q < 3; q++ {
					Waa[3*r+q] = W[(i+r)*n+i+q]
				}
			}
			if a < len(bilateral) && bilateral[a] {
				G := mat.NewDense(3, 3, nil)
				for k, w := range Waa {
					G.Set(k/3, k%3, s*w)
				}
				var x mat.VecDense
				if err := x.SolveVec(G, mat.NewVecDense(3, []float64{-d[0], -d[1], -d[2]})); err != nil {
					t.Fatal(err)
				}
				lambda[i], lambda[i+1], lambda[i+2], states[a] = x.AtVec(0), x.AtVec(1), x.AtVec(2), Held
				continue
			}
			blk, err := newLocalBlock(a, &Waa, s)
			if err != nil {
				t.Fatal(err)
			}
			lambda[i], lambda[i+1], lambda[i+2], states[a] = blk.solveLocal(mu, d[0], d[1], d[2])
		}
	}
	return states
}

// TestPGSMatchesPlainGaussSeidel runs PGS.Solve and the plain reference
// for the same number of sweeps from the same warm start, on problems
// where many contacts separate (some of them warm-started with a force,
// some pressed ones without), and requires the same states and forces to
// round-off: skipping the tangential rows of contacts that stay separated
// changes no result.
func TestPGSMatchesPlainGaussSeidel(t *testing.T) {
	for _, tc := range []struct {
		c     int
		press float64
		mu    float64
	}{
		{12, 0.2, 0.5}, {40, 0.4, 0.8}, {90, 0.6, 0.3}, {90, 0.5, 0},
	} {
		t.Run(fmt.Sprintf("contacts=%d_pressed=%.1f_mu=%.1f", tc.c, tc.press, tc.mu), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(21, uint64(tc.c)))
			W, deltaFree := randProblem(rng, tc.c, 1, tc.press)
			n := 3 * tc.c
			warm := make([]float64, n)
			for a := 0; a < tc.c; a += 3 {
				warm[3*a] = rng.Float64() // forces on every third contact, pressed or not
			}
			const sweeps = 30
			got := append([]float64(nil), warm...)
			pgs := PGS{MaxIterations: sweeps}
			if _, err := pgs.Solve(W, tc.c, 1, deltaFree, tc.mu, got); err != nil {
				t.Fatal(err)
			}
			want := append([]float64(nil), warm...)
			states := plainGaussSeidel(t, W, tc.c, 1, deltaFree, tc.mu, want, sweeps, nil)
			separated := 0
			for a := 0; a < tc.c; a++ {
				if pgs.States[a] != states[a] {
					t.Fatalf("contact %d: state %v, plain Gauss–Seidel %v", a, pgs.States[a], states[a])
				}
				if states[a] == Separated {
					separated++
				}
				for r := 0; r < 3; r++ {
					i := 3*a + r
					if math.Abs(got[i]-want[i]) > 1e-10*(1+math.Abs(want[i])) {
						t.Fatalf("λ[%d] = %.15g, plain Gauss–Seidel %.15g", i, got[i], want[i])
					}
				}
			}
			if separated == 0 || separated == tc.c {
				t.Fatalf("%d of %d contacts separated: the problem must mix both", separated, tc.c)
			}
		})
	}
}

// TestPGSBilateral runs PGS.Solve with every fifth contact bilateral
// (an attachment) and requires the states and forces of the plain
// reference, which solves those contacts' equalities by LU; then, solved to
// convergence, every bilateral contact's gap is closed in all three rows
// (δ = 0) whatever the sign of its normal force, and some of them pull
// (λn < 0), which no unilateral contact may.
func TestPGSBilateral(t *testing.T) {
	const c, s, mu = 60, 1.0, 0.5
	rng := rand.New(rand.NewPCG(8, 13))
	W, deltaFree := randProblem(rng, c, 1, 0.5)
	bilateral := make([]bool, c)
	for a := 0; a < c; a += 5 {
		bilateral[a] = true
	}
	const sweeps = 20
	got := make([]float64, 3*c)
	pgs := PGS{MaxIterations: sweeps, Bilateral: bilateral}
	if _, err := pgs.Solve(W, c, s, deltaFree, mu, got); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, 3*c)
	states := plainGaussSeidel(t, W, c, s, deltaFree, mu, want, sweeps, bilateral)
	for a := 0; a < c; a++ {
		if pgs.States[a] != states[a] {
			t.Fatalf("contact %d: state %v, plain Gauss–Seidel %v", a, pgs.States[a], states[a])
		}
		for r := 0; r < 3; r++ {
			if i := 3*a + r; math.Abs(got[i]-want[i]) > 1e-10*(1+math.Abs(want[i])) {
				t.Fatalf("λ[%d] = %.15g, plain Gauss–Seidel %.15g", i, got[i], want[i])
			}
		}
	}
	pgs.MaxIterations, pgs.Tolerance = 2000, 1e-13
	if res, err := pgs.Solve(W, c, s, deltaFree, mu, got); err != nil || !res.Converged {
		t.Fatalf("not converged: %+v, %v", res, err)
	}
	pulling := 0
	n := 3 * c
	for a := 0; a < c; a++ {
		if !bilateral[a] {
			if got[3*a] < 0 {
				t.Fatalf("unilateral contact %d pulls: λn = %g", a, got[3*a])
			}
			continue
		}
		if got[3*a] < 0 {
			pulling++
		}
		for r := 0; r < 3; r++ {
			i := 3*a + r
			d := deltaFree[i]
			for j := 0; j < n; j++ {
				d += s * W[i*n+j] * got[j]
			}
			if math.Abs(d) > 1e-9 {
				t.Errorf("bilateral contact %d row %d: gap %g, want 0", a, r, d)
			}
		}
	}
	if pulling == 0 {
		t.Fatal("no bilateral contact pulls: the problem does not test the sign")
	}
}
