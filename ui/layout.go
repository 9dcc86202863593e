package ui

import (
	"fmt"
	"sort"

	"github.com/inkyblackness/imgui-go/v4"
)

// Rect is an axis-aligned rectangle in window coordinates (origin
// top-left, y down), Min inclusive and Max exclusive.
type Rect struct {
	Min, Max imgui.Vec2
}

// Contains reports whether (x, y) lies inside r.
func (r Rect) Contains(x, y float32) bool {
	return x >= r.Min.X && x < r.Max.X && y >= r.Min.Y && y < r.Max.Y
}

// Centre returns the middle of r.
func (r Rect) Centre() imgui.Vec2 {
	return imgui.Vec2{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}
}

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return r.Max.X <= r.Min.X || r.Max.Y <= r.Min.Y }

// Layout records where the last frame drew each panel and each tracked
// widget, so that the application keeps the 3D view's focus clear of the
// panels and tests can aim synthetic clicks.
type Layout struct {
	// Panels maps a panel's title to its window rectangle (the title bar
	// only when collapsed).
	Panels map[string]Rect
	// Items maps a widget's id to its rectangle.
	Items map[string]Rect
	// Overflow maps a panel's title to how far its content reaches past
	// its right edge (ImGui's horizontal scroll range), in pixels: what
	// the panel clips.
	Overflow map[string]float32
	// Clipped lists the widgets whose label or value did not fit the
	// width the layout gave them, as "panel: label".
	Clipped []string
}

func newLayout() Layout {
	return Layout{Panels: map[string]Rect{}, Items: map[string]Rect{}, Overflow: map[string]float32{}}
}

// reset empties the layout before a frame is built.
func (l *Layout) reset() {
	clear(l.Panels)
	clear(l.Items)
	clear(l.Overflow)
	l.Clipped = l.Clipped[:0]
}

// Problems lists what is wrong with the last frame's layout in a window
// of size view: a panel outside the window, two panels that overlap, a
// panel that clips its content on the right, a widget whose label does
// not fit it. It is empty for a layout a user can read in full.
func (l *Layout) Problems(view imgui.Vec2) []string {
	var out []string
	titles := make([]string, 0, len(l.Panels))
	for t := range l.Panels {
		titles = append(titles, t)
	}
	sort.Strings(titles)
	for i, a := range titles {
		r := l.Panels[a]
		if r.Min.X < 0 || r.Min.Y < 0 || r.Max.X > view.X || r.Max.Y > view.Y {
			out = append(out, fmt.Sprintf("%s at (%.0f, %.0f)-(%.0f, %.0f) leaves the %.0f×%.0f window", a, r.Min.X, r.Min.Y, r.Max.X, r.Max.Y, view.X, view.Y))
		}
		for _, b := range titles[i+1:] {
			if q := l.Panels[b]; r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y {
				out = append(out, fmt.Sprintf("%s overlaps %s", a, b))
			}
		}
		if o := l.Overflow[a]; o > 0 {
			out = append(out, fmt.Sprintf("%s clips %.0f px of its content on the right", a, o))
		}
	}
	for _, c := range l.Clipped {
		out = append(out, "clipped "+c)
	}
	return out
}

// Panel names, also the windows' titles.
const (
	PanelSimulation = "Simulation"
	PanelGripper    = "Gripper"
	PanelStats      = "Stats"
	PanelDisplay    = "Display"
	PanelHelp       = "Help"
	PanelMessage    = "Message"
)

// Widget ids tracked in Layout.Items.
const (
	ItemRunPause       = "run/pause"
	ItemStep           = "step"
	ItemReset          = "reset"
	ItemSchemeFast     = "scheme/fast"
	ItemSchemeStandard = "scheme/standard"
	ItemBackendGPU     = "backend/gpu"
	ItemAB             = "ab/toggle"
	ItemABChanges      = "ab/changes"
	ItemABStats        = "stats/ab"
	ItemDeviceTimes    = "stats/device times"
	ItemToggleJaws     = "jaws"
	ItemRunScript      = "grasp and rotate"
	ItemManual         = "manual"
	ItemMessageReset   = "message/reset"
	ItemMessageDismiss = "message/dismiss"
)

// FieldItem is the Layout.Items id of a numeric field.
func FieldItem(id FieldID) string {
	if id < 0 || id >= fieldCount {
		return ""
	}
	return "field/" + fieldParams[id].Key
}

// trackItem records the rectangle of the last widget drawn.
func (s *State) trackItem(id string) {
	s.Layout.Items[id] = Rect{Min: imgui.ItemRectMin(), Max: imgui.ItemRectMax()}
}

// trackWindow records the rectangle of the current window; call it
// between Begin and End.
func (s *State) trackWindow(title string) {
	s.trackWindowRect(title)
	if o := imgui.ScrollMaxX(); o > 0 && !imgui.IsWindowCollapsed() {
		s.Layout.Overflow[title] = o
	}
}

// trackWindowRect records the rectangle of the current window alone, for
// a window whose text is wrapped to its width each frame: ImGui's
// horizontal scroll range compares the window's new width with the
// previous frame's text, which overflows for a frame when the text
// shrinks.
func (s *State) trackWindowRect(title string) {
	pos, size := imgui.WindowPos(), imgui.WindowSize()
	s.Layout.Panels[title] = Rect{Min: pos, Max: imgui.Vec2{X: pos.X + size.X, Y: pos.Y + size.Y}}
}

// OverPanel reports whether (x, y) lies inside a panel drawn in the last
// frame.
func (s *State) OverPanel(x, y float32) bool {
	for _, r := range s.Layout.Panels {
		if r.Contains(x, y) {
			return true
		}
	}
	return false
}
