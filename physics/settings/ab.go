package settings

import (
	"fmt"
	"strconv"
	"strings"
)

// ABKeys lists the keys an A/B change may set: the solver settings that
// leave the two runs' steps in step (the time step and the scene are
// shared).
const ABKeys = "newton, scheme, pgs, pgs-tol, newton-tol or solver"

// ApplyAB returns cfg with the changes of spec applied: comma-separated
// key=value pairs among ABKeys, for example "newton=1" or
// "scheme=standard,pgs=60". It is the one check of an A/B comparison's
// changes, for headless -ab and for the viewer's A/B mode; the result is
// validated whole.
func ApplyAB(cfg Scenario, spec string) (Scenario, error) {
	p := &cfg.Physics
	for _, kv := range strings.Split(spec, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return cfg, fmt.Errorf("%q is not key=value", kv)
		}
		var err error
		switch key {
		case "newton":
			p.NewtonIterations, err = strconv.Atoi(val)
		case "pgs":
			p.PGSIterations, err = strconv.Atoi(val)
		case "pgs-tol":
			p.PGSTolerance, err = strconv.ParseFloat(val, 64)
		case "newton-tol":
			p.NewtonTolerance, err = strconv.ParseFloat(val, 64)
		case "scheme":
			p.Scheme, err = ParseScheme(val)
		case "solver":
			p.Solver, err = ParseSolver(val)
		default:
			return cfg, fmt.Errorf("unknown key %q: want %s", key, ABKeys)
		}
		if err != nil {
			return cfg, fmt.Errorf("%s: %w", key, err)
		}
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
