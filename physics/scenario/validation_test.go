package scenario

import (
	"math"
	"testing"

	"softgrasp/physics/settings"
)

// runScene builds cfg, runs its scripted length and returns the summary.
func runScene(t *testing.T, cfg settings.Scenario) Summary {
	t.Helper()
	sc := runSceneOpen(t, cfg)
	defer sc.Close()
	return sc.Summary()
}

// runSceneOpen builds the scene and runs its scripted length; the caller
// closes it.
func runSceneOpen(t *testing.T, cfg settings.Scenario) *Scene {
	t.Helper()
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := 0, sc.DefaultSteps(); i < n; i++ {
		if _, err := sc.Step(); err != nil {
			sc.Close()
			t.Fatalf("step %d: %v", i, err)
		}
	}
	return sc
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
// a soft block on a slope, settled and released (incline.go), sticks when
// tan θ is 2 % below μ and slides when it is 2 % above, with the
// acceleration a rigid block would have, a = g·(sin θ − μ·cos θ). At 2 %
// above the threshold a is a small difference of two large terms
// (0.1 m/s² against g·sin θ = 4.4 m/s²), so 5 % on a is 0.1 % on the
// applied μ. Measured at 600 DOFs: 2.5 % over (the release ramp leaves the
// base slipping at about 1 mm/s when the measure starts, and the block
// shears elastically as it starts); before the settle-and-release the
// landing made it 24 % over. Stick: below 0.1 mm/s at the end, the bound
// a user would notice, after at most half a millimetre of elastic creep
// (0.23 mm measured).
func TestInclineFrictionThreshold(t *testing.T) {
	stick := runScene(t, inclineConfig(0.98)).Incline
	t.Logf("tan θ = 0.98 μ: moved %.4f mm, speed %.2e m/s", stick.Displacement*1e3, stick.Speed)
	if stick.Displacement > 0.5e-3 || math.Abs(stick.Speed) > 1e-4 {
		t.Fatalf("below the friction threshold the block moved %.3f mm and still moves at %.3g m/s: it should stick",
			stick.Displacement*1e3, stick.Speed)
	}
	in := runScene(t, inclineConfig(1.02)).Incline
	t.Logf("tan θ = 1.02 μ: moved %.3f mm (rigid Coulomb %.3f mm), acceleration %.5f m/s² (rigid %.5f)",
		in.Displacement*1e3, in.Predicted*1e3, in.Acceleration, in.PredictedAcceleration)
	if !in.Slides {
		t.Fatalf("above the threshold the block moved only %.3f mm: it should slide", in.Displacement*1e3)
	}
	if rel := in.Acceleration/in.PredictedAcceleration - 1; math.Abs(rel) > 0.05 {
		t.Fatalf("sliding block accelerates at %.5f m/s², %+.1f %% off Coulomb's %.5f m/s²",
			in.Acceleration, 100*rel, in.PredictedAcceleration)
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

// TestCubeDropComesToRest: the dynamic rigid cube dropped onto the soft
// box comes to rest on it, carried by a force equal to its weight, without
// sinking into it.
func TestCubeDropComesToRest(t *testing.T) {
	cfg := settings.DefaultScenario(settings.CubeDrop)
	cfg.TargetDOFs = 800
	s := runScene(t, cfg)
	c := s.Cube
	if c == nil {
		t.Fatal("no cube in the summary")
	}
	t.Logf("cube: %.6f N for %.6f N, %.3g m/s, bottom at %.3f mm; max penetration %.3g m", c.NormalForce, c.Weight, c.Speed, 1e3*c.Height, s.MaxPenetration)
	if math.Abs(c.NormalForce-c.Weight) > 0.01*c.Weight {
		t.Fatalf("the box carries the cube with %.5f N, its weight is %.5f N", c.NormalForce, c.Weight)
	}
	if c.Speed > 1e-3 {
		t.Fatalf("the cube still moves at %.3g m/s", c.Speed)
	}
	if c.Height < cfg.ObjectSize-2e-3 || c.Height > cfg.ObjectSize+1e-3 {
		t.Fatalf("the cube rests at %.2f mm, the box is %.0f mm tall", 1e3*c.Height, 1e3*cfg.ObjectSize)
	}
	if s.MaxPenetration > 1e-4 {
		t.Fatalf("penetration %.3g m", s.MaxPenetration)
	}
}
