package ui

import "github.com/inkyblackness/imgui-go/v4"

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
		{"H", "show / hide this help"},
	}
}

// drawHelp draws the Help panel at the bottom of the 3D view, collapsed
// unless ShowHelp (H toggles it), its title carrying the next step's hint
// (State.Hint).
func drawHelp(s *State, view imgui.Vec2) {
	imgui.SetNextWindowPosV(imgui.Vec2{X: LeftColumnWidth + 2*panelMargin, Y: view.Y - panelMargin},
		imgui.ConditionAlways, imgui.Vec2{Y: 1})
	if s.helpDirty {
		imgui.SetNextWindowCollapsed(!s.ShowHelp, imgui.ConditionAlways)
		s.helpDirty = false
	} else {
		imgui.SetNextWindowCollapsed(!s.ShowHelp, imgui.ConditionOnce)
	}
	title := PanelHelp + " (H)"
	if s.Hint != "" {
		title += "  |  next: " + s.Hint
	}
	open := imgui.BeginV(title+"###help", nil, fixedPanel)
	s.ShowHelp = open
	if open && imgui.BeginTableV("keys", 2, imgui.TableFlagsSizingFixedFit|imgui.TableFlagsRowBg, imgui.Vec2{}, 0) {
		for _, k := range Shortcuts() {
			imgui.TableNextRow()
			imgui.TableNextColumn()
			colouredText(colourFast, k.Input)
			imgui.TableNextColumn()
			imgui.Text(k.Action)
		}
		imgui.EndTable()
	}
	s.trackWindow(PanelHelp)
	imgui.End()
}
