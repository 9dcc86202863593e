// Package bench measures the step: the paper's Table 1 (both schemes
// from the same states, stage by stage) and the scale table (the default
// grasp-and-rotate timed over its spin at several sizes and time steps,
// with each stage's growth exponent). It writes Markdown, CSV and JSON;
// the command line, the progress bar and the plots are the caller's.
package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"

	"softgrasp/physics"
	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
	"softgrasp/physics/stage"
)

// Column is one measured column of Table 1.
type Column int

const (
	ColBuildWH  Column = iota // W_H = H·A⁻¹·Hᵀ, per step
	ColRebuildW               // W, per Newton iteration
	ColPGS                    // PGS, per Newton iteration
	ColCorr                   // correction of p or q, per Newton iteration
	ColElastic                // residual and its correction (Newton on the whole residual), per Newton iteration
	ColNewton                 // whole Newton iteration
	ColTotal                  // Build W_H + all Newton iterations, per step
	ColUpdate                 // (Rebuild W + Corr.) / Newton ite., %
	NumColumns
)

// Columns names a column in the Markdown table (title), in CSV and
// JSON (key), and gives its unit.
var Columns = [NumColumns]struct{ Title, Key, Unit string }{
	{"Build W_H", "build_wh", "ms"},
	{"Rebuild W", "rebuild_w", "ms"},
	{"PGS", "pgs", "ms"},
	{"Corr.", "corr", "ms"},
	{"Elastic", "elastic", "ms"},
	{"Newton ite.", "newton_iter", "ms"},
	{"Total", "total", "ms"},
	{"Update", "update_pct", "%"},
}

// Sample is what one step of one scheme measured.
type Sample struct {
	Contacts int
	V        [NumColumns]float64
}

// SampleOf reads the Table-1 columns of a step: the per-iteration stages
// are the means over the step's Newton iterations, and the update share is
// that of the step.
func SampleOf(st *physics.StepStats) Sample {
	m := st.Times.Means(1, len(st.Newton))
	s := Sample{Contacts: st.Contacts}
	s.V[ColBuildWH], s.V[ColRebuildW], s.V[ColPGS] = m.BuildWH, m.RebuildW, m.PGS
	s.V[ColCorr], s.V[ColElastic], s.V[ColNewton], s.V[ColTotal] = m.Corr, m.Elastic, m.NewtonIter, m.Total
	if n := s.V[ColNewton]; n > 0 {
		s.V[ColUpdate] = 100 * (s.V[ColRebuildW] + s.V[ColCorr]) / n
	}
	return s
}

// Spread is a median with the range it comes from.
type Spread struct{ Median, Min, Max float64 }

// SpreadOf returns the median (the mean of the two middle values for an
// even count), minimum and maximum of xs, which it sorts.
func SpreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	slices.Sort(xs)
	n := len(xs)
	med := xs[n/2]
	if n%2 == 0 {
		med = 0.5 * (xs[n/2-1] + xs[n/2])
	}
	return Spread{Median: med, Min: xs[0], Max: xs[n-1]}
}

// Row is one line of the table: one scheme at one size.
type Row struct {
	DOFs        int
	Constraints float64 // mean proximity pairs over the measured steps
	Method      string
	Col         [NumColumns]Spread
}

// rowOf summarises the samples of one scheme.
func rowOf(dofs int, method string, samples []Sample) Row {
	r := Row{DOFs: dofs, Method: method}
	xs := make([]float64, len(samples))
	for c := Column(0); c < NumColumns; c++ {
		for i, s := range samples {
			xs[i] = s.V[c]
		}
		r.Col[c] = SpreadOf(xs)
	}
	for _, s := range samples {
		r.Constraints += float64(s.Contacts)
	}
	if len(samples) > 0 {
		r.Constraints /= float64(len(samples))
	}
	return r
}

// Ratio is the speed-up of the fast scheme at one size.
type Ratio struct {
	DOFs      int
	PerNewton float64 // standard Newton ite. / fast Newton ite. (medians)
	Total     float64 // standard Total / fast Total (medians)
}

// Table is the whole result: two rows (standard, fast) per size.
type Table struct {
	Scenario      string // squeeze or stack
	Steps, Newton int
	Rows          []Row
	Ratios        []Ratio
}

// add appends the rows and the ratios of one size.
func (t *Table) add(dofs int, fast, std []Sample) {
	s, f := rowOf(dofs, settings.Standard.String(), std), rowOf(dofs, settings.Fast.String(), fast)
	t.Rows = append(t.Rows, s, f)
	t.Ratios = append(t.Ratios, Ratio{
		DOFs:      dofs,
		PerNewton: ratio(s.Col[ColNewton].Median, f.Col[ColNewton].Median),
		Total:     ratio(s.Col[ColTotal].Median, f.Col[ColTotal].Median),
	})
}

