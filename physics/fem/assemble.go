package fem

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/sparse"
)

// AssembleReport summarises the element states met by Assemble.
type AssembleReport struct {
	// Inverted counts the elements with det F ≤ 0 (inverted or flat), and
	// InvertedFill sums their fill fractions (NewModelFilled; 1 each in a
	// model without them): the share of the solid they hold.
	Inverted     int
	InvertedFill float64
	// MinDetF is the smallest det F over the elements (1 at rest; ≤ 0 for
	// an inverted element).
	MinDetF float64
	// Err is set, and A and b are left untouched, when an argument is
	// invalid (wrong length, a matrix not made by Pattern, h not positive
	// and finite).
	Err error
}

// Assemble writes the linearised implicit Euler system A·Δv = b of the
// paper's Eq. (dynamic equation soft) at the start of a step, from the
// positions q and velocities v (length 3N), the time step h (s) and the
// gravitational acceleration (m/s²). A must come from Pattern; its values
// and b (length 3N) are overwritten. The element rotations of st warm-start
// the polar decompositions and are replaced by those at q, the warm
// starts of the next assembly; w holds the pass's other results.
//
// Derivation. Newton's law M·a = f_ext − F(q, v) with the internal force
// F(q, v) = f_el(q) + B·v, integrated by backward Euler, Δv = h·a(t+h) and
// q(t+h) = q + h·(v + Δv), gives M·Δv = h·(f_ext − F(q(t+h), v(t+h))).
// Linearising F at (q, v) with K = ∂F/∂q and B = ∂F/∂v,
//
//	F(q(t+h), v(t+h)) ≈ F(q, v) + K·h·(v + Δv) + B·Δv,
//
// and collecting the Δv terms on the left:
//
//	A = M + h·B + h²·K,  b = h·(f_ext − f_el(q) − B·v) − h²·K·v,
//
// with f_ext = M·g, Rayleigh damping B = α·M + β·K and the corotational
// K = Σ R_e·K_e·R_eᵀ. Grouped by matrix,
//
//	A = (1 + h·α)·M + (h·β + h²)·K,
//	b = h·M·(g − α·v) − h·[f_el(q) + (β + h)·K·v].
//
// The bracket is one element pass: by the formulas of element.go,
// f_e + c·R·K_e·Rᵀ·v_e = V·R·σ(sym(Rᵀ·(F + c·F_v)) − I)·g_i with
// F_v = Σ_j v_j ⊗ g_j and c = β + h.
//
// Work: a parallel pass computes R_e by polar decomposition and the
// element stress P_e = −h·V·R·σ per element; a second pass scatters the
// forces and the blocks of A (Eq. (3) of element.go), each entry's terms
// in element order (scatter.go), so the result does not depend on the
// number of threads. No allocation.
func (m *Model) Assemble(st *State, w *Workspace, q, v []float64, h float64, gravity r3.Vec, A *sparse.SymCSC, b []float64) AssembleReport {
	if err := m.checkAssembleArgs(st, w, q, v, h, gravity, A, b); err != nil {
		return AssembleReport{Err: err}
	}
	alpha, beta := m.mat.MassDamping, m.mat.StiffnessDamping
	rot := st.rot
	m.elementStresses(w, rot, rot, q, v, beta+h, -h)

	A.Zero()
	for i, mi := range m.mass {
		d := (1 + h*alpha) * mi
		for a := 0; a < 3; a++ {
			A.Val[A.ColPtr[3*i+a]] = d
		}
		b[3*i] = h * mi * (gravity.X - alpha*v[3*i])
		b[3*i+1] = h * mi * (gravity.Y - alpha*v[3*i+1])
		b[3*i+2] = h * mi * (gravity.Z - alpha*v[3*i+2])
	}
	cK := h*beta + h*h
	rep := AssembleReport{MinDetF: math.Inf(1)}
	m.scatterPass(w, b, rot, A, cK)
	for k, d := range w.detF {
		if d <= 0 || math.IsNaN(d) {
			rep.Inverted++
			rep.InvertedFill += m.fillOf(k)
		}
		rep.MinDetF = math.Min(rep.MinDetF, d)
	}
	return rep
}

// checkAssembleArgs validates the arguments of Assemble.
func (m *Model) checkAssembleArgs(st *State, w *Workspace, q, v []float64, h float64, gravity r3.Vec, A *sparse.SymCSC, b []float64) error {
	if err := m.checkState(st, w); err != nil {
		return err
	}
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("fem: time step h = %v must be positive and finite", h)
	}
	if !finite(gravity.X) || !finite(gravity.Y) || !finite(gravity.Z) {
		return fmt.Errorf("fem: gravity %v is not finite", gravity)
	}
	for _, c := range [3]struct {
		name string
		x    []float64
	}{{"q", q}, {"v", v}, {"b", b}} {
		if err := m.checkLen(c.name, c.x); err != nil {
			return err
		}
	}
	p := m.pattern
	if A == nil || A.N != p.N || len(A.ColPtr) != len(p.ColPtr) || len(A.Val) != m.nnz ||
		len(A.RowIdx) != m.nnz || A.ColPtr[p.N] != m.nnz {
		return fmt.Errorf("fem: system matrix does not have the pattern of Model.Pattern (N = %d, %d entries)", p.N, m.nnz)
	}
	return nil
}

