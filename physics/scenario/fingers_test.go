package scenario

import (
	"math"
	"strings"
	"testing"

	"softgrasp/physics/settings"
)

// TestSoftFingersScene runs the soft-fingers scene: the steel cube rests
// on the floor (rigid–rigid contact), the pads, attached to the jaws,
// close on it, and at μ = 0.8 they hold it by friction through the lift
// and the 4π spin (it turns with the jaws, slips by less than 1 mm and
// ends 30 mm up, the floor no longer carrying it); at μ = 0.1 they do
// not, and it stays on the floor, carried by it. Measured at the scene's
// 1000 DOFs: slip 0.55 mm at most, turned 4π to 3.4e-3 rad, 29.5 of
// 30 mm up (the pads' sag); at μ = 0.1 the floor carries its weight to
// 1.5e-14, and it stays where it rested to 5e-18 m.
func TestSoftFingersScene(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the soft-fingers scene twice")
	}
	cfg := settings.DefaultScenario(settings.SoftFingers)
	held := runScene(t, cfg)
	f := held.Fingers
	if f == nil {
		t.Fatal("no fingers result in the summary")
	}
	t.Logf("μ = 0.8: held %v, slip %.3f mm (max %.3f), turned %.4f rad, %.2f mm up, floor %.3g N, grip %.2f N, weight %.3f N",
		f.Held, held.Slip*1e3, held.MaxSlip*1e3, f.Turned, (f.Height-f.Rest)*1e3, f.FloorForce, held.GripForceMean, f.Weight)
	if !f.Held || !held.Held || f.FloorForce != 0 {
		t.Fatalf("μ = 0.8: the cube is not held at the end (floor force %g N)", f.FloorForce)
	}
	if held.MaxSlip > 1e-3 {
		t.Fatalf("μ = 0.8: the cube slipped %.3f mm in the pads, target ≤ 1 mm", held.MaxSlip*1e3)
	}
	if math.Abs(f.Turned-4*math.Pi) > 0.01 {
		t.Fatalf("μ = 0.8: the cube turned %.4f rad, the jaws 4π", f.Turned)
	}
	if up := f.Height - f.Rest; math.Abs(up-0.03) > 1e-3 {
		t.Fatalf("μ = 0.8: the cube rose %.2f mm, the jaws 30 mm", up*1e3)
	}

	// μ = 0.1 up to the end of the lift (the settle, the close, the hold
	// and the lift: 1.2 s), where a held cube would be 30 mm up.
	cfg.Physics.Friction = 0.1
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for sc.Sim.Time() < fingersSettle+fingersClose+0.3+0.5+0.05 {
		if _, err := sc.Step(); err != nil {
			t.Fatalf("μ = 0.1: %v", err)
		}
	}
	dropped := sc.Summary()
	f = dropped.Fingers
	t.Logf("μ = 0.1: held %v, %.3g mm above its rest, floor %.6f N for %.6f N (%.3g relative), slip %.1f mm", f.Held, (f.Height-f.Rest)*1e3, f.FloorForce, f.Weight, f.FloorForce/f.Weight-1, dropped.Slip*1e3)
	if f.Held || math.Abs(f.Height-f.Rest) > 5e-17 || math.Abs(f.FloorForce-f.Weight) > 1e-13*f.Weight {
		t.Fatalf("μ = 0.1: the cube should have stayed on the floor: held %v, %.3f mm above its rest, floor %.4f N for %.4f N",
			f.Held, (f.Height-f.Rest)*1e3, f.FloorForce, f.Weight)
	}
}

// TestSoftFingersTakesNoMeshFile: the scene builds its own pads, and a
// mesh file given with it is refused by name.
func TestSoftFingersTakesNoMeshFile(t *testing.T) {
	cfg := settings.DefaultScenario(settings.SoftFingers)
	cfg.MeshFile = "organ.stl"
	_, err := Build(cfg)
	if err == nil || !strings.Contains(err.Error(), "organ.stl") || !strings.Contains(err.Error(), "soft-fingers") {
		t.Fatalf("error %v, want one naming the file and the scene", err)
	}
}
