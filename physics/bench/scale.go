package bench

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"softgrasp/physics"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
	"softgrasp/physics/stage"
)

// Placer puts a scene's simulation on the backend named and returns the
// backend it runs on (the CPU's name when the other could not be
// opened), saying why on w.
type Placer func(sim *physics.Simulation, backend string, w io.Writer) string

// The scale table (`softgrasp bench -scale`):
// the default grasp-and-rotate with the asynchronous solver, as the viewer
// and `headless -solver async` run it, at each size and time step, timed
// stage by stage over the spin (from the spin's start, for
// ScaleSpinSeconds of simulated time, after the grasp has closed and
// lifted: the contact-heavy part of the demo), with each stage's growth
// exponent fitted against the DOFs.

// Defaults of -scale.
const (
	ScaleSizes      = "1000,3000,6000,10000,18000,36000"
	ScaleDTs        = "0.01,0.02"
	ScaleQuickSizes = "1000,3000"
	// ScaleSpinSeconds is the simulated time measured from the spin's start.
	ScaleSpinSeconds = 0.5
)

// ScaleStages are the columns, in the order shown: per step, except the
// Newton iteration (per iteration).
var ScaleStages = []struct {
	Key, Title string
	Of         func(m *stage.MS) float64
}{
	{"free", "free (PCG)", func(m *stage.MS) float64 { return m.Free }},
	{"assemble", "assemble", func(m *stage.MS) float64 { return m.Assemble }},
	{"detect", "detect", func(m *stage.MS) float64 { return m.Detect }},
	{"build_wh", "Build W_H", func(m *stage.MS) float64 { return m.BuildWH }},
	{"newton_iter", "Newton ite.", func(m *stage.MS) float64 { return m.NewtonIter }},
	{"final", "final", func(m *stage.MS) float64 { return m.Final }},
	{"step", "step", func(m *stage.MS) float64 { return m.Step }},
}

// ScaleRow is one size at one time step.
type ScaleRow struct {
	DOFs           int                `json:"dofs"`
	DT             float64            `json:"dt"`
	Steps          int                `json:"steps"`
	Contacts       float64            `json:"contacts_mean"`
	NewtonMean     float64            `json:"newton_mean"`
	PCGMean        float64            `json:"pcg_iterations_mean"`
	RealtimeFactor float64            `json:"realtime_factor"`
	MS             map[string]float64 `json:"ms"`
	Error          string             `json:"error,omitempty"`
}

// ScaleReport is -scale's JSON: the rows and, per time step, each stage's
// growth exponent α in ms ∝ DOFs^α (least squares on the logarithms).
type ScaleReport struct {
	Scenario string `json:"scenario"`
	Solver   string `json:"solver"`
	Backend  string `json:"backend"`
	BLASCore string `json:"blas_core"` // OpenBLAS's kernels (sparse.BLASCore)
	// CompliancePrecision is -compliance-precision.
	CompliancePrecision string                        `json:"compliance_precision"`
	Rows                []ScaleRow                    `json:"rows"`
	Exponents           map[string]map[string]float64 `json:"exponents"` // dt → stage → α
}

// ScaleConfig is the scene of one row.
func ScaleConfig(dofs int, dt float64, precision settings.Precision) settings.Scenario {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs = dofs
	cfg.Physics.TimeStep = dt
	cfg.Physics.Solver = settings.AsyncSolver
	cfg.Physics.CompliancePrecision = precision
	return cfg
}

// MeasureScale runs every row, with a progress line on progress.
// backend names where the fast scheme's Newton iterations run, place
// puts a scene there (nil: the CPU); a GPU that cannot be opened leaves a
// row on the CPU, and the report's
// Backend says "cpu" once any row ran there.
func MeasureScale(sizes []int, dts []float64, backend string, place Placer, precision settings.Precision, progress io.Writer) (*ScaleReport, error) {
	rep := &ScaleReport{Scenario: string(settings.GraspRotate), Solver: settings.AsyncSolver.String(), Backend: backend, BLASCore: sparse.BLASCore(),
		CompliancePrecision: precision.String(), Exponents: map[string]map[string]float64{}}
	for _, dt := range dts {
		for _, dofs := range sizes {
			cfg := ScaleConfig(dofs, dt, precision)
			if err := cfg.Validate(); err != nil {
				return nil, fmt.Errorf("%d DOFs, h = %g s: %w", dofs, dt, err)
			}
			fmt.Fprintf(progress, "scale: %d DOFs, h = %g s\n", dofs, dt)
			row, ran, err := measureScaleRow(cfg, backend, place, progress)
			if err != nil {
				return nil, err
			}
			if ran != backend {
				rep.Backend = ran
			}
			rep.Rows = append(rep.Rows, row)
		}
		rep.Exponents[strconv.FormatFloat(dt, 'g', -1, 64)] = rep.fit(dt)
	}
	return rep, nil
}

