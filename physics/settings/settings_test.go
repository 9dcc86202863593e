package settings

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

func TestDefaultSettingsAreValid(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatalf("default settings rejected: %v", err)
	}
}

func TestSettingsValidateNamesTheField(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		field string
		edit  func(*Settings)
	}{
		{"TimeStep", func(s *Settings) { s.TimeStep = 0 }},
		{"TimeStep", func(s *Settings) { s.TimeStep = -0.01 }},
		{"TimeStep", func(s *Settings) { s.TimeStep = nan }},
		{"TimeStep", func(s *Settings) { s.TimeStep = 1 }},
		{"NewtonIterations", func(s *Settings) { s.NewtonIterations = 0 }},
		{"NewtonIterations", func(s *Settings) { s.NewtonIterations = MaxNewton + 1 }},
		{"NewtonTolerance", func(s *Settings) { s.NewtonTolerance = -1 }},
		{"NewtonPositionTolerance", func(s *Settings) { s.NewtonPositionTolerance = math.NaN() }},
		{"PGSIterations", func(s *Settings) { s.PGSIterations = 0 }},
		{"PGSTolerance", func(s *Settings) { s.PGSTolerance = nan }},
		{"Friction", func(s *Settings) { s.Friction = -0.1 }},
		{"Friction", func(s *Settings) { s.Friction = math.Inf(1) }},
		{"AlarmDistance", func(s *Settings) { s.AlarmDistance = 0 }},
		{"ContactDistance", func(s *Settings) { s.ContactDistance = s.AlarmDistance }},
		{"ContactDistance", func(s *Settings) { s.ContactDistance = -1e-4 }},
		{"MaxSpeed", func(s *Settings) { s.MaxSpeed = 0 }},
		{"MaxInvertedFraction", func(s *Settings) { s.MaxInvertedFraction = 2 }},
		{"Scheme", func(s *Settings) { s.Scheme = 7 }},
		{"Gravity", func(s *Settings) { s.Gravity = r3.Vec{Z: nan} }},
		{"Material", func(s *Settings) { s.Material.YoungModulus = -1 }},
		{"Material", func(s *Settings) { s.Material.PoissonRatio = 0.5 }},
	}
	for _, c := range cases {
		t.Run(c.field, func(t *testing.T) {
			s := Default()
			c.edit(&s)
			err := s.Validate()
			if err == nil {
				t.Fatalf("invalid %s accepted", c.field)
			}
			if !strings.HasPrefix(err.Error(), c.field) {
				t.Fatalf("error %q does not start with the field name %s", err, c.field)
			}
		})
	}
}

func TestParseScheme(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Scheme
		ok   bool
	}{{"fast", Fast, true}, {" Standard ", Standard, true}, {"quick", 0, false}, {"", 0, false}} {
		got, err := ParseScheme(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseScheme(%q) = %v, %v", c.in, got, err)
		}
		if c.ok && got.String() != strings.ToLower(strings.TrimSpace(c.in)) {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
}

func TestParsePrecision(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Precision
		ok   bool
	}{{"double", PrecisionDouble, true}, {" Single ", PrecisionSingle, true}, {"half", 0, false}, {"", 0, false}} {
		got, err := ParsePrecision(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParsePrecision(%q) = %v, %v", c.in, got, err)
		}
	}
}

func TestScenarioValidateNamesTheField(t *testing.T) {
	cases := []struct {
		field string
		edit  func(*Scenario)
	}{
		{"TargetDOFs", func(c *Scenario) { c.TargetDOFs = 3 }},
		{"ObjectSize", func(c *Scenario) { c.ObjectSize = 0 }},
		{"MeshScale", func(c *Scenario) { c.MeshScale = -0.001 }},
		{"MeshScale", func(c *Scenario) { c.MeshScale = math.Inf(1) }},
		{"Omega", func(c *Scenario) { c.Omega = math.NaN() }},
		{"Omega", func(c *Scenario) { c.Omega = MaxOmega + 1 }},
		{"Squeeze", func(c *Scenario) { c.Squeeze = c.ObjectSize }},
		{"Friction", func(c *Scenario) { c.Physics.Friction = -1 }},
		{"Object", func(c *Scenario) { c.Object = "sphere" }},
	}
	for _, c := range cases {
		t.Run(c.field, func(t *testing.T) {
			for _, k := range Kinds() {
				cfg := DefaultScenario(k)
				if err := cfg.Validate(); err != nil {
					t.Fatalf("default %s scenario rejected: %v", k, err)
				}
				c.edit(&cfg)
				err := cfg.Validate()
				if err == nil || !strings.HasPrefix(err.Error(), c.field) {
					t.Fatalf("%s: error %v does not name %s", k, err, c.field)
				}
			}
		})
	}
}

// TestFastSpinPreset checks that choosing the fast-spin scenario, from
// the defaults or from another scene, brings its spin speed, time step and
// resolution, and that it validates.
func TestFastSpinPreset(t *testing.T) {
	other := DefaultScenario(Incline)
	other.Omega = 1
	for name, cfg := range map[string]Scenario{
		"default":        DefaultScenario(FastSpin),
		"switched to it": other.WithKind(FastSpin),
	} {
		if cfg.Kind != FastSpin || cfg.Omega != FastSpinOmega || cfg.Physics.TimeStep != FastSpinStep || cfg.TargetDOFs != FastSpinDOFs {
			t.Fatalf("%s: kind %s, ω %g, h %g, %d DOFs", name, cfg.Kind, cfg.Omega, cfg.Physics.TimeStep, cfg.TargetDOFs)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if k, err := ParseKind("fast-spin"); err != nil || k != FastSpin {
		t.Fatalf("ParseKind(fast-spin) = %v, %v", k, err)
	}
}

// TestGripperPathValidate: a custom scene's path passes with the
// gripper; without it, in another kind of scene, and with each field of a
// waypoint out of range (named in the message, the waypoint numbered from
// 1), it is refused.
func TestGripperPathValidate(t *testing.T) {
	path := func() []Waypoint {
		return []Waypoint{{Time: 0, Position: [3]float64{0, 0, 0.05}, Opening: 0.05}, {Time: 1, Position: [3]float64{0.01, 0, 0.02}, Yaw: 90, Opening: 0.02}}
	}
	cfg := DefaultScenario(Custom)
	cfg.Gripper, cfg.GripperPath = true, path()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("a valid path refused: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*Scenario)
		want string
	}{
		{"no gripper", func(c *Scenario) { c.Gripper = false }, "needs the gripper"},
		{"not custom", func(c *Scenario) { c.Kind = GraspRotate }, "a gripper and its path belong to"},
		{"time order", func(c *Scenario) { c.GripperPath[1].Time = 0 }, "waypoint 2: time = 0 s: must come after"},
		{"time NaN", func(c *Scenario) { c.GripperPath[0].Time = math.NaN() }, "waypoint 1: time = NaN s"},
		{"yaw", func(c *Scenario) { c.GripperPath[1].Yaw = math.Inf(1) }, "waypoint 2: yaw = +Inf°"},
		{"opening", func(c *Scenario) { c.GripperPath[0].Opening = -0.01 }, "waypoint 1: opening = -0.01 m"},
		{"position", func(c *Scenario) { c.GripperPath[1].Position[2] = 2 }, "waypoint 2: position[3] = 2 m"},
		{"too many", func(c *Scenario) { c.GripperPath = make([]Waypoint, MaxWaypoints+1) }, "at most 1000 waypoints"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			c.GripperPath = path()
			tc.edit(&c)
			if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}
