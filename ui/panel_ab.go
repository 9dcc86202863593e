package ui

import (
	"fmt"
	"strings"

	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// The A/B mode's controls (in the Simulation panel) and plots (in the
// Stats panel): a second scene B with other solver settings, run from
// the same state with the same gripper, drawn as a translucent ghost and
// measured against A after every step (frame.SetAB).

// DefaultABChanges is the A/B field's start-up value: B with one Newton
// iteration, the classic scheme, against A's K.
const DefaultABChanges = "newton=1"

// Colours of A's and B's penetration and of their node distance.
var (
	colourB        = imgui.Vec4{X: 0.30, Y: 0.65, Z: 0.95, W: 1} // the ghost's blue
	colourDistance = imgui.Vec4{X: 0.95, Y: 0.85, Z: 0.40, W: 1}
)

// SetAB turns the A/B mode on with the changes of the A/B field (B is
// rebuilt from the current state when it was on) or off.
func (s *State) SetAB(on bool, out Sender) error {
	return s.act(out, frame.SetAB{Enabled: on, Changes: s.ABChanges})
}

// drawABControls draws the A/B checkbox, the changes field and B's
// measures. Enter in the field while the mode is on restarts B with the
// new changes.
// B's measures are in the Stats panel.
func drawABControls(s *State, f *frame.Frame, out Sender) {
	on := f.Stats.AB.On
	checked := on
	if imgui.Checkbox("A/B", &checked) && checked != on {
		_ = s.SetAB(checked, out)
	}
	s.trackItem(ItemAB)
	tooltip("run a second scene B from this state with the same gripper and the changes on the right, drawn as a translucent ghost")
	imgui.SameLine()
	imgui.SetNextItemWidth(-1)
	if imgui.InputTextV("##abchanges", &s.ABChanges, imgui.InputTextFlagsEnterReturnsTrue, nil) && on {
		_ = s.SetAB(true, out)
	}
	s.trackItem(ItemABChanges)
	s.fits(s.ABChanges, 0)
	tooltip(abChangesHint)
}

// abChangesHint is the tooltip of B's changes: the A/B keys of the
// parameter table.
var abChangesHint = "B's changes, key=value separated by commas: " + strings.Join(settings.ABKeys(), ", ") + " (e.g. scheme=standard,pgs=60)"

// ABText is the A/B line of the Stats panel, "" when the mode is off.
func ABText(st *frame.Stats) string {
	ab := &st.AB
	if !ab.On {
		return ""
	}
	return fmt.Sprintf("B (%s): node distance %.3f mm (max %.3f), penetration A %.1f um, B %.1f um",
		ab.Changes, 1e3*ab.NodeDistance, 1e3*ab.MaxNodeDistance, 1e6*st.Penetration, 1e6*ab.Penetration)
}

// drawABHistories shows B's measures and plots the node distance between
// A and B and the two penetrations over the recent steps, while the mode
// is on.
func drawABHistories(s *State, f *frame.Frame) {
	if !f.Stats.AB.On {
		return
	}
	imgui.Separator()
	wrappedText(colourB, ABText(&f.Stats))
	s.trackItem(ItemABStats)
	if e := f.Stats.AB.Error; e != "" {
		wrappedText(colourError, "B stopped: "+e)
	}
	h := &s.History
	dist := [...]PlotSeries{{Label: "A-B node distance", Values: h.ABDistance, Colour: colourDistance}}
	s.plotTemp = TimePlot("##abdistance", dist[:], TimePlotOptions{Size: imgui.Vec2{Y: 60}, Unit: "mm"}, s.plotTemp)
	pen := [...]PlotSeries{
		{Label: "A penetration", Values: h.Penetration, Colour: colourCorr},
		{Label: "B penetration", Values: h.PenetrationB, Colour: colourB},
	}
	s.plotTemp = TimePlot("##abpenetration", pen[:], TimePlotOptions{Size: imgui.Vec2{Y: 60}, Unit: "um"}, s.plotTemp)
}
