// Package backendtest is the conformance suite of physics.Backend: every
// backend (the CPU reference, a GPU one) runs the same checks against
// dense reference products, so a backend that plugs into the fast scheme
// is known to compute what the scheme expects.
package backendtest

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/contact"
	"softgrasp/physics/m3"
)

// Problem is a random, physically shaped fast-scheme problem: a symmetric
// positive definite W_H with decaying coupling between c contacts, random
// frames and free gaps of which about half penetrate.
type Problem struct {
	C         int
	WH        []float64
	Frames    []m3.Mat3
	DeltaFree []float64
	PFree     []float64
	Mu, S     float64
}

// NewProblem draws a problem of c contacts from seed.
func NewProblem(c int, seed int64) *Problem {
	rng := rand.New(rand.NewSource(seed))
	n := 3 * c
	pts := make([]r3.Vec, c)
	for a := range pts {
		pts[a] = r3.Vec{X: rng.Float64() * 0.02, Y: rng.Float64() * 0.02}
	}
	// W_H = B·Bᵀ/n + diagonal, with B decaying with the distance of the
	// contacts, like the compliance of nearby surface points.
	B := mat.NewDense(n, n, nil)
	for a := 0; a < c; a++ {
		for b := 0; b < c; b++ {
			k := math.Exp(-r3.Norm(r3.Sub(pts[a], pts[b])) / 0.005)
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					B.Set(3*a+i, 3*b+j, k*(rng.Float64()-0.5))
				}
			}
		}
	}
	var W mat.Dense
	W.Mul(B, B.T())
	W.Scale(1/float64(n), &W)
	for i := 0; i < n; i++ {
		W.Set(i, i, W.At(i, i)+1)
	}
	p := &Problem{C: c, WH: append([]float64(nil), W.RawMatrix().Data...), Mu: 0.4, S: 1e-4}
	p.Frames = make([]m3.Mat3, c)
	p.DeltaFree = make([]float64, n)
	p.PFree = make([]float64, n)
	for a := 0; a < c; a++ {
		p.Frames[a] = m3.Frame(r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: 2 + rng.NormFloat64()}))
		p.DeltaFree[3*a] = 1e-4 * rng.NormFloat64()
		p.DeltaFree[3*a+1] = 1e-4 * rng.NormFloat64()
		p.DeltaFree[3*a+2] = 1e-4 * rng.NormFloat64()
	}
	for i := range p.PFree {
		p.PFree[i] = rng.NormFloat64() * 0.01
	}
	return p
}

// Run checks backend b on problems of a few sizes. newBackend is called
// once; the backend is closed at the end.
func Run(t *testing.T, b physics.Backend) {
	t.Helper()
	defer b.Close()
	// 28 contacts: W_H (56 kB) is below a device backend's direct-copy
	// size but above its O(c) copies.
	for _, c := range []int{1, 7, 28, 40} {
		p := NewProblem(c, int64(c))
		if err := b.Load(upperPoisoned(p.WH, c), c, 500, 1e-12); err != nil {
			t.Fatalf("%s: Load(%d contacts): %v", b.Name(), c, err)
		}
		checkRebuild(t, b, p)
		checkPGS(t, b, p)
		checkCorrection(t, b, p)
		checkPGSIterates(t, b, p)
		checkPGSTolerance(t, b, p)
		checkPGSBilateral(t, b, p)
	}
}

