package ui

import (
	"fmt"

	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
)

// The Stats panel: the paper's Table-1 stages of the last step as numbers
// and as a stacked bar, the loop's rates, the grasp measurements, the
// Newton convergence of the last step and time histories of the step
// time and the penetration. Every plot shows per-step values, so a scheme
// switch shows at the step it took effect.

// Colours of the Table-1 stages, shared by the bar and the history plot.
var (
	colourBuildWH  = imgui.Vec4{X: 0.90, Y: 0.35, Z: 0.35, W: 1}
	colourRebuildW = imgui.Vec4{X: 0.95, Y: 0.65, Z: 0.25, W: 1}
	colourPGS      = imgui.Vec4{X: 0.40, Y: 0.70, Z: 0.95, W: 1}
	colourCorr     = imgui.Vec4{X: 0.55, Y: 0.85, Z: 0.45, W: 1}
	colourOther    = imgui.Vec4{X: 0.50, Y: 0.50, Z: 0.55, W: 1}
	colourStep     = imgui.Vec4{X: 0.85, Y: 0.85, Z: 0.88, W: 1}
	colourShade    = imgui.Vec4{X: 1, Y: 0.55, Z: 0.25, W: 0.16}
)

func drawStats(s *State, f *frame.Frame) {
	st := &f.Stats
	drawSchemeLine(st)
	drawDeviceTimes(s, st)
	drawStageTable(st)
	StackedBar("stages", StepSegments(st), imgui.Vec2{}, "ms")
	imgui.Separator()
	drawRates(s, f)
	imgui.Separator()
	drawConvergence(s, st)
	imgui.Separator()
	drawHistories(s)
	drawABHistories(s, f)
}

// drawSchemeLine names the scheme of the last step, in its colour.
func drawSchemeLine(st *frame.Stats) {
	c := colourFast
	if st.Scheme == "standard" {
		c = colourStandard
	}
	scheme := st.Scheme
	if scheme == "" {
		scheme = "no step yet"
	}
	colouredText(c, "scheme: "+scheme)
	imgui.SameLine()
	imgui.Text("  last step:")
	imgui.Text(fmt.Sprintf("%d Newton it., %d PGS sweeps in all", st.NewtonIterations, st.PGSIterations))
	tooltip("PGS sweeps: those of all the step's Newton iterations together (the PGS field caps each iteration's)")
}

// drawDeviceTimes shows, on a backend that measures its device, the
// step's time in kernels and in host↔device copies apart; on the CPU it
// draws nothing.
func drawDeviceTimes(s *State, st *frame.Stats) {
	text := DeviceTimesText(st)
	if text == "" {
		return
	}
	imgui.Text(text)
	s.trackItem(ItemDeviceTimes)
	tooltip("measured by events on the device's stream; the stage times below are wall times on the host")
}

// DeviceTimesText is the Stats panel's line of device times, "" when the
// backend has none.
func DeviceTimesText(st *frame.Stats) string {
	if !st.DeviceTimed {
		return ""
	}
	return fmt.Sprintf("%s: kernels %.3f ms, transfers %.3f ms per step", st.Backend, st.DeviceKernel, st.DeviceTransfer)
}

// drawStageTable lists the Table-1 stages of the last step.
func drawStageTable(st *frame.Stats) {
	m := &st.MS
	flags := imgui.TableFlagsRowBg | imgui.TableFlagsBordersInnerV | imgui.TableFlagsSizingStretchProp
	if !imgui.BeginTableV("table1", 3, flags, imgui.Vec2{}, 0) {
		return
	}
	imgui.TableSetupColumn("stage")
	imgui.TableSetupColumn("ms")
	imgui.TableSetupColumn("per")
	imgui.TableHeadersRow()
	rows := [...]struct {
		name string
		ms   float64
		per  string
	}{
		{"Build W_H", m.BuildWH, "step"}, {"Rebuild W", m.RebuildW, "Newton it."},
		{"PGS", m.PGS, "Newton it."}, {"Corr.", m.Corr, "Newton it."}, {"Elastic", m.Elastic, "Newton it."},
		{"Newton ite.", m.NewtonIter, "Newton it."}, {"Total", m.Total, "step"},
		{"whole step", m.Step, "step"},
	}
	for _, r := range rows {
		imgui.TableNextRow()
		imgui.TableNextColumn()
		imgui.Text(r.name)
		imgui.TableNextColumn()
		imgui.Text(fmt.Sprintf("%8.3f", r.ms))
		imgui.TableNextColumn()
		colouredText(colourDim, r.per)
	}
	imgui.EndTable()
	if m.NewtonIter > 0 {
		colouredText(colourDim, fmt.Sprintf("update share (rebuild + corr.) %.0f%%", 100*(m.RebuildW+m.Corr)/m.NewtonIter))
	}
}

