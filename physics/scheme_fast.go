package physics

import (
	"fmt"

	"softgrasp/physics/contact"
	"softgrasp/physics/m3"
	"softgrasp/physics/settings"
	"softgrasp/physics/stage"
)

// fastScheme is the recursive corrective motion with the fast update of
// the constraint matrices (Algorithm 3). With the mapping H and A held
// over the step (Eq. schur reformulated),
//
//	W_H = H·A⁻¹·Hᵀ                          once per step (prepare)
//	W_k = C_k·W_H·C_kᵀ                      per iteration (Rebuild W)
//	λ_k = PGS(δ_free(C_k) + h²·W_k·λ)       per iteration
//	p_{k+1} = p_free + h²·W_H·C_kᵀ·λ_k      per iteration (Corr.)
//
// the last line being Eq. recursive motion correction 7 in the total-force
// form of docs/method.md ("Total-force correction"). The per-iteration work runs on the step's Backend;
// the scheme keeps only the directions it gave it.
//
// W_H comes from the linear solver's factor in that factor's frame
// (linsolve.Solver.PairCompliance), so the directions given to the
// backend are C_k in that frame too (FrameDirections).
//
// Glossary: h time step, H mapping Jacobian, C_k direction frames, W_H
// mapping compliance, W compliance (Delassus), λ constraint forces, p
// proximity positions.
type fastScheme struct {
	C []m3.Mat3 // C_k as given to the backend (in the factor's frame)
	// R is the factor's warp that C is expressed with, when warped
	// (linsolve.Solver.Warp at rebuildW).
	R      m3.Mat3
	warped bool
	remap  fastRemap // the re-mapping of rigid-vertex pairs (remap.go), when on
}

// loadBackend hands the step's W_H to the backend, telling a
// SingleBackend first whether to keep W in single precision (singleW).
func (c *step) loadBackend() error {
	ct := &c.ws.ct
	n := len(ct.pairs)
	if sb, ok := c.backend.(SingleBackend); ok {
		sb.SetSingle(c.singleW(n, c.solver.Async()))
	}
	if err := c.backend.Load(ct.WH, n, c.set.PGSIterations, c.set.PGSTolerance); err != nil {
		return fmt.Errorf("backend %s: %w", c.backend.Name(), err)
	}
	return nil
}

// singleW tells whether PGS reads a W of n contacts in single precision:
// from Settings.PGSSingleFrom contacts on, where the compliance products
// are in single precision already (Settings.CompliancePrecision: W's
// entries are good to float's rounding anyway) or, for the fast scheme,
// with the asynchronous solver (async). Otherwise W stays in double, and
// the exact solver's results those of a double W.
func (c *step) singleW(n int, async bool) bool {
	from := c.set.PGSSingleFrom
	return (async || c.set.CompliancePrecision == settings.PrecisionSingle) && from > 0 && n >= from
}

// prepare builds W_H and loads it on the backend (Build W_H).
func (f *fastScheme) prepare(c *step) (stage.Stage, error) {
	ct := &c.ws.ct
	n := len(ct.pairs)
	ct.WH = grow(ct.WH, 9*n*n)
	f.remap.on = false
	if c.remapOn() {
		if err := f.remap.prepare(c); err != nil {
			return stage.BuildWH, c.diverged(fmt.Sprintf("building W_H (re-mapped) failed: %v", err))
		}
	} else if err := c.solver.PairCompliance(ct.WH, ct.pairs, &ct.H); err != nil {
		return stage.BuildWH, c.diverged(fmt.Sprintf("building W_H failed: %v", err))
	}
	c.addRigidCompliance(ct.WH)
	if err := c.loadBackend(); err != nil {
		return stage.BuildWH, err
	}
	copy(ct.p, ct.pFree)
	return stage.BuildWH, nil
}

// relinearise turns the normals at p_k; the fast scheme has no q_k, so
// rigid-vertex pairs turn theirs with the rigid body (step.relinearise).
// With the re-mapping on, it first re-finds the rigid-vertex pairs'
// points at the iterate (remap.go).
func (f *fastScheme) relinearise(c *step, reach float64) (float64, error) {
	if !f.remap.on {
		return c.relinearise(reach), nil
	}
	moved, err := f.remap.remap(c, f.C, f.R, f.warped)
	c.ws.stats.Remapped += moved
	return c.relinearise(reach), err
}

// rebuildW computes W_k = C_k·W_H·C_kᵀ on the backend.
func (f *fastScheme) rebuildW(c *step) error {
	f.C = c.solver.FrameDirections(c.ws.ct.C)
	f.R, f.warped = c.solver.Warp()
	return c.backend.RebuildW(f.C)
}

// solvePGS solves the contact problem on the backend's W_k.
func (f *fastScheme) solvePGS(c *step, h2, tol float64) (contact.Result, error) {
	c.backend.SetPGSTolerance(tol)
	ct := &c.ws.ct
	if bb, ok := c.backend.(BilateralBackend); ok {
		bb.SetBilateral(ct.bilateral)
	}
	return c.backend.SolvePGS(ct.dFree, h2, c.mu, ct.lambda)
}

// correct moves the proximity points, p = p_free + h²·W_H·C_kᵀλ_k, with
// W_H and C_k in the factor's frame (linsolve.Solver.PointsToFactor).
func (f *fastScheme) correct(c *step, h2 float64) error {
	ct, solver := &c.ws.ct, c.solver
	if err := c.backend.CorrectP(ct.p, solver.PointsToFactor(ct.pFree), f.C, ct.lambda, h2); err != nil {
		return err
	}
	solver.PointsFromFactor(ct.p)
	return nil
}

// states returns the backend's contact states.
func (f *fastScheme) states(c *step) []contact.State { return c.backend.States() }

// finish computes x = A⁻¹·Hᵀ·C_Kᵀ·λ_K, the one corrective solve of the
// fast scheme, so that Δv = Δv_free + h·x. A⁻¹ is the operator W_H was
// built with (linsolve.Solver.FactorSolve): then H·x = W_H·Cᵀλ exactly,
// and the proximity points end where the contact solver put them,
// p = p_free + h²·W_H·Cᵀλ. With the asynchronous solver's older factor,
// correcting with the true A instead would move them by
// H·(A⁻¹ − Q·P⁻¹·Qᵀ)·Hᵀ·Cᵀλ away from the solved contact state, an error
// that grows with the factor's age (docs/headless.md, "Solvers: exact and
// asynchronous"). The free motion keeps the true A.
func (f *fastScheme) finish(c *step) error {
	ws := c.ws
	ct := &ws.ct
	y := ct.pPrev // 3c scratch: the pairs' forces in world axes
	ct.applyCt(y)
	ct.H.MulVecT(ws.rhs, y)
	if err := c.solver.FactorSolve(ws.x, ws.rhs); err != nil {
		return c.diverged(fmt.Sprintf("final corrective solve failed: %v", err))
	}
	return nil
}