// checkPGSBilateral: a backend that solves bilateral contacts
// (physics.BilateralBackend) gives, with every third contact marked, the
// reference's iterates after two sweeps and its converged forces, those
// contacts in state Held; with the flags cleared the next solve is
// unilateral again. Other backends are not asked.
func checkPGSBilateral(t *testing.T, b physics.Backend, p *Problem) {
	t.Helper()
	bb, ok := b.(physics.BilateralBackend)
	if !ok {
		return
	}
	flags := make([]bool, p.C)
	for a := 0; a < p.C; a += 3 {
		flags[a] = true
	}
	n := 3 * p.C
	for _, tc := range []struct {
		sweeps int
		tol    float64
		rel    float64
	}{{2, 0, 1e-10}, {500, 1e-12, 1e-8}} {
		if err := b.Load(upperPoisoned(p.WH, p.C), p.C, tc.sweeps, tc.tol); err != nil {
			t.Fatalf("%s: Load: %v", b.Name(), err)
		}
		if err := b.RebuildW(p.Frames); err != nil {
			t.Fatalf("%s: RebuildW: %v", b.Name(), err)
		}
		bb.SetBilateral(flags)
		lambda := make([]float64, n)
		if _, err := b.SolvePGS(p.DeltaFree, p.S, p.Mu, lambda); err != nil {
			t.Fatalf("%s: SolvePGS with bilateral contacts: %v", b.Name(), err)
		}
		ref := contact.PGS{MaxIterations: tc.sweeps, Tolerance: tc.tol, Bilateral: flags}
		if i, got, want, ok := matchReference(t, p, lambda, ref, tc.rel); !ok {
			t.Fatalf("%s: %d contacts, every third bilateral, %d sweeps: λ[%d] = %.17g, reference %.17g", b.Name(), p.C, tc.sweeps, i, got, want)
		}
		for a, st := range b.States() {
			if flags[a] != (st == contact.Held) {
				t.Fatalf("%s: contact %d (bilateral %v) in state %v", b.Name(), a, flags[a], st)
			}
		}
		bb.SetBilateral(nil)
		clear(lambda)
		if _, err := b.SolvePGS(p.DeltaFree, p.S, p.Mu, lambda); err != nil {
			t.Fatalf("%s: SolvePGS: %v", b.Name(), err)
		}
		ref.Bilateral = nil
		if i, got, want, ok := matchReference(t, p, lambda, ref, tc.rel); !ok {
			t.Fatalf("%s: flags cleared, %d sweeps: λ[%d] = %.17g, reference %.17g", b.Name(), tc.sweeps, i, got, want)
		}
	}
}

// checkPGSTolerance: a tolerance set after Load (SetPGSTolerance) stops
// the next solve from zero forces at the first sweep whose relative
// change is within it, as the reference PGS with that tolerance does,
// and Load's, set back, as before.
func checkPGSTolerance(t *testing.T, b physics.Backend, p *Problem) {
	t.Helper()
	if err := b.Load(upperPoisoned(p.WH, p.C), p.C, 500, 1e-12); err != nil {
		t.Fatalf("%s: Load(%d contacts): %v", b.Name(), p.C, err)
	}
	if err := b.RebuildW(p.Frames); err != nil {
		t.Fatalf("%s: RebuildW: %v", b.Name(), err)
	}
	W := make([]float64, len(p.WH))
	contact.RebuildW(W, p.WH, p.Frames)
	for _, tol := range []float64{1e-3, 1e-12} {
		b.SetPGSTolerance(tol)
		lambda := make([]float64, 3*p.C)
		res, err := b.SolvePGS(p.DeltaFree, p.S, p.Mu, lambda)
		if err != nil {
			t.Fatalf("%s: SolvePGS: %v", b.Name(), err)
		}
		ref := contact.PGS{MaxIterations: 500, Tolerance: tol}
		want, err := ref.Solve(W, p.C, p.S, p.DeltaFree, p.Mu, make([]float64, 3*p.C))
		if err != nil {
			t.Fatal(err)
		}
		if res.Iterations != want.Iterations || !res.Converged {
			t.Fatalf("%s: %d contacts, tolerance %g: %d sweeps (converged %v), reference %d", b.Name(), p.C, tol, res.Iterations, res.Converged, want.Iterations)
		}
	}
}

