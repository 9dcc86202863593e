package scenario

import (
	"testing"

	"softgrasp/physics/settings"
)

// TestWarmStepsAllocateNothing steps the default grasp into the spin and
// then counts heap allocations per step (testing.AllocsPerRun counts those
// of every goroutine, so the background factorisation of the asynchronous
// solver is included): none, with either solver, and with the standard
// scheme.
func TestWarmStepsAllocateNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grasp scene three times")
	}
	for _, tc := range []struct {
		solver settings.Solver
		scheme settings.Scheme
	}{
		{settings.ExactSolver, settings.Fast},
		{settings.AsyncSolver, settings.Fast},
		{settings.ExactSolver, settings.Standard},
	} {
		t.Run(tc.solver.String()+"/"+tc.scheme.String(), func(t *testing.T) {
			cfg := settings.DefaultScenario(settings.GraspRotate)
			cfg.TargetDOFs = 1000
			cfg.Physics.Solver, cfg.Physics.Scheme = tc.solver, tc.scheme
			sc, err := Build(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer sc.Close()
			step := func() {
				if _, err := sc.Step(); err != nil {
					t.Fatal(err)
				}
			}
			for i := 0; i < 150; i++ { // grasped, lifted and turning
				step()
			}
			if n := testing.AllocsPerRun(40, step); n != 0 {
				t.Fatalf("%v allocations per warm step", n)
			}
		})
	}
}