// elementStresses computes, for every element, R_e = polar(F_e) into
// rot (warm-started from warm, see m3.PolarRotationNear; rot may be warm)
// with F_e from q, and into w det F_e and
// P_e = s·V·R·σ(sym(Rᵀ·(F + c·F_v)) − I) with F_v from v (v may be nil
// when c = 0). It runs on the worker pool.
func (m *Model) elementStresses(w *Workspace, warm, rot []m3.Mat3, q, v []float64, c, s float64) {
	m.pool.run(stressJob{m: m, w: w, warm: warm, rot: rot, q: q, v: v, c: c, s: s}, len(m.elems))
}

// stretchRateStresses is elementStresses with the damping part taken from
// the rate of the elements' stretch over the step from q − h·v to q
// instead of the velocity gradient (ForcesOverStep): it adds
// (c/h)·(Rᵀ·F − R_tᵀ·F_t) to Rᵀ·F, F_t and R_t the deformation gradient
// and its rotation at q − h·v.
func (m *Model) stretchRateStresses(w *Workspace, warm, rot []m3.Mat3, q, v []float64, c, h float64) {
	m.pool.run(stressJob{m: m, w: w, warm: warm, rot: rot, q: q, v: v, c: c, s: 1, h: h}, len(m.elems))
}

// stressJob carries the arguments of elementStresses to the workers.
type stressJob struct {
	m         *Model
	w         *Workspace
	warm, rot []m3.Mat3
	q, v      []float64
	c, s      float64
	// h > 0 selects the stretch rate over a step of h (stretchRateStresses).
	h float64
}

// do runs elementStresses on the elements [lo, hi).
func (j *stressJob) do(lo, hi int) {
	m, w := j.m, j.w
	for k := lo; k < hi; k++ {
		e := &m.elems[k]
		F := e.defGrad(j.q)
		// Warm start from the element's rotation of the last assembly
		// (identity before the first); inverted and degenerate elements
		// take the SVD path.
		R, ok := m3.PolarRotationNear(F, j.warm[k])
		if !ok {
			R, _ = m3.Polar(F)
		}
		w.detF[k] = F.Det()
		var G m3.Mat3
		switch {
		case j.c != 0 && j.h > 0:
			// The stretch U = Rᵀ·F at q and U_t at q − h·v: both
			// symmetric, and equal for any rigid motion of the element
			// over the step, however far it turns. The warm start is
			// the rotation at q_t when the step's assembly left it
			// (Assemble at q_t): then R_tᵀ·F_t is symmetric already and
			// no second decomposition is needed.
			Ft := m3.Sub(F, m3.Scale(j.h, e.defGrad(j.v)))
			Ut := m3.TMul(j.warm[k], Ft)
			if !symmetricWithin(Ut, 1e-12) {
				Rt, ok := m3.PolarRotationNear(Ft, j.warm[k])
				if !ok {
					Rt, _ = m3.Polar(Ft)
				}
				Ut = m3.TMul(Rt, Ft)
			}
			U := m3.TMul(R, F)
			G = m3.Add(U, m3.Scale(j.c/j.h, m3.Sub(U, Ut)))
		case j.c != 0:
			G = m3.TMul(R, m3.Add(F, m3.Scale(j.c, e.defGrad(j.v))))
		default:
			G = m3.TMul(R, F)
		}
		sigma := linearStress(G, 1, m.lambda, m.mu)
		j.rot[k] = R
		w.stress[k] = m3.Scale(j.s*e.kvol, m3.Mul(R, sigma))
	}
}

// addCol adds wi·ri + wj·rj + d·e_b to the three consecutive entries of
// one block column.
func addCol(col []float64, ri, rj r3.Vec, wi, wj, d float64, b int) {
	col[0] += wi*ri.X + wj*rj.X
	col[1] += wi*ri.Y + wj*rj.Y
	col[2] += wi*ri.Z + wj*rj.Z
	col[b] += d
}

// symmetricWithin reports whether the skew part of U is within tol of
// its largest entry: for U = R_0ᵀ·F with R_0 the rotation of the last
// assembly, R_0 is then the rotation of F's polar decomposition that
// assembly found (its inverted-element branch included), to tol.
func symmetricWithin(U m3.Mat3, tol float64) bool {
	scale := 0.0
	for _, u := range U {
		scale = math.Max(scale, math.Abs(u))
	}
	lim := tol * scale
	return math.Abs(U[1]-U[3]) <= lim && math.Abs(U[2]-U[6]) <= lim && math.Abs(U[5]-U[7]) <= lim
}
