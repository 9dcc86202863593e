package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"softgrasp/physics"
	"softgrasp/physics/bench"
	"softgrasp/physics/settings"
)

// benchFlags are the command line of softgrasp bench.
type benchFlags struct {
	sizes             string
	steps, warmup     int
	threads           threadFlags
	quick, json       bool
	csv, plot, cpuOut string
	mesh              benchMesh
	backend           string
	scale             bool
	scaleSizes        string
	scaleDTs          string
	scenario          string
	// table are -compliance-precision and -compliance-threads, the
	// parameter table's flags.
	table []*paramFlag
}

// Defaults of the full run and of -quick.
const (
	benchSizes      = "18000,24000,30000,36000"
	benchSteps      = 10
	benchQuickSizes = "3000,6000"
	benchQuickSteps = 3
)

func (f *benchFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.sizes, "sizes", benchSizes, "comma-separated target DOFs of the soft box (nearest procedural mesh)")
	fs.IntVar(&f.steps, "steps", benchSteps, "measured steps per size (both schemes run each of them)")
	fs.IntVar(&f.warmup, "warmup", -1, "steps before measuring; -1 = until the object is held, lifted and turning (about 65)")
	f.threads.register(fs, 0)
	fs.BoolVar(&f.quick, "quick", false, "smoke test: -sizes "+benchQuickSizes+" -steps "+strconv.Itoa(benchQuickSteps)+" unless given (under a minute)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object on stdout instead of the table")
	fs.StringVar(&f.csv, "csv", "", "also write the table as CSV to this file (median, min and max of each column)")
	fs.StringVar(&f.plot, "plot", "", "also plot the stage times against DOFs for both schemes to this PNG file")
	fs.StringVar(&f.backend, "backend", backendCPU, "where the fast scheme's Newton iterations run: cpu, or gpu (CUDA builds; falls back to cpu)")
	fs.StringVar(&f.cpuOut, "cpuprofile", "", "write a pprof CPU profile of the run to this file")
	fs.BoolVar(&f.scale, "scale", false, "instead of Table 1: the default grasp-and-rotate with the asynchronous solver timed stage by stage over 0.5 s of its spin at each of -scale-sizes and -scale-dts, with each stage's growth exponent (docs/results.md)")
	fs.StringVar(&f.scaleSizes, "scale-sizes", bench.ScaleSizes, "with -scale: comma-separated target DOFs (-quick: "+bench.ScaleQuickSizes+")")
	fs.StringVar(&f.scaleDTs, "scale-dts", bench.ScaleDTs, "with -scale: comma-separated time steps, s")
	fs.StringVar(&f.scenario, "scenario", string(settings.Squeeze), "the Table-1 scene: squeeze (one soft box) or stack (two soft cubes of half the DOFs each in soft–soft contact, squeezed together)")
	f.table = registerParamsOf(fs, settings.DefaultScenario(settings.Squeeze), "compliance-precision", "compliance-threads")
	f.mesh.register(fs)
}

// benchColumnsHelp explains the columns, after the flags in -h.
const benchColumnsHelp = `
Protocol: the squeeze scene (a soft box squeezed between flat jaws, lifted
and turned slowly; with -scenario stack two soft cubes in soft–soft
contact, squeezed together after their rest) at each size, K = 5 Newton iterations × 30 PGS sweeps
(no early stop). After the warm-up, each measured step is run from the
same snapshot first with the fast scheme and then with the standard one;
the simulation then replays the step with the fast scheme (unmeasured) and
continues from there, so the measured fast step always follows a fast
one. Times in ms, medians over the measured steps with (min–max).

Columns:
  Build W_H    W_H = H·A⁻¹·Hᵀ, once per step (fast scheme only)
  Rebuild W    W = C·W_H·Cᵀ (fast) or J·A⁻¹·Jᵀ (standard), per Newton iteration
  PGS          30 projected Gauss–Seidel sweeps, per Newton iteration
  Corr.        p = p_free + h²·W_H·Cᵀλ (fast) or q = q_free + h²·A⁻¹·Jᵀλ,
               p = G(q) (standard), per Newton iteration
  Newton ite.  one whole Newton iteration (re-linearisation included)
  Total        Build W_H + the 5 Newton iterations of the step
  Update       (Rebuild W + Corr.) / Newton ite. of each step, median
Per-iteration columns are the mean over the step's 5 iterations, then the
median over steps. Ratios: standard/fast Newton ite. and standard/fast Total.
`

