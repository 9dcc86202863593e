package main

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"softgrasp/physics/accuracy"
)

// accuracyFloor is the smallest value drawn on the log axes, mm: a
// penetration of exactly 0 is drawn there.
const accuracyFloor = 1e-4

var (
	schemeColor = map[string]color.Color{
		"fast":                 color.RGBA{R: 200, G: 40, B: 40, A: 255},
		"standard":             color.RGBA{R: 30, G: 90, B: 200, A: 255},
		"K=1, K×sweeps":        color.RGBA{R: 110, G: 110, B: 110, A: 255},
		"fast, whole residual": color.RGBA{R: 30, G: 150, B: 60, A: 255},
	}
	dtGlyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
	dtDashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}
)

// saveAccuracyPlot draws, for each ω (a row of panels), the spin-phase
// penetration and the slip error against K, one line per scheme and h
// (colour: scheme; marker and dash: h), and in grey K = 1 given K times
// the sweeps (the equal-work control), on log axes; PNG.
func saveAccuracyPlot(path string, res accuracy.Result) error {
	if err := checkPNG(path); err != nil {
		return err
	}
	omegas, dts := distinct(res.Rows, func(r accuracy.Row) float64 { return r.Omega }), distinct(res.Rows, func(r accuracy.Row) float64 { return r.DT })
	if len(omegas) == 0 {
		return fmt.Errorf("no rows to plot")
	}
	grid := make([][]*plot.Plot, len(omegas))
	for i, w := range omegas {
		for _, m := range []struct {
			title string
			value func(accuracy.Row) float64
		}{
			{"spin-phase penetration, mm", func(r accuracy.Row) float64 { return r.SpinPenetration }},
			{"slip error against the reference, mm", func(r accuracy.Row) float64 { return r.SlipError }},
		} {
			p, err := accuracyPanel(fmt.Sprintf("ω = %s rad/s: %s", accuracy.OmegaKey(w), m.title), res.Rows, w, dts, m.value)
			if err != nil {
				return err
			}
			grid[i] = append(grid[i], p)
		}
	}
	tiles := draw.Tiles{Rows: len(omegas), Cols: 2, PadX: 8 * vg.Millimeter, PadY: 6 * vg.Millimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
	return savePlotGrid(path, grid, 12*vg.Inch, vg.Length(4.2*float64(len(omegas)))*vg.Inch, tiles)
}

func accuracyPanel(title string, rows []accuracy.Row, omega float64, dts []float64, value func(accuracy.Row) float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "Newton iterations K"
	p.Legend.Top, p.Legend.Left = true, false
	drawn := false
	defer func() {
		// Log axes need data: a panel whose every run failed stays linear.
		if drawn {
			p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
			p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
		} else {
			p.Title.Text += " (every run failed)"
		}
	}()
	for j, h := range dts {
		series := map[string]plotter.XYs{}
		for _, r := range rows {
			if r.Omega != omega || r.DT != h || r.Error != "" {
				continue
			}
			y := math.Max(1e3*value(r), accuracyFloor)
			switch {
			case r.Kind == "grid":
				series[r.Scheme] = append(series[r.Scheme], plotter.XY{X: float64(r.Newton), Y: y})
			case r.Kind == "equal-work" && r.Newton == 1:
				k := float64(r.PGS) / float64(firstPGS(rows))
				series["K=1, K×sweeps"] = append(series["K=1, K×sweeps"], plotter.XY{X: k, Y: y})
			case r.Kind == "elastic":
				series["fast, whole residual"] = append(series["fast, whole residual"], plotter.XY{X: float64(r.Newton), Y: y})
			}
		}
		names := make([]string, 0, len(series))
		for n := range series {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			pts := series[name]
			sort.Slice(pts, func(a, b int) bool { return pts[a].X < pts[b].X })
			line, scatter, err := plotter.NewLinePoints(pts)
			if err != nil {
				return nil, err
			}
			line.Color, scatter.Color = schemeColor[name], schemeColor[name]
			line.Dashes = dtDashes[j%len(dtDashes)]
			scatter.Shape = dtGlyphs[j%len(dtGlyphs)]
			p.Add(line, scatter)
			drawn = true
			p.Legend.Add(fmt.Sprintf("%s, h = %g ms", name, 1e3*h), line, scatter)
		}
	}
	return p, nil
}

// firstPGS is the grid rows' sweeps per iteration.
func firstPGS(rows []accuracy.Row) int {
	for _, r := range rows {
		if r.Kind == "grid" && r.PGS > 0 {
			return r.PGS
		}
	}
	return 1
}

func distinct(rows []accuracy.Row, key func(accuracy.Row) float64) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, r := range rows {
		if k := key(r); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Float64s(out)
	return out
}
