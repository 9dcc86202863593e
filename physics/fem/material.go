// Package fem is the soft body's finite-element model: linear tetrahedra
// with an isotropic linear-elastic law, made geometrically nonlinear by the
// element-based corotational formulation, a lumped mass matrix and Rayleigh
// damping, assembled into the implicit Euler system of the paper's
// "Implicit time integration" section:
//
//	A·Δv = b,  A = M + h·B + h²·K,  b = h·(f_ext − f_int) − h²·K·v.
//
// A Model is built once per mesh. It precomputes everything that does not
// change over a simulation (shape-function gradients, rest volumes, masses,
// the positions of every element block inside the sparse matrix A), so that
// the per-step kernels (Assemble, ElasticForces, StiffnessMul, VonMises)
// only read the current positions and never allocate.
//
// Conventions: SI units; q, v, b and forces are flat slices of length 3N
// with node i at 3i, 3i+1, 3i+2; the elastic force f_el is the internal,
// resisting force (f_el = K·(q − q₀) for small displacements), so the
// equation of motion reads M·a = f_ext − f_el − B·v.
//
// References:
//   - C. A. Felippa, "A systematic approach to the element-independent
//     corotational dynamics of finite elements", 2000.
//   - M. Müller, M. Gross, "Interactive virtual materials", GI 2004
//     (stiffness warping with element rotations).
//   - G. Irving, J. Teran, R. Fedkiw, "Invertible finite elements for
//     robust simulation of large deformation", SCA 2004.
//   - D. Baraff, A. Witkin, "Large steps in cloth simulation", SIGGRAPH
//     1998 (the linearised implicit Euler step).
package fem

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
