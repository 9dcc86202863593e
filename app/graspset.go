package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"softgrasp/physics/graspset"
	"softgrasp/physics/settings"
)

// softgrasp grasp-set: the grasp-and-rotate script on every mesh of a
// folder (physics/graspset), several runs with each solver, and a table of
// the verdicts.

// graspSetFlags are the command line of softgrasp grasp-set.
type graspSetFlags struct {
	dir, solvers, md string
	runs, dofs       int
	grip             float64
	json             bool
}

// register declares the grasp set's flags.
func (f *graspSetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dir, "dir", filepath.Join("testdata", "meshes"), "folder of mesh files (its README.md's table names their kinds)")
	fs.IntVar(&f.runs, "runs", 3, "runs of each file with each solver")
	fs.StringVar(&f.solvers, "solvers", "exact,async", "solvers, comma-separated")
	fs.IntVar(&f.dofs, "dofs", settings.DefaultScenario(settings.GraspRotate).TargetDOFs, "mechanical DOF budget of each mesh")
	fs.Float64Var(&f.grip, "grip-force", settings.AutoGrip, "each jaw's grip force, N (0: from the object's weight)")
	fs.StringVar(&f.md, "md", "", "also write the table to this Markdown file")
	fs.BoolVar(&f.json, "json", false, "write every run's verdict and grasp summary as JSON instead of the table")
}

func runGraspSet(args []string, stdout, stderr io.Writer) int {
	var f graspSetFlags
	_, code, done := parseCommand("softgrasp grasp-set", f.register, args, stdout, stderr)
	if done {
		return code
	}
	dir, runs, solvers, dofs, grip, md, asJSON := &f.dir, &f.runs, &f.solvers, &f.dofs, &f.grip, &f.md, &f.json
	opt := graspset.Options{Runs: *runs, Base: settings.DefaultScenario(settings.GraspRotate)}
	opt.Base.TargetDOFs, opt.Base.GripForce = *dofs, *grip
	if err := opt.Base.Validate(); err != nil || *runs < 1 {
		fmt.Fprintf(stderr, "softgrasp grasp-set: -dofs %d, -grip-force %g, -runs %d: %v\n", *dofs, *grip, *runs, err)
		return 2
	}
	for _, name := range strings.Split(*solvers, ",") {
		s, err := settings.ParseSolver(name)
		if err != nil {
			fmt.Fprintln(stderr, "softgrasp grasp-set: -solvers:", err)
			return 2
		}
		opt.Solvers = append(opt.Solvers, s)
	}
	files, err := graspset.MeshFiles(*dir)
	if err != nil || len(files) == 0 {
		fmt.Fprintf(stderr, "softgrasp grasp-set: no mesh files in %s (%v)\n", *dir, err)
		return 1
	}
	opt.Files = files
	opt.Progress = func(done, total int, r graspset.Run) {
		fmt.Fprintf(stderr, "[%d/%d] %s, %s run %d: %s %s\n", done, total, filepath.Base(r.File), r.Solver, r.Index+1, r.Verdict, r.Why)
	}
	all := graspset.RunAll(opt)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(all); err != nil {
			fmt.Fprintln(stderr, "softgrasp grasp-set:", err)
			return 1
		}
		return 0
	}
	readme, _ := os.ReadFile(filepath.Join(*dir, "README.md"))
	results := graspset.Files(all)
	var b strings.Builder
	graspset.WriteTable(&b, results, graspset.Kinds(string(readme)))
	fmt.Fprint(stdout, b.String())
	if *md != "" {
		if err := os.WriteFile(*md, []byte(b.String()), 0o644); err != nil {
			fmt.Fprintln(stderr, "softgrasp grasp-set:", err)
			return 1
		}
	}
	if graspset.Counts(results)[graspset.Failed] > 0 {
		return 1
	}
	return 0
}
