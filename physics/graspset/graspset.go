// Package graspset runs the grasp-and-rotate script on a set of mesh files,
// several times with each solver, and judges each file by the grasp's
// own measures (scenario.GraspResult): held through the spin, each jaw's
// squeeze within GripTolerance of the target while spinning and the
// material under the jaws slipping no more than MaxSlip; refused, with
// the reason, before the jaws move; or failed, with what went wrong. A
// run that diverges fails its file whatever the others did.
//
// The set in testdata/meshes holds one file of each kind users bring
// (organ surfaces and volumes, Y-up scans, figures standing and lying,
// thin branches, flat parts, rings and knots: its README); softgrasp
// grasp-set runs it and writes the table docs/grasp-set.md shows.
package graspset

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// The bounds a held grasp keeps through the steady part of the spin.
const (
	GripTolerance = 0.10 // each jaw's squeeze within ±10 % of the target
	MaxSlip       = 2e-3 // m, the material under the jaws along them (scenario.GraspResult.MaxGripSlip)
)

// Options say what to run: the files, the solvers, the runs of each, and
// the scene every file is loaded into (its MeshFile replaced).
type Options struct {
	Files   []string
	Solvers []settings.Solver
	Runs    int
	Base    settings.Scenario
	// Progress, when set, is called after each run.
	Progress func(done, total int, r Run)
}

// Run is one run of one file with one solver.
type Run struct {
	File    string
	Solver  settings.Solver
	Index   int // 0 … Runs−1
	Summary scenario.Summary
	// Verdict is Held, Refused or Failed; Why says what failed.
	Verdict Verdict
	Why     string
}

// Verdict is how a run went.
type Verdict string

const (
	Held    Verdict = "held"
	Refused Verdict = "refused"
	Failed  Verdict = "failed"
)

// RunAll runs every file Runs times with each solver, in that order.
func RunAll(opt Options) []Run {
	total := len(opt.Files) * len(opt.Solvers) * opt.Runs
	var out []Run
	for _, file := range opt.Files {
		for _, solver := range opt.Solvers {
			for k := 0; k < opt.Runs; k++ {
				r := runOne(opt.Base, file, solver, k)
				out = append(out, r)
				if opt.Progress != nil {
					opt.Progress(len(out), total, r)
				}
			}
		}
	}
	return out
}

// runOne builds the scene of file with solver and runs its script to the
// end.
func runOne(base settings.Scenario, file string, solver settings.Solver, k int) Run {
	cfg := base
	cfg.MeshFile, cfg.Physics.Solver = file, solver
	r := Run{File: file, Solver: solver, Index: k}
	sc, err := scenario.Build(cfg)
	if err != nil {
		r.Verdict, r.Why = Failed, "does not build: "+err.Error()
		return r
	}
	defer sc.Close()
	var stepErr error
	for i := 0; i < sc.DefaultSteps(); i++ {
		if _, stepErr = sc.Step(); stepErr != nil {
			break
		}
	}
	r.Summary = sc.Summary()
	if stepErr != nil {
		r.Summary.Error = stepErr.Error()
	}
	r.Verdict, r.Why = Judge(r.Summary)
	return r
}

// Judge says how a run went from its summary.
func Judge(s scenario.Summary) (Verdict, string) {
	g := s.Grasp
	switch {
	case s.Error != "":
		return Failed, "diverged: " + s.Error
	case g == nil:
		return Failed, "no grasp script ran"
	case g.Phase == string(scenario.PhaseRefused):
		return Refused, g.Stop
	case g.Stop != "":
		return Failed, "stopped: " + g.Stop
	case !g.HeldThroughSpin:
		return Failed, "not held through the spin"
	case g.SpinGripMin < (1-GripTolerance)*g.GripTarget || g.SpinGripMax > (1+GripTolerance)*g.GripTarget:
		return Failed, fmt.Sprintf("a jaw's squeeze left ±%.0f %% of %.3g N in the spin (%.3g to %.3g N)",
			100*GripTolerance, g.GripTarget, g.SpinGripMin, g.SpinGripMax)
	case g.MaxGripSlip > MaxSlip:
		return Failed, fmt.Sprintf("slipped %.2f mm along the jaws", 1e3*g.MaxGripSlip)
	}
	return Held, ""
}

