package ui

import "github.com/inkyblackness/imgui-go/v4"

// Widget helpers that keep the layout honest: a label drawn inside a
// widget of fixed width is checked against that width (State.fits, into
// Layout.Clipped), and tooltips wrap instead of running off the window.

// fits notes the last widget in Layout.Clipped when text (up to a "##"),
// drawn inside it with extra pixels of decoration beside the frame's
// padding (a combo's arrow), is wider than the widget.
func (s *State) fits(text string, extra float32) {
	need := imgui.CalcTextSize(text, true, 0).X + 2*imgui.CurrentStyle().FramePadding().X + extra
	if have := imgui.ItemRectMax().X - imgui.ItemRectMin().X; need > have+0.5 {
		s.Layout.Clipped = append(s.Layout.Clipped, s.panel+": "+text)
	}
}

// fitsCombo checks a combo's preview against its width (the arrow button
// takes a square of the frame's height).
func (s *State) fitsCombo(preview string) { s.fits(preview, imgui.FrameHeight()) }

// button draws a button of the given width (0: its label's) and checks
// that its label fits.
func (s *State) button(label string, width float32) bool {
	clicked := imgui.ButtonV(label, imgui.Vec2{X: width})
	s.fits(label, 0)
	return clicked
}

// tooltipWidth is where a tooltip's text wraps, in pixels.
const tooltipWidth = 380

// tooltip shows text, wrapped, when the last widget is hovered.
func tooltip(text string) {
	if !imgui.IsItemHovered() {
		return
	}
	imgui.BeginTooltip()
	imgui.PushTextWrapPosV(tooltipWidth)
	imgui.Text(text)
	imgui.PopTextWrapPos()
	imgui.EndTooltip()
}
