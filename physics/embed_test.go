package physics_test

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/mesh"
	"softgrasp/physics/mesh/meshtest"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// mappedBox builds the scene of cfg around a coarse box of coarseDOFs with
// the boundary of a box of fineDOFs, same size and place, mapped onto it
// (identity: the coarse box's own boundary as an explicit embedding).
func mappedBox(t *testing.T, cfg settings.Scenario, coarseDOFs, fineDOFs int, identity bool) *scenario.Scene {
	t.Helper()
	size := cfg.ObjectSize
	var m *mesh.TetMesh
	var emb *mesh.Embedding
	var err error
	if identity {
		m, err = mesh.BoxForDOFs(r3.Vec{X: size, Y: size, Z: size}, coarseDOFs)
		if err == nil {
			emb, err = mesh.BoundaryEmbedding(m)
		}
	} else {
		m, emb, err = meshtest.BoxWithFineSurface(size, coarseDOFs, fineDOFs)
	}
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.BuildObject(cfg, m, emb)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// run steps the scene and returns q and λ after every step.
func run(t *testing.T, sc *scenario.Scene, steps int) (qs, lambdas [][]float64) {
	t.Helper()
	defer sc.Close()
	for i := 0; i < steps; i++ {
		if _, err := sc.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		qs = append(qs, append([]float64(nil), sc.Sim.Positions()...))
		lambdas = append(lambdas, append([]float64(nil), sc.Sim.Lambda()...))
	}
	return qs, lambdas
}

// TestIdentityEmbeddingIsTheBoundary checks that the mesh's own boundary
// given as an explicit embedding (each boundary node a surface point on
// its node with weight 1) gives the trajectory of the plain simulation bit
// for bit, through the grasp, with both schemes.
func TestIdentityEmbeddingIsTheBoundary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four grasp sequences")
	}
	const steps = 150
	for _, scheme := range []settings.Scheme{settings.Fast, settings.Standard} {
		cfg := settings.DefaultScenario(settings.GraspRotate)
		cfg.TargetDOFs = 400
		cfg.Physics.Scheme = scheme
		plain, err := scenario.Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		q0, l0 := run(t, plain, steps)
		q1, l1 := run(t, mappedBox(t, cfg, cfg.TargetDOFs, 0, true), steps)
		contacts := 0
		for i := range q0 {
			if len(l0[i]) > 0 {
				contacts++
			}
			if len(l0[i]) != len(l1[i]) {
				t.Fatalf("%v step %d: %d contact rows plain, %d mapped", scheme, i, len(l0[i]), len(l1[i]))
			}
			for k := range q0[i] {
				if q0[i][k] != q1[i][k] {
					t.Fatalf("%v step %d: coordinate %d is %g plain, %g mapped", scheme, i, k, q0[i][k], q1[i][k])
				}
			}
			for k := range l0[i] {
				if l0[i][k] != l1[i][k] {
					t.Fatalf("%v step %d: λ %d is %g plain, %g mapped", scheme, i, k, l0[i][k], l1[i][k])
				}
			}
		}
		if contacts < steps/3 {
			t.Fatalf("%v: only %d of %d steps had contacts; the test needs a grasp", scheme, contacts, steps)
		}
	}
}

// TestStandardEqualsFastWhenMappingHeldMapped is
// TestStandardEqualsFastWhenMappingHeld on a coarse box with a finer
// surface mapped onto it: with A and H held, W = C·W_H·Cᵀ holds for the
// mapping's H (up to 12 nodes per pair) as for the boundary's.
func TestStandardEqualsFastWhenMappingHeldMapped(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two grasp sequences")
	}
	const steps = 170
	for _, k := range []int{1, 3} {
		fast := mappedBox(t, equalityConfig(settings.Fast, k), 300, 3000, false)
		std := mappedBox(t, equalityConfig(settings.Standard, k), 300, 3000, false)
		physics.FreezeMapping(std.Sim, true)
		qf, lf := run(t, fast, steps)
		qs, ls := run(t, std, steps)
		contacts := 0
		rest := qf[0]
		worstQ, worstL := 0.0, 0.0
		for i := range qf {
			if len(lf[i]) > 0 {
				contacts++
			}
			worstQ = math.Max(worstQ, relDiff(qs[i], qf[i], rest))
			if len(ls[i]) != len(lf[i]) {
				t.Fatalf("K=%d step %d: %d contact rows standard, %d fast", k, i, len(ls[i]), len(lf[i]))
			}
			worstL = math.Max(worstL, relDiff(ls[i], lf[i], nil))
		}
		if contacts < steps/3 {
			t.Fatalf("K=%d: only %d of %d steps had contacts; the test needs a grasp", k, contacts, steps)
		}
		t.Logf("K=%d: worst relative difference q %.3g, λ %.3g", k, worstQ, worstL)
		if worstQ > 1e-9 || worstL > 1e-9 {
			t.Fatalf("K=%d: standard and fast differ by %.3g (q) and %.3g (λ), want ≤ 1e-9", k, worstQ, worstL)
		}
	}
}