// StepSegments splits the wall time of a step into the Table-1 stages
// summed over its Newton iterations and the rest (assembly, factorisation,
// collision detection), in ms.
func StepSegments(st *frame.Stats) []BarSegment {
	k, m := float64(st.NewtonIterations), &st.MS
	scheme := m.BuildWH + k*(m.RebuildW+m.PGS+m.Corr)
	return []BarSegment{
		{Label: "W_H", Value: m.BuildWH, Colour: colourBuildWH},
		{Label: "rebuild W", Value: k * m.RebuildW, Colour: colourRebuildW},
		{Label: "PGS", Value: k * m.PGS, Colour: colourPGS},
		{Label: "corr.", Value: k * m.Corr, Colour: colourCorr},
		{Label: "other", Value: max(m.Step-scheme, 0), Colour: colourOther},
	}
}

// drawRates shows the loop's speed and the grasp measurements.
func drawRates(s *State, f *frame.Frame) {
	st := &f.Stats
	pace := "max"
	if s.Pace > 0 {
		pace = fmt.Sprintf("%.3g", s.Pace)
	}
	// The real-time factor over the viewer's last seconds once measured
	// (amber when the physics falls behind, with what to try), else the
	// loop's own.
	rate := fmt.Sprintf("real-time factor %.3f", st.RealtimeFactor)
	if s.SpeedStatus != "" {
		rate = s.SpeedStatus
	}
	line := fmt.Sprintf("steps/s %.1f   %s", st.StepRate, rate)
	if s.SpeedSlow {
		wrappedText(colourWarn, line)
	} else {
		wrappedText(colourText, line)
	}
	target := fmt.Sprintf("target %s   frames/s %.0f", pace, s.RenderFPS)
	if s.SpeedAdvice != "" {
		wrappedText(colourWarn, target+"   "+s.SpeedAdvice)
	} else {
		imgui.Text(target)
	}
	imgui.Text(fmt.Sprintf("DOFs %d   surface %d triangles", s.mesh.dofs, s.mesh.tris))
	if s.DOFsNote != "" {
		imgui.SameLine()
		colouredText(colourDim, "(auto)")
		tooltip(s.DOFsNote)
	}
	if text := PausedText(st); text != "" {
		wrappedText(colourWarn, text)
	}
	imgui.Text(fmt.Sprintf("contacts %d   max penetration %.1f um", st.Contacts, 1e6*st.Penetration))
	if f.Gripper.Present { // a scene without a gripper has no grasp to measure
		imgui.Text(fmt.Sprintf("slip %.2f mm   jaws %.2f | %.2f N", 1e3*st.Slip, st.GripLeft, st.GripRight))
		tooltip(fmt.Sprintf("slip: the object's centre of mass's drift in the gripper since the lift started; jaws: each jaw's squeeze, of the %.2f N they close to (%s)", st.GripTarget, st.Phase))
		if st.Held {
			colouredText(colourGood, "held")
		} else {
			colouredText(colourWarn, "not held")
		}
		tooltip("held: lifted off the floor between both jaws, with at most 5 mm of slip")
	}
	if st.UnconvergedSolves > 0 {
		wrappedText(colourWarn, fmt.Sprintf("%d solve(s) of this step stopped at the PCG iteration cap", st.UnconvergedSolves))
	}
	if text := FrictionOverrideText(st); text != "" {
		wrappedText(colourWarn, text)
		tooltip("the scene's own friction; the configured μ (Simulation panel) applies once it ends")
	}
}