// FileResult is the verdict on one file over all its runs: Held when every
// run held, Refused when every run refused, else Failed with the first
// failing run's reason; and the runs' ranges of the measures.
type FileResult struct {
	File    string
	Verdict Verdict
	Why     string
	Runs    int
	Mesh    string // the placement (auto up's choice) and scale
	// Over the held runs: the target, the least and greatest squeeze in
	// the spin, the largest slip along the jaws and of the centre of mass,
	// the least real-time factor; Limited when the squeeze bound set the
	// target.
	Target, SpinMin, SpinMax float64
	GripSlip, Slip           float64
	Limited                  bool
}

// Files folds the runs into one result per file, in file order.
func Files(runs []Run) []FileResult {
	index := map[string]int{}
	var out []FileResult
	for _, r := range runs {
		i, ok := index[r.File]
		if !ok {
			i = len(out)
			index[r.File] = i
			out = append(out, FileResult{File: r.File, Verdict: r.Verdict, Why: r.Why, Mesh: r.Summary.Mesh, SpinMin: 1e300})
		}
		f := &out[i]
		f.Runs++
		switch {
		case f.Verdict == Failed:
		case r.Verdict != f.Verdict, r.Verdict == Failed:
			// The first run that fails, or that goes otherwise than those
			// before, fails the file.
			f.Verdict, f.Why = Failed, fmt.Sprintf("%s run %d: %s", r.Solver, r.Index+1, verdictText(r))
		}
		if g := r.Summary.Grasp; g != nil && r.Verdict == Held {
			f.Target = g.GripTarget
			f.SpinMin, f.SpinMax = min(f.SpinMin, g.SpinGripMin), max(f.SpinMax, g.SpinGripMax)
			f.GripSlip, f.Slip = max(f.GripSlip, g.MaxGripSlip), max(f.Slip, r.Summary.MaxSlip)
			f.Limited = f.Limited || g.GripLimited
		}
	}
	return out
}

// Kinds reads the file kinds from the set's README table: rows
// "| `name` | kind | …".
func Kinds(readme string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(readme, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		out[strings.Trim(strings.TrimSpace(cells[1]), "`")] = strings.TrimSpace(cells[2])
	}
	return out
}

func verdictText(r Run) string {
	if r.Why == "" {
		return string(r.Verdict)
	}
	return string(r.Verdict) + ": " + r.Why
}

// WriteTable writes the files' results as a Markdown table, with the
// counts of each verdict below it.
func WriteTable(w io.Writer, files []FileResult, kinds map[string]string) {
	fmt.Fprintln(w, "| file | kind | verdict | grip target (N) | squeeze in the spin (N) | slip along the jaws (mm) | centre-of-mass drift (mm) | placed |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	count := map[Verdict]int{}
	for _, f := range files {
		count[f.Verdict]++
		name := filepath.Base(f.File)
		verdict := string(f.Verdict)
		if f.Why != "" {
			verdict += ": " + f.Why
		}
		target, spin, gslip, slip := "", "", "", ""
		if f.Verdict == Held {
			target = fmt.Sprintf("%.3g", f.Target)
			if f.Limited {
				target += " (bounded)"
			}
			spin = fmt.Sprintf("%.3g – %.3g", f.SpinMin, f.SpinMax)
			gslip, slip = fmt.Sprintf("%.2f", 1e3*f.GripSlip), fmt.Sprintf("%.2f", 1e3*f.Slip)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", name, kinds[name], verdict, target, spin, gslip, slip, placement(f.Mesh))
	}
	var parts []string
	for _, v := range []Verdict{Held, Refused, Failed} {
		parts = append(parts, fmt.Sprintf("%d %s", count[v], v))
	}
	fmt.Fprintf(w, "\n%d files: %s.\n", len(files), strings.Join(parts, ", "))
}

// placement is the part of a mesh name that says how it was placed.
func placement(mesh string) string {
	if i := strings.Index(mesh, "auto up: "); i >= 0 {
		return strings.TrimSuffix(mesh[i+len("auto up: "):], ")")
	}
	return "as modelled"
}

// Counts returns how many files had each verdict.
func Counts(files []FileResult) map[Verdict]int {
	c := map[Verdict]int{}
	for _, f := range files {
		c[f.Verdict]++
	}
	return c
}

// MeshFiles lists the mesh files of dir (every file but READMEs and
// folders), sorted.
func MeshFiles(dir string) ([]string, error) {
	all, err := filepath.Glob(filepath.Join(dir, "*.*"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range all {
		if ext := strings.ToLower(filepath.Ext(f)); ext != ".md" && ext != ".go" && ext != ".txt" {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out, nil
}
