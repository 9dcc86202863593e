package ui

import (
	"strings"
	"testing"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

func TestPanelsStayInTheirColumns(t *testing.T) {
	h := newHarness(t)
	p := h.state.Layout.Panels
	for _, title := range []string{PanelSimulation, PanelGripper, PanelDisplay} {
		r, ok := p[title]
		if !ok || r.Empty() {
			t.Fatalf("panel %s was not drawn", title)
		}
		if r.Min.X < 0 || r.Max.X > LeftColumnWidth+2*panelMargin {
			t.Errorf("%s spans x %v to %v: outside the left column", title, r.Min.X, r.Max.X)
		}
		if r.Max.Y > 800 {
			t.Errorf("%s ends at y = %v, below the 800-pixel window", title, r.Max.Y)
		}
	}
	if a, b := p[PanelSimulation], p[PanelGripper]; a.Max.Y > b.Min.Y {
		t.Errorf("Simulation (to y %v) overlaps Gripper (from y %v)", a.Max.Y, b.Min.Y)
	}
	if a, b := p[PanelGripper], p[PanelDisplay]; a.Max.Y > b.Min.Y {
		t.Errorf("Gripper (to y %v) overlaps Display (from y %v)", a.Max.Y, b.Min.Y)
	}
	stats := p[PanelStats]
	if stats.Min.X < 1280-RightColumnWidth-2*panelMargin || stats.Max.X > 1280 || stats.Max.Y > 800 {
		t.Errorf("Stats at %v: outside the right column of a 1280×800 window", stats)
	}
	// The middle of the window, where the camera looks, stays free.
	if h.state.OverPanel(640, 400) {
		t.Error("a panel covers the centre of the 3D view")
	}
}

func TestSchemeRadioSwitchesLive(t *testing.T) {
	h := newHarness(t)
	h.click(ItemSchemeStandard)
	c, ok := h.out.only(t).(frame.SetSettings)
	if !ok {
		t.Fatalf("the standard radio sent %T, want frame.SetSettings", h.out.cmds[0])
	}
	want := h.config.Scenario.Physics
	want.Scheme = settings.Standard
	if c.Settings != want {
		t.Fatalf("settings sent %+v, want the running ones with the standard scheme %+v", c.Settings, want)
	}
	h.out.cmds = nil
	h.click(ItemSchemeStandard) // already selected: nothing to send
	if len(h.out.cmds) != 0 {
		t.Fatalf("clicking the selected scheme sent %v", h.out.cmds)
	}
}

func TestTypedFieldValues(t *testing.T) {
	tests := []struct {
		name    string
		field   FieldID
		text    string
		wantErr string                     // substring of the error; "" for a valid value
		edit    func(s *settings.Settings) // the change a valid value makes
	}{
		{"h too large", FieldTimeStep, "500", "TimeStep", nil},
		{"mu not a number", FieldFriction, "1e", "not a number", nil},
		{"K fractional", FieldNewton, "2.5", "whole number", nil},
		{"nu incompressible", FieldPoisson, "0.5", "PoissonRatio", nil},
		{"mu valid", FieldFriction, "0.4", "", func(s *settings.Settings) { s.Friction = 0.4 }},
		{"h in ms", FieldTimeStep, "5", "", func(s *settings.Settings) { s.TimeStep = 0.005 }},
		{"E in kPa", FieldYoung, "20", "", func(s *settings.Settings) { s.Material.YoungModulus = 20e3 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.typeInto(tc.field, tc.text)
			text, errText := h.state.FieldText(tc.field)
			if tc.wantErr != "" {
				if len(h.out.cmds) != 0 {
					t.Fatalf("invalid %q sent %v", tc.text, h.out.cmds)
				}
				if !strings.Contains(errText, tc.wantErr) {
					t.Fatalf("error %q for %q, want it to mention %q", errText, tc.text, tc.wantErr)
				}
				if text != tc.text {
					t.Fatalf("field shows %q after the refusal, want the typed %q kept", text, tc.text)
				}
				return
			}
			c, ok := h.out.only(t).(frame.SetSettings)
			if !ok || errText != "" {
				t.Fatalf("valid %q sent %T (error %q), want frame.SetSettings", tc.text, h.out.cmds[0], errText)
			}
			want := h.config.Scenario.Physics
			tc.edit(&want)
			if c.Settings != want {
				t.Fatalf("settings sent %+v, want %+v", c.Settings, want)
			}
		})
	}
}

func TestDivergenceBannerOffersReset(t *testing.T) {
	h := newHarness(t)
	h.frame.Message = "simulation diverged at step 12 (t = 0.120 s): node speed 80 m/s"
	h.frame.Stats.Paused, h.frame.Stats.Error = true, h.frame.Message
	h.step(2)
	if _, ok := h.state.Layout.Panels[PanelMessage]; !ok {
		t.Fatal("no message banner for a divergence")
	}
	h.click(ItemMessageReset)
	if _, ok := h.out.only(t).(frame.Reset); !ok {
		t.Fatalf("banner button sent %T, want frame.Reset", h.out.cmds[0])
	}
	h.click(ItemMessageDismiss)
	h.step(1)
	if _, ok := h.state.Layout.Panels[PanelMessage]; ok {
		t.Fatal("the banner stays after Dismiss")
	}
}

func TestHelpToggle(t *testing.T) {
	h := newHarness(t)
	collapsed := h.state.Layout.Panels[PanelHelp]
	h.state.ToggleHelp()
	h.step(2)
	open := h.state.Layout.Panels[PanelHelp]
	if open.Max.Y-open.Min.Y < 4*(collapsed.Max.Y-collapsed.Min.Y) {
		t.Fatalf("help panel %v after H is not much taller than collapsed %v", open, collapsed)
	}
	if open.Max.Y > 800 {
		t.Fatalf("help panel %v runs off the window", open)
	}
	h.state.ToggleHelp()
	h.step(2)
	if again := h.state.Layout.Panels[PanelHelp]; again != collapsed {
		t.Fatalf("help panel %v after a second H, want collapsed %v", again, collapsed)
	}
}

func TestGripperPanelWithoutGripper(t *testing.T) {
	h := newHarness(t)
	if _, ok := h.state.Layout.Items[ItemToggleJaws]; !ok {
		t.Fatal("the grasp scene's gripper panel has no open/close button")
	}
	h.frame.Gripper = frame.GripperView{}
	h.step(1)
	if _, ok := h.state.Layout.Items[ItemToggleJaws]; ok {
		t.Fatal("the gripper buttons are drawn in a scene without a gripper")
	}
}

func TestRefusedActionShowsInTheBanner(t *testing.T) {
	h := newHarness(t)
	h.out.refuse = true
	h.click(ItemToggleJaws)
	if _, ok := h.state.Layout.Panels[PanelMessage]; !ok || h.state.ActionError() == "" {
		t.Fatalf("a refused open/close shows no banner (error %q)", h.state.ActionError())
	}
	h.out.refuse = false
	h.click(ItemMessageDismiss)
	if _, ok := h.state.Layout.Panels[PanelMessage]; ok {
		t.Fatal("the banner stays after Dismiss")
	}
}

// TestLegendBarStaysInTheDisplayPanel draws the Display panel with a
// colour map's legend (caption, bar, end values) and checks that the panel
// grows to hold it and still ends inside the window.
func TestLegendBarStaysInTheDisplayPanel(t *testing.T) {
	h := newHarness(t)
	before := h.state.Layout.Panels[PanelDisplay]
	h.state.Legend = Legend{Lo: 0, Hi: 1234, Label: "von Mises stress (Pa)"}
	for i := range h.state.Legend.Ramp {
		h.state.Legend.Ramp[i] = [3]float32{float32(i) / LegendSteps, 0.5, 0.5}
	}
	h.step(3)
	after := h.state.Layout.Panels[PanelDisplay]
	if after.Max.Y <= before.Max.Y {
		t.Fatalf("the Display panel did not grow for the legend: %v, then %v", before, after)
	}
	if after.Max.Y > 800 {
		t.Fatalf("with the legend the Display panel ends at y = %v, below the window", after.Max.Y)
	}
}

// TestBackendToggleShowsTheFrame: the gpu box sends a frame.SetBackend
// and shows the backend the frames report, not the one asked for (a GPU
// that could not be opened leaves it unticked).
func TestBackendToggleShowsTheFrame(t *testing.T) {
	h := newHarness(t)
	for i, tc := range []struct {
		frameBackend string // what the frames report before the click
		want         string // what the click asks for
	}{
		{frame.BackendCPU, frame.BackendGPU},
		{frame.BackendCPU, frame.BackendGPU}, // the GPU did not open: still unticked, asks again
		{frame.BackendGPU, frame.BackendCPU},
	} {
		h.out.cmds = nil
		h.frame.Stats.Backend = tc.frameBackend
		h.step(1)
		h.click(ItemBackendGPU)
		if c, ok := h.out.only(t).(frame.SetBackend); !ok || c.Backend != tc.want {
			t.Fatalf("click %d on %s sent %#v, want frame.SetBackend{%s}", i, tc.frameBackend, h.out.cmds[0], tc.want)
		}
	}
}

// TestStatsShowDeviceTimesApart: the Stats panel adds the kernel and the
// transfer times of a step on a backend that measures them, and nothing
// on the CPU.
func TestStatsShowDeviceTimesApart(t *testing.T) {
	h := newHarness(t)
	h.frame.Stats.Backend = frame.BackendCPU
	h.step(2)
	if _, ok := h.state.Layout.Items[ItemDeviceTimes]; ok || DeviceTimesText(&h.frame.Stats) != "" {
		t.Fatal("device times drawn for the CPU backend")
	}
	st := &h.frame.Stats
	st.Backend, st.DeviceTimed, st.DeviceKernel, st.DeviceTransfer = frame.BackendGPU, true, 0.25, 0.125
	h.step(2)
	r, ok := h.state.Layout.Items[ItemDeviceTimes]
	if !ok || r.Empty() {
		t.Fatal("no device times in Stats for a timed backend")
	}
	if stats := h.state.Layout.Panels[PanelStats]; r.Min.Y < stats.Min.Y || r.Max.Y > stats.Max.Y {
		t.Fatalf("device times at %v, outside the Stats panel %v", r, stats)
	}
	text := DeviceTimesText(st)
	for _, want := range []string{"gpu", "kernels 0.250 ms", "transfers 0.125 ms"} {
		if !strings.Contains(text, want) {
			t.Errorf("device times %q do not show %q", text, want)
		}
	}
}

// TestStatsShowFrictionOverride: the Stats panel names a friction μ the
// scene imposes in place of the configured one, and says nothing
// without one.
func TestStatsShowFrictionOverride(t *testing.T) {
	h := newHarness(t)
	h.step(2)
	if text := FrictionOverrideText(&h.frame.Stats); text != "" {
		t.Fatalf("override line %q without an override", text)
	}
	st := &h.frame.Stats
	st.FrictionOverride, st.FrictionOverridden = 1.03, true
	h.step(2)
	if text := FrictionOverrideText(st); !strings.Contains(text, "μ 1.03") {
		t.Fatalf("override line %q does not show μ 1.03", text)
	}
}

// TestStatsSayWhenPaused: while the loop is paused the Stats panel says
// that its contact measurements are the last step's (a pause keeps them
// while commands move the gripper's target), and says nothing running.
func TestStatsSayWhenPaused(t *testing.T) {
	h := newHarness(t)
	h.step(2)
	if text := PausedText(&h.frame.Stats); text != "" {
		t.Fatalf("paused line %q while running", text)
	}
	st := &h.frame.Stats
	st.Paused = true
	h.step(2)
	if text := PausedText(st); !strings.Contains(text, "last step") {
		t.Fatalf("paused line %q does not say the numbers are the last step's", text)
	}
}
