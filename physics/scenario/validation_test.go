package scenario

import (
	"math"
	"testing"

	"softgrasp/physics/settings"
)

// runScene builds cfg, runs its scripted length and returns the summary.
func runScene(t *testing.T, cfg settings.Scenario) Summary {
	t.Helper()
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for i, n := 0, sc.DefaultSteps(); i < n; i++ {
		if _, err := sc.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	return sc.Summary()
}

// inclineConfig is a coarse block on a slope whose tangent is ratio·μ.
func inclineConfig(ratio float64) settings.Scenario {
	cfg := settings.DefaultScenario(settings.Incline)
	cfg.TargetDOFs = 600
	cfg.Physics.Friction = 0.5
	cfg.Physics.PGSIterations = 100
	cfg.InclineAngle = math.Atan(ratio * cfg.Physics.Friction)
	return cfg
}

// TestInclineFrictionThreshold checks Coulomb's law on the whole pipeline:
// a soft block on a slope sticks when tan θ is 2 % below μ and slides when
// it is 2 % above, and then with the acceleration a rigid block would have,
// g·(sin θ − μ·cos θ).
func TestInclineFrictionThreshold(t *testing.T) {
	stick := runScene(t, inclineConfig(0.98)).Incline
	t.Logf("tan θ = 0.98 μ: moved %.3f mm, speed %.2e m/s", stick.Displacement*1e3, stick.Speed)
	if stick.Displacement > 2e-3 || math.Abs(stick.Speed) > 1e-3 {
		t.Fatalf("below the friction threshold the block moved %.3f mm and still moves at %.3g m/s: it should stick",
			stick.Displacement*1e3, stick.Speed)
	}
	slide := runScene(t, inclineConfig(1.02))
	in := slide.Incline
	t.Logf("tan θ = 1.02 μ: moved %.3f mm (rigid Coulomb %.3f mm), speed %.4f m/s", in.Displacement*1e3, in.Predicted*1e3, in.Speed)
	if in.Displacement < 10*stick.Displacement || in.Displacement < 5e-3 {
		t.Fatalf("above the threshold the block moved only %.3f mm: it should slide", in.Displacement*1e3)
	}
	// The speed at the end gives the acceleration of the slide, hence the
	// friction coefficient the simulation actually applied.
	theta := math.Atan(1.02 * 0.5)
	a := in.Speed / slide.SimSeconds
	g := 9.81
	muEff := (math.Sin(theta) - a/g) / math.Cos(theta)
	t.Logf("effective μ during the slide: %.4f (set 0.5)", muEff)
	if math.Abs(muEff-0.5) > 0.005 {
		t.Fatalf("sliding block has effective μ %.4f, want 0.5 within 1 %%", muEff)
	}
}

// TestDropRestsOnTheFloor checks Signorini's law: a soft box dropped on the
// floor comes to rest without penetrating it, carried by a normal force
// equal to its weight.
func TestDropRestsOnTheFloor(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Drop)
	cfg.TargetDOFs = 800
	s := runScene(t, cfg)
	d := s.Drop
	t.Logf("floor force %.5f N, weight %.5f N, penetration %.3g m, speed %.3g m/s", d.NormalForce, d.Weight, d.Penetration, d.Speed)
	if math.Abs(d.NormalForce-d.Weight) > 0.02*d.Weight {
		t.Fatalf("at rest the floor carries %.4f N for a weight of %.4f N", d.NormalForce, d.Weight)
	}
	if d.Penetration > cfg.Physics.ContactDistance {
		t.Fatalf("resting penetration %.3g m exceeds the contact distance %.3g m", d.Penetration, cfg.Physics.ContactDistance)
	}
	if s.MaxPenetration > 1e-4 {
		t.Fatalf("the impact penetrated %.3g m", s.MaxPenetration)
	}
	if d.Speed > 5e-3 {
		t.Fatalf("after %.1f s the object still moves at %.3g m/s", s.SimSeconds, d.Speed)
	}
}
