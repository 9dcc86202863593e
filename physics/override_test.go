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
