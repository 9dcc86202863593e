package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// validate runs the Validate of p's scope on c.
func validate(p *Param, c Scenario) error {
	switch p.Scope {
	case PhysicsScope:
		return c.Physics.Validate()
	case MaterialScope:
		return c.Physics.Material.Validate()
	}
	return c.Validate()
}

// refusedFor reports whether err is a range error of p.
func refusedFor(err error, p *Param) bool {
	var re *RangeError
	return errors.As(err, &re) && re.Param == p
}

// OtherValue returns a valid value of p other than its default: the
// middle of a bounded range, twice the default (or 1) otherwise, the next
// choice.
func otherValue(p *Param) float64 {
	c := DefaultScenario(GraspRotate)
	def := p.Get(&c)
	switch {
	case p.Kind == Choice:
		return float64((int(def) + 1) % len(p.Choices))
	case p.HiOf != nil:
		return p.Lo + (p.HiOf(&c)-p.Lo)/2
	case math.IsInf(p.Hi, 1):
		if def == 0 {
			return 1
		}
		return 2 * def
	}
	v := p.Lo + (p.Hi-p.Lo)/2
	if p.Kind == Integer {
		v = math.Floor(v)
	}
	return v
}

// TestParamTable checks every entry of the parameter table: its default
// is valid, its bounds are accepted or refused as declared (by its own
// check and by the Validate of its scope, which names it), NaN and ±Inf
// are refused, its text round-trips, and an A/B key applies it.
func TestParamTable(t *testing.T) {
	keys := map[string]bool{}
	for _, p := range Params() {
		t.Run(p.Key, func(t *testing.T) {
			if keys[p.Key] {
				t.Fatalf("key %q declared twice", p.Key)
			}
			keys[p.Key] = true
			if ParamByKey(p.Key) != p {
				t.Fatal("ParamByKey does not find the entry")
			}
			def := DefaultScenario(GraspRotate)
			if err := p.Check(&def); err != nil {
				t.Fatalf("default %s refused: %v", p.Format(p.Get(&def)), err)
			}
			if p.Default() != p.Get(&def) {
				t.Fatal("Default differs from DefaultScenario's value")
			}
			if p.Flag && p.Usage == "" && p.Key != "mesh-scale" {
				t.Error("a flag without help text")
			}
			if p.Label != "" && (p.Panel == NoPanel || p.Hint == "") {
				t.Error("a panel label without its panel or tooltip")
			}
			if !isASCII(p.Label) {
				t.Errorf("label %q is not ASCII (the panels' font has no other glyphs)", p.Label)
			}
			try := func(v float64, ok bool) {
				t.Helper()
				c := DefaultScenario(GraspRotate)
				p.Set(&c, v)
				if got := p.Check(&c); (got == nil) != ok {
					t.Errorf("%s = %v: Check gives %v, want accepted %v", p.Name, v, got, ok)
				}
				err := validate(p, c)
				if refusedFor(err, p) == ok {
					t.Errorf("%s = %v: Validate gives %v, want accepted %v", p.Name, v, err, ok)
				}
				if !ok && !strings.Contains(err.Error(), p.Name+" = ") {
					t.Errorf("%s = %v: error %q does not name the field", p.Name, v, err)
				}
			}
			switch p.Kind {
			case Choice:
				for i := range p.Choices {
					try(float64(i), true)
				}
				try(-1, false)
				try(float64(len(p.Choices)), false)
			case Integer:
				try(p.Lo, true)
				try(p.Lo-1, false)
				try(p.Hi, true)
				try(p.Hi+1, false)
			case Real:
				try(p.Lo, !p.OpenLo)
				try(math.Nextafter(p.Lo, math.Inf(-1)), false)
				hi := p.Hi
				if p.HiOf != nil {
					hi = p.HiOf(&def)
				}
				if !math.IsInf(hi, 1) {
					try(hi, !p.OpenHi)
					try(math.Nextafter(hi, math.Inf(1)), false)
				}
				try(math.NaN(), false)
				try(math.Inf(1), false)
				try(math.Inf(-1), false)
			}

			v := otherValue(p)
			c := DefaultScenario(GraspRotate)
			p.Set(&c, v)
			if err := c.Validate(); err != nil {
				t.Fatalf("the test's value %v is refused: %v", v, err)
			}
			if got, err := p.Parse(p.Format(v)); err != nil || got != v {
				t.Errorf("Parse(Format(%v)) = %v, %v", v, got, err)
			}
			if got := Values(c)[p.Key]; got != any(p.Format(v)) && got != any(int(v)) && got != any(v) {
				t.Errorf("Values gives %v for %v", got, v)
			}
			if !p.AB {
				if _, err := ApplyAB(DefaultScenario(GraspRotate), p.Key+"="+p.Format(v)); err == nil {
					t.Error("ApplyAB accepts a key that is not an A/B key")
				}
				return
			}
			b, err := ApplyAB(DefaultScenario(GraspRotate), p.Key+"="+p.Format(v))
			if err != nil || p.Get(&b) != v {
				t.Fatalf("ApplyAB(%s=%s) gives %v, %v; want %v", p.Key, p.Format(v), p.Get(&b), err, v)
			}
		})
	}
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > 127 {
			return false
		}
	}
	return true
}

