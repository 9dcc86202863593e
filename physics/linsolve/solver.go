// Package linsolve is the linear solver of the system matrix
// A = M + h·B + h²·K of the implicit step: the sparse Cholesky factor of A,
// and, in the asynchronous mode, the preconditioner of Courtecuisse et
// al. (2014) that the paper uses — a factor of an older A refreshed in the
// background (background.go), warped by the body's rotation since
// (warp.go), preconditioning conjugate gradient on the current A
// (pcg.go), with the node compliance G = S·P⁻¹·Sᵀ of the nodes near the
// rigid bodies computed by the worker with each factor (nodecompliance.go).
//
// Glossary: A system matrix (3N×3N sparse SPD), P a Cholesky factor of an
// A, Q = blockdiag(R) the warp by the body's rotation R, H the mapping
// Jacobian of the contact pairs, W_H = H·A⁻¹·Hᵀ their compliance.
//
// A Solver belongs to one goroutine (the simulation's); its background
// worker only ever touches the factor and the node compliance that are
// not the step's.
package linsolve

import (
	"errors"
	"fmt"

	"softgrasp/physics/collide"
	"softgrasp/physics/m3"
	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
)

// Options select the solver's mode.
type Options struct {
	// Async refreshes the factor in the background instead of factoring
	// every A when it is assembled.
	Async bool
	// Lag, when positive, swaps each background factorisation in exactly
	// this many steps after it started, waiting for it if need be, so that
	// a run does not depend on the machine's load; its factor
	// preconditions from half as many steps on, at least one (pcLag).
	Lag int
	// Refresh, when positive, starts a background factorisation only once
	// the factor in use is at least this many steps old.
	Refresh int
	// PCGTolerance is the relative residual ‖b − A·x‖ ≤ tol·‖b‖ at which
	// the conjugate gradient stops, and PCGMaxIterations its bound.
	PCGTolerance     float64
	PCGMaxIterations int
	// SingleCompliance runs the compliance products (Compliance,
	// PairCompliance, the node compliances) in single precision
	// (sparse.Factor.ComplianceSingle).
	SingleCompliance bool
	// ComplianceThreads is the exact mode's threads for the compliance
	// products (sparse.Factor.SetComplianceThreads); the asynchronous mode
	// uses one.
	ComplianceThreads int
}

// OptionsFrom returns the options that the simulation's settings select.
func OptionsFrom(set settings.Settings) Options {
	return Options{Async: set.Solver == settings.AsyncSolver, Lag: set.AsyncLag, Refresh: set.AsyncRefresh,
		PCGTolerance: set.PCGTolerance, PCGMaxIterations: set.PCGMaxIterations,
		SingleCompliance: set.CompliancePrecision == settings.PrecisionSingle, ComplianceThreads: set.ComplianceThreads}
}

// ErrBackgroundFactor marks the failure of a background factorisation:
// the A of a few steps ago was not positive definite. The solver keeps the
// factor it had and goes on; this step's own A is checked by its solves
// (a conjugate gradient that meets a direction of non-positive curvature
// fails).
var ErrBackgroundFactor = errors.New("the background factorisation failed, the previous factor stays in use")

// Solver solves with the system matrix A of the current step.
type Solver struct {
	matA   *sparse.SymCSC // A, the system matrix, assembled by the caller
	factor *sparse.Factor // the step's factor (asynchronous: the latest one)
	bg     *background    // nil in exact mode
	opt    Options
	mass   []float64 // lumped node masses, for the warp
	warp   m3.Mat3   // R: the body's rotation since the factor's A
	warped bool      // R is not the identity
	pcWarp m3.Mat3   // the rotation since the A of an early preconditioner (background.early)
	// qExact is the configuration the exact mode's factor was assembled
	// at, for RotationTo (the asynchronous worker keeps its own).
	qExact []float64
	pcg    pcgWork
	gRows  []float64 // scratch of nodeCompliance.assemble
	frames []m3.Mat3 // C·R (FrameDirections)
	points []float64 // Rᵀ·p (PointsToFactor)
	turned []float64 // Qᵀ·b (SolveRotated)
}

