package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"softgrasp/physics/accuracy"
	"softgrasp/physics/settings"
)

// accuracyFlags are the flags of `softgrasp accuracy`.
type accuracyFlags struct {
	quick bool
	// table are -dofs, -mu, -pgs, -alarm-fall and -alarm-fall-margin,
	// the parameter table's flags.
	table                 []*paramFlag
	omegas, dts, newtons  string
	schemes               string
	refDT                 float64
	refPGS                int
	refScheme             string
	refElastic, elastic   float64
	refCheck              bool
	json                  bool
	csv, plot, cpuProfile string
}

func (f *accuracyFlags) register(fs *flag.FlagSet) {
	full := accuracy.Full()
	fs.BoolVar(&f.quick, "quick", false, "smoke-test grid: 1k DOFs, ω = 8π, h = 20 ms, K ∈ {1, 5}, reference at 5 ms (about a minute)")
	// The grid's scene settings, for the reference and every row.
	base := full.Base()
	base.Physics.PGSIterations = full.PGS
	f.table = registerParamsOf(fs, base, "dofs", "mu", "pgs", "alarm-fall", "alarm-fall-margin")
	fs.StringVar(&f.omegas, "omega", "2π,4π,8π", "spin speeds, rad/s (a number or Nπ), comma separated")
	fs.StringVar(&f.dts, "dt", "0.005,0.01,0.02", "time steps h, s, comma separated (whole multiples of -ref-dt)")
	fs.StringVar(&f.newtons, "newton", "1,2,5,10", "Newton iterations K, comma separated")
	fs.StringVar(&f.schemes, "scheme", "fast,standard", "update schemes, comma separated")
	fs.Float64Var(&f.refDT, "ref-dt", full.RefDT, "reference time step, s")
	fs.IntVar(&f.refPGS, "ref-pgs", full.RefPGS, "reference PGS sweeps per Newton iteration (tolerance 1e-9)")
	fs.StringVar(&f.refScheme, "ref-scheme", full.RefScheme.String(), "reference update scheme: standard or fast")
	fs.Float64Var(&f.refElastic, "ref-elastic-tol", full.RefElastic, "reference: Newton on the whole residual to this tolerance, m (0 = internal forces linearised once per step)")
	fs.Float64Var(&f.elastic, "elastic-tol", full.ElasticRows, "rows with Newton on the whole residual (fast, every K > 1) to this tolerance, m; 0 = none")
	fs.BoolVar(&f.refCheck, "ref-check", full.RefCheck, "also run the reference at twice its step and report the difference")
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the table")
	fs.StringVar(&f.csv, "csv", "", "write the rows as CSV to this file")
	fs.StringVar(&f.plot, "plot", "", "write penetration and slip error against K and h to this PNG")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile")
}

// options turns the flags into a grid; with -quick the quick grid is the
// base and only the flags given explicitly change it.
func (f *accuracyFlags) options(set map[string]bool) (accuracy.Options, error) {
	o := accuracy.Full()
	if f.quick {
		o = accuracy.Quick()
	}
	var err error
	apply := func(name string, do func() error) {
		if err == nil && (set[name] || !f.quick) {
			if e := do(); e != nil {
				err = fmt.Errorf("-%s: %w", name, e)
			}
		}
	}
	// The table's flags: given ones change the grid (-quick's too).
	base := o.Base()
	base.Physics.PGSIterations = o.PGS
	if e := applyChecked(f.table, &base, set); e != nil {
		return o, e
	}
	o.DOFs, o.Mu, o.PGS = base.TargetDOFs, base.Physics.Friction, base.Physics.PGSIterations
	o.AlarmFall, o.AlarmFallMargin = base.Physics.AlarmFall, base.Physics.AlarmFallMargin
	apply("omega", func() (e error) { o.Omegas, e = parseFloats(f.omegas); return })
	apply("dt", func() (e error) { o.DTs, e = parseFloats(f.dts); return })
	apply("newton", func() (e error) { o.Newtons, e = parseInts(f.newtons); return })
	apply("scheme", func() (e error) { o.Schemes, e = parseSchemes(f.schemes); return })
	apply("ref-dt", func() error { o.RefDT = f.refDT; return nil })
	apply("ref-pgs", func() error { o.RefPGS = f.refPGS; return positive(f.refPGS) })
	apply("ref-scheme", func() (e error) { o.RefScheme, e = settings.ParseScheme(f.refScheme); return })
	apply("ref-elastic-tol", func() error { o.RefElastic = f.refElastic; return nil })
	apply("elastic-tol", func() error { o.ElasticRows = f.elastic; return nil })
	apply("ref-check", func() error { o.RefCheck = f.refCheck; return nil })
	if err != nil {
		return o, err
	}
	return o, o.Validate()
}