// ratio is a/b, or 0 when b is not positive.
func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// Targets of the speed-ups: the paper's GPU reached 6.97× and
// 3.20×; the whole-scheme ratio cannot exceed K = 5 while Build W_H costs
// as much as one standard rebuild of W.
const (
	TargetPerNewton = 20.0
	TargetTotal     = 4.5
)

// Report, ReportRow and ReportRatio are the JSON form of the table (ms,
// medians).
type ReportRow struct {
	DOFs        int     `json:"dofs"`
	Constraints float64 `json:"constraints"`
	Method      string  `json:"method"`
	stage.Table1
	UpdatePct float64 `json:"update_pct"`
}

type ReportRatio struct {
	DOFs      int     `json:"dofs"`
	PerNewton float64 `json:"per_newton"`
	Total     float64 `json:"total"`
}

type Report struct {
	Scenario string        `json:"scenario"`
	Rows     []ReportRow   `json:"rows"`
	Ratios   []ReportRatio `json:"ratios"`
}

// Report returns the medians in the JSON contract of bench -json.
func (t *Table) Report() Report {
	rep := Report{Scenario: t.Scenario, Rows: []ReportRow{}, Ratios: []ReportRatio{}}
	for _, r := range t.Rows {
		m := func(c Column) float64 { return r.Col[c].Median }
		rep.Rows = append(rep.Rows, ReportRow{
			DOFs: r.DOFs, Constraints: r.Constraints, Method: r.Method,
			Table1: stage.Table1{
				BuildWH: m(ColBuildWH), RebuildW: m(ColRebuildW), PGS: m(ColPGS), Corr: m(ColCorr),
				Elastic: m(ColElastic), NewtonIter: m(ColNewton), Total: m(ColTotal),
			},
			UpdatePct: m(ColUpdate),
		})
	}
	for _, q := range t.Ratios {
		rep.Ratios = append(rep.Ratios, ReportRatio{DOFs: q.DOFs, PerNewton: q.PerNewton, Total: q.Total})
	}
	return rep
}

// cell formats a Spread as "median (min–max)"; the fast scheme's empty
// Build W_H of the standard rows prints as a dash.
func cell(s Spread, unit string, blank bool) string {
	if blank {
		return "–"
	}
	p := 2
	if s.Max >= 100 {
		p = 1
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', p, 64) }
	return fmt.Sprintf("%s %s (%s–%s)", f(s.Median), unit, f(s.Min), f(s.Max))
}

// WriteMarkdown prints the table and the ratios as Markdown.
func (t *Table) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "%s scene, K = %d Newton iterations × 30 PGS sweeps; medians (min–max) over %d measured steps per size; OpenBLAS kernels %s.\n\n",
		t.Scenario, t.Newton, t.Steps, sparse.BLASCore())
	fmt.Fprint(w, "| DOFs | Cst. | Method |")
	for c := Column(0); c < NumColumns; c++ {
		fmt.Fprintf(w, " %s |", Columns[c].Title)
	}
	fmt.Fprint(w, "\n|---:|---:|---|")
	for c := Column(0); c < NumColumns; c++ {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, r := range t.Rows {
		fmt.Fprintf(w, "| %d | %.2f | %s |", r.DOFs, r.Constraints, r.Method)
		for c := Column(0); c < NumColumns; c++ {
			blank := c == ColBuildWH && r.Method == settings.Standard.String()
			fmt.Fprintf(w, " %s |", cell(r.Col[c], Columns[c].Unit, blank))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n| DOFs | standard/fast per Newton ite. (target ≥ %g×) | standard/fast Total (target ≥ %g×) |\n|---:|---:|---:|\n",
		TargetPerNewton, TargetTotal)
	for _, q := range t.Ratios {
		fmt.Fprintf(w, "| %d | %.2f× %s | %.2f× %s |\n", q.DOFs, q.PerNewton, verdict(q.PerNewton, TargetPerNewton),
			q.Total, verdict(q.Total, TargetTotal))
	}
}

// verdict marks a ratio against its target.
func verdict(x, target float64) string {
	if x >= target {
		return "✓"
	}
	return "✗"
}

// WriteCSV writes one record per row: DOFs, constraints, method, the
// median, minimum and maximum of every column, and the two ratios of the
// row's size.
func (t *Table) WriteCSV(out io.Writer) error {
	w := csv.NewWriter(out)
	head := []string{"dofs", "constraints", "method"}
	for c := Column(0); c < NumColumns; c++ {
		k := Columns[c].Key
		head = append(head, k, k+"_min", k+"_max")
	}
	head = append(head, "ratio_per_newton", "ratio_total")
	if err := w.Write(head); err != nil {
		return err
	}
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for i, r := range t.Rows {
		rec := []string{strconv.Itoa(r.DOFs), g(r.Constraints), r.Method}
		for c := Column(0); c < NumColumns; c++ {
			rec = append(rec, g(r.Col[c].Median), g(r.Col[c].Min), g(r.Col[c].Max))
		}
		q := t.Ratios[i/2]
		rec = append(rec, g(q.PerNewton), g(q.Total))
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
