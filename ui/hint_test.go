package ui

import (
	"strings"
	"testing"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// TestNextHint is the table of the hints along a newcomer's grasp: aim,
// close, lift; and in the scripted demo.
func TestNextHint(t *testing.T) {
	at := func(mod func(f *frame.Frame)) *frame.Frame {
		f := &frame.Frame{}
		f.Gripper.Present = true
		mod(f)
		return f
	}
	tests := []struct {
		name  string
		f     *frame.Frame
		aimed bool
		want  string
	}{
		{"no gripper", &frame.Frame{}, false, ""},
		{"nothing yet", at(func(*frame.Frame) {}), false, "ctrl+click"},
		{"aimed", at(func(*frame.Frame) {}), true, "G closes"},
		{"closing", at(func(f *frame.Frame) { f.Stats.Gripping, f.Stats.GripTarget, f.Stats.GripLeft = true, 1, 0.5 }), false, "closing until both jaws carry 1 N"},
		{"gripped", at(func(f *frame.Frame) {
			f.Stats.Gripping, f.Stats.GripTarget, f.Stats.GripLeft, f.Stats.GripRight = true, 1, 0.95, 1
		}), false, "right-drag up lifts"},
		{"held", at(func(f *frame.Frame) { f.Stats.Held, f.Stats.Gripping = true, true }), false, "held: right-drag moves"},
		{"scripted", at(func(f *frame.Frame) { f.Gripper.Scripted, f.Stats.Phase = true, "spin" }), false, "grasp and rotate: spin"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := NextHint(tc.f, tc.aimed)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("hint %q, want one containing %q", got, tc.want)
			}
		})
	}
}

// TestResetSaysWhatItKeeps: a changed setting is listed with its default,
// and Reset, which keeps it, says so; with nothing changed it says
// nothing.
func TestResetSaysWhatItKeeps(t *testing.T) {
	s := NewState(settings.DefaultScenario(settings.GraspRotate), 1)
	out := &capture{}
	if err := s.Reset(out); err != nil || s.Notice() != "" {
		t.Fatalf("reset at the defaults: %v, banner %q", err, s.Notice())
	}
	if err := s.CommitField(FieldOf("dt"), "20", out); err != nil {
		t.Fatal(err)
	}
	if got := s.ChangedSettings(s.Config); len(got) != 1 || got[0] != "h (ms) 20 (default 10)" {
		t.Fatalf("changed settings %q, want [h (ms) 20 (default 10)]", got)
	}
	if err := s.Reset(out); err != nil {
		t.Fatal(err)
	}
	if msg := s.Notice(); !strings.Contains(msg, "Reset keeps what you changed: h (ms) 20 (default 10)") {
		t.Errorf("banner after the reset %q", msg)
	}
}