// checkPGSIterates compares two Gauss–Seidel sweeps from zero forces with
// the reference's. At convergence any order of visiting the contacts, or
// a gap computed from a stale force, gives the same λ; after two sweeps
// only the reference's order, each contact seeing the newest forces of
// the ones before it, does (to round-off: the sums may run in another
// order). A problem with 40 contacts spans several of a blocked kernel's
// blocks.
func checkPGSIterates(t *testing.T, b physics.Backend, p *Problem) {
	t.Helper()
	const sweeps = 2
	if err := b.Load(upperPoisoned(p.WH, p.C), p.C, sweeps, 0); err != nil {
		t.Fatalf("%s: Load(%d contacts, %d sweeps): %v", b.Name(), p.C, sweeps, err)
	}
	if err := b.RebuildW(p.Frames); err != nil {
		t.Fatalf("%s: RebuildW: %v", b.Name(), err)
	}
	n := 3 * p.C
	lambda := make([]float64, n)
	if _, err := b.SolvePGS(p.DeltaFree, p.S, p.Mu, lambda); err != nil {
		t.Fatalf("%s: SolvePGS: %v", b.Name(), err)
	}
	if i, got, want, ok := matchReference(t, p, lambda, contact.PGS{MaxIterations: sweeps}, 1e-10); !ok {
		t.Fatalf("%s: %d contacts, %d sweeps from zero: λ[%d] = %.17g, the reference's Gauss–Seidel iterate %.17g", b.Name(), p.C, sweeps, i, got, want)
	}
}

// matchReference solves p with the reference solver ref from zero forces
// and compares lambda with its λ to rel times the largest force; on a
// mismatch it returns the first index off and both values.
func matchReference(t *testing.T, p *Problem, lambda []float64, ref contact.PGS, rel float64) (i int, got, want float64, ok bool) {
	t.Helper()
	n := 3 * p.C
	W := make([]float64, n*n)
	if err := contact.RebuildW(W, p.WH, p.Frames); err != nil {
		t.Fatal(err)
	}
	wantL := make([]float64, n)
	if _, err := ref.Solve(W, p.C, p.S, p.DeltaFree, p.Mu, wantL); err != nil {
		t.Fatal(err)
	}
	scale := 0.0
	for _, x := range wantL {
		scale = math.Max(scale, math.Abs(x))
	}
	for i := range wantL {
		if math.Abs(lambda[i]-wantL[i]) > rel*math.Max(scale, 1e-12) {
			return i, lambda[i], wantL[i], false
		}
	}
	return 0, 0, 0, true
}

// upperPoisoned returns a copy of W_H whose strict upper block triangle is
// NaN: the Backend contract guarantees only the lower block triangle, so a
// backend that reads any other entry turns its results into NaN and fails
// the checks.
func upperPoisoned(WH []float64, c int) []float64 {
	n := 3 * c
	out := append([]float64(nil), WH...)
	for a := 0; a < c; a++ {
		for b := a + 1; b < c; b++ {
			for r := 0; r < 3; r++ {
				for q := 0; q < 3; q++ {
					out[(3*a+r)*n+3*b+q] = math.NaN()
				}
			}
		}
	}
	return out
}

// checkRebuild compares W with the dense product C·W_H·Cᵀ on the lower
// triangle (the half that PGS reads).
func checkRebuild(t *testing.T, b physics.Backend, p *Problem) {
	t.Helper()
	if err := b.RebuildW(p.Frames); err != nil {
		t.Fatalf("%s: RebuildW: %v", b.Name(), err)
	}
	n := 3 * p.C
	Cd := blockDiag(p.Frames)
	var want mat.Dense
	want.Product(Cd, mat.NewDense(n, n, p.WH), Cd.T())
	W := b.W()
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			if d := math.Abs(W[i*n+j] - want.At(i, j)); d > 1e-12*math.Max(1, math.Abs(want.At(i, j))) {
				t.Fatalf("%s: %d contacts: W(%d,%d) = %g, want %g", b.Name(), p.C, i, j, W[i*n+j], want.At(i, j))
			}
		}
	}
}

// checkPGS compares the backend's contact forces with the reference PGS
// run on the same W.
func checkPGS(t *testing.T, b physics.Backend, p *Problem) {
	t.Helper()
	n := 3 * p.C
	lambda := make([]float64, n)
	if _, err := b.SolvePGS(p.DeltaFree, p.S, p.Mu, lambda); err != nil {
		t.Fatalf("%s: SolvePGS: %v", b.Name(), err)
	}
	if i, got, want, ok := matchReference(t, p, lambda, contact.PGS{MaxIterations: 500, Tolerance: 1e-12}, 1e-8); !ok {
		t.Fatalf("%s: %d contacts: λ[%d] = %g, reference %g", b.Name(), p.C, i, got, want)
	}
	if len(b.States()) != p.C {
		t.Fatalf("%s: %d states for %d contacts", b.Name(), len(b.States()), p.C)
	}
	if len(b.PGSErrors()) == 0 {
		t.Fatalf("%s: no PGS error record", b.Name())
	}
}

