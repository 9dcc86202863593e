package main

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"softgrasp/physics/settings"
)

// flagTestValue returns a valid value of p other than its default, in SI
// units: the middle of a bounded range, twice the default (or 1)
// otherwise, the next choice.
func flagTestValue(p *settings.Param) float64 {
	c := settings.DefaultScenario(settings.GraspRotate)
	def := p.Get(&c)
	switch {
	case p.Kind == settings.Choice:
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
	if p.Kind == settings.Integer {
		v = math.Floor(v)
	}
	return v
}

// TestParamFlagsRoundTrip: every flag of the parameter table, given on
// the command line of the headless runner and of the viewer, sets its
// setting; its default is the table's; a value out of range is reported
// under the flag's name.
func TestParamFlagsRoundTrip(t *testing.T) {
	for _, p := range settings.Params() {
		if !p.Flag {
			continue
		}
		t.Run(p.Key, func(t *testing.T) {
			want := flagTestValue(p)
			text := p.Format(want)
			if p.Kind == settings.Real {
				text = strconv.FormatFloat(want*p.FlagFactor(), 'g', -1, 64)
			}
			args := []string{"-" + p.Key, text}
			v, h := viewerAndHeadlessConfigs(t, args)
			for name, cfg := range map[string]settings.Scenario{"viewer": v, "headless": h} {
				if got := p.Get(&cfg); math.Abs(got-want) > 1e-12*math.Abs(want) {
					t.Errorf("%s: %v gives %s = %v, want %v", name, args, p.Name, got, want)
				}
			}
			var f headlessFlags
			fs := newFlagSet("h")
			f.register(fs)
			fl := fs.Lookup(p.Key)
			if fl == nil {
				t.Fatal("flag not declared")
			}
			def := p.Default() * p.FlagFactor()
			if p.Kind == settings.Choice {
				if fl.DefValue != p.Format(p.Default()) {
					t.Errorf("default %q, want %q", fl.DefValue, p.Format(p.Default()))
				}
			} else if d, err := strconv.ParseFloat(fl.DefValue, 64); err != nil || d != def {
				t.Errorf("default %q, want %v", fl.DefValue, def)
			}
			if p.Kind == settings.Choice {
				return
			}
			code, _, errs := headless("-"+p.Key, "NaN")
			if p.Kind == settings.Integer {
				code, _, errs = headless("-"+p.Key, strconv.Itoa(int(p.Lo)-1))
			}
			named := strings.Contains(errs, p.Name) || p.Usage == "" // -mesh-scale checks itself (meshFlags)
			if code == 0 || !strings.Contains(errs, "-"+p.Key) || !named {
				t.Errorf("an out-of-range -%s: exit %d, stderr %q; want it named", p.Key, code, errs)
			}
		})
	}
}