// benchOptions are the validated flags.
type benchOptions struct {
	sizes         []int
	steps, warmup int
	mesh          benchMeshOption
	backend       string
	kind          settings.Kind // squeeze or stack
	precision     settings.Precision
	threads       int // the compliance products' threads
}

// options validates the flags; -quick fills -sizes and -steps unless they
// were given.
func (f *benchFlags) options(set map[string]bool) (benchOptions, error) {
	if f.quick && !set["sizes"] {
		f.sizes = benchQuickSizes
	}
	if f.quick && !set["steps"] {
		f.steps = benchQuickSteps
	}
	var o benchOptions
	if f.steps < 1 {
		return o, fmt.Errorf("-steps = %d: must be at least 1", f.steps)
	}
	if f.warmup < -1 {
		return o, fmt.Errorf("-warmup = %d: must be ≥ 0, or -1 for the scene's own", f.warmup)
	}
	if err := f.threads.validate(); err != nil {
		return o, err
	}
	if err := checkBackend(f.backend); err != nil {
		return o, err
	}
	o.steps, o.warmup, o.backend = f.steps, f.warmup, f.backend
	table, err := f.tableSettings(set)
	if err != nil {
		return o, err
	}
	o.precision, o.threads = table.CompliancePrecision, max(table.ComplianceThreads, 1)
	switch k := settings.Kind(f.scenario); k {
	case settings.Squeeze, settings.Stack:
		o.kind = k
	default:
		return o, fmt.Errorf("-scenario = %q: want squeeze or stack", f.scenario)
	}
	mesh, err := f.mesh.option()
	if err != nil {
		return o, err
	}
	o.mesh = mesh
	for _, field := range strings.Split(f.sizes, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil {
			return o, fmt.Errorf("-sizes: %q is not a whole number of DOFs", field)
		}
		if err := o.sceneConfig(d).Validate(); err != nil {
			return o, fmt.Errorf("-sizes: %d DOFs: %w", d, err)
		}
		o.sizes = append(o.sizes, d)
	}
	return o, nil
}

// tableSettings reads the table's flags (-compliance-precision,
// -compliance-threads) into the squeeze scene's settings.
func (f *benchFlags) tableSettings(set map[string]bool) (settings.Settings, error) {
	cfg := settings.DefaultScenario(settings.Squeeze)
	err := applyChecked(f.table, &cfg, set)
	return cfg.Physics, err
}

// runBench reproduces the paper's Table 1 on this machine.
func runBench(args []string, stdout, stderr io.Writer) int {
	var f benchFlags
	fs, code, done := parseCommand("softgrasp bench", f.register, args, stdout, stderr)
	if done {
		if code == 0 {
			fmt.Fprint(stdout, benchColumnsHelp)
		}
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if f.scale {
		return runScale(&f, set, stdout, stderr)
	}
	opt, err := f.options(set)
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp bench:", oneLine(err))
		return 2
	}
	f.threads.apply(settings.ExactSolver)
	stop, ok := startProfile("softgrasp bench", f.cpuOut, stderr)
	if !ok {
		return 1
	}
	defer stop()
	tab, err := measureTable(opt, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp bench:", oneLine(err))
		return 1
	}
	if err := writeBenchOutputs(&f, tableOutput(tab), stdout); err != nil {
		fmt.Fprintln(stderr, "softgrasp bench:", oneLine(err))
		return 1
	}
	return 0
}

// benchOutput is a benchmark's result as the command writes it: the
// Table-1 table or the scale table.
type benchOutput struct {
	markdown func(w io.Writer)
	csv      func(w io.Writer) error
	plot     func(path string) error
	json     any
}

// tableOutput and scaleOutput are the two results as outputs.
func tableOutput(t *bench.Table) benchOutput {
	return benchOutput{t.WriteMarkdown, t.WriteCSV, func(path string) error { return saveTablePlot(t, path) }, t.Report()}
}

