package ui

import (
	"fmt"
	"math"

	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// The Gripper panel: open and close (by force), each jaw's squeeze, the
// opening, the spin speed ω and the grip force, the scripted
// grasp-and-rotate sequence and manual mode.

// SpinStep is the angle of the panel's spin buttons (rad).
const SpinStep = 15 * math.Pi / 180

func drawGripper(s *State, f *frame.Frame, out Sender) {
	g := &f.Gripper
	if !g.Present {
		colouredText(colourDim, "this scene has no gripper")
		return
	}
	mode := "scripted: " + f.Stats.Phase
	if !g.Scripted {
		mode = "manual (mouse and panel)"
	}
	imgui.Text(mode)
	st := &f.Stats
	if st.Gripping {
		imgui.Text(fmt.Sprintf("opening %.1f mm, gripping", 1e3*g.Opening))
	} else {
		imgui.Text(fmt.Sprintf("opening %.1f mm -> %.1f mm", 1e3*g.Opening, 1e3*g.TargetOpening))
	}
	tooltip(fmt.Sprintf("centre (%.1f, %.1f, %.1f) mm", 1e3*g.Position.X, 1e3*g.Position.Y, 1e3*g.Position.Z))
	imgui.Text(fmt.Sprintf("jaws %.2f N, %.2f N of %.2f N", st.GripLeft, st.GripRight, st.GripTarget))
	tooltip("each jaw's squeeze (its force on the object along the closing axis) and the force the jaws close to and hold")
	drawGripperButtons(s, g.Path, out)
	drawOpeningSlider(s, g, out)
	drawGrid(s, out, "omega", []gridCell{graspAimCell(s)}, fieldsOn(settings.GripperPanel))
	if imgui.Button("spin -15 deg") {
		_ = s.SpinGripper(-SpinStep, out)
	}
	imgui.SameLine()
	if imgui.Button("spin +15 deg") {
		_ = s.SpinGripper(SpinStep, out)
	}
	imgui.SameLine()
	colouredText(colourDim, "mouse (?)")
	tooltip("ctrl+click on the object aims the open jaws at the best grasp there; G closes them until they grip; right drag moves the gripper, ctrl+right drag spins it")
}

// drawGripperButtons draws open/close, the scripted sequence (the scene's
// own path, when it has one) and manual mode.
func drawGripperButtons(s *State, path bool, out Sender) {
	if s.button("Open / close", 0) {
		_ = s.ToggleJaws(out)
	}
	s.trackItem(ItemToggleJaws)
	tooltip("G: close open jaws until they grip with the grip force, open closing or closed ones")
	imgui.SameLine()
	label, hint := "Grasp and rotate", "scripted: approach, close, lift, spin at omega, hold"
	if path {
		label, hint = "Run the path", "the scene file's gripper path, again from its first waypoint"
	}
	if s.button(label+"##script", 0) {
		_ = s.RunScript(out)
	}
	s.trackItem(ItemRunScript)
	tooltip(hint)
	imgui.SameLine()
	if imgui.Button("Manual") {
		_ = s.Manual(out)
	}
	s.trackItem(ItemManual)
	tooltip("stop the script; the mouse and this panel drive the gripper")
}

// drawOpeningSlider shows the target opening and sends each change.
// While the slider is dragged it shows the dragged value, not the
// frame's, which lags by the steps the command takes to arrive.
func drawOpeningSlider(s *State, g *frame.GripperView, out Sender) {
	if !s.openingDrag {
		s.openingMM = float32(1e3 * g.TargetOpening)
	}
	// The value is written beside the slider, where its handle cannot
	// cover it.
	imgui.SetNextItemWidth(150)
	if imgui.SliderFloatV("##opening", &s.openingMM, 0, 1e3*SliderOpening, "", imgui.SliderFlagsAlwaysClamp) {
		_ = s.SetOpening(float64(s.openingMM)*1e-3, out)
	}
	s.openingDrag = imgui.IsItemActive()
	tooltip("target distance between the jaws (manual mode)")
	imgui.SameLine()
	imgui.Text(fmt.Sprintf("opening %.1f mm", s.openingMM))
}

// graspAimCell is the grid cell of the choice of how "Grasp and rotate"
// aims.
func graspAimCell(s *State) gridCell {
	return gridCell{
		label: "aim",
		hint:  "Grasp and rotate: follow aims again at an object that rolls or tips over before the jaws close, once it has come to rest; once aims only at the start",
		draw: func() {
			imgui.SetNextItemWidth(70)
			if imgui.BeginCombo("##aim", s.Config.GraspAim.String()) {
				for _, a := range []settings.GraspAim{settings.AimFollow, settings.AimOnce} {
					if imgui.SelectableV(a.String(), a == s.Config.GraspAim, 0, imgui.Vec2{}) {
						_ = s.SetGraspAim(a)
					}
				}
				imgui.EndCombo()
			} else {
				s.fitsCombo(s.Config.GraspAim.String())
			}
		},
	}
}
