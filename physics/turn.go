package physics

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
)

// partMotion accumulates the moments of one part of the soft body about
// the origin: its mass m, first moment Σ m·x, linear momentum Σ m·v,
// angular momentum Σ m·x×v and second moment Σ m·x·xᵀ.
type partMotion struct {
	m      float64
	mx, mv r3.Vec
	l      r3.Vec
	xx     m3.Mat3
}

// turnPerStep returns the largest angle (rad) by which a part of the soft
// body turns in one step at the velocity v_t of the step's start,
//
//	θ = h·‖ω‖,  ω = I_c⁻¹·L_c,
//
// with L_c the part's angular momentum and I_c its inertia tensor about
// its centre of mass: the rotation of the rigid motion closest, in the
// mass-weighted sense, to its nodes' velocities. It gates Newton on the
// whole residual (Settings.ElasticTurn; docs/method.md, "Newton on the
// whole residual"): the internal forces' linearisation at q_t errs by the
// second-order part of the step's rotation, (1 − cos θ) of the radius.
func (c *step) turnPerStep() float64 {
	parts := c.ws.turn
	clear(parts)
	q, v := c.state.q, c.state.v
	for i, m := range c.model.fem.Mass() {
		p := &parts[c.model.nodePart[i]]
		x := r3.Vec{X: q[3*i], Y: q[3*i+1], Z: q[3*i+2]}
		u := r3.Vec{X: v[3*i], Y: v[3*i+1], Z: v[3*i+2]}
		p.m += m
		p.mx = r3.Add(p.mx, r3.Scale(m, x))
		p.mv = r3.Add(p.mv, r3.Scale(m, u))
		p.l = r3.Add(p.l, r3.Scale(m, r3.Cross(x, u)))
		p.xx = m3.Add(p.xx, m3.Scale(m, m3.Outer(x, x)))
	}
	turn := 0.0
	for k := range parts {
		turn = math.Max(turn, parts[k].angularSpeed()*c.set.TimeStep)
	}
	return turn
}

// angularSpeed returns ‖ω‖ of the part's moments (0 for a part without
// mass or with a singular inertia tensor, a single node or a line).
func (p *partMotion) angularSpeed() float64 {
	if p.m <= 0 {
		return 0
	}
	c := r3.Scale(1/p.m, p.mx)
	// About the centre: L_c = L − c×(Σ m·v), S_c = S − m·c·cᵀ, and
	// I_c = tr(S_c)·I − S_c.
	lc := r3.Sub(p.l, r3.Cross(c, p.mv))
	sc := m3.Sub(p.xx, m3.Scale(p.m, m3.Outer(c, c)))
	tr := sc[0] + sc[4] + sc[8]
	ic := m3.Sub(m3.Scale(tr, m3.Identity()), sc)
	inv, ok := ic.Inverse()
	if !ok {
		return 0
	}
	return r3.Norm(inv.MulVec(lc))
}
