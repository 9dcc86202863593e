package graspset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/meshfile"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// TestSetMeshesHeld runs four meshes of the set of different kinds once
// with the exact solver (softgrasp grasp-set runs all sixteen, three times
// with each solver: docs/grasp-set.md): a Y-up scanned animal on thin
// legs, a cylinder volume lying on its side, the coarse torus (held at the
// force its squeeze bound leaves it) and a Y-up bunny with no flat base.
// Each must be held through the spin with each jaw within 10 % of the
// target and at most 2 mm of slip along the jaws.
func TestSetMeshesHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four grasps")
	}
	for _, name := range []string{"03_horse_scan_yup.stl", "11_cylinder_lying_volume.msh", "12_torus_lowres.obj", "14_bunny_scan_yup.obj"} {
		t.Run(name, func(t *testing.T) {
			r := runOne(settings.DefaultScenario(settings.GraspRotate), filepath.Join("..", "..", "testdata", "meshes", name), settings.ExactSolver, 0)
			g := r.Summary.Grasp
			if g == nil {
				t.Fatalf("no grasp: %v %s", r.Verdict, r.Why)
			}
			t.Logf("%s: grip %.3g N (limited %v), spin %.3g–%.3g N, slip along the jaws %.2f mm, centre of mass %.2f mm; %s",
				r.Verdict, g.GripTarget, g.GripLimited, g.SpinGripMin, g.SpinGripMax, 1e3*g.MaxGripSlip, 1e3*r.Summary.MaxSlip, r.Summary.Mesh)
			if r.Verdict != Held {
				t.Errorf("%s: %s", r.Verdict, r.Why)
			}
		})
	}
}

// TestRefusedBeforeTheJawsMove loads a box 80 mm wide every way (in mm,
// so not fitted): wider than the jaws' 60 mm reach, it is refused with
// the reason, and the gripper never moves.
func TestRefusedBeforeTheJawsMove(t *testing.T) {
	m, err := mesh.BoxForDOFs(r3.Vec{X: 80, Y: 90, Z: 30}, 300)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "wide.msh")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := meshfile.WriteGmsh41(f, m); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.MeshFile, cfg.MeshScale, cfg.TargetDOFs = path, 1e-3, 300
	sc, err := scenario.Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	start := sc.Driver.Gripper
	for i := 0; i < sc.DefaultSteps(); i++ {
		if _, err := sc.Step(); err != nil {
			t.Fatal(err)
		}
	}
	s := sc.Summary()
	if v, why := Judge(s); v != Refused || !strings.Contains(why, "80 mm wide at its narrowest; the jaws open to 60 mm") {
		t.Errorf("verdict %s (%q), want refused for its width", v, why)
	}
	if g := sc.Driver.Gripper; g.Pose != start.Pose || g.Opening != start.Opening {
		t.Errorf("the gripper moved from %+v to %+v", start, g)
	}
}

// TestJudge is the table of the verdicts.
func TestJudge(t *testing.T) {
	held := func(mod func(s *scenario.Summary)) scenario.Summary {
		s := scenario.Summary{Grasp: &scenario.GraspResult{Phase: "hold", GripTarget: 1, SpinGripMin: 0.95, SpinGripMax: 1.05,
			HeldThroughSpin: true, MaxGripSlip: 1e-3}}
		if mod != nil {
			mod(&s)
		}
		return s
	}
	tests := []struct {
		name string
		s    scenario.Summary
		want Verdict
		why  string
	}{
		{"held", held(nil), Held, ""},
		{"diverged", held(func(s *scenario.Summary) { s.Error = "boom" }), Failed, "diverged"},
		{"refused", held(func(s *scenario.Summary) { s.Grasp.Phase, s.Grasp.Stop = string(scenario.PhaseRefused), "too wide" }), Refused, "too wide"},
		{"stopped", held(func(s *scenario.Summary) { s.Grasp.Phase, s.Grasp.Stop = string(scenario.PhaseStopped), "slipped" }), Failed, "stopped"},
		{"dropped in the spin", held(func(s *scenario.Summary) { s.Grasp.HeldThroughSpin = false }), Failed, "not held"},
		{"a jaw under the target", held(func(s *scenario.Summary) { s.Grasp.SpinGripMin = 0.89 }), Failed, "±10 %"},
		{"a jaw over it", held(func(s *scenario.Summary) { s.Grasp.SpinGripMax = 1.11 }), Failed, "±10 %"},
		{"slipped", held(func(s *scenario.Summary) { s.Grasp.MaxGripSlip = 2.1e-3 }), Failed, "slipped 2.10 mm"},
		{"no script", scenario.Summary{}, Failed, "no grasp"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, why := Judge(tc.s)
			if v != tc.want || !strings.Contains(why, tc.why) {
				t.Errorf("%s %q, want %s containing %q", v, why, tc.want, tc.why)
			}
		})
	}
}

// TestFilesAndKinds folds runs into files (a file fails at its first
// failing or diverging run) and reads the kinds from the set's README.
func TestFilesAndKinds(t *testing.T) {
	runs := []Run{
		{File: "a", Verdict: Held}, {File: "a", Verdict: Held},
		{File: "b", Verdict: Held}, {File: "b", Solver: settings.AsyncSolver, Index: 1, Verdict: Failed, Why: "slipped"},
		{File: "c", Verdict: Refused, Why: "too wide"}, {File: "c", Verdict: Refused, Why: "too wide"},
	}
	got := Files(runs)
	want := []Verdict{Held, Failed, Refused}
	for i, f := range got {
		if f.Verdict != want[i] || f.Runs != 2 {
			t.Errorf("%s: %s after %d runs, want %s after 2", f.File, f.Verdict, f.Runs, want[i])
		}
	}
	if !strings.Contains(got[1].Why, "async run 2") || !strings.Contains(got[1].Why, "slipped") {
		t.Errorf("b's reason %q, want the failing run named", got[1].Why)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "testdata", "meshes", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := Kinds(string(readme))
	files, err := MeshFiles(filepath.Join("..", "..", "testdata", "meshes"))
	if err != nil || len(files) != 16 {
		t.Fatalf("%d mesh files (%v), want the set's 16", len(files), err)
	}
	for _, f := range files {
		if kinds[filepath.Base(f)] == "" {
			t.Errorf("the README names no kind for %s", filepath.Base(f))
		}
	}
}
