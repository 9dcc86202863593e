// Package physics simulates a soft body, discretised by corotational
// linear tetrahedra and integrated by implicit (backward) Euler, in
// frictional contact with kinematic rigid bodies, following
//
//	Z. Zeng and H. Courtecuisse, "An efficient implicit constraint
//	resolution scheme for interactive FE simulations".
//
// Each step linearises the contacts at the start of the step (collision
// detection), computes the free motion, and then corrects it recursively
// in Newton iterations that re-linearise the constraint directions at the
// current proximity positions (recursive corrective motion). The standard
// scheme rebuilds the compliance W = J·A⁻¹·Jᵀ in every iteration; the fast
// scheme splits J = C·H, builds W_H = H·A⁻¹·Hᵀ once per step and only
// rebuilds W = C·W_H·Cᵀ and moves p += h²·W_H·Cᵀλ per iteration.
//
// Glossary (docs/method.md, "Symbols"): h time step; q, v node positions and velocities
// (3N); A = M + h·B + h²·K the system matrix; b its right-hand side; H the
// geometric mapping Jacobian (3c×3N); C the block-diagonal direction
// frames [n; t1; t2]; J = C·H; W_H = H·A⁻¹·Hᵀ; W = C·W_H·Cᵀ; λ the
// constraint forces [λn, λt1, λt2] per pair; δ the gaps; p = G(q) the
// proximity positions; μ the friction coefficient.
//
// A simulation holds the soft body's Model (model.go: the mesh, its
// surface, the finite elements, the rest positions; unchanged by a step),
// its State (state.go: q, v, the element rotations, the warm starts, the
// steps and the time; what a step advances and a snapshot copies), the
// kinematic rigid bodies, the linear solver of A, the settings and the
// workspace of a step (workspace.go: its scratch). Several soft bodies
// would be a slice of models and one of states.
//
// A Step reads as its stages (step.go): detection with its alarm distance
// (detect.go), assembly, the factorisation of A by the linear solver
// (package linsolve), the free motion, the linearisation of the contacts
// (linearisation.go), one Newton loop (newton.go) driven by the scheme
// that updates the constraint matrices (scheme_fast.go, scheme_standard.go),
// the final corrective motion, and the measurements with their divergence
// checks (measure.go).
//
// The sub-packages hold one concept each: settings (what a user sets up:
// these settings, the material, a scenario's configuration), mesh
// (tetrahedral meshes and their surfaces), fem (the finite elements),
// sparse (the Cholesky solver binding and compliance products), linsolve
// (the linear solver of A: exact or asynchronous), rigid (kinematic
// shapes and the gripper), collide (proximity detection), contact
// (projected Gauss–Seidel and the fast-update kernels), scenario
// (scripted scenes and their metrics), loop (the physics goroutine) and
// frame (what it publishes to a viewer and the commands it takes back).
package physics
