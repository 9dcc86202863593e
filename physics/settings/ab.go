package settings

import (
	"fmt"
	"strings"
)

// ABKeys lists the keys an A/B change may set, in table order: the
// parameters marked AB, which leave the two runs' steps in step (the time
// step and the scene are shared).
func ABKeys() []string {
	var keys []string
	for _, p := range params {
		if p.AB {
			keys = append(keys, p.Key)
		}
	}
	return keys
}

// ApplyAB returns cfg with the changes of spec applied: comma-separated
// key=value pairs among ABKeys (values in SI units, a scheme or solver by
// name), for example "newton=1" or "scheme=standard,pgs=60". It is the
// one check of an A/B comparison's changes, for headless -ab and for the
// viewer's A/B mode; the result is validated whole.
func ApplyAB(cfg Scenario, spec string) (Scenario, error) {
	for _, kv := range strings.Split(spec, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return cfg, fmt.Errorf("%q is not key=value", kv)
		}
		p := ParamByKey(key)
		if p == nil || !p.AB {
			return cfg, fmt.Errorf("unknown key %q: want %s", key, orList(ABKeys()))
		}
		v, err := p.Parse(val)
		if err != nil {
			return cfg, fmt.Errorf("%s: %w", key, err)
		}
		p.Set(&cfg, v)
	}
	return cfg, cfg.Validate()
}

// CheckAB reports changes that ApplyAB would refuse whatever the
// scenario (syntax, unknown keys, values out of range against the
// defaults).
func CheckAB(spec string) error {
	_, err := ApplyAB(DefaultScenario(GraspRotate), spec)
	return err
}
