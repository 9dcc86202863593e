package ui

import (
	"math"
	"strings"
	"testing"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

func TestSetSchemeKeepsEveryOtherSetting(t *testing.T) {
	s, out := newTestState()
	s.Config.Physics.Friction = 0.35 // an earlier edit
	if err := s.SetScheme(settings.Standard, out); err != nil {
		t.Fatal(err)
	}
	want := settings.Default()
	want.Friction, want.Scheme = 0.35, settings.Standard
	if c, ok := out.only(t).(frame.SetSettings); !ok || c.Settings != want {
		t.Fatalf("sent %#v, want SetSettings with only the scheme and the earlier edit changed", out.cmds[0])
	}
}

func TestSetSolverKeepsEveryOtherSetting(t *testing.T) {
	s, out := newTestState()
	if err := s.SetSolver(settings.AsyncSolver, out); err != nil {
		t.Fatal(err)
	}
	want := settings.Default()
	want.Solver = settings.AsyncSolver
	if c, ok := out.only(t).(frame.SetSettings); !ok || c.Settings != want {
		t.Fatalf("sent %#v, want SetSettings with only the solver changed", out.cmds[0])
	}
}

func TestSimpleActionsSendTheirCommand(t *testing.T) {
	tests := []struct {
		name string
		do   func(s *State, out Sender) error
		want frame.Command
	}{
		{"pause", (*State).TogglePause, frame.TogglePause{}},
		{"step", (*State).SingleStep, frame.SingleStep{}},
		{"reset", (*State).Reset, frame.Reset{}},
		{"jaws", (*State).ToggleJaws, frame.ToggleJaws{}},
		{"script", (*State).RunScript, frame.RunScript{Aim: settings.AimFollow}},
		{"script aimed once", func(s *State, out Sender) error {
			if err := s.SetGraspAim(settings.AimOnce); err != nil {
				return err
			}
			return s.RunScript(out)
		}, frame.RunScript{Aim: settings.AimOnce}},
		{"manual", (*State).Manual, frame.StopScript{}},
		{"pace", func(s *State, out Sender) error { return s.SetPace(0.25, out) }, frame.SetPace{RealtimeFactor: 0.25}},
		{"opening", func(s *State, out Sender) error { return s.SetOpening(0.03, out) }, frame.SetOpening{Opening: 0.03}},
		{"spin", func(s *State, out Sender) error { return s.SpinGripper(-SpinStep, out) }, frame.SpinGripper{Angle: -SpinStep}},
		{"gpu", func(s *State, out Sender) error { return s.SetBackend(frame.BackendGPU, out) }, frame.SetBackend{Backend: frame.BackendGPU}},
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
		{"unknown backend", func(s *State, out Sender) error { return s.SetBackend("cuda", out) }, "not known"},
		{"scene with a bad size", func(s *State, out Sender) error {
			s.Config.ObjectSize = 5
			return s.SetObject(settings.CylinderObject, out)
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
		check func(c settings.Scenario) bool
	}{
		{"scenario", func(s *State, out Sender) error { return s.SetScenario(settings.Incline, out) },
			func(c settings.Scenario) bool { return c.Kind == settings.Incline }},
		{"object", func(s *State, out Sender) error { return s.SetObject(settings.CylinderObject, out) },
			func(c settings.Scenario) bool { return c.Object == settings.CylinderObject && c.MeshFile == "" }},
		{"mesh file", func(s *State, out Sender) error {
			s.SetMeshFileText("  assets/bunny.msh ")
			return s.LoadMesh(out)
		}, func(c settings.Scenario) bool { return c.MeshFile == "assets/bunny.msh" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, out := newTestState()
			if err := tc.do(s, out); err != nil {
				t.Fatal(err)
			}
			c, ok := out.only(t).(frame.SetScene)
			if !ok || !tc.check(c.Config) {
				t.Fatalf("sent %#v, not the expected SetScene", out.cmds[0])
			}
			if c.Config.Physics != settings.Default() {
				t.Fatal("a scene change lost the working settings")
			}
		})
	}
}