// TestMappedSurfaceGrasp runs the whole grasp-and-rotate on a coarse box
// (about 300 DOFs) carrying the surface of a box of about 3000 DOFs, with
// both schemes and both solvers: no divergence, the object held through
// the spin, and the fine surface's penetration (both ways, at the end of
// every step) small.
func TestMappedSurfaceGrasp(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four grasp sequences")
	}
	for _, tc := range []struct {
		scheme settings.Scheme
		solver settings.Solver
	}{
		{settings.Fast, settings.ExactSolver},
		{settings.Fast, settings.AsyncSolver},
		{settings.Standard, settings.ExactSolver},
		{settings.Standard, settings.AsyncSolver},
	} {
		t.Run(tc.scheme.String()+"/"+tc.solver.String(), func(t *testing.T) {
			cfg := settings.DefaultScenario(settings.GraspRotate)
			cfg.Physics.Scheme, cfg.Physics.Solver = tc.scheme, tc.solver
			sc := mappedBox(t, cfg, 300, 3000, false)
			defer sc.Close()
			if h := sc.Sim.Settings().TimeStep; h != 0.01 {
				t.Fatalf("h = %g s, want the default 10 ms", h)
			}
			steps := sc.DefaultSteps()
			pen, soft, rigidPen, viol, maxContacts, sumContacts, maxNodes := 0.0, 0.0, 0.0, 0.0, 0, 0, 0
			for i := 0; i < steps; i++ {
				st, err := sc.Step()
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				pen, soft, rigidPen = math.Max(pen, st.Penetration), math.Max(soft, st.SoftPenetration), math.Max(rigidPen, st.RigidPenetration)
				viol = math.Max(viol, st.Violation)
				maxContacts = max(maxContacts, st.Contacts)
				sumContacts += st.Contacts
				for _, pr := range sc.Sim.Pairs() {
					maxNodes = max(maxNodes, pr.Count)
				}
			}
			live := sc.Live()
			t.Logf("%d steps, %d DOFs, %d surface triangles: penetration max %.3g mm (soft points %.3g mm, rigid samples %.3g mm), violation of the contact distance max %.3g mm; contacts max %d, mean %.0f; up to %d nodes per pair; held %v, grip %.3g N, slip %.3g mm",
				steps, sc.Sim.Model().DOFs(), len(sc.Sim.Surface().Tris), pen*1e3, soft*1e3, rigidPen*1e3, viol*1e3,
				maxContacts, float64(sumContacts)/float64(steps), maxNodes, live.Held, live.GripForce, live.Slip*1e3)
			if pen > 0.5e-3 {
				t.Fatalf("the fine surface's penetration reached %.3g mm", pen*1e3)
			}
			if !live.Held || live.GripForce <= 0 {
				t.Fatalf("not held at the end: held %v, grip force %.3g N", live.Held, live.GripForce)
			}
		})
	}
}

// TestMappedWarmStepsAllocateNothing is TestWarmStepsAllocateNothing with
// a surface mapped onto the mesh, also with a contact budget small enough
// to thin the pairs of every step of the grasp.
func TestMappedWarmStepsAllocateNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grasp scene four times")
	}
	for _, tc := range []struct {
		solver settings.Solver
		scheme settings.Scheme
		budget int
	}{
		{settings.ExactSolver, settings.Fast, 300},
		{settings.AsyncSolver, settings.Fast, 300},
		{settings.ExactSolver, settings.Standard, 300},
		{settings.AsyncSolver, settings.Fast, 40},
	} {
		t.Run(fmt.Sprintf("%v/%v/budget %d", tc.solver, tc.scheme, tc.budget), func(t *testing.T) {
			cfg := settings.DefaultScenario(settings.GraspRotate)
			cfg.Physics.Solver, cfg.Physics.Scheme = tc.solver, tc.scheme
			cfg.Physics.ContactBudget = tc.budget
			// The asynchronous worker swaps its factors in a fixed number of
			// steps after they start (as recordings do), so that which step
			// first hands it its largest node set, and grows its buffers,
			// does not depend on the machine's load: as soon as ready, one
			// loaded run in a few measured a growth within the 40 steps.
			cfg.Physics.AsyncLag = 4
			sc := mappedBox(t, cfg, 300, 3000, false)
			defer sc.Close()
			thinned := 0
			step := func() {
				st, err := sc.Step()
				if err != nil {
					t.Fatal(err)
				}
				if st.Contacts < st.Found {
					thinned++
				}
			}
			for i := 0; i < 150; i++ {
				step()
			}
			if n := testing.AllocsPerRun(40, step); n != 0 {
				t.Fatalf("%v allocations per warm step", n)
			}
			if tc.budget < 100 && thinned < 40 {
				t.Fatalf("the budget thinned the pairs of %d steps; the test needs it to act", thinned)
			}
		})
	}
}
