package ui

import (
	"math"
	"strings"
	"testing"

	"softgrasp/physics"
	"softgrasp/physics/loop"
	"softgrasp/physics/scenario"
)

func TestSetSchemeKeepsEveryOtherSetting(t *testing.T) {
	s, out := newTestState()
	s.Config.Physics.Friction = 0.35 // an earlier edit
	if err := s.SetScheme(physics.Standard, out); err != nil {
		t.Fatal(err)
	}
	want := physics.DefaultSettings()
	want.Friction, want.Scheme = 0.35, physics.Standard
	if c, ok := out.only(t).(loop.SetSettings); !ok || c.Settings != want {
		t.Fatalf("sent %#v, want SetSettings with only the scheme and the earlier edit changed", out.cmds[0])
	}
}

func TestSetSolverKeepsEveryOtherSetting(t *testing.T) {
	s, out := newTestState()
	if err := s.SetSolver(physics.AsyncSolver, out); err != nil {
		t.Fatal(err)
	}
	want := physics.DefaultSettings()
	want.Solver = physics.AsyncSolver
	if c, ok := out.only(t).(loop.SetSettings); !ok || c.Settings != want {
		t.Fatalf("sent %#v, want SetSettings with only the solver changed", out.cmds[0])
	}
}

func TestSimpleActionsSendTheirCommand(t *testing.T) {
	tests := []struct {
		name string
		do   func(s *State, out Sender) error
		want loop.Command
	}{
		{"pause", (*State).TogglePause, loop.TogglePause{}},
		{"step", (*State).SingleStep, loop.SingleStep{}},
		{"reset", (*State).Reset, loop.Reset{}},
		{"jaws", (*State).ToggleJaws, loop.ToggleJaws{}},
		{"script", (*State).RunScript, loop.RunScript{}},
		{"manual", (*State).Manual, loop.StopScript{}},
		{"pace", func(s *State, out Sender) error { return s.SetPace(0.25, out) }, loop.SetPace{RealtimeFactor: 0.25}},
		{"opening", func(s *State, out Sender) error { return s.SetOpening(0.03, out) }, loop.SetOpening{Opening: 0.03}},
		{"spin", func(s *State, out Sender) error { return s.SpinGripper(-SpinStep, out) }, loop.SpinGripper{Angle: -SpinStep}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, out := newTestState()
			if err := tc.do(s, out); err != nil {
				t.Fatal(err)
			}
			if got := out.only(t); got != tc.want {
				t.Fatalf("sent %#v, want %#v", got, tc.want)
			}
			out.refuse = true
			if err := tc.do(s, out); err == nil || s.ActionError() == "" {
				t.Fatalf("a refused command reported err %v, panel message %q", err, s.ActionError())
			}
		})
	}
}

func TestActionsRejectBadValues(t *testing.T) {
	tests := []struct {
		name    string
		do      func(s *State, out Sender) error
		wantErr string
	}{
		{"pace negative", func(s *State, out Sender) error { return s.SetPace(-1, out) }, "real-time factor"},
		{"opening too wide", func(s *State, out Sender) error { return s.SetOpening(0.5, out) }, "opening"},
		{"spin infinite", func(s *State, out Sender) error { return s.SpinGripper(math.Inf(1), out) }, "not finite"},
		{"scene with a bad size", func(s *State, out Sender) error {
			s.Config.ObjectSize = 5
			return s.SetObject(scenario.CylinderObject, out)
		}, "ObjectSize"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, out := newTestState()
			err := tc.do(s, out)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err %v, want one naming %q", err, tc.wantErr)
			}
			if len(out.cmds) != 0 {
				t.Fatalf("a rejected action sent %v", out.cmds)
			}
			if s.ActionError() != err.Error() {
				t.Fatalf("panel message %q, want %q", s.ActionError(), err)
			}
		})
	}
}

func TestSceneActionsSendSetScene(t *testing.T) {
	tests := []struct {
		name  string
		do    func(s *State, out Sender) error
		check func(c scenario.Config) bool
	}{
		{"scenario", func(s *State, out Sender) error { return s.SetScenario(scenario.Incline, out) },
			func(c scenario.Config) bool { return c.Kind == scenario.Incline }},
		{"object", func(s *State, out Sender) error { return s.SetObject(scenario.CylinderObject, out) },
			func(c scenario.Config) bool { return c.Object == scenario.CylinderObject && c.MeshFile == "" }},
		{"mesh file", func(s *State, out Sender) error {
			s.SetMeshFileText("  assets/bunny.msh ")
			return s.LoadMesh(out)
		}, func(c scenario.Config) bool { return c.MeshFile == "assets/bunny.msh" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, out := newTestState()
			if err := tc.do(s, out); err != nil {
				t.Fatal(err)
			}
			c, ok := out.only(t).(loop.SetScene)
			if !ok || !tc.check(c.Config) {
				t.Fatalf("sent %#v, not the expected SetScene", out.cmds[0])
			}
			if c.Config.Physics != physics.DefaultSettings() {
				t.Fatal("a scene change lost the working settings")
			}
		})
	}
}
