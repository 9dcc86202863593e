package ui

import (
	"fmt"

	"github.com/inkyblackness/imgui-go/v4"
)

// The Help panel lists the mouse and keyboard bindings.

// Shortcut is one mouse or keyboard binding of the viewer.
type Shortcut struct {
	Input, Action string
}

// Shortcuts lists the viewer's bindings, as the Help panel shows them.
func Shortcuts() []Shortcut {
	return []Shortcut{
		{"left drag", "orbit the camera"},
		{"middle drag", "pan the camera"},
		{"wheel", "zoom"},
		{"right drag", "move the gripper in the view plane"},
		{"ctrl + right drag, shift + wheel", "spin the gripper about its axis"},
		{"ctrl (or alt) + left click on the object", "aim the open jaws at the best grasp there (outlines preview them)"},
		{"Esc", "cancel the aim's preview"},
		{"G", "close the jaws until they grip / open them"},
		{"Space", "run / pause"},
		{"S", "one step (pauses)"},
		{"R", "reset the scene"},
		{"F9", "start / stop a video (MP4 in the working directory, needs ffmpeg)"},
		{"F12", "screenshot (PNG in the working directory)"},
		{"H, F1", "show / hide this help"},
		{"Tab", "hide / show all panels"},
	}
}

// drawHelp draws the Help panel at the bottom left of the free area,
// above the prompt and below the banner (their rectangles, empty when
// not drawn), collapsed unless ShowHelp (H toggles it); its table wraps
// to the free area's width.
func drawHelp(s *State, free, message, prompt Rect) {
	bottom := free.Max.Y - panelMargin
	if !prompt.Empty() {
		bottom = prompt.Min.Y - panelMargin
	}
	top := free.Min.Y + panelMargin
	if !message.Empty() {
		top = message.Max.Y + panelMargin
	}
	title := PanelHelp + " (H)"
	width := min(helpWidth, free.Max.X-free.Min.X-2*panelMargin)
	if !s.ShowHelp {
		width = min(width, imgui.CalcTextSize(title, false, 0).X+imgui.FrameHeight()+3*imgui.CurrentStyle().WindowPadding().X)
	}
	imgui.SetNextWindowPosV(imgui.Vec2{X: free.Min.X + panelMargin, Y: bottom}, imgui.ConditionAlways, imgui.Vec2{Y: 1})
	imgui.SetNextWindowSizeConstraints(imgui.Vec2{X: width}, imgui.Vec2{X: width, Y: max(bottom-top, imgui.FrameHeight())})
	if s.helpDirty {
		imgui.SetNextWindowCollapsed(!s.ShowHelp, imgui.ConditionAlways)
		s.helpDirty = false
	} else {
		imgui.SetNextWindowCollapsed(!s.ShowHelp, imgui.ConditionOnce)
	}
	open := imgui.BeginV(title+"###help", nil, fixedPanel)
	s.ShowHelp = open
	flags := imgui.TableFlagsSizingStretchProp | imgui.TableFlagsRowBg
	if open && imgui.BeginTableV("keys", 2, flags, imgui.Vec2{}, 0) {
		imgui.TableSetupColumnV("input", imgui.TableColumnFlagsWidthStretch, 0.4, 0)
		imgui.TableSetupColumnV("action", imgui.TableColumnFlagsWidthStretch, 0.6, 0)
		imgui.PushTextWrapPosV(0)
		for _, k := range Shortcuts() {
			imgui.TableNextRow()
			imgui.TableNextColumn()
			colouredText(colourFast, k.Input)
			imgui.TableNextColumn()
			imgui.Text(k.Action)
		}
		imgui.PopTextWrapPos()
		imgui.EndTable()
	}
	if open {
		drawColourKeys(s)
	}
	s.trackWindow(PanelHelp)
	imgui.End()
}

// helpWidth is the open Help panel's width where the 3D view has room.
const helpWidth = 600

// panelColours are the panels' own colours and their meanings.
func panelColours() []ColourKey {
	rgb := func(c imgui.Vec4) [3]float32 { return [3]float32{c.X, c.Y, c.Z} }
	return []ColourKey{
		{rgb(changedColour), "panel label: a setting changed from its default (tooltip: the default)"},
		{rgb(colourWarn), "panel text: below the target speed, not held, a measurement to look at"},
		{rgb(colourGood), "panel text: held"},
		{rgb(colourFast), "the fast scheme"},
		{rgb(colourStandard), "the standard scheme (shaded steps in the time plot)"},
		{rgb(colourBannerError), "banner: an error (a diverged step, a refused action)"},
		{rgb(colourBannerNote), "banner: a report or a note (why a grasp stopped, what Reset kept)"},
	}
}

// drawColourKeys lists every colour drawn, a swatch and its meaning per
// row: the 3D view's (State.Colours), then the panels'.
func drawColourKeys(s *State) {
	imgui.Separator()
	imgui.Text("Colours")
	box := imgui.TextLineHeight()
	// A pixel inside the edge: wrapped at the edge itself, a line can
	// round one pixel past it.
	imgui.PushTextWrapPosV(imgui.ContentRegionMax().X - 1)
	for i, k := range append(append([]ColourKey(nil), s.Colours...), panelColours()...) {
		imgui.ColorButton(fmt.Sprintf("##colour%d", i), imgui.Vec4{X: k.Colour[0], Y: k.Colour[1], Z: k.Colour[2], W: 1},
			imgui.ColorEditFlagsNoTooltip, imgui.Vec2{X: box, Y: box})
		imgui.SameLine()
		imgui.Text(k.Meaning)
	}
	imgui.PopTextWrapPos()
}