// checkCorrection compares p = p_free + s·W_H·Cᵀλ with the dense product.
func checkCorrection(t *testing.T, b physics.Backend, p *Problem) {
	t.Helper()
	n := 3 * p.C
	rng := rand.New(rand.NewSource(int64(n)))
	lambda := make([]float64, n)
	for i := range lambda {
		if rng.Intn(3) > 0 { // some contacts carry no force
			lambda[i] = rng.NormFloat64()
		}
	}
	got := make([]float64, n)
	if err := b.CorrectP(got, p.PFree, p.Frames, lambda, p.S); err != nil {
		t.Fatalf("%s: CorrectP: %v", b.Name(), err)
	}
	var ct, wh mat.VecDense
	ct.MulVec(blockDiag(p.Frames).T(), mat.NewVecDense(n, lambda))
	wh.MulVec(mat.NewDense(n, n, p.WH), &ct)
	for i := range got {
		want := p.PFree[i] + p.S*wh.AtVec(i)
		if d := math.Abs(got[i] - want); d > 1e-12*math.Max(1, math.Abs(want)) {
			t.Fatalf("%s: %d contacts: p[%d] = %g, want %g", b.Name(), p.C, i, got[i], want)
		}
	}
}

// blockDiag returns the dense block-diagonal matrix of the frames.
func blockDiag(C []m3.Mat3) *mat.Dense {
	n := 3 * len(C)
	D := mat.NewDense(n, n, nil)
	for a := range C {
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				D.Set(3*a+i, 3*a+j, C[a][3*i+j])
			}
		}
	}
	return D
}

// BenchSizes are the contact counts Bench measures: the paper's range
// (100–480) and twice its top.
var BenchSizes = []int{100, 300, 480, 1000}

// Bench times backend be's per-step and per-Newton-iteration stages on a
// NewProblem of each of BenchSizes: Load (W_H in, once per step), RebuildW
// (W = C·W_H·Cᵀ), PGS (sweeps sweeps from zero forces, no early stop) and
// CorrectP (p = p_free + s·W_H·Cᵀλ). Each is timed as the simulation
// calls it, results on the host, so a device backend's transfers and
// synchronisation are in its times. The backend is closed at the end.
func Bench(b *testing.B, be physics.Backend, sweeps int) {
	defer be.Close()
	for _, c := range BenchSizes {
		p := NewProblem(c, int64(c))
		n := 3 * c
		if err := be.Load(p.WH, c, sweeps, 0); err != nil {
			b.Fatalf("%s: Load(%d contacts): %v", be.Name(), c, err)
		}
		if err := be.RebuildW(p.Frames); err != nil {
			b.Fatalf("%s: RebuildW(%d contacts): %v", be.Name(), c, err)
		}
		lambda := make([]float64, n)
		if _, err := be.SolvePGS(p.DeltaFree, p.S, p.Mu, lambda); err != nil {
			b.Fatalf("%s: SolvePGS(%d contacts): %v", be.Name(), c, err)
		}
		solved := append([]float64(nil), lambda...)
		out := make([]float64, n)
		b.Run(fmt.Sprintf("Load/c=%d", c), func(b *testing.B) {
			for b.Loop() {
				if err := be.Load(p.WH, c, sweeps, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("RebuildW/c=%d", c), func(b *testing.B) {
			for b.Loop() {
				if err := be.RebuildW(p.Frames); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("PGS%d/c=%d", sweeps, c), func(b *testing.B) {
			for b.Loop() {
				clear(lambda)
				res, err := be.SolvePGS(p.DeltaFree, p.S, p.Mu, lambda)
				if err != nil {
					b.Fatal(err)
				}
				if res.Iterations != sweeps {
					b.Fatalf("%d sweeps, want %d", res.Iterations, sweeps)
				}
			}
		})
		b.Run(fmt.Sprintf("CorrectP/c=%d", c), func(b *testing.B) {
			for b.Loop() {
				if err := be.CorrectP(out, p.PFree, p.Frames, solved, p.S); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
