package physics_test

import (
	"math"
	"slices"
	"testing"

	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// TestPGSSingleFrom runs the grasp on a mapped box with W kept in single
// precision in every step (PGSSingleFrom 1) and in double (0): the exact
// solver ignores the setting (the same q, bit for bit), the asynchronous
// solver uses it (q differs) and stays within the rounding's reach of the
// double run.
func TestPGSSingleFrom(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grasp four times")
	}
	const steps = 120 // through the closing of the jaws
	runWith := func(solver settings.Solver, from int) [][]float64 {
		return mappedGrasp(t, steps, func(p *settings.Settings) {
			p.Solver = solver
			p.AsyncLag = 4 // deterministic swaps of the factor
			p.PGSSingleFrom = from
		})
	}
	exact1, exact0 := runWith(settings.ExactSolver, 1), runWith(settings.ExactSolver, 0)
	if !slices.Equal(exact1[steps-1], exact0[steps-1]) {
		t.Fatal("the exact solver's steps changed with PGSSingleFrom")
	}
	async1, async0 := runWith(settings.AsyncSolver, 1), runWith(settings.AsyncSolver, 0)
	apart := func(from, to int) float64 { return largestApart(async1, async0, from, to) }
	// Until the jaws reach the box (about step 85) it rests on the floor,
	// its floor pairs solved on the single W in every step: the rounding
	// alone, 4e-10 to 1.0e-9 m (the same with OpenBLAS's Haswell and
	// SkylakeX kernels); the bound is five times that.
	const resting = 80
	early, all := apart(0, resting), apart(0, steps)
	t.Logf("largest node difference: %.3g m in the first %d steps, %.3g m over %d", early, resting, all, steps)
	if early == 0 {
		t.Fatal("PGSSingleFrom 1 left the asynchronous steps unchanged: W was not kept in single precision")
	}
	if early > 5e-9 {
		t.Fatalf("single and double W moved a node apart by %.3g m before the jaws touched", early)
	}
	// Once the jaws squeeze, a difference that small can end a step's
	// Newton iterations one iteration sooner or later (they stop on a move
	// of 1 µm, NewtonPositionTolerance), which shifts nodes by micrometres:
	// 3e-8 m with the SkylakeX kernels, 3.3e-6 m with Haswell's. The bound
	// is ten times the tolerance that decides it.
	if all > 1e-5 {
		t.Fatalf("single and double W moved a node apart by %.3g m", all)
	}
}

// TestCompliancePrecision runs the grasp on a mapped box (the exact
// solver's W_H from the compliance kernel, the asynchronous solver's
// from the node compliances) with the compliance products in single and
// in double precision: single moves the nodes (the option is used) and
// stays within the rounding's reach of double.
func TestCompliancePrecision(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grasp four times")
	}
	const steps, resting = 120, 80 // through the closing of the jaws; resting until about step 85
	for _, solver := range []settings.Solver{settings.ExactSolver, settings.AsyncSolver} {
		runWith := func(precision settings.Precision) [][]float64 {
			return mappedGrasp(t, steps, func(p *settings.Settings) {
				p.Solver = solver
				p.AsyncLag = 4 // deterministic swaps of the factor
				p.CompliancePrecision = precision
			})
		}
		single, double := runWith(settings.PrecisionSingle), runWith(settings.PrecisionDouble)
		apart := func(from, to int) float64 { return largestApart(single, double, from, to) }
		early, all := apart(0, resting), apart(0, steps)
		t.Logf("%v: largest node difference %.3g m in the first %d steps, %.3g m over %d", solver, early, resting, all, steps)
		if early == 0 {
			t.Fatalf("%v: single precision left the steps unchanged", solver)
		}
		// Measured with OpenBLAS's Haswell kernels (as the tests run):
		// 1.1e-8 and 9.0e-9 m at rest, 2.1e-8 and 5.0e-8 m over the 120
		// steps (exact, async); the bounds are five times the larger.
		if early > 5e-8 {
			t.Fatalf("%v: single and double compliance moved a node apart by %.3g m before the jaws touched", solver, early)
		}
		if all > 2.5e-7 {
			t.Fatalf("%v: single and double compliance moved a node apart by %.3g m", solver, all)
		}
	}
}