func TestApplyABRefusesBadChanges(t *testing.T) {
	for spec, want := range map[string]string{
		"newton":                "not key=value",
		"dt=0.005":              "unknown key",
		"newton=0":              "NewtonIterations",
		"newton=1.5":            "whole number",
		"scheme=quick":          "unknown scheme",
		"mass-damping=-1":       "MassDamping",
		"stiffness-damping=NaN": "StiffnessDamping",
	} {
		if err := CheckAB(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckAB(%q) = %v, want an error naming %s", spec, err, want)
		}
	}
}

// TestMaterialErrorsNameTheField: Material.Validate alone names the field;
// within Settings.Validate it is the Material's.
func TestMaterialErrorsNameTheField(t *testing.T) {
	m := Default().Material
	m.StiffnessDamping = -1
	if err := m.Validate(); err == nil || !strings.HasPrefix(err.Error(), "StiffnessDamping = -1 is out of range: must be ≥ 0 s") {
		t.Fatalf("Material.Validate: %v", err)
	}
	s := Default()
	s.Material = m
	if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "Material: StiffnessDamping") {
		t.Fatalf("Settings.Validate: %v", err)
	}
}

// TestEveryChoiceDefaultsToItsZeroValue: a choice's zero value is its
// default, so that a configuration that leaves a choice out (a scene
// file, a JSON configuration, a struct literal) runs the default; each
// choice reads back from JSON by name, and an unknown name is refused.
func TestEveryChoiceDefaultsToItsZeroValue(t *testing.T) {
	d := DefaultScenario(GraspRotate)
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back Scenario
	if err := json.Unmarshal(data, &back); err != nil || !back.Equal(d) {
		t.Fatalf("the default scenario reads back from JSON as %+v (%v)", back, err)
	}
	for _, p := range Params() {
		if p.Kind != Choice {
			continue
		}
		if v := p.Default(); v != 0 {
			t.Errorf("%s: default %s is not the zero value %s", p.Key, p.Format(v), p.Format(0))
		}
		if !strings.Contains(string(data), fmt.Sprintf("%q:%q", p.Name, p.Format(p.Default()))) {
			t.Errorf("%s is not written by name in %s", p.Name, data)
		}
	}
	var s Settings
	if err := json.Unmarshal([]byte(`{"Scheme":"quick"}`), &s); err == nil || !strings.Contains(err.Error(), `unknown Scheme "quick"`) {
		t.Errorf("an unknown scheme: %v", err)
	}
}

// TestTheTableOwnsEverySetting: every field of Settings, Material and
// Scenario is an entry of the parameter table, or one of the few values
// the table leaves out (names, paths, lists, vectors, and a custom
// scene's length and gripper switches, which its file's bodies set), so
// that each setting's default, range, flag and help have one place.
func TestTheTableOwnsEverySetting(t *testing.T) {
	notNumbers := map[string]bool{
		"Kind": true, "Physics": true, "Object": true, "MeshFile": true, "Scripted": true,
		"Attach": true, "Soft": true, "Rigid": true, "Duration": true, "Gripper": true, "GripperPath": true,
		"Material": true, "Gravity": true,
	}
	inTable := map[string]bool{}
	for _, p := range Params() {
		inTable[p.Name] = true
	}
	for _, v := range []any{Scenario{}, Settings{}, Material{}} {
		ty := reflect.TypeOf(v)
		for i := 0; i < ty.NumField(); i++ {
			if name := ty.Field(i).Name; !inTable[name] && !notNumbers[name] {
				t.Errorf("%s.%s is neither in the parameter table nor a value it leaves out", ty.Name(), name)
			}
		}
	}
}
