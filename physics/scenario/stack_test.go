package scenario

import (
	"math"
	"strings"
	"testing"

	"softgrasp/physics/settings"
)

// TestStackScene runs the stack scene at its 1000 DOFs: at the end of the
// settle the normal force between the cubes is the upper cube's weight,
// the floor's both cubes', they do not overlap and do not drift (the
// issue's targets: within 1 %, 1 %, 10 µm, 1 µm/s); then the jaws
// squeeze both, lift and spin them, and the stack is held with less than
// 1 mm of slip. Measured (exact solver): 0.086317 N for 0.086328 N
// (−1.3e-4), floor 0.1726560 N for 0.1726560 N (−7.6e-8), overlap 0,
// drift 0.073 µm/s; through the spin held, slip 0.26 mm at most,
// penetration 24 µm at most. The bounds are about five times the
// measured.
func TestStackScene(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Stack)
	s := runScene(t, cfg)
	r := s.Stack
	if r == nil {
		t.Fatal("no stack result in the summary")
	}
	t.Logf("at rest: between the cubes %.6f N for %.6f N (%+.3g relative), floor %.7f N for %.7f N (%+.3g), overlap %.3g m, drift %.3g m/s, %d soft–soft pairs",
		r.PartForce, r.UpperWeight, r.PartForce/r.UpperWeight-1, r.FloorForce, r.Weight, r.FloorForce/r.Weight-1, r.Penetration, r.Drift, r.PartPairs)
	t.Logf("squeezed and spun: held %v, slip %.3f mm (max %.3f), grip %.2f N, max penetration %.3g m", s.Held, s.Slip*1e3, s.MaxSlip*1e3, s.GripForceMean, s.MaxPenetration)
	if r.PartPairs == 0 {
		t.Fatal("no soft–soft pair between the cubes")
	}
	if math.Abs(r.PartForce-r.UpperWeight) > 5e-4*r.UpperWeight {
		t.Fatalf("the lower cube carries the upper one with %.6f N, its weight is %.6f N (measured within 1.3e-4)", r.PartForce, r.UpperWeight)
	}
	if math.Abs(r.FloorForce-r.Weight) > 5e-7*r.Weight {
		t.Fatalf("the floor carries %.7f N, the cubes weigh %.7f N (measured within 7.6e-8)", r.FloorForce, r.Weight)
	}
	if r.Penetration > 1e-6 {
		t.Fatalf("overlap %.3g m at rest (measured 0)", r.Penetration)
	}
	if r.Drift > 3e-7 {
		t.Fatalf("the cubes drift at %.3g m/s at rest (measured 7.3e-8 m/s)", r.Drift)
	}
	if !s.Held || s.MaxSlip > 1e-3 {
		t.Fatalf("squeezed and spun: held %v, slip %.3f mm (want held, ≤ 1 mm)", s.Held, s.MaxSlip*1e3)
	}
	if s.MaxPenetration > 0.1e-3 {
		t.Fatalf("max penetration %.3g m through the squeeze and spin", s.MaxPenetration)
	}
}

// TestStackTakesNoMeshFile: the scene builds its own cubes, and a mesh
// file given with it is refused by name.
func TestStackTakesNoMeshFile(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Stack)
	cfg.MeshFile = "bunny.stl"
	if _, err := Build(cfg); err == nil || !strings.Contains(err.Error(), "stack") || !strings.Contains(err.Error(), "bunny.stl") {
		t.Fatalf("got %v, want an error naming the scene and the file", err)
	}
}
