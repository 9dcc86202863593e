package ui

import (
	"fmt"
	"math"

	"github.com/inkyblackness/imgui-go/v4"
)

// Plot widgets for the statistics panel: a line plot on a log axis (the
// Newton convergence spans decades) and a stacked bar of the Table-1
// stages of a step.

// LogPlotOptions configure PlotLog.
type LogPlotOptions struct {
	// Floor replaces values at or below it (zero, negative, NaN) before the
	// logarithm; default 1e-12.
	Floor float32
	// Size is the plot's size in pixels; zero components take ImGui's
	// defaults (full width, default height).
	Size imgui.Vec2
	// Unit is appended to the decade labels of the overlay ("rad", "m").
	Unit string
	// Caption names the plotted quantity after the decades; when the
	// overlay would not fit the plot's width it goes on its own line
	// above the plot instead.
	Caption string
}

// Log10Values writes log10(max(v, floor)) for each value into dst,
// reusing its storage, and returns it with the smallest and largest
// result. A floor ≤ 0 is replaced by 1e-12.
func Log10Values(dst, values []float32, floor float32) (out []float32, lo, hi float32) {
	if !(floor > 0) {
		floor = 1e-12
	}
	out = dst[:0]
	lo, hi = float32(math.Inf(1)), float32(math.Inf(-1))
	for _, v := range values {
		if !(v > floor) { // also catches NaN
			v = floor
		}
		if math.IsInf(float64(v), 1) {
			v = math.MaxFloat32
		}
		l := float32(math.Log10(float64(v)))
		out = append(out, l)
		lo, hi = min(lo, l), max(hi, l)
	}
	return out, lo, hi
}

// DecadeRange widens [lo, hi] (log10 values) to whole decades with at
// least one decade between them, so the plot's axis ends on powers of ten.
func DecadeRange(lo, hi float32) (float32, float32) {
	if lo > hi || math.IsInf(float64(lo), 0) || math.IsInf(float64(hi), 0) {
		return 0, 1
	}
	a, b := float32(math.Floor(float64(lo))), float32(math.Ceil(float64(hi)))
	if b <= a {
		b = a + 1
	}
	return a, b
}

// PlotLog draws values as a line on a log10 axis with ImGui's PlotLines;
// the overlay names the decades the axis spans. Nothing is drawn for an
// empty series (ImGui's PlotLines needs at least one value).
func PlotLog(label string, values []float32, opt LogPlotOptions) {
	if len(values) == 0 {
		imgui.Text(label + ": no data")
		return
	}
	logs, lo, hi := Log10Values(make([]float32, 0, len(values)), values, opt.Floor)
	a, b := DecadeRange(lo, hi)
	overlay := fmt.Sprintf("1e%d to 1e%d %s", int(a), int(b), opt.Unit)
	if opt.Caption != "" {
		long := overlay + ": " + opt.Caption
		width := opt.Size.X
		if width <= 0 {
			width = imgui.ContentRegionAvail().X
		}
		if imgui.CalcTextSize(long, false, 0).X+2*imgui.CurrentStyle().FramePadding().X <= width {
			overlay = long
		} else {
			imgui.PushStyleColor(imgui.StyleColorText, colourDim)
			imgui.PushTextWrapPos()
			imgui.Text(opt.Caption)
			imgui.PopTextWrapPos()
			imgui.PopStyleColor()
		}
	}
	imgui.PlotLinesV(label, logs, 0, overlay, a, b, opt.Size)
}

// BarSegment is one part of a stacked bar.
type BarSegment struct {
	Label  string
	Value  float64 // ≥ 0; negative and NaN values count as zero
	Colour imgui.Vec4
}

// StackWidths splits width among the segment values in proportion,
// returning each segment's width (zero for non-positive values); the
// widths sum to width unless every value is zero.
func StackWidths(dst []float32, values []float64, width float32) []float32 {
	dst = dst[:0]
	total := 0.0
	for _, v := range values {
		if v > 0 && !math.IsInf(v, 1) {
			total += v
		}
	}
	for _, v := range values {
		w := float32(0)
		if v > 0 && !math.IsInf(v, 1) && total > 0 {
			w = float32(v/total) * width
		}
		dst = append(dst, w)
	}
	return dst
}

// StackedBar draws segments left to right in one bar of the given size
// (zero width: the available width; zero height: one frame height), shows
// the hovered segment's label and value (with unit) in a tooltip, and a
// colour legend below.
func StackedBar(id string, segments []BarSegment, size imgui.Vec2, unit string) {
	if size.X <= 0 {
		size.X = imgui.ContentRegionAvail().X
	}
	if size.Y <= 0 {
		size.Y = imgui.FrameHeight()
	}
	values := make([]float64, len(segments))
	for i, s := range segments {
		values[i] = s.Value
	}
	widths := StackWidths(nil, values, size.X)
	origin := imgui.CursorScreenPos()
	draw := imgui.WindowDrawList()
	x := origin.X
	for i, w := range widths {
		draw.AddRectFilled(imgui.Vec2{X: x, Y: origin.Y}, imgui.Vec2{X: x + w, Y: origin.Y + size.Y},
			imgui.PackedColorFromVec4(segments[i].Colour))
		x += w
	}
	imgui.InvisibleButton(id, size)
	if imgui.IsItemHovered() {
		if i := segmentAt(widths, imgui.MousePos().X-origin.X); i >= 0 {
			imgui.SetTooltip(fmt.Sprintf("%s: %.3g %s", segments[i].Label, segments[i].Value, unit))
		}
	}
	swatchLegend(id, segments, size.X)
}

// swatchLegend draws a colour swatch and the label of each segment,
// flowing onto a new line where the next one would pass width.
func swatchLegend(id string, segments []BarSegment, width float32) {
	box := imgui.TextLineHeight()
	gap := imgui.CurrentStyle().ItemSpacing().X
	used := float32(0)
	for i, s := range segments {
		need := box + gap + imgui.CalcTextSize(s.Label, false, 0).X
		if i > 0 && used+gap+need <= width {
			imgui.SameLine()
			used += gap
		} else {
			used = 0
		}
		used += need
		imgui.ColorButton(id+"/"+s.Label, s.Colour, imgui.ColorEditFlagsNoTooltip, imgui.Vec2{X: box, Y: box})
		imgui.SameLine()
		imgui.Text(s.Label)
	}
}

// segmentAt returns the index of the segment under offset x from the
// bar's left edge, or −1 outside the bar.
func segmentAt(widths []float32, x float32) int {
	if x < 0 {
		return -1
	}
	for i, w := range widths {
		if x < w {
			return i
		}
		x -= w
	}
	return -1
}
