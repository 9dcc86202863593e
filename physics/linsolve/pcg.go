package linsolve

import (
	"fmt"
	"math"
)

// pcgWork holds the vectors of the conjugate gradient, allocated once.
type pcgWork struct {
	r, z, p, Ap, t []float64
}

// alloc sizes the vectors for n unknowns.
func (w *pcgWork) alloc(n int) {
	w.r, w.z, w.p, w.Ap, w.t = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
}

// precondition computes z ≈ Q·P⁻¹·Qᵀ·r, the warped old factor's inverse,
// with the single-precision copy of the factor (sparse.Factor.SolveSingle,
// made with each factorisation of the asynchronous mode): the conjugate
// gradient corrects its rounding, about 1e-7 relative, as it corrects the
// factor's age, and the triangular solves read half the bytes, which is
// what they cost from about 3k DOFs on (docs/method.md, "Asynchronous
// solver").
//
// While a background job's factor is factored but its node compliance is
// not yet done, that younger factor preconditions, warped by the rotation
// since its own A (background.early).
func (s *Solver) precondition(z, r []float64) error {
	if s.bg != nil && s.bg.early {
		return s.solveWarped(s.bg.spare, z, r, &s.pcWarp, true)
	}
	return s.solveWarped(s.factor, z, r, s.stepWarp(), true)
}

// solvePCG solves A·x = b by conjugate gradient preconditioned with the
// Cholesky factor P of an older A, warped by the body's rotation since
// (M⁻¹ = Q·P⁻¹·Qᵀ), starting from x_0 = M⁻¹·b.
// When A has not changed much since P was computed, P⁻¹·A is close to the
// identity and a few iterations reach the tolerance
// ‖b − A·x‖ ≤ PCGTolerance·‖b‖ (Options). It returns the iterations run
// and whether the tolerance was reached: running out of iterations leaves
// the best x found and is no error (the divergence checks catch a solve
// that went wrong, and the caller reports the shortfall), a failed solve
// with the factor is.
func (s *Solver) solvePCG(x, b, guess []float64) (int, bool, error) {
	w := &s.pcg
	if len(w.r) != len(b) {
		return 0, false, fmt.Errorf("conjugate gradient: right-hand side of %d entries for %d unknowns", len(b), len(w.r))
	}
	if len(guess) == len(b) {
		// x_0 = g + M⁻¹·(b − A·g): the same one application of the
		// preconditioner, from the guess instead of from zero.
		s.matA.MulVec(w.Ap, guess)
		for i := range w.r {
			w.r[i] = b[i] - w.Ap[i]
		}
		if err := s.precondition(x, w.r); err != nil {
			return 0, false, err
		}
		for i := range x {
			x[i] += guess[i]
		}
	} else if err := s.precondition(x, b); err != nil {
		return 0, false, err
	}
	bn := math.Sqrt(dot(b, b))
	if bn == 0 {
		clear(x)
		return 0, true, nil
	}
	s.matA.MulVec(w.Ap, x)
	for i := range w.r {
		w.r[i] = b[i] - w.Ap[i]
	}
	tol := s.opt.PCGTolerance * bn
	if math.Sqrt(dot(w.r, w.r)) <= tol {
		return 0, true, nil
	}
	if err := s.precondition(w.z, w.r); err != nil {
		return 0, false, err
	}
	copy(w.p, w.z)
	rz := dot(w.r, w.z)
	for it := 1; it <= s.opt.PCGMaxIterations; it++ {
		s.matA.MulVec(w.Ap, w.p)
		pAp := dot(w.p, w.Ap)
		if !(pAp > 0) {
			return it, false, fmt.Errorf("conjugate gradient broke down (pᵀAp = %g): A is not positive definite", pAp)
		}
		alpha := rz / pAp
		axpy(alpha, w.p, x)
		axpy(-alpha, w.Ap, w.r)
		if math.Sqrt(dot(w.r, w.r)) <= tol {
			return it, true, nil
		}
		if err := s.precondition(w.z, w.r); err != nil {
			return it, false, err
		}
		rzNew := dot(w.r, w.z)
		beta := rzNew / rz
		rz = rzNew
		for i := range w.p {
			w.p[i] = w.z[i] + beta*w.p[i]
		}
	}
	return s.opt.PCGMaxIterations, false, nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// axpy computes y += alpha·x.
func axpy(alpha float64, x, y []float64) {
	for i := range x {
		y[i] += alpha * x[i]
	}
}
