package ui

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

func newTestState() (*State, *capture) {
	return NewState(settings.DefaultScenario(settings.GraspRotate), 1), &capture{}
}

func TestCommitFieldRejectsBadValues(t *testing.T) {
	tests := []struct {
		name    string
		field   FieldID
		text    string
		wantErr string
	}{
		{"h zero", FieldTimeStep, "0", "TimeStep"},
		{"h words", FieldTimeStep, "ten", "not a number"},
		{"h NaN", FieldTimeStep, "NaN", "TimeStep"},
		{"K zero", FieldNewton, "0", "NewtonIterations"},
		{"K fraction", FieldNewton, "1.5", "whole number"},
		{"Newton tol negative", FieldNewtonTol, "-1e-3", "NewtonTolerance"},
		{"PGS zero", FieldPGS, "0", "PGSIterations"},
		{"PGS tol one", FieldPGSTol, "1", "PGSTolerance"},
		{"mu negative", FieldFriction, "-0.1", "Friction"},
		{"E zero", FieldYoung, "0", "YoungModulus"},
		{"nu half", FieldPoisson, "0.5", "PoissonRatio"},
		{"DOFs too few", FieldDOFs, "10", "TargetDOFs"},
		{"omega too fast", FieldOmega, "1000", "Omega"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, out := newTestState()
			before := s.Config
			err := s.CommitField(tc.field, tc.text, out)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("CommitField(%q) = %v, want an error naming %s", tc.text, err, tc.wantErr)
			}
			if len(out.cmds) != 0 {
				t.Fatalf("a refused value sent %v", out.cmds)
			}
			if !s.Config.Equal(before) {
				t.Fatal("a refused value changed the working configuration")
			}
			if text, shown := s.FieldText(tc.field); text != tc.text || shown != err.Error() {
				t.Fatalf("field shows %q with error %q, want the typed text and %q", text, shown, err)
			}
		})
	}
}

func TestCommitFieldSendsTheEditedSettings(t *testing.T) {
	tests := []struct {
		field FieldID
		text  string
		edit  func(s *settings.Settings)
	}{
		{FieldTimeStep, "2.5", func(s *settings.Settings) { s.TimeStep = 0.0025 }},
		{FieldNewton, "3", func(s *settings.Settings) { s.NewtonIterations = 3 }},
		{FieldNewtonTol, "0", func(s *settings.Settings) { s.NewtonTolerance = 0 }},
		{FieldPGS, "50", func(s *settings.Settings) { s.PGSIterations = 50 }},
		{FieldPGSTol, "1e-4", func(s *settings.Settings) { s.PGSTolerance = 1e-4 }},
		{FieldFriction, " 0.3 ", func(s *settings.Settings) { s.Friction = 0.3 }},
		{FieldYoung, "120", func(s *settings.Settings) { s.Material.YoungModulus = 120e3 }},
		{FieldPoisson, "0.3", func(s *settings.Settings) { s.Material.PoissonRatio = 0.3 }},
	}
	for _, tc := range tests {
		t.Run(fieldParams[tc.field].Key, func(t *testing.T) {
			s, out := newTestState()
			want := settings.Default()
			tc.edit(&want)
			if err := s.CommitField(tc.field, tc.text, out); err != nil {
				t.Fatalf("CommitField(%q): %v", tc.text, err)
			}
			c, ok := out.only(t).(frame.SetSettings)
			if !ok {
				t.Fatalf("sent %T, want frame.SetSettings", out.cmds[0])
			}
			if c.Settings != want {
				t.Fatalf("sent %+v, want %+v", c.Settings, want)
			}
			if s.Config.Physics != want {
				t.Fatal("the working configuration does not hold the sent settings")
			}
			if _, e := s.FieldText(tc.field); e != "" {
				t.Fatalf("error %q shown after a valid value", e)
			}
		})
	}
}

func TestCommitDOFsRebuildsTheScene(t *testing.T) {
	s, out := newTestState()
	if err := s.CommitField(FieldDOFs, "900", out); err != nil {
		t.Fatal(err)
	}
	c, ok := out.only(t).(frame.SetScene)
	if !ok || c.Config.TargetDOFs != 900 || c.Config.Physics != settings.Default() {
		t.Fatalf("sent %#v, want frame.SetScene with TargetDOFs 900 and the settings unchanged", out.cmds[0])
	}
	if s.Config.TargetDOFs != 900 {
		t.Fatal("the working configuration does not hold the new resolution")
	}
}

