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
func drawMessage(s *State, f *frame.Frame, out Sender, free Rect) Rect {
	frameMsg := f.Message
	if frameMsg == s.dismissed {
		frameMsg = ""
	}
	if frameMsg == "" && s.actionErr == "" && s.notice == "" {
		return Rect{}
	}
	width := min(messageWidth, free.Max.X-free.Min.X-2*panelMargin)
	imgui.SetNextWindowPosV(imgui.Vec2{X: free.Centre().X, Y: free.Min.Y + panelMargin}, imgui.ConditionAlways, imgui.Vec2{X: 0.5})
	imgui.SetNextWindowSizeConstraints(imgui.Vec2{X: width}, imgui.Vec2{X: width, Y: (free.Max.Y - free.Min.Y) / 3})
	imgui.PushStyleColor(imgui.StyleColorWindowBg, bannerColour(f.Stats.Error != "" || s.actionErr != ""))
	if imgui.BeginV(PanelMessage, nil, fixedPanel|imgui.WindowFlagsNoTitleBar) {
		imgui.PushTextWrapPosV(width - imgui.CurrentStyle().WindowPadding().X)
		for _, msg := range [...]string{frameMsg, s.actionErr, s.notice} {
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
	return s.Layout.Panels[PanelMessage]
}

// bannerColour is the banner's background: red for an error (a diverged
// step, a refused action), blue for a report or a note (a grasp that
// stopped, what Reset kept, the backend staying on the CPU).
func bannerColour(failed bool) imgui.Vec4 {
	if failed {
		return colourBannerError
	}
	return colourBannerNote
}

// messageWidth is the banner's width where the 3D view has room for it.
const messageWidth = 560

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
