package main

import (
	"math"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/ui"
)

// TestCtrlClickGraspHoldsAndLifts drives the viewer as a user would on
// the default grasp scene taken by hand: once the object has settled,
// ctrl+click on it from the default view, G (the jaws close until both
// carry the grip), and a right drag up. The grasp must hold and lift the
// object. The clicks: the object's
// projected centre, and its top face 11.5 mm off the middle (the user's
// click that closed the jaws on an edge).
func TestCtrlClickGraspHoldsAndLifts(t *testing.T) {
	tests := []struct {
		name  string
		click r3.Vec // from the object's centre at rest
	}{
		{"centre", r3.Vec{}},
		{"top face off the middle", r3.Vec{X: 0.0115, Y: -0.005, Z: 0.0195}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { ctrlClickGrasp(t, tc.click) })
	}
}

func ctrlClickGrasp(t *testing.T, click r3.Vec) {
	opt := testOptions()
	opt.config.Scripted = false
	withViewer(t, opt, func(v *viewer) {
		simFor := func(what string, dt float64) bool {
			t0 := v.frame.Time
			if !renderUntilSim(t, v, math.Inf(1), func(f *frame.Frame) bool { return f.Time >= t0+dt }) {
				t.Errorf("%s: the simulation did not advance %g s in the wall time allowed", what, dt)
				return false
			}
			return true
		}
		if !renderUntilSim(t, v, math.Inf(1), func(f *frame.Frame) bool { return f.Time >= 0.2 }) {
			t.Error("the scene never reached 0.2 s")
			return
		}
		rest := centroid(v.frame.Surface)
		px, py, ok := v.cam.Project(r3.Add(rest, click))
		sx, sy := v.platform.PixelScale()
		x, y := px/sx, py/sy
		if !ok || v.state.OverPanel(float32(x), float32(y)) {
			t.Errorf("the object's centre (%.0f, %.0f) is behind the camera or under a panel", x, y)
			return
		}
		inject(t, v, ui.CursorEvent(x, y), ui.ButtonEvent(ui.MouseLeft, ui.Press, ui.ModControl),
			ui.ButtonEvent(ui.MouseLeft, ui.Release, ui.ModControl))
		if v.input.aim == nil || len(v.input.ghosts()) != 4 {
			t.Error("ctrl+click on the object made no aim or no preview")
			return
		}
		if msg := v.state.ActionError(); msg != "" {
			t.Errorf("the aim warned %q", msg)
		}
		aim := *v.input.aim
		checkPreviewDrawn(t, v)
		arrived := func(f *frame.Frame) bool { return r3.Norm(r3.Sub(f.Gripper.Position, f.Gripper.Target)) < 1e-4 }
		if !renderUntilSim(t, v, v.frame.Time+moveBy, arrived) || !simFor("settle at the aim", 0.1) {
			t.Errorf("the gripper never reached the aim %v (at %v)", aim.Pose.Position, v.frame.Gripper.Position)
			return
		}
		inject(t, v, ui.KeyEvent(ui.Key(glfw.KeyG), ui.Press, 0), ui.KeyEvent(ui.Key(glfw.KeyG), ui.Release, 0))
		if v.input.ghosts() != nil {
			t.Error("the preview outlived G")
		}
		gripped := func(f *frame.Frame) bool {
			s := f.Stats
			return s.Gripping && s.GripTarget > 0 && math.Min(s.GripLeft, s.GripRight) >= 0.9*s.GripTarget
		}
		if !renderUntilSim(t, v, v.frame.Time+gripBy, gripped) || !simFor("squeeze", 0.1) {
			t.Error("the jaws never gripped")
			return
		}
		grip := v.frame.Stats.GripForce
		const lift = 150.0 // screen units dragged up
		events := []ui.Event{ui.CursorEvent(x, y), ui.ButtonEvent(ui.MouseRight, ui.Press, 0)}
		for i := 1; i <= 10; i++ {
			events = append(events, ui.CursorEvent(x, y-lift*float64(i)/10))
		}
		inject(t, v, append(events, ui.ButtonEvent(ui.MouseRight, ui.Release, 0))...)
		if !renderUntilSim(t, v, v.frame.Time+moveBy, arrived) || !simFor("hold up", 0.3) {
			t.Error("the gripper never finished the lift")
			return
		}
		f := v.frame
		up := centroid(f.Surface).Z - rest.Z
		t.Logf("aim %.1f %.1f %.1f mm, width %.1f mm in %.1f mm jaws; grip %.2f N closed, %.2f N lifted; held %v, raised %.1f mm",
			1e3*aim.Pose.Position.X, 1e3*aim.Pose.Position.Y, 1e3*aim.Pose.Position.Z, 1e3*aim.Width, 1e3*aim.Opening,
			grip, f.Stats.GripForce, f.Stats.Held, 1e3*up)
		if !f.Stats.Held || up < 5e-3 || math.IsNaN(up) {
			t.Errorf("after the lift: held %v, object raised %.2f mm; want held and > 5 mm", f.Stats.Held, 1e3*up)
		}
	})
}

// checkPreviewDrawn compares, with the physics paused, a frame with the
// aim's preview and one without: the outlines must change pixels.
func checkPreviewDrawn(t *testing.T, v *viewer) {
	if !pause(t, v) {
		return
	}
	defer func() { v.runner.Send(frame.Pause{Paused: false}) }()
	with, _, err := v.renderFrame(true)
	aim := v.input.aim
	v.input.aim = nil
	without, _, err2 := v.renderFrame(true)
	v.input.aim = aim
	if err != nil || err2 != nil {
		t.Errorf("screenshots: %v, %v", err, err2)
		return
	}
	changed := 0
	for i := 0; i+3 < len(with.Pix); i += 4 {
		if with.Pix[i] != without.Pix[i] || with.Pix[i+1] != without.Pix[i+1] || with.Pix[i+2] != without.Pix[i+2] {
			changed++
		}
	}
	if changed < 200 {
		t.Errorf("the preview changed %d pixels, want its outlines (≥ 200)", changed)
	}
}
