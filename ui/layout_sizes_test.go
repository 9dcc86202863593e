package ui

import (
	"strings"
	"testing"

	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
)

// resize sets the window's size and lets ImGui place the panels again.
func (h *harness) resize(w, ht float32) {
	h.io.SetDisplaySize(imgui.Vec2{X: w, Y: ht})
	h.step(3)
}

// crowd fills the panels with the longest content a session shows: a
// loaded mesh with a long path, a colour map's legend, the A/B mode, a
// pause, a banner and a long hint.
func (h *harness) crowd() {
	h.state.meshFile = "/home/user/scans/a_rather_long_directory/statue_of_someone_scanned.stl"
	h.state.Config.MeshFile = h.state.meshFile
	h.state.SetMeshName("statue_of_someone_scanned.stl: 20000 triangles, mapped onto a grid of 3000 DOFs")
	h.state.Legend = Legend{Lo: 0, Hi: 1234, Label: "von Mises stress (Pa)"}
	h.state.Hint = "gripped: right-drag up lifts it, ctrl+right-drag spins it"
	h.state.SpeedStatus, h.state.SpeedAdvice, h.state.SpeedSlow = "real-time factor 0.41 (last 8 s)", "try -dofs 1200", true
	h.frame.Stats.Paused = true
	h.frame.Stats.AB = frame.ABStats{On: true, Changes: "scheme=standard,pgs=60"}
	h.state.Colours = []ColourKey{{[3]float32{1, 1, 1}, "contact pair apart, within the alarm distance"},
		{[3]float32{1, 0, 0}, "aim preview: an aim that does not fit (the banner says why)"}}
	h.frame.Message = "the object slipped out of the jaws at t = 2.10 s: grip 0.40 N for 0.50 N of weight"
}

// TestLayoutFitsEveryWindowSize draws the panels, crowded, at the three
// window sizes of the README (800×600, 1280×800, 1920×1080) and checks the layout's own rectangles:
// every panel inside the window, none over another, no content clipped at
// a panel's edge and no label cut inside its widget. In the folded column
// of a small window each panel is opened in turn; the Help panel is
// checked open and folded.
func TestLayoutFitsEveryWindowSize(t *testing.T) {
	for _, crowded := range []bool{false, true} {
		h := newHarness(t)
		if crowded {
			h.crowd()
		}
		checkLayoutSizes(t, h)
	}
}

// checkLayoutSizes checks the harness's layout at the README's window
// sizes (TestLayoutFitsEveryWindowSize).
func checkLayoutSizes(t *testing.T, h *harness) {
	for _, size := range []imgui.Vec2{{X: 800, Y: 600}, {X: 1280, Y: 800}, {X: 1920, Y: 1080}} {
		h.resize(size.X, size.Y)
		compact := size.X < CompactWidth || size.Y < CompactHeight
		if h.state.Compact() != compact {
			t.Errorf("%v: compact %v, want %v", size, h.state.Compact(), compact)
		}
		for _, help := range []bool{false, true} {
			if h.state.ShowHelp != help {
				h.state.ToggleHelp()
			}
			for _, open := range []string{PanelSimulation, PanelGripper, PanelDisplay, PanelStats} {
				h.state.openPanel = open
				h.step(3)
				for _, p := range h.state.Layout.Problems(size) {
					t.Errorf("%v, %s open, help %v: %s", size, open, help, p)
				}
				for _, title := range []string{PanelSimulation, PanelGripper, PanelDisplay, PanelStats, PanelHelp, PanelPrompt, PanelMessage} {
					if _, ok := h.state.Layout.Panels[title]; !ok && (title != PanelMessage || h.frame.Message != "") {
						t.Errorf("%v: %s not drawn", size, title)
					}
				}
				if !compact {
					break // every panel is open in a wide window
				}
			}
		}
		// With Help folded, the middle of the 3D view stays free for the
		// object.
		h.state.ToggleHelp()
		h.step(3)
		free := arrange(size).free
		if c := free.Centre(); h.state.OverPanel(c.X, c.Y) {
			t.Errorf("%v: a panel covers the 3D view's centre %v", size, c)
		}
	}
}

// TestFoldedColumnOpensOnePanel: in a small window a click on a folded
// panel's title opens it and folds the one open before.
func TestFoldedColumnOpensOnePanel(t *testing.T) {
	h := newHarness(t)
	h.resize(800, 600)
	open := func() []string {
		var o []string
		for _, title := range []string{PanelSimulation, PanelGripper, PanelDisplay, PanelStats} {
			r := h.state.Layout.Panels[title]
			if r.Max.Y-r.Min.Y > 2*imgui.FrameHeight() {
				o = append(o, title)
			}
		}
		return o
	}
	if got := open(); len(got) != 1 || got[0] != PanelGripper {
		t.Fatalf("open panels at start %v, want only %s", got, PanelGripper)
	}
	r := h.state.Layout.Panels[PanelStats]
	h.push(CursorEvent(float64(r.Min.X+100), float64(r.Min.Y+imgui.FrameHeight()/2)))
	h.step(1)
	h.push(ButtonEvent(MouseLeft, Press, 0))
	h.step(1)
	h.push(ButtonEvent(MouseLeft, Release, 0))
	h.step(3)
	if got := open(); len(got) != 1 || got[0] != PanelStats {
		t.Fatalf("open panels after a click on Stats' title %v, want only %s", got, PanelStats)
	}
}

// TestTabHidesThePanels: hidden, only the banner and the prompt are
// drawn, and the prompt says how to bring the panels back.
func TestTabHidesThePanels(t *testing.T) {
	h := newHarness(t)
	h.state.ToggleHidePanels()
	h.step(2)
	for title := range h.state.Layout.Panels {
		if title != PanelPrompt && title != PanelMessage {
			t.Errorf("%s drawn with the panels hidden", title)
		}
	}
	if !strings.Contains(PromptText(h.state.Hint, true), "Tab: show the panels") {
		t.Error("the prompt does not say how to show the panels again")
	}
	h.state.ToggleHidePanels()
	h.step(2)
	if _, ok := h.state.Layout.Panels[PanelStats]; !ok {
		t.Error("Stats not drawn again after a second Tab")
	}
}

// TestViewCentreIsTheFreeViewsMiddle: the camera centres the scene in
// the part of the window the panels leave free, the whole window when
// they are hidden.
func TestViewCentreIsTheFreeViewsMiddle(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct {
		size   imgui.Vec2
		hidden bool
		want   float32
	}{
		{imgui.Vec2{X: 1280, Y: 800}, false, (LeftColumnWidth + 2*panelMargin + 1280 - RightColumnWidth - 2*panelMargin) / 2},
		{imgui.Vec2{X: 800, Y: 600}, false, (LeftColumnWidth + 2*panelMargin + 800) / 2},
		{imgui.Vec2{X: 800, Y: 600}, true, 400},
	} {
		h.state.HidePanels = tc.hidden
		h.resize(tc.size.X, tc.size.Y)
		if x, w := h.state.ViewCentre(); x != tc.want || w != tc.size.X {
			t.Errorf("%v, hidden %v: view centre %v of %v, want %v of %v", tc.size, tc.hidden, x, w, tc.want, tc.size.X)
		}
	}
}
