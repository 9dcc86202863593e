package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"softgrasp/physics"
	"softgrasp/physics/record"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
	"softgrasp/physics/stage"
)

// headlessFlags are the headless runner's command line.
type headlessFlags struct {
	scenario, object, mesh, csv     string
	contacts, newtonCSV, sceneFile  string
	cpuprofile, record, backend, ab string
	steps                           int
	threads                         threadFlags
	json, lambda                    bool
	// params are the flags of the parameter table (settings.Params):
	// -dt, -mu, -newton and the others.
	params    []*paramFlag
	meshUnits meshFlags
	attach    attachFlag
	// given names the flags set on the command line or the -scene file
	// (noteGiven), so that a scenario's preset keeps the values the user
	// did not give; fromScene the file's keys.
	given     map[string]bool
	fromScene sceneKeys
}

func (f *headlessFlags) register(fs *flag.FlagSet) {
	def := settings.DefaultScenario(settings.GraspRotate)
	fs.StringVar(&f.scenario, "scenario", string(settings.GraspRotate), "grasp-rotate, fast-spin (ω = 8π rad/s, h = 20 ms, 1000 DOFs unless -omega, -dt or -dofs say otherwise), incline, drop, squeeze, cube-drop, soft-fingers, stack or custom (the bodies of a version 2 -scene file; alone, one soft box)")
	f.params = registerParams(fs, def)
	f.threads.register(fs, 1)
	fs.StringVar(&f.mesh, "mesh", "", "load this mesh file instead: Gmsh .msh, legacy VTK .vtk, VTK XML .vtu/.vtp, STL or OBJ (a closed surface is mapped onto a grid mesh at -dofs, or tetrahedralised with -mesher tetgen)")
	fs.StringVar(&f.object, "object", string(def.Object), "procedural object: box or cylinder")
	fs.IntVar(&f.steps, "steps", 0, "steps to run; 0 = the scenario's scripted length")
	fs.StringVar(&f.csv, "csv", "", "write one CSV row per step to this file")
	fs.StringVar(&f.newtonCSV, "newton-csv", "", "write one CSV row per Newton iteration per step to this file: the turn of the normals, the move of the proximity points, the residuals, PGS's tolerance, sweeps and last change, the stage times (SI units, ms)")
	fs.StringVar(&f.contacts, "contacts", "", "write one CSV row per contact per step to this file: step, time, the two bodies, the point, the normal, the normal force, the friction force, the gap, the state (SI units)")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile (pprof) of the run to this file")
	fs.StringVar(&f.backend, "backend", backendCPU, "where the fast scheme's Newton iterations run: cpu, or gpu (CUDA builds; falls back to cpu)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object on stdout at the end and nothing else")
	fs.StringVar(&f.record, "record", "", "record the run to this file for \"softgrasp replay\" (docs/headless.md, Record and replay); the async solver then runs at -async-lag 4 unless given one")
	fs.StringVar(&f.ab, "ab", "", "also run a second scene B with these changes (e.g. \"newton=1\" or \"scheme=standard,pgs=60\": "+strings.Join(settings.ABKeys(), ", ")+") step for step with the same inputs, and report both and how far apart they went")
	fs.BoolVar(&f.lambda, "lambda", false, "with -json: add the contact forces λ of the last step (\"lambda\", 3 per contact)")
	f.meshUnits.register(fs)
	fs.Var(&f.attach, "attach", "hold soft nodes in place, repeatable: "+settings.AttachSyntax)
	fs.StringVar(&f.sceneFile, "scene", "", "a scene file (TOML: the scene flags as keys, SI units; version 2 also lists a custom scene's [[soft]] and [[rigid]] bodies; docs/scenes.md); flags given on the command line override it")
}

// attachFlag is the repeatable -attach: each one more attachment.
type attachFlag []settings.AttachSpec

func (a *attachFlag) String() string {
	if a == nil {
		return ""
	}
	return settings.FormatAttachList(*a)
}

func (a *attachFlag) Set(s string) error {
	spec, err := settings.ParseAttach(s)
	if err != nil {
		return err
	}
	*a = append(*a, spec)
	return nil
}

