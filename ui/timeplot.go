package ui

import (
	"fmt"
	"math"

	"github.com/inkyblackness/imgui-go/v4"
)

// A time plot of several per-step series on one linear axis, drawn with
// the window's draw list: ImGui 1.85's PlotLines draws one series per
// widget, and the point of the Stats panel's plots is to see the stages
// of a step change together when the scheme is switched.

// PlotSeries is one line of a TimePlot.
type PlotSeries struct {
	Label  string
	Values *Ring
	Colour imgui.Vec4
}

// TimePlotOptions configure TimePlot.
type TimePlotOptions struct {
	// Size of the plot area; a zero width takes the available width, a
	// zero height 80 pixels.
	Size imgui.Vec2
	Unit string
	// Shade, when set, marks the samples where it is non-zero with
	// ShadeColour behind the lines, and ShadeLabel names them in the
	// legend.
	Shade       *Ring
	ShadeColour imgui.Vec4
	ShadeLabel  string
}

// Decimate reduces the samples of r to at most bins values, each the
// largest sample of its bin (spikes stay visible), oldest first, written
// into dst. With fewer samples than bins every sample is kept.
func Decimate(dst []float32, r *Ring, bins int) []float32 {
	dst = dst[:0]
	n := r.Len()
	if n == 0 || bins <= 0 {
		return dst
	}
	if n <= bins {
		return r.Values(dst)
	}
	for b := 0; b < bins; b++ {
		lo, hi := b*n/bins, (b+1)*n/bins
		m := float32(math.Inf(-1))
		for i := lo; i < hi; i++ {
			m = max(m, r.At(i))
		}
		dst = append(dst, m)
	}
	return dst
}

// NiceCeil returns the smallest 1-2-5 step (…, 0.5, 1, 2, 5, 10, …) at or
// above v, for the top of a plot axis; 1 for v ≤ 0 or not finite.
func NiceCeil(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 1) {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*e >= v*(1-1e-12) {
			return m * e
		}
	}
	return 10 * e
}

// TimePlot draws the series oldest to newest, left to right, on one axis
// from 0 to axisTop (samples above it are clipped at the top), shows the hovered step's
// values in a tooltip and a colour legend below. scratch is reused for
// the decimated samples and returned.
func TimePlot(id string, series []PlotSeries, opt TimePlotOptions, scratch []float32) []float32 {
	size := opt.Size
	if size.X <= 0 {
		size.X = imgui.ContentRegionAvail().X
	}
	if size.Y <= 0 {
		size.Y = 80
	}
	origin := imgui.CursorScreenPos()
	draw := imgui.WindowDrawList()
	end := imgui.Vec2{X: origin.X + size.X, Y: origin.Y + size.Y}
	draw.AddRectFilled(origin, end, imgui.PackedColorFromVec4(imgui.Vec4{X: 0.04, Y: 0.045, Z: 0.055, W: 1}))
	bins := max(int(size.X/2), 1)
	var top float32
	top, scratch = axisTop(series, scratch)
	if opt.Shade != nil {
		scratch = Decimate(scratch, opt.Shade, bins)
		shadeBins(draw, scratch, origin, size, imgui.PackedColorFromVec4(opt.ShadeColour))
	}
	for _, s := range series {
		scratch = Decimate(scratch, s.Values, bins)
		polyline(draw, scratch, origin, size, top, imgui.PackedColorFromVec4(s.Colour))
	}
	draw.AddText(imgui.Vec2{X: origin.X + 3, Y: origin.Y + 1}, imgui.PackedColorFromVec4(colourDim),
		AxisLabel(top)+" "+opt.Unit)
	imgui.InvisibleButton(id, size)
	if imgui.IsItemHovered() {
		plotTooltip(series, (imgui.MousePos().X-origin.X)/size.X, opt.Unit)
	}
	plotLegend(id, series, opt)
	return scratch
}

// axisQuantile is the share of samples the axis shows unclipped: the
// first steps of a scene (allocations, first factorisations) and the odd
// stall of the machine would otherwise flatten every other step.
const axisQuantile = 0.98

// axisTop returns the top of the y axis: the 1-2-5 step at or above the
// largest axisQuantile-quantile of the series.
func axisTop(series []PlotSeries, scratch []float32) (float32, []float32) {
	m := float32(0)
	for _, s := range series {
		var q float32
		q, scratch = s.Values.Quantile(axisQuantile, scratch)
		m = max(m, q)
	}
	return float32(NiceCeil(float64(m))), scratch
}

// polyline draws values spread evenly over the plot's width, scaled so
// that top is the plot's upper edge.
func polyline(draw imgui.DrawList, values []float32, origin, size imgui.Vec2, top float32, col imgui.PackedColor) {
	n := len(values)
	if n < 2 {
		return
	}
	point := func(i int) imgui.Vec2 {
		v := min(max(values[i]/top, 0), 1)
		return imgui.Vec2{X: origin.X + size.X*float32(i)/float32(n-1), Y: origin.Y + size.Y*(1-v)}
	}
	prev := point(0)
	for i := 1; i < n; i++ {
		p := point(i)
		draw.AddLineV(prev, p, col, 1.5)
		prev = p
	}
}

// shadeBins fills the columns of bins whose value is non-zero.
func shadeBins(draw imgui.DrawList, bins []float32, origin, size imgui.Vec2, col imgui.PackedColor) {
	n := len(bins)
	for i := 0; i < n; {
		if bins[i] == 0 {
			i++
			continue
		}
		j := i
		for j < n && bins[j] != 0 {
			j++
		}
		x0 := origin.X + size.X*float32(i)/float32(n)
		x1 := origin.X + size.X*float32(j)/float32(n)
		draw.AddRectFilled(imgui.Vec2{X: x0, Y: origin.Y}, imgui.Vec2{X: x1, Y: origin.Y + size.Y}, col)
		i = j
	}
}

// plotTooltip shows each series' sample under the relative position u.
func plotTooltip(series []PlotSeries, u float32, unit string) {
	if len(series) == 0 || series[0].Values.Len() == 0 {
		return
	}
	imgui.BeginTooltip()
	for _, s := range series {
		n := s.Values.Len()
		if n == 0 {
			continue
		}
		i := min(max(int(u*float32(n)), 0), n-1)
		colouredText(s.Colour, fmt.Sprintf("%s: %.3g %s", s.Label, s.Values.At(i), unit))
	}
	imgui.EndTooltip()
}

// plotLegend draws a colour square and label per series (and the shade).
func plotLegend(id string, series []PlotSeries, opt TimePlotOptions) {
	segments := make([]BarSegment, 0, len(series)+1)
	for _, s := range series {
		segments = append(segments, BarSegment{Label: s.Label, Colour: s.Colour})
	}
	if opt.Shade != nil && opt.ShadeLabel != "" {
		segments = append(segments, BarSegment{Label: opt.ShadeLabel, Colour: opt.ShadeColour})
	}
	swatchLegend(id, segments, imgui.ContentRegionAvail().X)
}

// AxisLabel writes an axis value compactly: whole numbers without
// exponent up to a million, three significant digits otherwise.
func AxisLabel(v float32) string {
	if v >= 1 && v < 1e6 && v == float32(math.Trunc(float64(v))) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}