// New analyses the pattern of A (the fill-reducing ordering and the
// symbolic factorisation, once per mesh) for a body of the given lumped
// node masses (one per node). The Solver keeps A.
func New(A *sparse.SymCSC, mass []float64, opt Options) (*Solver, error) {
	if 3*len(mass) != A.N {
		return nil, fmt.Errorf("linear solver: %d node masses for a %d×%d system", len(mass), A.N, A.N)
	}
	factor, err := sparse.Analyze(A)
	if err != nil {
		return nil, fmt.Errorf("sparse analysis: %w", err)
	}
	s := &Solver{matA: A, factor: factor, mass: mass, warp: m3.Identity()}
	s.pcg.alloc(A.N)
	s.turned = make([]float64, A.N)
	if err := s.SetOptions(opt); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// SetOptions changes the mode from the next refactorisation on: it starts
// or stops the background worker.
func (s *Solver) SetOptions(opt Options) error {
	switch {
	case opt.Async && s.bg == nil:
		bg, err := newBackground(s.matA, s.factor)
		if err != nil {
			return err
		}
		s.bg = bg
	case !opt.Async && s.bg != nil:
		s.factor = s.bg.stop()
		s.bg = nil
	}
	if s.bg != nil {
		s.bg.lag, s.bg.refresh, s.bg.single = opt.Lag, opt.Refresh, opt.SingleCompliance
	}
	threads := opt.ComplianceThreads
	if s.bg != nil {
		threads = 1
	}
	s.factor.SetComplianceThreads(threads)
	s.opt = opt
	return nil
}

// Invalidate declares the factors of earlier A's unusable: the operator
// changed (a new time step h or material, or a reset of the body). In
// asynchronous mode the next Refactor then factors its A synchronously
// instead of going on with a factor, and compliances, of the old operator;
// in exact mode every Refactor factors anyway.
func (s *Solver) Invalidate() {
	if s.bg != nil {
		s.bg.invalidate()
	}
}

// Async reports whether the background worker runs.
func (s *Solver) Async() bool { return s.bg != nil }

// BackgroundRunning reports whether the asynchronous solver's worker is
// computing a factorisation at this moment: false for the exact solver,
// for an idle worker (-async-refresh holds it back) and for a finished job
// that waits to be swapped in.
func (s *Solver) BackgroundRunning() bool { return s.bg != nil && s.bg.running.Load() }

// Matrix returns A, into which the caller assembles each step's values
// before Refactor.
func (s *Solver) Matrix() *sparse.SymCSC { return s.matA }

// Near tells a background job the nodes whose compliance the next steps
// will likely need. It is called when a job starts, on the goroutine that
// called Refactor, to take what it needs from the step; the function it
// returns is called once, on the worker, after the factorisation, and
// gives the nodes. What that function reads must stay unchanged until the
// next call of Near: a job starts only once the previous one is done, so
// the two calls of one job never overlap with those of another.
type Near func() func() []int

// Refactor takes the step's freshly assembled A (Matrix), assembled at the
// node positions q. In exact mode it factors A; in asynchronous mode it swaps in
// a finished background factorisation, if any, and starts the next one
// from A, for which near gives the nodes whose compliance the next steps
// will likely need (it is called only when a job starts). The first call
// after the worker started factors synchronously. An error means A is not
// positive definite: this step's (exact mode, or the first asynchronous
// step), or that of a failed background job, reported here wrapping
// ErrBackgroundFactor, after which the old factor stays in use.
func (s *Solver) Refactor(q []float64, near Near) error {
	if s.bg == nil {
		s.warped = false
		s.qExact = append(s.qExact[:0], q...)
		return s.factor.Factorize(s.matA)
	}
	err := s.bg.begin(s.matA, q, near)
	s.adopt(q)
	if err != nil && s.bg.primedBefore {
		return fmt.Errorf("%w: %v", ErrBackgroundFactor, err)
	}
	return err
}

// RefactorExact factors the step's A synchronously in either mode (in
// asynchronous mode after waiting for a job in flight), for steps whose
// per-iteration corrections use the true A and would not tolerate an
// approximate compliance: the standard scheme.
func (s *Solver) RefactorExact(q []float64) error {
	if s.bg == nil {
		s.warped = false
		s.qExact = append(s.qExact[:0], q...)
		return s.factor.Factorize(s.matA)
	}
	err := s.bg.exact(s.matA, q)
	s.adopt(q)
	return err
}

// adopt makes the background's current factor the step's and measures the
// warp R since its A was assembled.
func (s *Solver) adopt(q []float64) {
	s.factor = s.bg.current
	s.warp = globalRotation(s.bg.qFactor, q, s.mass)
	s.warped = s.bg.age > 0
	if s.bg.early {
		s.pcWarp = globalRotation(s.bg.qJob, q, s.mass)
	}
}

// Age returns the steps since the A of the factor in use was assembled
// (0 in exact mode).
func (s *Solver) Age() int {
	if s.bg == nil {
		return 0
	}
	return s.bg.age
}

// PreconditionerAge returns the steps since the A of the conjugate
// gradient's preconditioner was assembled: a background factor
// preconditions from the step after it is factored, before its node
// compliance is done and it becomes the factor in use (Age), so it is
// younger (0 in exact mode).
func (s *Solver) PreconditionerAge() int {
	if s.bg == nil {
		return 0
	}
	if s.bg.early {
		return s.bg.pending
	}
	return s.bg.age
}

// Warp returns the rotation R by which the factor is warped, and whether
// it is warped at all (false in exact mode and for a factor of this
// step's A).
func (s *Solver) Warp() (R m3.Mat3, warped bool) { return s.warp, s.warped }

// Solve computes x = A⁻¹·b with the current A: by the factor directly in
// exact mode, else by conjugate gradient preconditioned with the warped
// factor. It returns the conjugate-gradient iterations run (0 in exact
// mode) and whether the solve reached its tolerance (false when the
// conjugate gradient stopped at PCGMaxIterations: x is then the best
// iterate, and the caller should say so).
func (s *Solver) Solve(x, b []float64) (iterations int, converged bool, err error) {
	return s.SolveFrom(x, b, nil)
}

// SolveFrom is Solve with guess, when not nil, as the conjugate gradient's
// starting point (the exact mode ignores it): a solve whose solution
// changes little from one call to the next, the free motion's from one
// step to the next, then starts near it.
func (s *Solver) SolveFrom(x, b, guess []float64) (iterations int, converged bool, err error) {
	if s.bg == nil {
		return 0, true, s.factor.Solve(x, b)
	}
	return s.solvePCG(x, b, guess)
}

// FactorSolve computes x = Q·P⁻¹·Qᵀ·b, the inverse of A by the warped
// factor alone: the exact A⁻¹ in exact mode, and in asynchronous mode the
// operator that PairCompliance and Compliance are built with.
func (s *Solver) FactorSolve(x, b []float64) error {
	return s.solveWarped(s.factor, x, b, s.stepWarp(), false)
}

// stepWarp returns the step's warp of the factor, nil when there is none.
func (s *Solver) stepWarp() *m3.Mat3 {
	if !s.warped {
		return nil
	}
	return &s.warp
}

// solveWarped computes x = Q·P⁻¹·Qᵀ·b with the factor P = f warped by R
// (Q = blockdiag(R); P⁻¹ alone when R is nil), by the factor's double
// solve, or by its single-precision copy with single
// (sparse.Factor.SolveSingle).
func (s *Solver) solveWarped(f *sparse.Factor, x, b []float64, R *m3.Mat3, single bool) error {
	solve := f.Solve
	if single {
		solve = f.SolveSingle
	}
	if R == nil {
		return solve(x, b)
	}
	t := s.pcg.t
	rotateNodes(t, b, R, true)
	if err := solve(x, t); err != nil {
		return err
	}
	rotateNodes(x, x, R, false)
	return nil
}

// RotationTo returns the rotation R that best maps the configuration
// the factor's A was assembled at onto q (warp.go), in either mode.
func (s *Solver) RotationTo(q []float64) (m3.Mat3, error) {
	ref := s.qExact
	if s.bg != nil {
		ref = s.bg.qFactor
	}
	if len(ref) != len(q) {
		return m3.Mat3{}, fmt.Errorf("linear solver: no factor to warp to a configuration of %d entries", len(q))
	}
	return globalRotation(ref, q, s.mass), nil
}

// SolveRotated computes x = Q·A⁻¹·Qᵀ·b with the current A (Solve: the
// factor in exact mode, else the conjugate gradient) and Q = blockdiag(R):
// the inverse of the step's A turned with the body by R, the Jacobian of
// a quasi-Newton step at a configuration R turns q_t into
// (RotationBetween).
func (s *Solver) SolveRotated(x, b []float64, R *m3.Mat3) (iterations int, converged bool, err error) {
	if len(b) != len(s.turned) {
		return 0, false, fmt.Errorf("linear solver: right-hand side of %d entries for %d unknowns", len(b), len(s.turned))
	}
	rotateNodes(s.turned, b, R, true)
	if iterations, converged, err = s.SolveFrom(x, s.turned, nil); err != nil {
		return iterations, converged, err
	}
	rotateNodes(x, x, R, false)
	return iterations, converged, nil
}

// RotationBetween returns the rotation that best maps configuration ref
// onto q (the mass-weighted fit of warp.go).
func (s *Solver) RotationBetween(ref, q []float64) m3.Mat3 { return globalRotation(ref, q, s.mass) }

// FactorSolveWarped computes x = Q·P⁻¹·Qᵀ·b with the factor warped by R
// (Q = blockdiag(R)), whatever the step's own warp. With R = RotationTo(q)
// it is the Jacobian of a quasi-Newton iteration at an iterate q that
// turned within the step: A's corotational K turns with the body, and an
// unwarped factor is soft along the rigid rotations of the old
// configuration, which the current one resists (docs/method.md, "Newton
// on the whole residual").
func (s *Solver) FactorSolveWarped(x, b []float64, R *m3.Mat3) error {
	return s.solveWarped(s.factor, x, b, R, false)
}

// SetWarp warps the factor by R for the rest of the step: FactorSolve,
// FrameDirections and the points' frame use it, in either mode. Newton on
// the whole residual sets it to each iterate's RotationTo once a
// correction has moved the free motion, so that the contact compliance
// turns with the body within the step as the residual's correction does.
// The next Refactor measures the warp afresh.
func (s *Solver) SetWarp(R m3.Mat3) {
	s.warp, s.warped = R, true
}

// Compliance computes W = X·P⁻¹·Xᵀ (dense, row-major, 3c×3c for the
// 3c×3N rows of X) with the step's factor by sparse forward solves and a
// symmetric product (sparse.Factor.Compliance, or ComplianceSingle as
// the options say). It is not warped: use it with an exact factor, or
// warp the rows of X.
func (s *Solver) Compliance(X *sparse.CSR, W []float64) error {
	return compliance(s.factor, s.opt.SingleCompliance, X, W)
}

// compliance computes W = X·P⁻¹·Xᵀ with the factor f in single precision
// or in double.
func compliance(f *sparse.Factor, single bool, X *sparse.CSR, W []float64) error {
	if single {
		return f.ComplianceSingle(X, W)
	}
	return f.Compliance(X, W)
}

// PairCompliance computes the lower block triangle of W_H = H·P⁻¹·Hᵀ for
// the pairs whose mapping Jacobian is H (Eq. schur reformulated). In
// exact mode it runs the sparse compliance kernel on H. In asynchronous
// mode it gathers W_H (O(c²)) from the node compliance G that the worker
// computed with the factor, when G covers every pair's nodes, else from
// the step's own node compliance of the pairs' nodes (missedCompliance).
// It is the compliance of the factor's A, not warped: the caller applies
// the warp R to the directions (Warp).
func (s *Solver) PairCompliance(WH []float64, pairs []collide.Pair, H *sparse.CSR) error {
	if s.bg == nil {
		return s.Compliance(H, WH)
	}
	if s.bg.gCur.covers(pairs) {
		s.bg.gCur.assemble(WH, pairs, &s.gRows)
		return nil
	}
	return s.missedCompliance(WH, pairs)
}

// missedCompliance gathers W_H from the background's gExt, the node
// compliance of the nodes of a step's pairs, building it first with the
// step's factor for this step's pairs unless it covers them already. The
// steps whose pairs reach nodes outside the worker's set come in runs
// while the contact set moves faster than the background (the jaws
// closing, a body tipping over): the pairs of consecutive steps share
// most of their nodes, so one build often serves several steps, where the
// sparse compliance of the pairs (about as costly as a build) served one.
// gExt is dropped whenever the factor changes (background.go).
func (s *Solver) missedCompliance(WH []float64, pairs []collide.Pair) error {
	bg := s.bg
	if !bg.gExt.covers(pairs) {
		nodes := bg.extNodes[:0]
		for a := range pairs {
			nodes = append(nodes, pairs[a].Nodes[:pairs[a].Count]...)
		}
		bg.extNodes = nodes
		if err := bg.gExt.build(s.factor, nodes, bg.nNodes, s.opt.SingleCompliance); err != nil {
			return err
		}
	}
	bg.gExt.assemble(WH, pairs, &s.gRows)
	return nil
}

// Close stops the worker and releases the factors' native memory.
func (s *Solver) Close() {
	if s.bg != nil {
		s.factor = s.bg.stop()
		s.bg = nil
	}
	if s.factor != nil {
		s.factor.Free()
		s.factor = nil
	}
}

// grow returns s resized to n, reusing its storage when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