func scaleOutput(r *bench.ScaleReport) benchOutput {
	return benchOutput{r.WriteMarkdown, r.WriteCSV, func(path string) error { return saveScalePlot(r, path) }, r}
}

// writeBenchOutputs prints the table (or the JSON object) and writes the
// CSV and plot files that were asked for.
func writeBenchOutputs(f *benchFlags, out benchOutput, stdout io.Writer) error {
	if f.json {
		if err := writeJSON(stdout, out.json); err != nil {
			return err
		}
	} else {
		out.markdown(stdout)
	}
	if f.csv != "" {
		if err := writeFileWith(f.csv, out.csv); err != nil {
			return fmt.Errorf("-csv: %w", err)
		}
	}
	if f.plot != "" {
		if err := out.plot(f.plot); err != nil {
			return fmt.Errorf("-plot: %w", err)
		}
	}
	return nil
}

// writeFileWith creates path and fills it with write.
func writeFileWith(path string, write func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// startProfile starts the CPU profile of the command name into path when
// path is set, and returns the function that stops it (nothing to stop
// without a path); a failure is said on stderr, with ok false.
func startProfile(name, path string, stderr io.Writer) (stop func(), ok bool) {
	if path == "" {
		return func() {}, true
	}
	out, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(out); err != nil {
			out.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: -cpuprofile: %s\n", name, oneLine(err))
		return nil, false
	}
	return func() {
		pprof.StopCPUProfile()
		out.Close()
	}, true
}

// measureTable measures the Table-1 run of opt, with a progress bar on
// stderr that counts steps (a measured step counts two: one per scheme;
// the unmeasured replay is not counted).
func measureTable(opt benchOptions, stderr io.Writer) (*bench.Table, error) {
	run := bench.Table1{Warmup: opt.warmup, Steps: opt.steps}
	for _, d := range opt.sizes {
		run.Configs = append(run.Configs, opt.sceneConfig(d))
	}
	bar := progressbar.NewOptions(len(opt.sizes)*(run.WarmupSteps()+2*opt.steps),
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("bench"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	// The backend is opened per scene; a fallback to the CPU is reported
	// once and kept for the other sizes.
	backend := opt.backend
	run.Place = func(sim *physics.Simulation) { backend = useBackend(sim, backend, stderr) }
	run.Describe = func(s string) { bar.Describe("bench: " + s) }
	run.Tick = func() { _ = bar.Add(1) }
	tab, err := run.Measure()
	if err != nil {
		_ = bar.Exit()
		return nil, err
	}
	_ = bar.Finish()
	return tab, nil
}

// runScale runs bench -scale and writes its outputs.
func runScale(f *benchFlags, set map[string]bool, stdout, stderr io.Writer) int {
	if f.quick && !set["scale-sizes"] {
		f.scaleSizes = bench.ScaleQuickSizes
	}
	if err := checkBackend(f.backend); err != nil {
		fmt.Fprintln(stderr, "softgrasp bench:", oneLine(err))
		return 2
	}
	table, err := f.tableSettings(set)
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp bench:", oneLine(err))
		return 2
	}
	// One OpenBLAS thread, as headless runs the asynchronous solver: a
	// second would fight the background factorisation for the other core
	// (measured: the 18k-DOF step 297 ms with OpenBLAS's default threads).
	f.threads.apply(settings.AsyncSolver)
	if err := measureAndWriteScale(f, table.CompliancePrecision, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "softgrasp bench:", oneLine(err))
		return 1
	}
	return 0
}

// measureAndWriteScale reads the -scale lists, measures every row with
// the compliance products in precision and writes the outputs.
func measureAndWriteScale(f *benchFlags, precision settings.Precision, stdout, stderr io.Writer) error {
	dofs, err := parseList("scale-sizes", f.scaleSizes)
	if err != nil {
		return err
	}
	dts, err := parseList("scale-dts", f.scaleDTs)
	if err != nil {
		return err
	}
	sizes := make([]int, len(dofs))
	for i, d := range dofs {
		sizes[i] = int(math.Round(d))
	}
	rep, err := bench.MeasureScale(sizes, dts, f.backend, useBackend, precision, stderr)
	if err != nil {
		return err
	}
	return writeBenchOutputs(f, scaleOutput(rep), stdout)
}
