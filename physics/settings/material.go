package settings

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
// and the range (the parameter table's MaterialScope entries). NaN and
// ±Inf are rejected everywhere.
func (m Material) Validate() error {
	var c Scenario
	c.Physics.Material = m
	return checkScope(&c, MaterialScope)
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
