package fem

import (
	"fmt"
	"math"

	"softgrasp/physics/m3"
)

// ElasticForces computes the internal elastic force at positions q,
//
//	f_el(q) = Σ_e R_e·K_e·(R_eᵀ·x_e − X_e),
//
// the force the body exerts to resist its deformation (see element.go for
// the element formula and the rest-position convention), with the
// rotations R_e warm-started from st, which it leaves as it is, and the
// pass's results in w. f (length 3N) is overwritten. It returns an error,
// and leaves f untouched, when a length is not 3N or st or w is not m's.
func (m *Model) ElasticForces(st *State, w *Workspace, q []float64, f []float64) error {
	if err := m.checkState(st, w); err != nil {
		return err
	}
	if err := m.checkLen("q", q); err != nil {
		return err
	}
	if err := m.checkLen("f", f); err != nil {
		return err
	}
	m.elementStresses(w, st.rot, w.rot, q, nil, 0, 1)
	clear(f)
	m.scatterPass(w, f, nil, nil, 0)
	return nil
}

// Forces computes the whole internal force at positions q and
// velocities v,
//
//	F(q, v) = f_el(q) + B(q)·v,  B(q) = α·M + β·K(q),
//
// the force whose linearisation at the start of the step Assemble puts
// into A and b (there F(q(t+h), v(t+h)) ≈ F(q, v) + K·h·(v + Δv) + B·Δv),
// here evaluated anew with the rotations R_e at q: the nonlinear term of
// the backward-Euler residual that the step's Newton iterations reduce
// (docs/method.md, "Newton on the whole residual"). By the formulas of
// element.go the elastic and stiffness-damping parts are one element
// pass, V·R·σ(sym(Rᵀ·(F + β·F_v)) − I)·g_i with F_v = Σ_j v_j ⊗ g_j. The
// rotations are warm-started from st, which it leaves as it is; w holds
// the pass's results. f (length 3N) is overwritten.
func (m *Model) Forces(st *State, w *Workspace, q, v, f []float64) error {
	if err := m.checkPass(st, w, []string{"q", "v", "f"}, q, v, f); err != nil {
		return err
	}
	m.elementStresses(w, st.rot, w.rot, q, v, m.mat.StiffnessDamping, 1)
	m.gatherForces(w, v, f)
	return nil
}

// gatherForces writes into f the mass damping α·M·v and adds the element
// stresses of the last pass in w: the whole internal force of Forces and
// ForcesOverStep once their element pass has run.
func (m *Model) gatherForces(w *Workspace, v, f []float64) {
	alpha := m.mat.MassDamping
	for i, mi := range m.mass {
		d := alpha * mi
		f[3*i], f[3*i+1], f[3*i+2] = d*v[3*i], d*v[3*i+1], d*v[3*i+2]
	}
	m.scatterPass(w, f, nil, nil, 0)
}

// ForcesOverStep is Forces with the stiffness damping of a backward-Euler
// step of h that ends at q with velocities v: the rate of each element's
// stretch over the step from q_t = q − h·v,
//
//	F(q, v) = α·M·v + Σ_e V·R·σ(U − I + β·(U − U_t)/h)·g_i,
//
// U = Rᵀ·F and U_t = R_tᵀ·F_t the stretches of the polar decompositions
// at q and q_t, instead of β·K(q)·v. From the rest shape the two agree
// to first order in h. They differ in a step that turns far: the chord
// velocity v = (R − I)·x/h of a rigid turn by θ has the velocity gradient
// (R − I)/h, whose corotated symmetric part (I − sym R)/h reads as a
// stretch rate of (1 − cos θ)/h, and β·K(q)·v damps it as such (at
// θ = 0.5 rad, h = 20 ms, it shrinks a freely spinning box by 2 % in a
// step), while U − U_t vanishes for every rigid motion of an element
// (docs/method.md, "Stiffness damping on the stretch rate"). They also
// differ, by the strain times the turn rate, when a strained body turns:
// K(q)·v of a rigid spin ω×x of a strained element is not zero, so
// β·K(q)·v damps that spin, and the stretch rate does not. The
// derivative in v, ignoring that of the rotations, is β·K(q) as in
// Forces, so the step's A stays its Jacobian. h must be positive.
func (m *Model) ForcesOverStep(st *State, w *Workspace, q, v []float64, h float64, f []float64) error {
	if err := m.checkPass(st, w, []string{"q", "v", "f"}, q, v, f); err != nil {
		return err
	}
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("fem: the step h = %g s is not a positive number", h)
	}
	m.stretchRateStresses(w, st.rot, w.rot, q, v, m.mat.StiffnessDamping, h)
	m.gatherForces(w, v, f)
	return nil
}

