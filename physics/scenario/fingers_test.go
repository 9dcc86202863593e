package scenario

import (
	"math"
	"strings"
	"testing"

	"softgrasp/physics/settings"
)

// TestSoftFingersScene runs the soft-fingers scene: the pads, attached to
// the jaws, hold the released steel cube by friction through the lift and
// the 4π spin (μ = 0.8: it turns with the jaws, slips by less than 1 mm and
// ends 30 mm up), and let it fall at μ = 0.1, where it stops on the floor.
// Measured at the scene's 1000 DOFs: slip 0.43 mm (0.46 at most), turned
// 4π to 3.5e-3 rad, 30 mm up to 0.43 mm (the pads' sag); at μ = 0.1 it
// falls 0.09 s after its release.
func TestSoftFingersScene(t *testing.T) {
	cfg := settings.DefaultScenario(settings.SoftFingers)
	held := runScene(t, cfg)
	f := held.Fingers
	if f == nil {
		t.Fatal("no fingers result in the summary")
	}
	t.Logf("μ = 0.8: held %v, slip %.3f mm (max %.3f), turned %.4f rad, height %.2f mm, grip %.2f N, weight %.3f N",
		f.Held, held.Slip*1e3, held.MaxSlip*1e3, f.Turned, f.Height*1e3, held.GripForceMean, f.Weight)
	if !f.Held || !held.Held || f.DroppedAt != 0 {
		t.Fatalf("μ = 0.8: the cube is not held at the end (dropped at %g s)", f.DroppedAt)
	}
	if held.MaxSlip > 1e-3 {
		t.Fatalf("μ = 0.8: the cube slipped %.3f mm in the pads, target ≤ 1 mm", held.MaxSlip*1e3)
	}
	if math.Abs(f.Turned-4*math.Pi) > 0.01 {
		t.Fatalf("μ = 0.8: the cube turned %.4f rad, the jaws 4π", f.Turned)
	}
	if up := f.Height - fingersCentreZ; math.Abs(up-0.03) > 1e-3 {
		t.Fatalf("μ = 0.8: the cube rose %.2f mm, the jaws 30 mm", up*1e3)
	}

	cfg.Physics.Friction = 0.1
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for i := 0; i < 60; i++ { // the release at 0.3 s and 0.3 s more
		if _, err := sc.Step(); err != nil {
			t.Fatalf("μ = 0.1, step %d: %v", i, err)
		}
	}
	f = sc.Summary().Fingers
	t.Logf("μ = 0.1: released at %.2f s, dropped at %.2f s, height %.2f mm", f.ReleasedAt, f.DroppedAt, f.Height*1e3)
	if f.Held || f.DroppedAt == 0 || f.Height > cubeSide(cfg)/2+1e-4 {
		t.Fatalf("μ = 0.1: the cube should have fallen to the floor: held %v, dropped at %g s, height %.2f mm", f.Held, f.DroppedAt, f.Height*1e3)
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
