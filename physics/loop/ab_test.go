package loop

import (
	"strings"
	"testing"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// TestABFollowsA runs the A/B mode: B with no real change follows A to
// the bit (the steps are deterministic and B starts from A's state);
// B with K = 1 on the fast spin goes its own way; off drops the ghost.
func TestABFollowsA(t *testing.T) {
	spin := settings.DefaultScenario(settings.FastSpin)
	spin.TargetDOFs = 300
	spin.Physics.NewtonIterations = 5
	tests := []struct {
		name    string
		cfg     settings.Scenario
		changes string
		same    bool
	}{
		{"no change", smallConfig(), "newton=2", true},
		{"K=1 against K=5 on the fast spin", spin, "newton=1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Start(tc.cfg, Options{Pace: 0, Paused: true})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Stop()
			// Run a few steps first: B starts from A's state, not the rest.
			r.Send(frame.SingleStep{})
			r.Send(frame.SingleStep{})
			r.Send(frame.SetAB{Enabled: true, Changes: tc.changes})
			r.Send(frame.RunScript{})
			const n = 15
			f := waitFrame(t, r, "A/B steps", func(f *frame.Frame) bool { return f.Seq >= n+2 })
			ab := f.Stats.AB
			if !ab.On || ab.Changes != tc.changes || ab.Error != "" || len(f.GhostSurface) != len(f.Surface) {
				t.Fatalf("A/B stats %+v, ghost of %d floats against %d, message %q", ab, len(f.GhostSurface), len(f.Surface), f.Message)
			}
			if tc.same && (ab.MaxNodeDistance != 0 || ab.Penetration != f.Stats.Penetration) {
				t.Fatalf("B without change: max node distance %g m, penetration %g against %g", ab.MaxNodeDistance, ab.Penetration, f.Stats.Penetration)
			}
			if !tc.same && !(ab.MaxNodeDistance > 0) {
				t.Fatalf("B with %s: max node distance %g m", tc.changes, ab.MaxNodeDistance)
			}
			// A reset rebuilds B with the same changes.
			v := f.SceneVersion
			r.Send(frame.Reset{})
			f = waitFrame(t, r, "a reset", func(f *frame.Frame) bool { return f.SceneVersion != v && f.Seq >= 2 })
			if ab := f.Stats.AB; !ab.On || ab.Changes != tc.changes || (tc.same && ab.MaxNodeDistance != 0) {
				t.Fatalf("after a reset: A/B %+v, message %q", ab, f.Message)
			}
			r.Send(frame.SetAB{})
			f = waitFrame(t, r, "A/B off", func(f *frame.Frame) bool { return !f.Stats.AB.On })
			if len(f.GhostSurface) != 0 {
				t.Fatalf("ghost of %d floats after A/B off", len(f.GhostSurface))
			}
		})
	}
}

// TestABRejectsBadChanges checks that bad changes leave the mode off and
// say why.
func TestABRejectsBadChanges(t *testing.T) {
	r, err := Start(smallConfig(), Options{Pace: 0, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	r.Send(frame.SetAB{Enabled: true, Changes: "dt=1"})
	f := waitFrame(t, r, "the rejection", func(f *frame.Frame) bool { return f.Message != "" })
	if f.Stats.AB.On || !strings.Contains(f.Message, "unknown key") {
		t.Fatalf("A/B on %v, message %q", f.Stats.AB.On, f.Message)
	}
}
