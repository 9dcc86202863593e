package settings

import (
	"fmt"
	"math"
)

// Material is the isotropic linear-elastic law of the soft body with its
// density and Rayleigh damping B = α·M + β·K.
type Material struct {
	// YoungModulus is E (Pa), > 0.
	YoungModulus float64
	// PoissonRatio is ν, in the open interval (−1, 0.5): ν = 0.5 is the
	// incompressible limit, where λ is infinite and linear tetrahedra lock.
	PoissonRatio float64
	// Density is ρ (kg/m³), > 0.
	Density float64
	// MassDamping is the Rayleigh coefficient α (1/s), ≥ 0.
	MassDamping float64
	// StiffnessDamping is the Rayleigh coefficient β (s), ≥ 0.
	StiffnessDamping float64
}

// Validate reports the first field outside its allowed range, naming it
// and the range. NaN and ±Inf are rejected everywhere.
func (m Material) Validate() error {
	checks := []struct {
		name  string
		value float64
		ok    bool
		rng   string
	}{
		{"YoungModulus", m.YoungModulus, m.YoungModulus > 0, "must be > 0 Pa"},
		{"PoissonRatio", m.PoissonRatio, m.PoissonRatio > -1 && m.PoissonRatio < 0.5, "must lie in the open interval (−1, 0.5)"},
		{"Density", m.Density, m.Density > 0, "must be > 0 kg/m³"},
		{"MassDamping", m.MassDamping, m.MassDamping >= 0, "must be ≥ 0 (1/s)"},
		{"StiffnessDamping", m.StiffnessDamping, m.StiffnessDamping >= 0, "must be ≥ 0 s"},
	}
	for _, c := range checks {
		if math.IsNaN(c.value) || math.IsInf(c.value, 0) {
			return fmt.Errorf("material: %s = %v is not a finite number", c.name, c.value)
		}
		if !c.ok {
			return fmt.Errorf("material: %s = %g %s", c.name, c.value, c.rng)
		}
	}
	return nil
}

// Lame returns the Lamé parameters of the material,
//
//	λ = E·ν / ((1+ν)·(1−2ν)),  μ = E / (2·(1+ν)),
//
// μ being the shear modulus. The stress of a small strain ε is
// σ = λ·tr(ε)·I + 2μ·ε.
func (m Material) Lame() (lambda, mu float64) {
	E, nu := m.YoungModulus, m.PoissonRatio
	return E * nu / ((1 + nu) * (1 - 2*nu)), E / (2 * (1 + nu))
}