// StiffnessMul computes y = K(q)·dx with the corotational stiffness
// K = Σ_e R_e·K_e·R_eᵀ at positions q: the same tangent that Assemble puts
// into A, applied matrix-free. By Eq. (1) of element.go,
// (R·K_e·Rᵀ·dx)_i = V·R·σ(sym(Rᵀ·ΔF))·g_i with ΔF = Σ_j dx_j ⊗ g_j.
// The rotations are warm-started from st, which it leaves as it is; w
// holds the pass's results. y (length 3N) is overwritten.
func (m *Model) StiffnessMul(st *State, w *Workspace, q, dx, y []float64) error {
	if err := m.checkPass(st, w, []string{"q", "dx", "y"}, q, dx, y); err != nil {
		return err
	}
	m.elementStresses(w, st.rot, w.rot, q, nil, 0, 1)
	clear(y)
	for k := range m.elems {
		e := &m.elems[k]
		R := &w.rot[k]
		sigma := linearStress(m3.TMul(*R, e.defGrad(dx)), 0, m.lambda, m.mu)
		P := m3.Scale(e.kvol, m3.Mul(*R, sigma))
		e.scatterForce(&P, y)
	}
	return nil
}

// VonMises writes into perNode (length N) the von Mises equivalent of the
// corotated element stress σ_e = σ(sym(R_eᵀF_e) − I) at positions q,
//
//	σ_vM = √(½·((σ11−σ22)² + (σ22−σ33)² + (σ33−σ11)²) + 3·(σ12² + σ23² + σ31²)),
//
// averaged at every node over the elements around it, weighted by their
// rest volumes (Pa). It feeds the colour map. The rotations are
// warm-started from st, which it leaves as it is (a display of the stress
// never changes what the next assembly computes); w holds the pass's
// results.
func (m *Model) VonMises(st *State, w *Workspace, q []float64, perNode []float64) error {
	if err := m.checkState(st, w); err != nil {
		return err
	}
	if err := m.checkLen("q", q); err != nil {
		return err
	}
	if len(perNode) != m.nodes {
		return fmt.Errorf("fem: perNode has length %d, want N = %d", len(perNode), m.nodes)
	}
	m.elementStresses(w, st.rot, w.rot, q, nil, 0, 1)
	clear(perNode)
	for k := range m.elems {
		e := &m.elems[k]
		// P = V·R·σ, so σ = Rᵀ·P/V.
		sigma := m3.TMul(w.rot[k], w.stress[k])
		vm := vonMises(sigma) / 4
		for _, i := range e.nodes {
			perNode[i] += vm
		}
	}
	for i, w := range m.nodeVol {
		perNode[i] /= w
	}
	return nil
}

// vonMises returns the von Mises equivalent stress of the symmetric σ.
func vonMises(s m3.Mat3) float64 {
	d01, d12, d20 := s[0]-s[4], s[4]-s[8], s[8]-s[0]
	return math.Sqrt(0.5*(d01*d01+d12*d12+d20*d20) + 3*(s[1]*s[1]+s[5]*s[5]+s[2]*s[2]))
}

// checkPass reports a state or workspace that is not the model's, or a
// vector of an element pass (named in order) whose length is not 3N.
func (m *Model) checkPass(st *State, w *Workspace, names []string, xs ...[]float64) error {
	if err := m.checkState(st, w); err != nil {
		return err
	}
	for i, x := range xs {
		if err := m.checkLen(names[i], x); err != nil {
			return err
		}
	}
	return nil
}
