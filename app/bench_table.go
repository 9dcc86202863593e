package main

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

// column is one measured column of Table 1.
type column int

const (
	colBuildWH  column = iota // W_H = H·A⁻¹·Hᵀ, per step
	colRebuildW               // W, per Newton iteration
	colPGS                    // PGS, per Newton iteration
	colCorr                   // correction of p or q, per Newton iteration
	colElastic                // residual and its correction (Newton on the whole residual), per Newton iteration
	colNewton                 // whole Newton iteration
	colTotal                  // Build W_H + all Newton iterations, per step
	colUpdate                 // (Rebuild W + Corr.) / Newton ite., %
	numColumns
)

// columnInfo names a column in the Markdown table (title), in CSV and
// JSON (key), and gives its unit.
var columnInfo = [numColumns]struct{ title, key, unit string }{
	{"Build W_H", "build_wh", "ms"},
	{"Rebuild W", "rebuild_w", "ms"},
	{"PGS", "pgs", "ms"},
	{"Corr.", "corr", "ms"},
	{"Elastic", "elastic", "ms"},
	{"Newton ite.", "newton_iter", "ms"},
	{"Total", "total", "ms"},
	{"Update", "update_pct", "%"},
}

// benchSample is what one step of one scheme measured.
type benchSample struct {
	contacts int
	v        [numColumns]float64
}

// sampleOf reads the Table-1 columns of a step: the per-iteration stages
// are the means over the step's Newton iterations, and the update share is
// that of the step.
func sampleOf(st *physics.StepStats) benchSample {
	m := st.Times.Means(1, len(st.Newton))
	s := benchSample{contacts: st.Contacts}
	s.v[colBuildWH], s.v[colRebuildW], s.v[colPGS] = m.BuildWH, m.RebuildW, m.PGS
	s.v[colCorr], s.v[colElastic], s.v[colNewton], s.v[colTotal] = m.Corr, m.Elastic, m.NewtonIter, m.Total
	if n := s.v[colNewton]; n > 0 {
		s.v[colUpdate] = 100 * (s.v[colRebuildW] + s.v[colCorr]) / n
	}
	return s
}

// spread is a median with the range it comes from.
type spread struct{ median, min, max float64 }

// spreadOf returns the median (the mean of the two middle values for an
// even count), minimum and maximum of xs, which it sorts.
func spreadOf(xs []float64) spread {
	if len(xs) == 0 {
		return spread{}
	}
	slices.Sort(xs)
	n := len(xs)
	med := xs[n/2]
	if n%2 == 0 {
		med = 0.5 * (xs[n/2-1] + xs[n/2])
	}
	return spread{median: med, min: xs[0], max: xs[n-1]}
}

// benchRow is one line of the table: one scheme at one size.
type benchRow struct {
	dofs        int
	constraints float64 // mean proximity pairs over the measured steps
	method      string
	col         [numColumns]spread
}

// rowOf summarises the samples of one scheme.
func rowOf(dofs int, method string, samples []benchSample) benchRow {
	r := benchRow{dofs: dofs, method: method}
	xs := make([]float64, len(samples))
	for c := column(0); c < numColumns; c++ {
		for i, s := range samples {
			xs[i] = s.v[c]
		}
		r.col[c] = spreadOf(xs)
	}
	for _, s := range samples {
		r.constraints += float64(s.contacts)
	}
	if len(samples) > 0 {
		r.constraints /= float64(len(samples))
	}
	return r
}

// benchRatio is the speed-up of the fast scheme at one size.
type benchRatio struct {
	dofs      int
	perNewton float64 // standard Newton ite. / fast Newton ite. (medians)
	total     float64 // standard Total / fast Total (medians)
}

// benchTable is the whole result: two rows (standard, fast) per size.
type benchTable struct {
	scenario      string // squeeze or stack
	steps, newton int
	rows          []benchRow
	ratios        []benchRatio
}

// add appends the rows and the ratios of one size.
func (t *benchTable) add(dofs int, fast, std []benchSample) {
	s, f := rowOf(dofs, settings.Standard.String(), std), rowOf(dofs, settings.Fast.String(), fast)
	t.rows = append(t.rows, s, f)
	t.ratios = append(t.ratios, benchRatio{
		dofs:      dofs,
		perNewton: ratio(s.col[colNewton].median, f.col[colNewton].median),
		total:     ratio(s.col[colTotal].median, f.col[colTotal].median),
	})
}