// measureScaleRow runs the scene up to the spin and times ScaleSpinSeconds
// of it. A divergence ends the row with its error (the row is kept).
func measureScaleRow(cfg settings.Scenario, backend string, place Placer, progress io.Writer) (ScaleRow, string, error) {
	row := ScaleRow{DOFs: cfg.TargetDOFs, DT: cfg.Physics.TimeStep, MS: map[string]float64{}}
	sc, err := scenario.Build(cfg)
	if err != nil {
		return row, backend, err
	}
	defer sc.Close()
	if place != nil {
		backend = place(sc.Sim, backend, progress)
	}
	row.DOFs = sc.Sim.Model().DOFs()
	for sc.Phase() != scenario.PhaseSpin {
		if sc.Phase() == scenario.PhaseManual || sc.Sim.Time() >= sc.Duration() {
			return row, backend, fmt.Errorf("%d DOFs, h = %g s: the script ended without a spin", row.DOFs, row.DT)
		}
		if _, err := sc.Step(); err != nil {
			row.Error = err.Error()
			return row, backend, nil
		}
	}
	var times stage.Times
	steps, newton, contacts, pcg := 0, 0, 0, 0
	n := int(math.Round(ScaleSpinSeconds / cfg.Physics.TimeStep))
	start := time.Now()
	for ; steps < n; steps++ {
		st, err := sc.Step()
		if err != nil {
			row.Error = err.Error()
			break
		}
		times.Add(&st.Times)
		newton += len(st.Newton)
		contacts += st.Contacts
		pcg += st.SolveIterations
	}
	wall := time.Since(start).Seconds()
	if steps == 0 {
		return row, backend, nil
	}
	row.Steps = steps
	row.RealtimeFactor = float64(steps) * cfg.Physics.TimeStep / wall
	row.Contacts = float64(contacts) / float64(steps)
	row.NewtonMean = float64(newton) / float64(steps)
	row.PCGMean = float64(pcg) / float64(steps)
	ms := times.Means(steps, newton)
	for _, s := range ScaleStages {
		row.MS[s.Key] = s.Of(&ms)
	}
	return row, backend, nil
}

// fit returns each stage's growth exponent, and the contacts', over the
// rows of time step dt that ran (a stage absent at some size is left out).
func (r *ScaleReport) fit(dt float64) map[string]float64 {
	out := map[string]float64{}
	value := func(row ScaleRow, key string) float64 {
		if key == "contacts" {
			return row.Contacts
		}
		return row.MS[key]
	}
	keys := []string{"contacts"}
	for _, s := range ScaleStages {
		keys = append(keys, s.Key)
	}
	for _, key := range keys {
		var x, y []float64
		for _, row := range r.Rows {
			if v := value(row, key); row.DT == dt && row.Error == "" && v > 0 {
				x, y = append(x, math.Log(float64(row.DOFs))), append(y, math.Log(v))
			}
		}
		if len(x) >= 2 {
			_, out[key] = stat.LinearRegression(x, y, nil, false)
		}
	}
	return out
}

// WriteMarkdown prints the table, one block per time step with its
// exponents last.
func (r *ScaleReport) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "%s, %s solver, %s backend, OpenBLAS kernels %s; ms per step (Newton ite.: per iteration), over %.1f s of the spin\n\n", r.Scenario, r.Solver, r.Backend, r.BLASCore, ScaleSpinSeconds)
	head := "| DOFs | h | contacts | real-time factor | Newton it./step | PCG it./step |"
	sep := "|---:|---:|---:|---:|---:|---:|"
	for _, s := range ScaleStages {
		head += " " + s.Title + " |"
		sep += "---:|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, sep)
	var dt float64
	for i, row := range r.Rows {
		if i > 0 && row.DT != dt {
			r.writeExponents(w, dt)
		}
		dt = row.DT
		line := fmt.Sprintf("| %d | %g ms | %.0f | %.2f | %.2f | %.1f |", row.DOFs, 1e3*row.DT, row.Contacts, row.RealtimeFactor, row.NewtonMean, row.PCGMean)
		for _, s := range ScaleStages {
			line += fmt.Sprintf(" %.2f |", row.MS[s.Key])
		}
		if row.Error != "" {
			line += " " + row.Error
		}
		fmt.Fprintln(w, line)
	}
	if len(r.Rows) > 0 {
		r.writeExponents(w, dt)
	}
}

// writeExponents prints the growth exponents of time step dt as a row.
func (r *ScaleReport) writeExponents(w io.Writer, dt float64) {
	e := r.Exponents[strconv.FormatFloat(dt, 'g', -1, 64)]
	line := fmt.Sprintf("| α (ms ∝ DOFs^α) | %g ms | %.2f | | | |", 1e3*dt, e["contacts"])
	for _, s := range ScaleStages {
		line += fmt.Sprintf(" %.2f |", e[s.Key])
	}
	fmt.Fprintln(w, line)
}

// WriteCSV writes one row per size and time step.
func (r *ScaleReport) WriteCSV(w io.Writer) error {
	head := []string{"dofs", "dt", "steps", "contacts_mean", "newton_mean", "pcg_iterations_mean", "realtime_factor"}
	for _, s := range ScaleStages {
		head = append(head, s.Key+"_ms")
	}
	if _, err := fmt.Fprintln(w, strings.Join(append(head, "error"), ",")); err != nil {
		return err
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, row := range r.Rows {
		f := []string{strconv.Itoa(row.DOFs), g(row.DT), strconv.Itoa(row.Steps), g(row.Contacts), g(row.NewtonMean), g(row.PCGMean), g(row.RealtimeFactor)}
		for _, s := range ScaleStages {
			f = append(f, g(row.MS[s.Key]))
		}
		if _, err := fmt.Fprintln(w, strings.Join(append(f, strconv.Quote(row.Error)), ",")); err != nil {
			return err
		}
	}
	return nil
}
