package accuracy

import (
	"testing"

	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// TestPredictedTurnStart compares the two starts of a turning step's free
// motion (Settings.TurnStart) on the fast-spin grasp (ω = 8π rad/s,
// h = 20 ms: 0.5 rad per step) at 300 DOFs and one turn, at equal work
// (K = 5, 30 sweeps, the same steps): from the body's rigid motion over
// the step the jaws' rim sinks into the object by a fraction of what it
// does from the internal forces linearised at q_t, which extrapolate the
// turn along its tangent (docs/method.md, "A turning step starts from its
// rigid motion"; measured 0.0111 against 0.0989 mm).
func TestPredictedTurnStart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fast-spin grasp twice")
	}
	run := func(start settings.TurnStart) scenario.Summary {
		cfg := settings.DefaultScenario(settings.FastSpin)
		cfg.TargetDOFs, cfg.SpinTurns = 300, 1
		cfg.Physics.TurnStart = start
		sc, err := scenario.Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer sc.Close()
		for i, n := 0, sc.DefaultSteps(); i < n; i++ {
			if _, err := sc.Step(); err != nil {
				t.Fatalf("%v, step %d: %v", start, i, err)
			}
		}
		return sc.Summary()
	}
	pred, lin := run(settings.TurnPredicted), run(settings.TurnLinearised)
	t.Logf("max penetration: predicted %.4f mm, linearised %.4f mm; slip %.3f and %.3f mm; %d and %d steps iterated on the whole residual",
		pred.MaxPenetration*1e3, lin.MaxPenetration*1e3, pred.Slip*1e3, lin.Slip*1e3, pred.ElasticSteps, lin.ElasticSteps)
	if !pred.Held || !lin.Held || pred.ElasticSteps < 10 || lin.ElasticSteps < 10 {
		t.Fatalf("held %v and %v, %d and %d steps on the whole residual: the comparison needs both grasps held and turning fast",
			pred.Held, lin.Held, pred.ElasticSteps, lin.ElasticSteps)
	}
	if lin.MaxPenetration < 0.05e-3 {
		t.Fatalf("the linearised start sinks only %.4f mm: the scene no longer shows the effect", lin.MaxPenetration*1e3)
	}
	if pred.MaxPenetration > lin.MaxPenetration/4 {
		t.Fatalf("the predicted start sinks %.4f mm, more than a quarter of the linearised start's %.4f mm", pred.MaxPenetration*1e3, lin.MaxPenetration*1e3)
	}
}