// PausedText is the Stats panel's line over the contact measurements
// while the loop is paused, "" while it runs: commands applied in a pause
// (an aim, a new opening) move the gripper's target and its preview, not
// the jaws, and the numbers below still describe the last step run.
func PausedText(st *frame.Stats) string {
	if !st.Paused {
		return ""
	}
	return "paused: the measurements below are the last step's"
}

// FrictionOverrideText is the Stats panel's line on a friction μ the
// scene imposes in place of the configured one, "" when none does.
func FrictionOverrideText(st *frame.Stats) string {
	if !st.FrictionOverridden {
		return ""
	}
	return fmt.Sprintf("friction μ %.3g set by the scene (incline hold and release)", st.FrictionOverride)
}

// drawConvergence plots the last step's Newton convergence on log axes.
func drawConvergence(s *State, st *frame.Stats) {
	n := min(st.NewtonIterations, frame.MaxNewton)
	imgui.Text(fmt.Sprintf("Newton convergence, last step (%d it.)", n))
	// Iteration 0 takes its directions from collision detection: it has
	// no previous direction to change from, so the plot starts at k = 1.
	s.dirLog = appendF32(s.dirLog[:0], st.DirectionChange[min(1, n):n])
	s.posLog = appendF32(s.posLog[:0], st.PositionChange[:n])
	w := imgui.ContentRegionAvail().X
	if len(s.dirLog) == 0 {
		wrappedText(colourDim, "direction change: needs two Newton iterations")
	} else {
		PlotLog("##direction", s.dirLog, LogPlotOptions{Size: imgui.Vec2{X: w, Y: 48}, Unit: "rad", Caption: "direction change, k >= 1"})
	}
	PlotLog("##position", s.posLog, LogPlotOptions{Size: imgui.Vec2{X: w, Y: 48}, Unit: "m", Caption: "p change"})
	s.resLog = s.resLog[:0]
	for _, r := range st.ElasticResidual[:n] {
		if r > 0 { // iterations that evaluated the residual
			s.resLog = append(s.resLog, float32(r))
		}
	}
	if len(s.resLog) > 0 {
		PlotLog("##elastic", s.resLog, LogPlotOptions{Size: imgui.Vec2{X: w, Y: 48}, Unit: "m", Caption: "residual (node move), k >= 1"})
	}
	// Signorini's residual from k = 1 on, as the direction change.
	s.conLog = appendF32(s.conLog[:0], st.ContactResidual[min(1, n):n])
	if len(s.conLog) > 0 {
		PlotLog("##contact", s.conLog, LogPlotOptions{Size: imgui.Vec2{X: w, Y: 48}, Unit: "m", Caption: "contact law residual, k >= 1"})
	}
}

// appendF32 appends float64 values as float32.
func appendF32(dst []float32, v []float64) []float32 {
	for _, x := range v {
		dst = append(dst, float32(x))
	}
	return dst
}

// drawHistories plots the recent steps' times and penetration.
func drawHistories(s *State) {
	h := &s.History
	imgui.Text(fmt.Sprintf("last %d steps", h.Len()))
	series := [...]PlotSeries{
		{Label: "step", Values: h.Step, Colour: colourStep},
		{Label: "Total", Values: h.Total, Colour: colourRebuildW},
		{Label: "Newton ite.", Values: h.NewtonIter, Colour: colourPGS},
		{Label: "W_H", Values: h.BuildWH, Colour: colourBuildWH},
	}
	s.plotTemp = TimePlot("##times", series[:], TimePlotOptions{
		Size: imgui.Vec2{Y: 90}, Unit: "ms", Shade: h.Standard, ShadeColour: colourShade, ShadeLabel: "standard scheme steps",
	}, s.plotTemp)
	pen := [...]PlotSeries{{Label: "max penetration", Values: h.Penetration, Colour: colourCorr}}
	s.plotTemp = TimePlot("##penetration", pen[:], TimePlotOptions{Size: imgui.Vec2{Y: 60}, Unit: "um"}, s.plotTemp)
}
