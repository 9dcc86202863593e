package main

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"softgrasp/physics/bench"
	"softgrasp/physics/settings"
)

// plotFloor is the smallest time drawn on the log axes, ms.
const plotFloor = 1e-3

// stageStyle is the colour and marker of one stage in both panels.
type stageStyle struct {
	col   bench.Column
	color color.Color
	shape draw.GlyphDrawer
}

// The two panels: what a step costs (the whole scheme and its one-off
// W_H), and what one Newton iteration costs, stage by stage.
var (
	perStepStages = []stageStyle{
		{bench.ColTotal, color.RGBA{R: 200, G: 40, B: 40, A: 255}, draw.CircleGlyph{}},
		{bench.ColBuildWH, color.RGBA{R: 40, G: 140, B: 60, A: 255}, draw.SquareGlyph{}},
	}
	perIterationStages = []stageStyle{
		{bench.ColNewton, color.RGBA{R: 30, G: 90, B: 200, A: 255}, draw.TriangleGlyph{}},
		{bench.ColRebuildW, color.RGBA{R: 230, G: 140, B: 20, A: 255}, draw.CrossGlyph{}},
		{bench.ColPGS, color.RGBA{R: 140, G: 60, B: 170, A: 255}, draw.PlusGlyph{}},
		{bench.ColCorr, color.RGBA{R: 90, G: 90, B: 90, A: 255}, draw.RingGlyph{}},
	}
)

// saveTablePlot draws the median stage times against the DOFs in two panels
// (per step, per Newton iteration), one line per stage and scheme
// (standard dashed, fast solid), on logarithmic time axes, and writes
// them to path as a PNG image.
func saveTablePlot(t *bench.Table, path string) error {
	if err := checkPNG(path); err != nil {
		return err
	}
	left, err := tablePanel(t, "per time step", perStepStages)
	if err != nil {
		return err
	}
	right, err := tablePanel(t, fmt.Sprintf("per Newton iteration (K = %d, 30 PGS sweeps)", t.Newton), perIterationStages)
	if err != nil {
		return err
	}
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: 8 * vg.Millimeter, PadTop: 2 * vg.Millimeter,
		PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
	return savePlotGrid(path, [][]*plot.Plot{{left, right}}, 12*vg.Inch, 5*vg.Inch, tiles)
}

// panel draws the given stages for both schemes; the standard scheme has
// no Build W_H line. The time axis gets head room above the data for the
// legend.
func tablePanel(t *bench.Table, title string, stages []stageStyle) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "DOFs"
	p.Y.Label.Text = "ms (median)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	top, entries := plotFloor, 0
	for _, st := range stages {
		for _, method := range []string{settings.Standard.String(), settings.Fast.String()} {
			if st.col == bench.ColBuildWH && method == settings.Standard.String() {
				continue
			}
			xys := tableSeries(t, method, st.col)
			line, points, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			line.Color, points.Color, points.Shape = st.color, st.color, st.shape
			if method == settings.Standard.String() {
				line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
			}
			p.Add(line, points)
			p.Legend.Add(fmt.Sprintf("%s, %s", bench.Columns[st.col].Title, method), line, points)
			entries++
			for _, xy := range xys {
				top = math.Max(top, xy.Y)
			}
		}
	}
	// Head room above the data for the legend: a decade per four entries.
	p.Y.Max = math.Pow(10, math.Ceil(math.Log10(top))+math.Ceil(float64(entries)/4))
	return p, nil
}

// series returns the medians of column c of method's rows against DOFs,
// floored at plotFloor for the log axis.
func tableSeries(t *bench.Table, method string, c bench.Column) plotter.XYs {
	var xys plotter.XYs
	for _, r := range t.Rows {
		if r.Method != method {
			continue
		}
		xys = append(xys, plotter.XY{X: float64(r.DOFs), Y: math.Max(plotFloor, r.Col[c].Median)})
	}
	return xys
}
