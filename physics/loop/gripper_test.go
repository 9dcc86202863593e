package loop

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/scenario"
)

func TestFrameReportsGripperCommand(t *testing.T) {
	tests := []struct {
		name  string
		delta r3.Vec
	}{
		{"sideways", r3.Vec{X: 0.01}},
		{"up and back", r3.Vec{Y: -0.004, Z: 0.006}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Start(smallConfig(), Options{Pace: 0, Paused: true})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Stop()
			f, _ := r.Acquire()
			if !f.Gripper.Present {
				t.Fatal("grasp scene frame has no gripper")
			}
			before := f.Gripper.Target
			if !r.Send(frame.MoveGripper{Delta: tc.delta}) {
				t.Fatal("queue refused the move")
			}
			want := r3.Add(before, tc.delta)
			got := waitFrame(t, r, "the moved target", func(f *frame.Frame) bool {
				return r3.Norm(r3.Sub(f.Gripper.Target, before)) > 0
			})
			if d := r3.Norm(r3.Sub(got.Gripper.Target, want)); d > 1e-12 {
				t.Fatalf("target %v after moving %v from %v: off by %g m", got.Gripper.Target, tc.delta, before, d)
			}
			if got.ComputeChecksum() != got.Checksum {
				t.Fatal("checksum does not cover the gripper as filled")
			}
		})
	}
}

func TestGripperMovesTowardsTarget(t *testing.T) {
	r, err := Start(smallConfig(), Options{Pace: 0, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	f, _ := r.Acquire()
	start := f.Gripper.Position
	r.Send(frame.MoveGripper{Delta: r3.Vec{Y: 0.02}})
	// Steps one at a time: single steps queued together run once.
	for i := uint64(1); i <= 5; i++ {
		r.Send(frame.SingleStep{})
		f = waitFrame(t, r, "a manual step", func(f *frame.Frame) bool { return f.Seq >= i })
	}
	moved := r3.Sub(f.Gripper.Position, start)
	if moved.Y <= 0 || math.Abs(moved.X) > 1e-9 {
		t.Fatalf("gripper moved %v after a +y target move: want +y only", moved)
	}
	if f.Stats.Phase != string(scenario.PhaseManual) {
		t.Fatalf("phase %q after a move command, want %q", f.Stats.Phase, scenario.PhaseManual)
	}
}

func TestDivergenceFillsStatsError(t *testing.T) {
	cfg := smallConfig()
	cfg.Physics.MaxSpeed = 1e-9
	r, err := Start(cfg, Options{Pace: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	f := waitFrame(t, r, "the divergence", func(f *frame.Frame) bool { return f.Stats.Paused && f.Message != "" })
	if !strings.Contains(f.Stats.Error, "diverged") {
		t.Fatalf("Stats.Error = %q after a divergence, want the divergence report", f.Stats.Error)
	}
}
