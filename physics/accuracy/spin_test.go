package accuracy

import (
	"math"
	"testing"

	"softgrasp/physics/settings"
)

// TestSpinKeepsItsShape is the spin test of docs/method.md ("Newton on
// the whole residual", "Stiffness damping on the stretch rate"): a free
// 1k-DOF box given a rigid spin of 8π rad/s. With the internal forces
// linearised once per step at h = 20 ms the rigid increment h·v, in the
// kernel of the corotational K at q_t, is not resisted and the box
// inflates by about 12 % and stays so; Newton on the whole residual must
// follow the reference, the same iteration at h = 1 ms, itself within
// 0.05 % of h = 0.5 ms. The control is the linearised step, which the
// test must find inflated. (The stiffness damping on the velocity, a mode
// since removed, shrank the box by 2 % in the first step: β·K(q)·v reads
// the chord of the 0.5 rad turn as a stretch rate; docs/method.md.)
func TestSpinKeepsItsShape(t *testing.T) {
	if testing.Short() {
		t.Skip("runs five spins")
	}
	const dofs, size, omega = 1000, 0.04, 8 * math.Pi
	run := func(h, tol float64) ([]float64, float64) {
		set := settings.Default()
		set.TimeStep, set.ElasticTolerance, set.NewtonIterations = h, tol, 10
		set.ElasticTurn = 0 // every step
		g, its, err := SpinGyration(dofs, size, omega, spinDuration, spinSample, set, nil)
		if err != nil {
			t.Fatalf("h = %g s: %v", h, err)
		}
		return g, its
	}
	lin, _ := run(0.02, 0)
	newton, its := run(0.02, 1e-7)
	ref, _ := run(0.001, 1e-7)
	fine, _ := run(0.0005, 1e-7)
	maxDiff := func(a, b []float64) float64 {
		d := 0.0
		for i := range a {
			d = math.Max(d, math.Abs(a[i]-b[i]))
		}
		return d
	}
	refErr, linErr, newtonErr := maxDiff(ref, fine), maxDiff(lin, ref), maxDiff(newton, ref)
	last := len(ref) - 1
	endErr := math.Abs(newton[last] - ref[last])
	t.Logf("radius of gyration against the reference (h = 1 ms), max over %g s: linearised %.2f %%, Newton %.3f %% (%.1f iterations per step), Newton at the end %.3f %%; reference against h = 0.5 ms %.3f %%",
		spinDuration, 100*linErr, 100*newtonErr, its, 100*endErr, 100*refErr)
	if refErr > 5e-4 {
		t.Fatalf("the reference is not converged in h: %.3f %% from h = 0.5 ms", 100*refErr)
	}
	if linErr < 0.05 {
		t.Fatalf("the linearised step inflated the box by only %.2f %%: the test no longer shows the effect", 100*linErr)
	}
	// Measured 0.080 % at most and 0.075 % at the end (the issue's
	// target is 1 %); the bounds leave 2.5× for other BLAS builds.
	if newtonErr > 0.002 || endErr > 0.002 {
		t.Fatalf("Newton on the whole residual: radius of gyration %.3f %% from the reference at most and %.3f %% at the end, want ≤ 0.2 %%",
			100*newtonErr, 100*endErr)
	}
}

// TestSpinCases: one linearised row per ω and h at the largest K, and one
// with Newton on the whole residual when ElasticRows is set.
func TestSpinCases(t *testing.T) {
	o := Quick()
	o.Omegas, o.DTs, o.Newtons = []float64{1, 2}, []float64{0.01, 0.02}, []int{1, 5}
	rows := o.SpinCases()
	if len(rows) != 8 {
		t.Fatalf("%d spin rows, want 8", len(rows))
	}
	for i, r := range rows {
		if r.Newton != 5 || (i%2 == 1) != (r.Elastic > 0) {
			t.Fatalf("row %d: %+v", i, r)
		}
	}
	o.ElasticRows = 0
	if n := len(o.SpinCases()); n != 4 {
		t.Fatalf("%d spin rows without ElasticRows, want 4", n)
	}
}

