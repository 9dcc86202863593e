package physics

import (
	"fmt"
	"math"
)

// frictionOverride is a Coulomb coefficient that a scene imposes on the
// steps in place of the settings' Friction, which keep the configured
// value: the incline holds its block with a higher μ and ramps it down to
// the configured one (scenario/incline.go).
type frictionOverride struct {
	mu float64
	on bool
}

// SetFrictionOverride makes the next steps solve every contact with
// μ = mu instead of Settings().Friction while on is true, and with
// Settings().Friction again once it is false (mu is then ignored). The
// settings are left as they are. mu must be finite and ≥ 0.
func (s *Simulation) SetFrictionOverride(mu float64, on bool) error {
	if !on {
		s.override = frictionOverride{}
		return nil
	}
	if !(mu >= 0) || math.IsInf(mu, 0) {
		return fmt.Errorf("friction override μ = %g: must be finite and ≥ 0", mu)
	}
	s.override = frictionOverride{mu: mu, on: true}
	return nil
}

// FrictionOverride returns the override in force: its μ and whether it is
// on (0, false when the settings' Friction applies).
func (s *Simulation) FrictionOverride() (mu float64, on bool) {
	return s.override.mu, s.override.on
}

// friction returns the Coulomb coefficient μ of the step: the override
// while it is on, else the settings' Friction.
func (s *Simulation) friction() float64 {
	if s.override.on {
		return s.override.mu
	}
	return s.set.Friction
}
