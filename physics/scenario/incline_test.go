package scenario

import (
	"math"
	"testing"

	"softgrasp/physics/settings"
)

// TestInclineOverridesFrictionInTheSteps checks that the incline's hold
// and release ramp reach the steps as the simulation's friction override
// and never as its settings: the configuration and the summary show the
// configured μ throughout, the override is the holding μ, falls over the
// ramp and is lifted at the release, and a μ set during the hold is the
// one the ramp ends at.
func TestInclineOverridesFrictionInTheSteps(t *testing.T) {
	cfg := inclineConfig(0.9)
	cfg.TargetDOFs = 300
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	hold := inclineHoldFriction(cfg.InclineAngle, 0.5)
	if mu, on := sc.Sim.FrictionOverride(); !on || mu != hold {
		t.Fatalf("built: override %g (on %v), want the holding μ %g", mu, on, hold)
	}
	set := sc.Sim.Settings()
	set.Friction = 0.4
	if err := sc.SetSettings(set); err != nil {
		t.Fatal(err)
	}
	if mu, on := sc.Sim.FrictionOverride(); !on || mu != hold {
		t.Fatalf("μ set while held: override %g (on %v), want it kept at %g", mu, on, hold)
	}
	last := hold
	for i, n := 0, sc.DefaultSteps(); i < n; i++ {
		if _, err := sc.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got := sc.Config().Physics.Friction; got != 0.4 {
			t.Fatalf("step %d: configuration shows μ = %g, want the configured 0.4", i, got)
		}
		mu, on := sc.Sim.FrictionOverride()
		if sc.holding() != on {
			t.Fatalf("step %d: override on %v while holding %v", i, on, sc.holding())
		}
		if on && (mu > last || mu <= 0.4) {
			t.Fatalf("step %d: override %g after %g: want it falling towards 0.4", i, mu, last)
		}
		if on {
			last = mu
		}
	}
	if sc.holding() {
		t.Fatal("the block was never released")
	}
	s := sc.Summary()
	if s.Mu != 0.4 || s.MuOverride != nil {
		t.Fatalf("summary μ %g, override %v: want 0.4 and none", s.Mu, s.MuOverride)
	}
	want := math.Max(0, 9.81*(math.Sin(cfg.InclineAngle)-0.4*math.Cos(cfg.InclineAngle)))
	if math.Abs(s.Incline.PredictedAcceleration-want) > 0.01*want {
		t.Fatalf("predicted acceleration %g for μ = 0.4, want about %g", s.Incline.PredictedAcceleration, want)
	}
}

// TestFollowerTakesTheLeadsOverride checks that an A/B scene B takes A's
// friction override as it stands: the holding μ while A holds its block,
// none once A has released it.
func TestFollowerTakesTheLeadsOverride(t *testing.T) {
	cfg := inclineConfig(0.9)
	cfg.TargetDOFs = 300
	a, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, steps := range []int{1, int(math.Ceil((inclineSettle + inclineRamp) / cfg.Physics.TimeStep))} {
		for i := 0; i < steps; i++ {
			if _, err := a.Step(); err != nil {
				t.Fatal(err)
			}
		}
		bcfg, err := settings.ApplyAB(a.Config(), "pgs=60")
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewFollower(a, bcfg)
		if err != nil {
			t.Fatal(err)
		}
		muA, onA := a.Sim.FrictionOverride()
		muB, onB := b.Sim.FrictionOverride()
		b.Close()
		if muA != muB || onA != onB {
			t.Fatalf("at t = %g s: B's override %g (on %v), A's %g (on %v)", a.Sim.Time(), muB, onB, muA, onA)
		}
	}
	if _, on := a.Sim.FrictionOverride(); on {
		t.Fatal("A still holds its block after the ramp")
	}
}
