package ui

import (
	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
)

// Panel layout, in window coordinates: the Simulation, Gripper and
// Display panels stack in a left column, the Stats panel fills a right
// column, the message banner and the Help panel sit at the top and the
// bottom of the 3D view between them, so that the object in the middle
// stays visible.
const (
	LeftColumnWidth  = 300
	RightColumnWidth = 340
	panelMargin      = 6
)

// fixedPanel is the window behaviour of the docked panels: placed by the
// layout, sized to their content, collapsible.
const fixedPanel = imgui.WindowFlagsNoMove | imgui.WindowFlagsNoResize | imgui.WindowFlagsAlwaysAutoResize |
	imgui.WindowFlagsNoSavedSettings | imgui.WindowFlagsNoFocusOnAppearing

// Colours of the panels' text and plots.
var (
	colourText        = imgui.Vec4{X: 1, Y: 1, Z: 1, W: 1}
	colourError       = imgui.Vec4{X: 1, Y: 0.36, Z: 0.32, W: 1}
	colourWarn        = imgui.Vec4{X: 1, Y: 0.78, Z: 0.30, W: 1}
	colourGood        = imgui.Vec4{X: 0.45, Y: 0.85, Z: 0.45, W: 1}
	colourDim         = imgui.Vec4{X: 0.62, Y: 0.64, Z: 0.68, W: 1}
	colourBannerError = imgui.Vec4{X: 0.30, Y: 0.07, Z: 0.07, W: 0.95}
	colourBannerNote  = imgui.Vec4{X: 0.08, Y: 0.16, Z: 0.30, W: 0.95}
	colourFast        = imgui.Vec4{X: 0.36, Y: 0.70, Z: 1, W: 1}
	colourStandard    = imgui.Vec4{X: 1, Y: 0.55, Z: 0.25, W: 1}
)

// emptyFrame stands in before the first published frame.
var emptyFrame frame.Frame

// DrawPanels builds every panel for the current ImGui frame, between
// Platform.NewFrame and imgui.Render, placed from the window's size
// (arrange). f is the newest frame (nil before the first); edits become
// commands sent to out.
func DrawPanels(s *State, f *frame.Frame, out Sender) {
	if f == nil {
		f = &emptyFrame
	}
	s.Layout.reset()
	view := imgui.MainViewport().Size()
	a := arrange(view)
	if !s.HidePanels {
		for _, c := range a.columns {
			s.drawColumn(c, a, f, out)
		}
	}
	s.compact = a.compact
	s.free, s.viewWidth = a.free, view.X
	if s.HidePanels {
		s.free = Rect{Max: view}
	}
	message := drawMessage(s, f, out, a.free)
	prompt := drawPrompt(s, a.free)
	if !s.HidePanels {
		drawHelp(s, a.free, message, prompt)
	}
}

// endPanel records the panel's rectangle and closes it.
func (s *State) endPanel(title string) {
	s.trackWindow(title)
	imgui.End()
}

// colouredText draws one line of text in colour c.
func colouredText(c imgui.Vec4, text string) {
	imgui.PushStyleColor(imgui.StyleColorText, c)
	imgui.Text(text)
	imgui.PopStyleColor()
}

// wrappedText draws text wrapped at the window's right edge, in colour c.
func wrappedText(c imgui.Vec4, text string) {
	imgui.PushTextWrapPosV(0)
	colouredText(c, text)
	imgui.PopTextWrapPos()
}

// ApplyStyle sets the viewer's ImGui look: the dark theme with slightly
// translucent, rounded panels and compact spacing. Call it once after the
// ImGui context exists.
func ApplyStyle() {
	imgui.StyleColorsDark()
	st := imgui.CurrentStyle()
	// Opaque, square panels: the viewer keeps them as a picture between
	// redraws and copies it over the 3D view (render.PanelLayer).
	st.SetWindowRounding(0)
	st.SetFrameRounding(3)
	st.SetGrabRounding(3)
	st.SetWindowPadding(imgui.Vec2{X: 8, Y: 6})
	st.SetItemSpacing(imgui.Vec2{X: 6, Y: 4})
	st.SetColor(imgui.StyleColorWindowBg, PanelBackground)
	st.SetColor(imgui.StyleColorTitleBg, imgui.Vec4{X: 0.10, Y: 0.16, Z: 0.26, W: 1})
	st.SetColor(imgui.StyleColorTitleBgCollapsed, imgui.Vec4{X: 0.10, Y: 0.16, Z: 0.26, W: 1})
	st.SetColor(imgui.StyleColorPopupBg, PanelBackground)
	st.SetColor(imgui.StyleColorTitleBgActive, imgui.Vec4{X: 0.14, Y: 0.26, Z: 0.44, W: 1})
}

// PanelBackground is the panels' background colour, opaque.
var PanelBackground = imgui.Vec4{X: 0.075, Y: 0.08, Z: 0.095, W: 1}