// TestComplianceThreads runs the start of the default grasp (3k DOFs, the
// box on the floor: enough right-hand sides for the split) with the exact
// solver's compliance on two threads and on one, both schemes: the nodes
// agree to round-off (measured over the whole run in the fast scheme: 5e-16
// m), and they are not the same bits, so the two-thread kernel ran.
func TestComplianceThreads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grasp four times")
	}
	const steps = 40 // resting on the floor: about 100 floor pairs
	for _, scheme := range []settings.Scheme{settings.Fast, settings.Standard} {
		runWith := func(threads int) [][]float64 {
			cfg := settings.DefaultScenario(settings.GraspRotate)
			cfg.Physics.Scheme = scheme
			cfg.Physics.ComplianceThreads = threads
			sc, err := scenario.Build(cfg)
			if err != nil {
				t.Fatal(err)
			}
			qs, _ := run(t, sc, steps)
			return qs
		}
		two, one := runWith(2), runWith(1)
		worst := largestApart(two, one, 0, steps)
		t.Logf("%v: largest node difference %.3g m over %d steps", scheme, worst, steps)
		if worst == 0 {
			t.Fatalf("%v: two threads gave the same bits: the split did not run", scheme)
		}
		// Measured 3.1e-17 and 2.8e-17 m (a position of 0.1 m has an ulp
		// of 1.4e-17 m); the bound is about five times that.
		if worst > 1.5e-16 {
			t.Fatalf("%v: two threads moved a node %.3g m from one thread's run", scheme, worst)
		}
	}
}

// mappedGrasp runs the default grasp for steps steps on the mapped box of
// these tests (a 300-triangle surface on 3000 DOFs), with set changing
// its physics settings, and returns the node positions of every step.
func mappedGrasp(t *testing.T, steps int, set func(*settings.Settings)) [][]float64 {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	set(&cfg.Physics)
	qs, _ := run(t, mappedBox(t, cfg, 300, 3000, false), steps)
	return qs
}

// largestApart is the largest difference of a coordinate between the runs
// a and b (positions per step) over the steps [from, to).
func largestApart(a, b [][]float64, from, to int) float64 {
	worst := 0.0
	for i := from; i < to; i++ {
		for j := range b[i] {
			worst = math.Max(worst, math.Abs(a[i][j]-b[i][j]))
		}
	}
	return worst
}

// TestSingleWWithSingleCompliance: with the compliance products in single
// precision the exact solver keeps W in single precision for PGS too, from
// PGSSingleFrom contacts on, in both schemes: PGSSingleFrom 1 moves the
// nodes from PGSSingleFrom 0 (the path is taken) by no more than W's
// rounding can.
func TestSingleWWithSingleCompliance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grasp four times")
	}
	const steps, resting = 120, 80
	for _, scheme := range []settings.Scheme{settings.Fast, settings.Standard} {
		runWith := func(from int) [][]float64 {
			return mappedGrasp(t, steps, func(p *settings.Settings) {
				p.Scheme = scheme
				p.CompliancePrecision = settings.PrecisionSingle
				p.PGSSingleFrom = from
			})
		}
		single, double := runWith(1), runWith(0)
		early, all := largestApart(single, double, 0, resting), largestApart(single, double, 0, steps)
		t.Logf("%v: largest node difference %.3g m in the first %d steps, %.3g m over %d", scheme, early, resting, all, steps)
		if early == 0 {
			t.Fatalf("%v: PGSSingleFrom 1 left the exact steps unchanged under single precision compliance", scheme)
		}
		// Measured 3.5e-9 and 3.0e-9 m resting, 3.3e-8 and 1.9e-8 m over
		// the 120 steps (fast, standard); the bounds are five times the
		// larger.
		if early > 2e-8 || all > 2e-7 {
			t.Fatalf("%v: single W moved a node %.3g m (resting) and %.3g m (all)", scheme, early, all)
		}
	}
}
