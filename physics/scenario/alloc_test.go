package scenario

import (
	"testing"

	"softgrasp/physics/settings"
)

// TestWarmStepsAllocateNothing steps the default grasp into the spin and
// then counts heap allocations per step (testing.AllocsPerRun counts those
// of every goroutine, so the background factorisation of the asynchronous
// solver is included): none, with either solver, with the standard
// scheme and with the fast scheme's re-mapping; and none in the stack
// (soft–soft contact) and in the soft-fingers scene while its cube rests
// on the floor (rigid–rigid contact).
func TestWarmStepsAllocateNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the grasp scene three times")
	}
	for _, tc := range []struct {
		kind    settings.Kind
		solver  settings.Solver
		scheme  settings.Scheme
		mapping settings.FastMapping
		warm    int // steps before counting: grasped, lifted and turning
	}{
		{settings.GraspRotate, settings.ExactSolver, settings.Fast, settings.MappingHeld, 150},
		{settings.GraspRotate, settings.AsyncSolver, settings.Fast, settings.MappingHeld, 150},
		{settings.GraspRotate, settings.ExactSolver, settings.Standard, settings.MappingHeld, 150},
		{settings.GraspRotate, settings.ExactSolver, settings.Fast, settings.MappingRemapped, 150},
		// soft–soft pairs (the stack squeezed and lifted) and rigid–rigid
		// ones (the soft-fingers cube on the floor while the pads close)
		{settings.Stack, settings.AsyncSolver, settings.Fast, settings.MappingHeld, 120},
		{settings.SoftFingers, settings.AsyncSolver, settings.Fast, settings.MappingHeld, 20},
	} {
		t.Run(string(tc.kind)+"/"+tc.solver.String()+"/"+tc.scheme.String()+"/"+tc.mapping.String(), func(t *testing.T) {
			cfg := settings.DefaultScenario(tc.kind).WithKind(tc.kind)
			cfg.TargetDOFs = 1000
			cfg.Physics.Solver, cfg.Physics.Scheme = tc.solver, tc.scheme
			cfg.Physics.FastMapping = tc.mapping
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
			for i := 0; i < tc.warm; i++ {
				step()
			}
			if n := testing.AllocsPerRun(40, step); n != 0 {
				t.Fatalf("%v allocations per warm step", n)
			}
		})
	}
}
