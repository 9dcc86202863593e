package physics_test

import (
	"math"
	"slices"
	"testing"

	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// TestFrictionOverride checks that the steps solve the contacts with the
// override's μ, not the settings': two blocks on a slope whose settings
// differ in μ only move alike under the same override, and apart once one
// of them lifts it. It also checks the override's arguments.
func TestFrictionOverride(t *testing.T) {
	run := func(mu float64, override bool) []float64 {
		cfg := settings.DefaultScenario(settings.Incline)
		cfg.TargetDOFs = 300
		cfg.InclineAngle = math.Atan(0.5)
		cfg.Physics.Friction = mu
		sc, err := scenario.Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer sc.Close()
		if err := sc.Sim.SetFrictionOverride(0.3, override); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 15; i++ {
			if _, err := sc.Sim.Step(); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		if got := sc.Sim.Settings().Friction; got != mu {
			t.Fatalf("settings' μ %g after overridden steps, want %g", got, mu)
		}
		return append([]float64(nil), sc.Sim.Positions()...)
	}
	a, b, free := run(0.9, true), run(0.6, true), run(0.9, false)
	if !slices.Equal(a, b) {
		t.Error("under the same override, settings with μ = 0.9 and 0.6 give different motions")
	}
	if slices.Equal(a, free) {
		t.Error("μ = 0.9 gives the same motion with and without an override of 0.3")
	}

	cfg := settings.DefaultScenario(settings.Drop)
	cfg.TargetDOFs = 300
	sc, err := scenario.Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for _, mu := range []float64{-0.1, math.NaN(), math.Inf(1)} {
		if err := sc.Sim.SetFrictionOverride(mu, true); err == nil {
			t.Errorf("override μ = %g accepted", mu)
		}
	}
	if err := sc.Sim.SetFrictionOverride(math.NaN(), false); err != nil {
		t.Errorf("lifting the override: %v", err)
	}
	if mu, on := sc.Sim.FrictionOverride(); mu != 0 || on {
		t.Errorf("lifted override reads %g, %v", mu, on)
	}
}

// TestFrictionOverrideStopsNewton checks that the contact law's residual,
// which stops the Newton iterations under a contact tolerance, measures
// the step's μ (the override) and not the settings': blocks sliding down
// a slope at μ = 0.3 move alike whether 0.3 is their setting or an
// override of a setting of 0.9. With the settings' μ the sliding blocks
// look like sticking ones that slip, their residual never falls below
// the tolerance, and the two runs take different numbers of iterations.
// Frictionless blocks (an override of 0) slide lawfully at any speed:
// their residual is their gaps' alone.
func TestFrictionOverrideStopsNewton(t *testing.T) {
	const tol = 1e-4
	run := func(mu, override float64) ([]float64, int, float64) {
		cfg := settings.DefaultScenario(settings.Incline)
		cfg.TargetDOFs = 300
		cfg.InclineAngle = math.Atan(0.5)
		cfg.Physics.Friction = mu
		cfg.Physics.ContactTolerance = tol
		sc, err := scenario.Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer sc.Close()
		if err := sc.Sim.SetFrictionOverride(override, override >= 0); err != nil {
			t.Fatal(err)
		}
		iters, worst := 0, 0.0
		for i := 0; i < 15; i++ {
			st, err := sc.Sim.Step()
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			iters += len(st.Newton)
			if n := len(st.Newton); n > 0 {
				worst = max(worst, st.Newton[n-1].ContactResidual)
			}
		}
		return append([]float64(nil), sc.Sim.Positions()...), iters, worst
	}
	set, setIters, _ := run(0.3, -1)
	over, overIters, _ := run(0.9, 0.3)
	if setIters != overIters {
		t.Errorf("Newton iterations over 15 steps: %d with μ = 0.3 set, %d with 0.3 as an override of 0.9", setIters, overIters)
	}
	if !slices.Equal(set, over) {
		t.Error("μ = 0.3 set and μ = 0.3 as an override of 0.9 give different motions")
	}
	if _, _, worst := run(0.9, 0); worst > tol {
		t.Errorf("frictionless blocks end their steps with a contact residual of %.3g m, above the tolerance %.3g m", worst, tol)
	}
}