// ratio is a/b, or 0 when b is not positive.
func ratio(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// Targets of the speed-ups (issue #4): the paper's GPU reached 6.97× and
// 3.20×; the whole-scheme ratio cannot exceed K = 5 while Build W_H costs
// as much as one standard rebuild of W.
const (
	targetPerNewton = 20.0
	targetTotal     = 4.5
)

// jsonRow and jsonRatio are the JSON form of the table (ms, medians).
type jsonRow struct {
	DOFs        int     `json:"dofs"`
	Constraints float64 `json:"constraints"`
	Method      string  `json:"method"`
	stage.Table1
	UpdatePct float64 `json:"update_pct"`
}

type jsonRatio struct {
	DOFs      int     `json:"dofs"`
	PerNewton float64 `json:"per_newton"`
	Total     float64 `json:"total"`
}

type jsonReport struct {
	Scenario string      `json:"scenario"`
	Rows     []jsonRow   `json:"rows"`
	Ratios   []jsonRatio `json:"ratios"`
}

// jsonReport returns the medians in the JSON contract of -json.
func (t *benchTable) jsonReport() jsonReport {
	rep := jsonReport{Scenario: t.scenario, Rows: []jsonRow{}, Ratios: []jsonRatio{}}
	for _, r := range t.rows {
		m := func(c column) float64 { return r.col[c].median }
		rep.Rows = append(rep.Rows, jsonRow{
			DOFs: r.dofs, Constraints: r.constraints, Method: r.method,
			Table1: stage.Table1{
				BuildWH: m(colBuildWH), RebuildW: m(colRebuildW), PGS: m(colPGS), Corr: m(colCorr),
				Elastic: m(colElastic), NewtonIter: m(colNewton), Total: m(colTotal),
			},
			UpdatePct: m(colUpdate),
		})
	}
	for _, q := range t.ratios {
		rep.Ratios = append(rep.Ratios, jsonRatio{DOFs: q.dofs, PerNewton: q.perNewton, Total: q.total})
	}
	return rep
}

// cell formats a spread as "median (min–max)"; the fast scheme's empty
// Build W_H of the standard rows prints as a dash.
func cell(s spread, unit string, blank bool) string {
	if blank {
		return "–"
	}
	p := 2
	if s.max >= 100 {
		p = 1
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', p, 64) }
	return fmt.Sprintf("%s %s (%s–%s)", f(s.median), unit, f(s.min), f(s.max))
}

// writeMarkdown prints the table and the ratios as Markdown.
func (t *benchTable) writeMarkdown(w io.Writer) {
	fmt.Fprintf(w, "%s scene, K = %d Newton iterations × 30 PGS sweeps; medians (min–max) over %d measured steps per size; OpenBLAS kernels %s.\n\n",
		t.scenario, t.newton, t.steps, sparse.BLASCore())
	fmt.Fprint(w, "| DOFs | Cst. | Method |")
	for c := column(0); c < numColumns; c++ {
		fmt.Fprintf(w, " %s |", columnInfo[c].title)
	}
	fmt.Fprint(w, "\n|---:|---:|---|")
	for c := column(0); c < numColumns; c++ {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, r := range t.rows {
		fmt.Fprintf(w, "| %d | %.2f | %s |", r.dofs, r.constraints, r.method)
		for c := column(0); c < numColumns; c++ {
			blank := c == colBuildWH && r.method == settings.Standard.String()
			fmt.Fprintf(w, " %s |", cell(r.col[c], columnInfo[c].unit, blank))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n| DOFs | standard/fast per Newton ite. (target ≥ %g×) | standard/fast Total (target ≥ %g×) |\n|---:|---:|---:|\n",
		targetPerNewton, targetTotal)
	for _, q := range t.ratios {
		fmt.Fprintf(w, "| %d | %.2f× %s | %.2f× %s |\n", q.dofs, q.perNewton, verdict(q.perNewton, targetPerNewton),
			q.total, verdict(q.total, targetTotal))
	}
}

// verdict marks a ratio against its target.
func verdict(x, target float64) string {
	if x >= target {
		return "✓"
	}
	return "✗"
}

// writeCSV writes one record per row: DOFs, constraints, method, the
// median, minimum and maximum of every column, and the two ratios of the
// row's size.
func (t *benchTable) writeCSV(out io.Writer) error {
	w := csv.NewWriter(out)
	head := []string{"dofs", "constraints", "method"}
	for c := column(0); c < numColumns; c++ {
		k := columnInfo[c].key
		head = append(head, k, k+"_min", k+"_max")
	}
	head = append(head, "ratio_per_newton", "ratio_total")
	if err := w.Write(head); err != nil {
		return err
	}
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for i, r := range t.rows {
		rec := []string{strconv.Itoa(r.dofs), g(r.constraints), r.method}
		for c := column(0); c < numColumns; c++ {
			rec = append(rec, g(r.col[c].median), g(r.col[c].min), g(r.col[c].max))
		}
		q := t.ratios[i/2]
		rec = append(rec, g(q.perNewton), g(q.total))
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
