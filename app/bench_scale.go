package main

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"softgrasp/physics/bench"
)

// The scale table's command line (`softgrasp bench -scale`; the table is
// physics/bench's ScaleReport): its lists and its plot.

// parseList reads a comma-separated list of numbers.
func parseList(flagName, s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("-%s: %q is not a positive number", flagName, f)
		}
		out = append(out, v)
	}
	return out, nil
}

// saveScalePlot draws each stage's ms against the DOFs on log–log axes, one
// panel per time step.
func saveScalePlot(r *bench.ScaleReport, path string) error {
	if err := checkPNG(path); err != nil {
		return err
	}
	colours := []color.Color{
		color.RGBA{R: 30, G: 90, B: 200, A: 255}, color.RGBA{R: 230, G: 140, B: 20, A: 255},
		color.RGBA{R: 90, G: 90, B: 90, A: 255}, color.RGBA{R: 40, G: 140, B: 60, A: 255},
		color.RGBA{R: 140, G: 60, B: 170, A: 255}, color.RGBA{R: 0, G: 160, B: 160, A: 255},
		color.RGBA{R: 200, G: 40, B: 40, A: 255},
	}
	var panels []*plot.Plot
	var dts []float64
	for key := range r.Exponents {
		dt, _ := strconv.ParseFloat(key, 64)
		dts = append(dts, dt)
	}
	sort.Float64s(dts)
	for _, dt := range dts {
		key := strconv.FormatFloat(dt, 'g', -1, 64)
		p := plot.New()
		p.Title.Text = fmt.Sprintf("h = %g ms (asynchronous solver)", 1e3*dt)
		p.X.Label.Text, p.Y.Label.Text = "DOFs", "ms (Newton ite.: per iteration)"
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
		p.Legend.Top, p.Legend.Left = true, true
		p.Add(plotter.NewGrid())
		for i, s := range bench.ScaleStages {
			var xys plotter.XYs
			for _, row := range r.Rows {
				if row.DT == dt && row.Error == "" {
					xys = append(xys, plotter.XY{X: float64(row.DOFs), Y: math.Max(plotFloor, row.MS[s.Key])})
				}
			}
			if len(xys) == 0 {
				continue
			}
			line, points, err := plotter.NewLinePoints(xys)
			if err != nil {
				return err
			}
			line.Color, points.Color = colours[i%len(colours)], colours[i%len(colours)]
			p.Add(line, points)
			p.Legend.Add(fmt.Sprintf("%s (α %.2f)", s.Title, r.Exponents[key][s.Key]), line, points)
		}
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return fmt.Errorf("no rows to plot")
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(panels), PadX: 8 * vg.Millimeter, PadTop: 2 * vg.Millimeter,
		PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
	return savePlotGrid(path, [][]*plot.Plot{panels}, vg.Length(len(panels))*6*vg.Inch, 5*vg.Inch, tiles)
}