func positive(n int) error {
	if n < 1 {
		return fmt.Errorf("%d: must be at least 1", n)
	}
	return nil
}

// parseFloats reads a comma-separated list of positive numbers; "Nπ" (or
// "Npi") is N times π.
func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		mult := 1.0
		for _, pi := range []string{"π", "pi"} {
			if strings.HasSuffix(f, pi) {
				f, mult = strings.TrimSuffix(f, pi), math.Pi
				if f == "" {
					f = "1"
				}
			}
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, v*mult)
	}
	return out, nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func parseSchemes(s string) ([]settings.Scheme, error) {
	var out []settings.Scheme
	for _, f := range strings.Split(s, ",") {
		sch, err := settings.ParseScheme(f)
		if err != nil {
			return nil, err
		}
		out = append(out, sch)
	}
	return out, nil
}

// runAccuracy is `softgrasp accuracy`.
func runAccuracy(args []string, stdout, stderr io.Writer) int {
	var f accuracyFlags
	fs, code, done := parseCommand("softgrasp accuracy", f.register, args, stdout, stderr)
	if done {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	opt, err := f.options(set)
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp accuracy:", oneLine(err))
		return 2
	}
	stop, ok := startProfile("softgrasp accuracy", f.cpuProfile, stderr)
	if !ok {
		return 1
	}
	defer stop()
	bar := progressbar.NewOptions(opt.TotalSteps(),
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("accuracy"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	res, err := accuracy.Run(opt, func() { _ = bar.Add(1) })
	_ = bar.Finish()
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp accuracy:", oneLine(err))
		return 1
	}
	if err := writeAccuracyOutputs(&f, res, stdout); err != nil {
		fmt.Fprintln(stderr, "softgrasp accuracy:", oneLine(err))
		return 1
	}
	return 0
}

func writeAccuracyOutputs(f *accuracyFlags, res accuracy.Result, stdout io.Writer) error {
	if f.json {
		if err := writeJSON(stdout, jsonSafe(res)); err != nil {
			return err
		}
	} else {
		writeAccuracyMarkdown(stdout, res)
	}
	if f.csv != "" {
		if err := writeFileWith(f.csv, func(w io.Writer) error { return writeAccuracyCSV(w, res) }); err != nil {
			return fmt.Errorf("-csv: %w", err)
		}
	}
	if f.plot != "" {
		if err := saveAccuracyPlot(f.plot, res); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
	}
	return nil
}

// jsonSafe replaces the NaN slip errors of failed rows, and the NaN
// differences of failed spin rows, by −1 (JSON has no NaN); the row's
// error says why.
func jsonSafe(res accuracy.Result) accuracy.Result {
	rows := append([]accuracy.Row(nil), res.Rows...)
	for i := range rows {
		if math.IsNaN(rows[i].SlipError) {
			rows[i].SlipError = -1
		}
	}
	res.Rows = rows
	spin := append([]accuracy.SpinRow(nil), res.Spin...)
	for i := range spin {
		if math.IsNaN(spin[i].MaxError) || math.IsNaN(spin[i].EndError) {
			spin[i].MaxError, spin[i].EndError = -1, -1
		}
	}
	res.Spin = spin
	return res
}

var accuracyColumns = []string{"omega", "dt", "scheme", "newton", "pgs", "kind", "pgs_sweeps_total",
	"max_penetration", "spin_penetration", "violation", "slip", "slip_error", "force_jitter",
	"newton_mean", "converged_share", "held", "error"}

func accuracyRecord(r accuracy.Row) []string {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	return []string{g(r.Omega), g(r.DT), r.Scheme, strconv.Itoa(r.Newton), strconv.Itoa(r.PGS), r.Kind,
		strconv.Itoa(r.PGSSweepsTotal), g(r.MaxPenetration), g(r.SpinPenetration), g(r.Violation),
		g(r.Slip), g(r.SlipError), g(r.ForceJitter), g(r.NewtonMean), g(r.ConvergedShare),
		strconv.FormatBool(r.Held), r.Error}
}

func writeAccuracyCSV(w io.Writer, res accuracy.Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(accuracyColumns); err != nil {
		return err
	}
	for _, r := range res.Rows {
		if err := cw.Write(accuracyRecord(r)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeAccuracyMarkdown prints the reference and one table row per run,
// lengths in mm.
func writeAccuracyMarkdown(w io.Writer, res accuracy.Result) {
	ref := res.Reference
	fmt.Fprintf(w, "Reference: %s scheme, Newton on the whole residual to %g m (0: off) in every step from A⁻¹·b (the linearised start), h = %g ms, K ≤ %d, PGS ≤ %d sweeps (tolerance %g), %d DOFs, μ = %g; alarm fall margin %g, alarm fall %s (reference and rows).\n",
		ref.Scheme, ref.Elastic, 1e3*ref.DT, ref.Newton, ref.PGS, ref.PGSTol, ref.DOFs, ref.Mu, ref.AlarmFallMargin, ref.AlarmFall)
	for k, s := range ref.Slip {
		fmt.Fprintf(w, "  ω = %s: reference slip %.3f mm", k, 1e3*s)
		if e, ok := ref.SelfError[k]; ok {
			fmt.Fprintf(w, ", against itself at 2h: %.4f mm", 1e3*e)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| ω | h ms | scheme | K | PGS | kind | sweeps total | max pen. mm | spin pen. mm | violation mm | slip mm | slip error mm | jitter | Newton mean | converged | held |")
	fmt.Fprintln(w, "|---|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range res.Rows {
		held := strconv.FormatBool(r.Held)
		if r.Error != "" {
			held = "failed: " + r.Error
		}
		fmt.Fprintf(w, "| %s | %g | %s | %d | %d | %s | %d | %.4f | %.4f | %.4f | %.3f | %.4f | %.3g | %.2f | %.0f %% | %s |\n",
			accuracy.OmegaKey(r.Omega), 1e3*r.DT, r.Scheme, r.Newton, r.PGS, r.Kind, r.PGSSweepsTotal,
			1e3*r.MaxPenetration, 1e3*r.SpinPenetration, 1e3*r.Violation, 1e3*r.Slip, 1e3*r.SlipError,
			r.ForceJitter, r.NewtonMean, 100*r.ConvergedShare, held)
	}
	if len(res.Spin) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Spin test (the object alone, no gravity or contact, spun for 0.4 s): radius of gyration against the reference's, relative to the rest one.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| ω | h ms | K | Newton on the whole residual | max difference | at the end |")
	fmt.Fprintln(w, "|---|---:|---:|---|---:|---:|")
	for _, r := range res.Spin {
		mode := "off"
		if r.Elastic > 0 {
			mode = fmt.Sprintf("to %g m", r.Elastic)
		}
		if r.Error != "" {
			fmt.Fprintf(w, "| %s | %g | %d | %s | failed: %s | |\n", accuracy.OmegaKey(r.Omega), 1e3*r.DT, r.Newton, mode, r.Error)
			continue
		}
		fmt.Fprintf(w, "| %s | %g | %d | %s | %.3f %% | %.3f %% |\n", accuracy.OmegaKey(r.Omega), 1e3*r.DT, r.Newton, mode, 100*r.MaxError, 100*r.EndError)
	}
}
