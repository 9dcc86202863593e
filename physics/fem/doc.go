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
// only read the current positions and never allocate. What carries from
// one step to the next, the element rotations, is a State: Assemble
// advances it, the other kernels only read it. The per-element results of
// a pass go to a Workspace.
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
