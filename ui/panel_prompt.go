package ui

import "github.com/inkyblackness/imgui-go/v4"

// The prompt: one line at the bottom of the 3D view saying what to do
// next (State.Hint) and the keys that show the rest, which the user reads
// where the object is, not in a panel.

// PanelPrompt is the prompt's window title.
const PanelPrompt = "Prompt"

// promptFlags: a line of text, never in the way of the mouse.
const promptFlags = fixedPanel | imgui.WindowFlagsNoTitleBar | imgui.WindowFlagsNoInputs |
	imgui.WindowFlagsNoBringToFrontOnFocus | imgui.WindowFlagsNoScrollbar

// PromptText is the prompt's line: the next step's hint and the keys of
// the Help panel and of the panels.
func PromptText(hint string, hidden bool) string {
	keys := "H: keys   Tab: hide the panels"
	if hidden {
		keys = "Tab: show the panels"
	}
	if hint == "" {
		return keys
	}
	return "next: " + hint + "    " + keys
}

// drawPrompt draws the prompt at the bottom of the free area, wrapped to
// its width, and returns its rectangle.
func drawPrompt(s *State, free Rect) Rect {
	width := free.Max.X - free.Min.X - 2*panelMargin
	text := PromptText(s.Hint, s.HidePanels)
	pad := imgui.CurrentStyle().WindowPadding().X
	width = min(width, imgui.CalcTextSize(text, false, 0).X+2*pad+1)
	imgui.SetNextWindowPosV(imgui.Vec2{X: free.Centre().X, Y: free.Max.Y - panelMargin}, imgui.ConditionAlways, imgui.Vec2{X: 0.5, Y: 1})
	imgui.SetNextWindowSizeConstraints(imgui.Vec2{X: width}, imgui.Vec2{X: width, Y: free.Max.Y - free.Min.Y})
	imgui.PushStyleColor(imgui.StyleColorWindowBg, imgui.Vec4{X: 0.06, Y: 0.10, Z: 0.16, W: 0.92})
	if imgui.BeginV(PanelPrompt, nil, promptFlags) {
		imgui.PushTextWrapPosV(width - pad)
		imgui.Text(text)
		imgui.PopTextWrapPos()
	}
	s.trackWindowRect(PanelPrompt)
	imgui.End()
	imgui.PopStyleColor()
	return s.Layout.Panels[PanelPrompt]
}
