package scenario

import (
	"strings"
	"testing"

	"softgrasp/physics/settings"
)

// TestSceneAttachments: a grasp scene whose object's bottom layer is held
// to the world: the plane selects exactly the nodes at or below it, they
// stay where they are through the grasp, and the jaws, unable to lift the
// object, twist it instead; a body that the scene does not have is named.
func TestSceneAttachments(t *testing.T) {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs = 600
	spec, err := settings.ParseAttach("below:z=0.004")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Attach = []settings.AttachSpec{spec}
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	q0 := append([]float64(nil), sc.Sim.Positions()...)
	held := 0
	for n := 0; n < len(q0)/3; n++ {
		if want := q0[3*n+2] <= 0.004; sc.Sim.Attached(n) != want {
			t.Fatalf("node %d at z = %.5f m: attached %v", n, q0[3*n+2], sc.Sim.Attached(n))
		}
		if sc.Sim.Attached(n) {
			held++
		}
	}
	if held == 0 {
		t.Fatal("no node attached")
	}
	for i := 0; i < 200; i++ {
		if _, err := sc.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	q := sc.Sim.Positions()
	moved := 0.0
	for n := 0; n < len(q)/3; n++ {
		for d := 0; d < 3; d++ {
			if sc.Sim.Attached(n) && q[3*n+d] != q0[3*n+d] {
				t.Fatalf("attached node %d moved", n)
			}
			moved = max(moved, q[3*n+d]-q0[3*n+d])
		}
	}
	if moved < 1e-3 {
		t.Fatalf("the free nodes moved at most %.3g m through the grasp", moved)
	}
	t.Logf("%d nodes attached; the free ones moved up to %.2f mm", held, 1e3*moved)

	cfg.Attach[0].Body = "handle"
	if _, err := Build(cfg); err == nil || !strings.Contains(err.Error(), `no body "handle"`) || !strings.Contains(err.Error(), `"left jaw"`) {
		t.Fatalf("an unknown body: %v", err)
	}
}