// config turns the flags into a scenario configuration: the scenario's
// defaults (with its preset), then the parameter flags given on the
// command line or given another default by the command (paramFlag.apply).
func (f *headlessFlags) config() (settings.Scenario, error) {
	kind, err := settings.ParseKind(f.scenario)
	if err != nil {
		return settings.Scenario{}, fmt.Errorf("-scenario: %w", err)
	}
	cfg := settings.DefaultScenario(kind)
	for _, pf := range f.params {
		if err := pf.apply(&cfg, f.given); err != nil {
			return cfg, f.fromScene.where(err)
		}
	}
	cfg.MeshFile, cfg.Object = f.mesh, settings.Object(f.object)
	cfg.Attach = append([]settings.AttachSpec(nil), f.attach...)
	f.fromScene.bodies.Apply(&cfg)
	if f.steps < 0 {
		return cfg, fmt.Errorf("-steps = %d: must be ≥ 0", f.steps)
	}
	if err := f.threads.validate(); err != nil {
		return cfg, err
	}
	if err := checkBackend(f.backend); err != nil {
		return cfg, err
	}
	if err := f.meshUnits.apply(&cfg); err != nil {
		return cfg, err
	}
	if err := cfg.Validate(); err != nil {
		return cfg, f.fromScene.where(withFlag(err))
	}
	return cfg, nil
}

// withFlag prefixes a validation error with the flag of the parameter it
// names.
func withFlag(err error) error {
	var re *settings.RangeError
	if errors.As(err, &re) && re.Param.Flag {
		return fmt.Errorf("-%s: %w", re.Param.Key, err)
	}
	return err
}

// noteGiven records which flags of fs the command line set, then sets
// the others that a -scene file gives (loadSceneFile).
func (f *headlessFlags) noteGiven(fs *flag.FlagSet) error {
	f.given = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.given[fl.Name] = true })
	if f.sceneFile == "" {
		return nil
	}
	var err error
	f.fromScene, err = loadSceneFile(fs, f.sceneFile, f.given)
	return err
}

// runHeadless runs a scenario without a window and reports its summary.
func runHeadless(args []string, stdout, stderr io.Writer) int {
	var f headlessFlags
	fs, code, done := parseCommand("softgrasp headless", f.register, args, stdout, stderr)
	if done {
		return code
	}
	if err := f.noteGiven(fs); err != nil {
		fmt.Fprintln(stderr, "softgrasp headless:", err)
		return 2
	}
	cfg, err := f.config()
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp headless:", err)
		return 2
	}
	f.threads.apply(cfg.Physics.Solver)
	if f.ab != "" {
		if f.record != "" || f.csv != "" || f.contacts != "" || f.newtonCSV != "" || f.lambda {
			fmt.Fprintln(stderr, "softgrasp headless: -ab runs two scenes; -record, -csv, -contacts, -newton-csv and -lambda describe one: use them without -ab")
			return 2
		}
		return runAB(cfg, f.ab, f.steps, f.json, stdout, stderr)
	}
	var rec *record.Writer
	if f.record != "" {
		if cfg, rec, err = startRecording(f.record, cfg, stderr); err != nil {
			fmt.Fprintln(stderr, "softgrasp headless: -record:", err)
			return 1
		}
		defer rec.Close()
	}
	sc, err := scenario.Build(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp headless:", oneLine(err))
		return 1
	}
	defer sc.Close()
	useBackend(sc.Sim, f.backend, stderr)
	var log stepLogs
	if f.csv != "" {
		if log.steps, err = newStepLog(f.csv); err != nil {
			fmt.Fprintln(stderr, "softgrasp headless:", err)
			return 1
		}
	}
	if f.contacts != "" {
		if log.contacts, err = newContactsLog(f.contacts); err != nil {
			fmt.Fprintln(stderr, "softgrasp headless:", err)
			return 1
		}
	}
	if f.newtonCSV != "" {
		if log.newton, err = newNewtonLog(f.newtonCSV); err != nil {
			fmt.Fprintln(stderr, "softgrasp headless:", err)
			return 1
		}
	}
	stop, ok := startProfile("softgrasp headless", f.cpuprofile, stderr)
	if !ok {
		return 1
	}
	defer stop()
	intr := catchInterrupts()
	defer intr.stop()
	ran, runErr := runSteps(sc, f.steps, &log, rec, intr)
	if err := log.close(); err != nil && runErr == nil {
		runErr = err
	}
	checksum := sc.StateChecksum()
	if rec != nil {
		rec.End(ran, checksum, runErr)
		if err := rec.Close(); err != nil && runErr == nil {
			runErr = err
		}
	}
	sum := sc.Summary()
	if runErr != nil {
		sum.Error = runErr.Error()
	}
	rep := report{Summary: sum, FinalChecksum: record.FormatChecksum(checksum)}
	sig, stopped := intr.received()
	if stopped {
		rep.Interrupted = signalName(sig)
	}
	if f.lambda {
		rep.Lambda = append([]float64{}, sc.Sim.Lambda()...)
	}
	writeReport(stdout, f.json, rep)
	if g := sum.Grasp; g != nil && g.Stop != "" {
		what := "stopped"
		if g.Phase == string(scenario.PhaseRefused) {
			what = "cannot take this object"
		}
		fmt.Fprintf(stderr, "softgrasp headless: grasp and rotate %s: %s\n", what, g.Stop)
	}
	if runErr != nil {
		fmt.Fprintln(stderr, "softgrasp headless:", oneLine(runErr))
		return 1
	}
	if stopped {
		fmt.Fprintln(stderr, interruptNote("softgrasp headless", sig, ran))
		return exitStatus(sig)
	}
	return 0
}

