package physics

import (
	"fmt"
	"math"
	"time"

	"softgrasp/physics/contact"
	"softgrasp/physics/m3"
	"softgrasp/physics/settings"
	"softgrasp/physics/stage"
)

// scheme is one way of updating the constraint matrices in the Newton
// iterations of the recursive corrective motion: the fast scheme
// (Algorithm 3, scheme_fast.go) or the standard one (Algorithm 2,
// scheme_standard.go). The Newton loop (newton) calls its stages in order
// and times them as the paper's Table 1 does. A scheme keeps only its own
// scratch; each stage takes the step it works on.
type scheme interface {
	// prepare readies the step's iterations after the mapping H is built
	// and returns the stage its time counts in (fast: W_H = H·A⁻¹·Hᵀ,
	// Build W_H).
	prepare(c *step) (stage.Stage, error)
	// relinearise computes the candidate directions C_{k+1} at p_k (and,
	// standard, re-evaluates H at q_k) and returns the largest angle by
	// which the normal of a pair within reach of contact turned, or the
	// error of a stage that failed on the way (the fast scheme's
	// re-mapping).
	relinearise(c *step, reach float64) (float64, error)
	// rebuildW builds W_k for the current directions C_k (Rebuild W).
	rebuildW(c *step) error
	// solvePGS solves the contact problem δ = δ_free + h²·W_k·λ on it,
	// λ warm-started and overwritten (PGS), stopping at the relative
	// change tol (step.pgsTolerance).
	solvePGS(c *step, h2, tol float64) (contact.Result, error)
	// correct moves p_{k+1} for λ_k (Corr.).
	correct(c *step, h2 float64) error
	// states returns the contact states of the last PGS.
	states(c *step) []contact.State
	// finish computes x = A⁻¹·Hᵀ·C_Kᵀ·λ_K for the final corrective motion
	// (the standard scheme's last correction already did).
	finish(c *step) error
}

// scheme returns the scheme the settings select.
func (c *step) scheme() scheme {
	if c.set.Scheme == settings.Standard {
		return &c.ws.standard
	}
	return &c.ws.fast
}

// newton runs the recursive corrective motion with scheme sc: iteration
// k = 0 … K−1 re-linearises the directions at p_k (k ≥ 1, stopping early
// when converged: newtonConverged), evaluates the gaps
// δ_free(C_k), rebuilds W_k, solves the contact problem by projected
// Gauss–Seidel and corrects the proximity points (docs/method.md, "Newton iterations").
//
// Glossary: h time step, C_k direction frames, W_k compliance (Delassus),
// λ constraint forces, δ gaps, p proximity positions, K NewtonIterations.
func (c *step) newton(sc scheme, sw *stopwatch) error {
	first, err := sc.prepare(c)
	if err != nil {
		return err
	}
	sw.lap(first)
	ws := c.ws
	ct := &ws.ct
	h2 := c.set.TimeStep * c.set.TimeStep
	for k := 0; k < c.set.NewtonIterations; k++ {
		var rec NewtonRecord
		if k > 0 && c.elasticOn() {
			// The residual at the iterate of λ_{k−1}: x_k and Jᵀλ_{k−1}.
			t := time.Now()
			if err := sc.finish(c); err != nil {
				return err
			}
			if rec.ElasticResidual, err = c.elasticStep(ws.x, ws.rhs); err != nil {
				return err
			}
			rec.Elastic = time.Since(t)
			// Once the residual has moved the free motion, the factor, as
			// Jacobian of the contact compliance too, turns with the body
			// (docs/method.md, "Newton on the whole residual").
			if ws.elastic.moved {
				c.solver.SetWarp(ws.elastic.rotK)
			}
		}
		if k > 0 {
			if rec.DirectionChange, err = sc.relinearise(c, ws.newtonLog[k-1].PositionChange); err != nil {
				return err
			}
			rec.ContactResidual = ws.contactResidual
			if c.newtonConverged(rec.DirectionChange, rec.ElasticResidual) {
				ws.stats.Converged = true
				break
			}
			ct.accept()
		}
		ct.gaps(c.set.ContactDistance)
		rec.PGSTolerance = c.pgsTolerance(k, rec.DirectionChange)
		if err := c.iterate(sc, h2, &rec); err != nil {
			return err
		}
		rec.PositionChange = m3.MaxBlockDistance(ct.p, ct.pPrev)
		c.addNewton(rec)
	}
	ct.states = sc.states(c)
	sw.lap(stage.Newton)
	return nil
}

// newtonConverged reports whether the Newton iterations may stop: the
// engaged pairs' normals turned by at most NewtonTolerance in the last
// re-linearisation and the last correction moved no proximity point by
// more than NewtonPositionTolerance (docs/method.md, "When Newton stops":
// the directions and p stop changing) or, with a ContactTolerance,
// the contact law's residual at p_k is within it, and, with Newton on the whole
// residual, the move e its correction calls for is within
// ElasticTolerance. A NewtonTolerance of 0 runs all K iterations.
func (c *step) newtonConverged(turn, e float64) bool {
	if c.set.NewtonTolerance <= 0 {
		return false
	}
	log := c.ws.newtonLog
	last := log[len(log)-1]
	settled := last.PositionChange <= c.set.NewtonPositionTolerance ||
		c.set.ContactTolerance > 0 && c.ws.contactResidual <= c.set.ContactTolerance
	return turn <= c.set.NewtonTolerance && settled && e <= c.set.ElasticTolerance
}

// pgsTolerance is PGS's relative tolerance in Newton iteration k, whose
// re-linearisation turned the engaged normals by at most turn (rad):
// Settings.PGSTolerance, unless Settings.PGSForcing makes the iterations
// inexact (docs/method.md, "Inexact Newton"): then the forcing term η
// scales the turn, max(PGSTolerance, min(η, η·turn)), the first
// iteration (no turn measured yet) takes η and the last allowed one
// PGSTolerance, so that the forces a step ends with are solved as tightly
// as without it.
func (c *step) pgsTolerance(k int, turn float64) float64 {
	eta, tol := c.set.PGSForcing, c.set.PGSTolerance
	if eta <= 0 || k == c.set.NewtonIterations-1 {
		return tol
	}
	if k > 0 {
		eta = math.Min(eta, eta*turn)
	}
	return math.Max(tol, eta)
}

// iterate runs the timed stages of one Newton iteration: Rebuild W, PGS
// and Corr., recording them in rec.
func (c *step) iterate(sc scheme, h2 float64, rec *NewtonRecord) error {
	t := time.Now()
	if err := sc.rebuildW(c); err != nil {
		return err
	}
	rec.RebuildW = time.Since(t)
	t = time.Now()
	res, err := sc.solvePGS(c, h2, rec.PGSTolerance)
	if err != nil {
		return c.diverged(fmt.Sprintf("contact solve failed: %v", err))
	}
	rec.PGS = time.Since(t)
	rec.PGSIterations, rec.PGSError = res.Iterations, res.Error
	t = time.Now()
	copy(c.ws.ct.pPrev, c.ws.ct.p)
	if err := sc.correct(c, h2); err != nil {
		return err
	}
	rec.Corr = time.Since(t)
	return nil
}

// addNewton records one Newton iteration and adds its stage times.
func (c *step) addNewton(rec NewtonRecord) {
	c.ws.newtonLog = append(c.ws.newtonLog, rec)
	t := &c.ws.stats.Times
	t[stage.RebuildW] += rec.RebuildW
	t[stage.PGS] += rec.PGS
	t[stage.Corr] += rec.Corr
	t[stage.Elastic] += rec.Elastic
}