// TestSpinDefaultSettings runs the spin test with the default settings,
// in which Newton on the whole residual is gated by the body's turn per
// step (Settings.ElasticTurn, 0.1 rad) and a turning step starts from the
// body's rigid motion (Settings.TurnStart). At ω = 8π and 4π, h = 20 ms,
// the gate opens (ω·h = 0.5 and 0.25 rad) and the box keeps its shape as
// with the iteration in every step (TestSpinKeepsItsShape: implicit
// Euler's own first-step contraction, 2 % at 0.5 rad, then within 0.3 %),
// where the linearised step inflates it by 12 % and 3.6 %. At ω·h = 0.063
// rad (π, 20 ms) the gate stays shut and the step is the linearised one
// to the last bit.
func TestSpinDefaultSettings(t *testing.T) {
	if testing.Short() {
		t.Skip("runs eight spins")
	}
	const dofs, size = 300, 0.04
	run := func(omega, h float64, change func(*settings.Settings)) ([]float64, float64) {
		set := settings.Default()
		set.TimeStep = h
		change(&set)
		g, its, err := SpinGyration(dofs, size, omega, spinDuration, spinSample, set, nil)
		if err != nil {
			t.Fatalf("ω = %g rad/s, h = %g s: %v", omega, h, err)
		}
		return g, its
	}
	asIs := func(*settings.Settings) {}
	linearised := func(s *settings.Settings) { s.ElasticTolerance = 0 }
	reference := func(s *settings.Settings) { s.ElasticTolerance, s.ElasticTurn, s.NewtonIterations = 1e-7, 0, 10 }
	maxDiff := func(a, b []float64) float64 {
		d := 0.0
		for i := range a {
			d = math.Max(d, math.Abs(a[i]-b[i]))
		}
		return d
	}
	for _, tc := range []struct {
		omega            float64
		linMin, max, end float64 // the linearised step's error at least; the default's at most, and at the end
	}{
		{8 * math.Pi, 0.05, 0.025, 0.005}, // measured 11.95 %; 2.05 %, −0.26 %
		{4 * math.Pi, 0.02, 0.008, 0.005}, // measured 3.63 %; 0.64 %, −0.22 %
	} {
		ref, _ := run(tc.omega, 0.001, reference)
		def, its := run(tc.omega, 0.02, asIs)
		lin, _ := run(tc.omega, 0.02, linearised)
		defErr, linErr := maxDiff(def, ref), maxDiff(lin, ref)
		last := len(ref) - 1
		endErr := math.Abs(def[last] - ref[last])
		t.Logf("ω = %.3g rad/s, h = 20 ms: radius of gyration against the reference, max over %g s: default settings %.2f %% (%.2f %% at the end, %.1f Newton iterations per step), linearised %.2f %%",
			tc.omega, spinDuration, 100*defErr, 100*endErr, its, 100*linErr)
		if linErr < tc.linMin {
			t.Fatalf("ω = %.3g: the linearised step inflated the box by only %.2f %%: the test no longer shows the effect", tc.omega, 100*linErr)
		}
		if defErr > tc.max || endErr > tc.end || its < 0.5 {
			t.Fatalf("ω = %.3g, default settings: radius of gyration %.2f %% from the reference at most and %.2f %% at the end (%.2f iterations per step), want ≤ %.1f %% and ≤ %.1f %%",
				tc.omega, 100*defErr, 100*endErr, its, 100*tc.max, 100*tc.end)
		}
	}
	def, _ := run(math.Pi, 0.02, asIs)
	lin, _ := run(math.Pi, 0.02, linearised)
	for i := range def {
		if def[i] != lin[i] {
			t.Fatalf("ω·h = 0.063 rad: sample %d differs from the linearised step (%g, %g): the gate opened below ElasticTurn", i, def[i], lin[i])
		}
	}
}