// runSteps advances the scene, logging and recording each step, and stops
// at the first error (a divergence) or when intr caught a signal; ran
// counts the steps attempted. steps 0 runs the script to its end
// (Scene.DefaultSteps, which grows while the grasp waits for a moved
// object to come to rest).
func runSteps(sc *scenario.Scene, steps int, log *stepLogs, rec *record.Writer, intr *interrupts) (ran int, err error) {
	i := 0
	for ; i < steps || steps == 0 && i < sc.DefaultSteps(); i++ {
		if _, stop := intr.received(); stop {
			return i, nil
		}
		st, err := sc.Step()
		if rec != nil {
			rec.Step(i+1, sc.StateChecksum)
		}
		if err != nil {
			return i + 1, err
		}
		if err := log.write(sc, st); err != nil {
			return i + 1, err
		}
	}
	return i, nil
}

// stepLogs are a run's per-step outputs, each optional: the -csv row per
// step, the -contacts rows per contact and the -newton-csv rows per Newton
// iteration.
type stepLogs struct {
	steps    *stepLog
	contacts *contactsLog
	newton   *newtonLog
}

func (l *stepLogs) write(sc *scenario.Scene, st *physics.StepStats) error {
	if l.steps != nil {
		if err := l.steps.write(sc, st); err != nil {
			return err
		}
	}
	if l.newton != nil {
		if err := l.newton.write(st); err != nil {
			return err
		}
	}
	if l.contacts != nil {
		return l.contacts.write(sc.Sim, st)
	}
	return nil
}

// close closes each log and returns the first error.
func (l *stepLogs) close() error {
	var first error
	if l.steps != nil {
		first = l.steps.close()
	}
	if l.contacts != nil {
		if err := l.contacts.close(); first == nil {
			first = err
		}
	}
	if l.newton != nil {
		if err := l.newton.close(); first == nil {
			first = err
		}
	}
	return first
}

// parseCommand declares a command's flags (register) on a flag set named
// name and parses args into it (parseFlags).
func parseCommand(name string, register func(*flag.FlagSet), args []string, stdout, stderr io.Writer) (fs *flag.FlagSet, code int, done bool) {
	fs = flag.NewFlagSet(name, flag.ContinueOnError)
	register(fs)
	code, done = parseFlags(fs, args, stdout, stderr)
	return fs, code, done
}

// parseFlags parses args; done is true when the caller should return code
// (help printed, or a bad flag reported in one line).
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, done bool) {
	fs.SetOutput(io.Discard)
	if wantsHelpAll(args) {
		printHelp(stdout, fs, false)
		return 0, true
	}
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		printHelp(stdout, fs, true)
		return 0, true
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v (see -h)\n", fs.Name(), err)
		return 2, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q (see -h)\n", fs.Name(), fs.Arg(0))
		return 2, true
	}
	return 0, false
}

