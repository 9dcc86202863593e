package ui

import (
	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
)

// The message banner: what went wrong, where the user looks (the top of
// the 3D view), until dismissed or replaced.

// drawMessage shows the frame's message (a command the physics loop
// refused, a mesh that did not load, a divergence) and the last action
// the panels refused (a full command queue, an out-of-range value). After
// a divergence the loop is paused and the banner offers a reset.
func drawMessage(s *State, f *frame.Frame, out Sender, view imgui.Vec2) {
	frameMsg := f.Message
	if frameMsg == s.dismissed {
		frameMsg = ""
	}
	if frameMsg == "" && s.actionErr == "" {
		return
	}
	centre := LeftColumnWidth + (view.X-LeftColumnWidth-RightColumnWidth)/2
	imgui.SetNextWindowPosV(imgui.Vec2{X: centre, Y: panelMargin}, imgui.ConditionAlways, imgui.Vec2{X: 0.5})
	imgui.SetNextWindowSizeConstraints(imgui.Vec2{X: 200}, imgui.Vec2{X: 560, Y: 400})
	imgui.PushStyleColor(imgui.StyleColorWindowBg, imgui.Vec4{X: 0.30, Y: 0.07, Z: 0.07, W: 0.95})
	if imgui.BeginV(PanelMessage, nil, fixedPanel|imgui.WindowFlagsNoTitleBar) {
		imgui.PushTextWrapPosV(540)
		for _, msg := range [...]string{frameMsg, s.actionErr} {
			if msg != "" {
				imgui.Text(msg)
			}
		}
		imgui.PopTextWrapPos()
		drawMessageButtons(s, f, frameMsg, out)
	}
	s.trackWindow(PanelMessage)
	imgui.End()
	imgui.PopStyleColor()
}

// drawMessageButtons offers a reset after a divergence and a dismissal.
func drawMessageButtons(s *State, f *frame.Frame, frameMsg string, out Sender) {
	if frameMsg != "" && f.Stats.Paused && f.Stats.Error != "" {
		if imgui.Button("Reset") {
			_ = s.Reset(out)
		}
		s.trackItem(ItemMessageReset)
		imgui.SameLine()
	}
	if imgui.Button("Dismiss") {
		s.Dismiss(f.Message)
	}
	s.trackItem(ItemMessageDismiss)
}
