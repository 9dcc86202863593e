package ui

import (
	"strings"
	"testing"

	"softgrasp/physics/frame"
)

// TestABCheckboxSendsTheChanges: the A/B box asks for B with the field's
// changes (newton=1 at start), off once the frames say it is on; bad
// changes are refused before sending, naming the key.
func TestABCheckboxSendsTheChanges(t *testing.T) {
	h := newHarness(t)
	h.click(ItemAB)
	if c, ok := h.out.only(t).(frame.SetAB); !ok || !c.Enabled || c.Changes != DefaultABChanges {
		t.Fatalf("the A/B box sent %#v, want SetAB on with %q", h.out.cmds[0], DefaultABChanges)
	}
	h.out.cmds = nil
	h.frame.Stats.AB = frame.ABStats{On: true, Changes: DefaultABChanges, NodeDistance: 2e-4, MaxNodeDistance: 5e-4, Penetration: 3e-5}
	h.step(2)
	if r, ok := h.state.Layout.Items[ItemABChanges]; !ok || r.Empty() {
		t.Fatal("no A/B changes field in the Simulation panel")
	}
	r, ok := h.state.Layout.Items[ItemABStats]
	if stats := h.state.Layout.Panels[PanelStats]; !ok || r.Empty() || r.Min.Y < stats.Min.Y || stats.Max.Y > 800 {
		t.Fatalf("A/B measures at %v, Stats panel %v in an 800-pixel window", r, stats)
	}
	if text := ABText(&h.frame.Stats); !strings.Contains(text, "node distance 0.200 mm (max 0.500)") || !strings.Contains(text, "B 30.0 um") {
		t.Errorf("A/B line %q", text)
	}
	h.click(ItemAB)
	if c, ok := h.out.only(t).(frame.SetAB); !ok || c.Enabled {
		t.Fatalf("the ticked A/B box sent %#v, want SetAB off", h.out.cmds[0])
	}
	h.out.cmds = nil
	h.state.ABChanges = "dt=0.02"
	if err := h.state.SetAB(true, h.out); err == nil || len(h.out.cmds) != 0 || !strings.Contains(h.state.ActionError(), "unknown key") {
		t.Fatalf("bad changes: error %v, sent %v, banner %q", err, h.out.cmds, h.state.ActionError())
	}
}

// TestHistoryRecordsAB: the histories take B's node distance (mm) and
// penetration (µm) with every step.
func TestHistoryRecordsAB(t *testing.T) {
	h := NewHistory(4)
	h.Add(&frame.Stats{AB: frame.ABStats{On: true, NodeDistance: 1.5e-3, Penetration: 2e-6}})
	if d, p := h.ABDistance.Last(), h.PenetrationB.Last(); d != 1.5 || p != 2 {
		t.Fatalf("A/B history: distance %v mm, penetration %v um; want 1.5 and 2", d, p)
	}
	h.Clear()
	if h.ABDistance.Len() != 0 || h.PenetrationB.Len() != 0 {
		t.Fatal("Clear kept A/B samples")
	}
}