func TestCommitOmegaSendsSetOmega(t *testing.T) {
	s, out := newTestState()
	if err := s.CommitField(FieldOmega, "-3.5", out); err != nil {
		t.Fatal(err)
	}
	if c, ok := out.only(t).(frame.SetOmega); !ok || c.Omega != -3.5 {
		t.Fatalf("sent %#v, want frame.SetOmega{Omega: -3.5}", out.cmds[0])
	}
}

func TestCommitFieldUnchangedSendsNothing(t *testing.T) {
	s, out := newTestState()
	if err := s.CommitField(FieldFriction, "0.8", out); err != nil || len(out.cmds) != 0 {
		t.Fatalf("committing the current μ: err %v, sent %v; want nothing", err, out.cmds)
	}
}

func TestCommitFieldQueueFull(t *testing.T) {
	s, out := newTestState()
	out.refuse = true
	before := s.Config
	err := s.CommitField(FieldFriction, "0.2", out)
	if !errors.Is(err, errBusy) {
		t.Fatalf("CommitField with a full queue: %v, want errBusy", err)
	}
	if !s.Config.Equal(before) {
		t.Fatal("a command that was not sent changed the working configuration")
	}
}

func TestFieldsShowTheRunningConfig(t *testing.T) {
	s, _ := newTestState()
	cfg := settings.DefaultScenario(settings.Drop)
	cfg.Physics.TimeStep, cfg.Physics.Material.YoungModulus = 0.004, 75e3
	s.Observe(&frame.Frame{Seq: 1, SceneVersion: 2, ConfigVersion: 2}, &frame.Config{Version: 2, Scenario: cfg}, true)
	for _, c := range []struct {
		id   FieldID
		want string
	}{{FieldTimeStep, "4"}, {FieldYoung, "75"}, {FieldNewton, "5"}} {
		if got, _ := s.FieldText(c.id); got != c.want {
			t.Errorf("field %s shows %q, want %q", fieldParams[c.id].Key, got, c.want)
		}
	}
	if !s.Config.Equal(cfg) {
		t.Fatal("the working copy did not adopt the running configuration")
	}
}

// TestEveryFieldOfTheTable: each setting with a panel label has a field
// on its panel's grid, shows its value in the panel's unit, reads back
// what it shows, and a committed value sends the command its scope calls
// for with the setting changed.
func TestEveryFieldOfTheTable(t *testing.T) {
	n := 0
	for _, p := range settings.Params() {
		if p.Label == "" {
			continue
		}
		n++
		t.Run(p.Key, func(t *testing.T) {
			id := FieldOf(p.Key)
			if id < 0 || fieldParams[id] != p {
				t.Fatalf("no field for %s", p.Key)
			}
			found := false
			for _, g := range fieldsOn(p.Panel) {
				found = found || g == id
			}
			if !found {
				t.Fatal("the field is on no grid")
			}
			s, out := newTestState()
			f := s.fields[id]
			def := p.Get(&s.Config)
			text, _ := s.FieldText(id)
			if v, err := f.parse(text); err != nil || math.Abs(v-def) > 1e-5*math.Abs(def) { // shown to 6 digits
				t.Fatalf("shows %q for %v, which reads back as %v, %v", text, def, v, err)
			}
			want := s.Config
			v := def + 1/p.PanelScale() // one shown unit more
			if p.Kind == settings.Real && p.Hi <= 1 {
				v = (p.Lo + p.Hi) / 2
			}
			p.Set(&want, v)
			shown := strconv.FormatFloat(v*p.PanelScale(), 'g', -1, 64)
			if p.Kind == settings.Choice { // the next name: a combo shows names
				v = float64((int(def) + 1) % len(p.Choices))
				p.Set(&want, v)
				shown = p.Choices[int(v)]
			}
			if err := s.CommitField(id, shown, out); err != nil {
				t.Fatalf("CommitField(%q): %v", shown, err)
			}
			got := out.only(t)
			var cfg settings.Scenario
			switch c := got.(type) {
			case frame.SetSettings:
				cfg = want
				cfg.Physics = c.Settings
			case frame.SetScene:
				cfg = c.Config
			case frame.SetOmega:
				cfg = want
				cfg.Omega = c.Omega
			case frame.SetGripForce:
				cfg = want
				cfg.GripForce = c.Force
			}
			if math.Abs(p.Get(&cfg)-v) > 1e-12*math.Abs(v) || cfg.Physics != s.Config.Physics {
				t.Fatalf("%s = %q sent %#v, want %s = %v", p.Label, shown, got, p.Name, v)
			}
		})
	}
	if n != int(fieldCount) {
		t.Fatalf("%d settings with a label, %d fields", n, fieldCount)
	}
}