// oneLine flattens an error message to a single line.
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// printSummary writes the human-readable report.
func printSummary(w io.Writer, s scenario.Summary) {
	fmt.Fprintf(w, "scenario %s, %s scheme, K=%d, h=%g s, μ=%g, ω=%.3g rad/s, %s, %d DOFs, %d steps\n",
		s.Scenario, s.Scheme, s.Newton, s.DT, s.Mu, s.Omega, s.Mesh, s.DOFs, s.Steps)
	if s.MuOverride != nil {
		fmt.Fprintf(w, "μ=%.4g imposed by the scene at the end (the incline's hold or release ramp)\n", *s.MuOverride)
	}
	printMeshNotes(w, s)
	fmt.Fprintf(w, "contacts %.1f mean, max penetration %.3f mm, slip %.3f mm, held %v, force jitter %.4f\n",
		s.ContactsMean, 1e3*s.MaxPenetration, 1e3*s.Slip, s.Held, s.ForceJitter)
	if g := s.Grasp; g != nil {
		limited := ""
		if g.GripLimited {
			limited = fmt.Sprintf(" (asked %.3g N; the most it gives squeezed by a fifth)", g.GripAsked)
		}
		fmt.Fprintf(w, "grasp: ended in %s; jaws %.3g N and %.3g N of %.3g N%s; in the spin %.3g to %.3g N, held throughout %v; slip along the jaws %.3f mm\n",
			g.Phase, g.GripLeft, g.GripRight, g.GripTarget, limited, g.SpinGripMin, g.SpinGripMax, g.HeldThroughSpin, 1e3*g.MaxGripSlip)
		if g.Cycles > 0 {
			fmt.Fprintf(w, "grasp loop: %d grasps finished before this one, %d of them held through the spin (the line above is the current grasp's)\n", g.Cycles, g.HeldCycles)
		}
	}
	fmt.Fprintf(w, "real-time factor %.3f (%.2f s simulated in %.2f s), Newton iterations %.2f per step\n",
		s.RealtimeFactor, s.SimSeconds, s.WallSeconds, s.NewtonMean)
	if s.Solver == "async" {
		fmt.Fprintf(w, "async solver: %.2f PCG iterations per step, factor %.2f steps old on average (preconditioner %.2f)\n", s.PCGMean, s.FactorAgeMean, s.PreconditionerAgeMean)
	}
	m := s.MS
	fmt.Fprintf(w, "ms: build W_H %.3f | per Newton iteration: rebuild W %.3f, PGS %.3f, corr %.3f, total %.3f | scheme total %.3f | step %.3f\n",
		m.BuildWH, m.RebuildW, m.PGS, m.Corr, m.NewtonIter, m.Total, m.Step)
	if s.Incline != nil {
		in := s.Incline
		fmt.Fprintf(w, "incline %.2f° (tan θ = %.4f): moved %.3f mm, speed %.4f m/s, Coulomb predicts %.3f mm, slides %v\n",
			in.AngleDeg, in.TanTheta, 1e3*in.Displacement, in.Speed, 1e3*in.Predicted, in.Slides)
	}
	if s.Cube != nil {
		c := s.Cube
		fmt.Fprintf(w, "cube: carried with %.4f N for its weight %.4f N (ratio %.4f), %.3g m/s, its bottom %.2f mm above the floor\n",
			c.NormalForce, c.Weight, c.NormalForce/c.Weight, c.Speed, 1e3*c.Height)
	}
	if s.Drop != nil {
		d := s.Drop
		fmt.Fprintf(w, "drop: floor force %.4f N for weight %.4f N (ratio %.4f), penetration %.4f mm\n",
			d.NormalForce, d.Weight, d.NormalForce/d.Weight, 1e3*d.Penetration)
	}
	if s.Error != "" {
		fmt.Fprintf(w, "stopped: %s\n", s.Error)
	}
}

// stepLog writes one CSV row per step.
type stepLog struct{ csvFile }

func newStepLog(path string) (*stepLog, error) {
	c, err := createCSV("csv", path, []string{"step", "time", "phase", "contacts", "active", "newton", "pgs_sweeps",
		"penetration", "slip", "held", "grip_force", "build_wh_ms", "rebuild_w_ms", "pgs_ms", "corr_ms",
		"newton_ms", "total_ms", "step_ms", "last_direction_change", "last_position_change", "last_elastic_residual", "last_contact_residual"})
	if err != nil {
		return nil, err
	}
	return &stepLog{c}, nil
}

func (l *stepLog) write(sc *scenario.Scene, st *physics.StepStats) error {
	live := sc.Live()
	sweeps := 0
	var dir, pos, res, con float64
	for _, r := range st.Newton {
		sweeps += r.PGSIterations
		dir, pos, con = r.DirectionChange, r.PositionChange, r.ContactResidual
		if r.ElasticResidual > 0 {
			res = r.ElasticResidual
		}
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
	t := &st.Times
	return l.csvFile.write([]string{
		strconv.Itoa(st.Step), g(st.Time), string(live.Phase), strconv.Itoa(st.Contacts),
		strconv.Itoa(st.Active), strconv.Itoa(len(st.Newton)), strconv.Itoa(sweeps),
		g(st.Penetration), g(live.Slip), strconv.FormatBool(live.Held), g(live.GripForce),
		g(t.MS(stage.BuildWH)), g(t.MS(stage.RebuildW)), g(t.MS(stage.PGS)),
		g(t.MS(stage.Corr)), g(t.MS(stage.Newton)), g(t.MS(stage.Total)),
		g(t.MS(stage.Step)), g(dir), g(pos), g(res), g(con),
	})
}
