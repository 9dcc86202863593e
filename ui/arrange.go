package ui

import (
	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
)

// Where the panels go. The window is cut into docked columns and the 3D
// view between them (the free area). A wide window has two columns: the
// Simulation, Gripper and Display panels on the left, Stats on the right.
// A window narrower than CompactWidth or lower than CompactHeight has one
// column on the left holding all four, of which one is open at a time
// (opening one folds the others). In a column each panel is bounded to the
// height left below its top, less the title bars of the panels under it,
// and scrolls beyond: every panel stays inside the window. The free area
// holds the message banner at its top, the prompt at its bottom and the
// Help panel above the prompt, so that none of them covers a column. Tab
// hides every panel but the banner and the prompt (HidePanels).

// Window sizes below which the panels fold into one column.
const (
	CompactWidth  = 1000
	CompactHeight = 640
)

// arrangement is the panels' placement in a window of a given size.
type arrangement struct {
	compact bool
	columns []column
	free    Rect // the 3D view between the columns
}

// column is one docked stack of panels.
type column struct {
	x, width float32
	panels   []string
}

// panelDrawers are the docked panels' contents, by title.
var panelDrawers = map[string]func(*State, *frame.Frame, Sender){
	PanelSimulation: drawSimulation,
	PanelGripper:    drawGripper,
	PanelDisplay:    drawDisplay,
	PanelStats:      func(s *State, f *frame.Frame, _ Sender) { drawStats(s, f) },
}

// arrange places the columns in a window of size view.
func arrange(view imgui.Vec2) arrangement {
	left := column{x: panelMargin, width: LeftColumnWidth}
	freeMin := imgui.Vec2{X: LeftColumnWidth + 2*panelMargin}
	if view.X < CompactWidth || view.Y < CompactHeight {
		left.panels = []string{PanelSimulation, PanelGripper, PanelDisplay, PanelStats}
		return arrangement{compact: true, columns: []column{left}, free: Rect{Min: freeMin, Max: view}}
	}
	left.panels = []string{PanelSimulation, PanelGripper, PanelDisplay}
	right := column{x: view.X - RightColumnWidth - panelMargin, width: RightColumnWidth, panels: []string{PanelStats}}
	return arrangement{columns: []column{left, right}, free: Rect{Min: freeMin, Max: imgui.Vec2{X: right.x - panelMargin, Y: view.Y}}}
}

// ViewCentre returns the middle of the 3D view the last frame's panels
// left free, x in window coordinates, and the window's width (0 before
// the first frame): the camera centres the scene there.
func (s *State) ViewCentre() (x, width float32) {
	return s.free.Centre().X, s.viewWidth
}

// Compact reports whether the last frame folded the panels into one
// column.
func (s *State) Compact() bool { return s.compact }

// drawColumn draws a column's panels top to bottom.
func (s *State) drawColumn(c column, a arrangement, f *frame.Frame, out Sender) {
	titleBar := imgui.FrameHeight()
	y := float32(panelMargin)
	for i, title := range c.panels {
		below := float32(len(c.panels)-1-i) * (titleBar + panelMargin)
		height := max(a.free.Max.Y-panelMargin-y-below, titleBar)
		if a.compact {
			imgui.SetNextWindowCollapsed(title != s.openPanel, imgui.ConditionAlways)
		} else if s.compact {
			imgui.SetNextWindowCollapsed(false, imgui.ConditionAlways) // back from the folded column
		}
		imgui.SetNextWindowPosV(imgui.Vec2{X: c.x, Y: y}, imgui.ConditionAlways, imgui.Vec2{})
		imgui.SetNextWindowSizeConstraints(imgui.Vec2{X: c.width}, imgui.Vec2{X: c.width, Y: height})
		s.panel = title
		open := imgui.BeginV(title, nil, fixedPanel)
		if open {
			panelDrawers[title](s, f, out)
		}
		if a.compact {
			// The user opened a folded panel, by its arrow or a click on
			// its title (the others fold next frame), or folded the open
			// one by its arrow.
			switch {
			case !open && imgui.IsItemClicked(): // after Begin, the title bar
				s.openPanel = title
			case open && title != s.openPanel:
				s.openPanel = title
			case !open && title == s.openPanel:
				s.openPanel = ""
			}
		}
		s.endPanel(title)
		s.panel = ""
		y = s.Layout.Panels[title].Max.Y + panelMargin
	}
}

// ToggleHidePanels hides or shows every panel but the banner and the
// prompt (key Tab).
func (s *State) ToggleHidePanels() { s.HidePanels = !s.HidePanels }
