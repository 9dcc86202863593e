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
	// From them (rigid): the centre of mass c, its velocity vc and the
	// angular velocity ω of the rigid motion closest to the velocities;
	// rot is predictRigid's rotation over the step.
	c, vc, omega r3.Vec
	rot          r3.Rotation
}

// turnPerStep returns the largest angle (rad) by which a part of the soft
// body turns in one step at the velocity v_t of the step's start,
//
//	θ = h·‖ω‖,  ω = I_c⁻¹·L_c,
//
// with L_c the part's angular momentum and I_c its inertia tensor about
// its centre of mass: the rotation of the rigid motion closest, in the
// mass-weighted sense, to its nodes' velocities. It gates Newton on the
// whole residual (Settings.ElasticTurn; docs/method.md, "The gate by the
// turn per step"): the internal forces' linearisation at q_t errs by the
// second-order part of the step's rotation, (1 − cos θ) of the radius.
func (c *step) turnPerStep() float64 {
	parts := c.ws.elastic.turn
	clear(parts)
	q, v := c.state.q, c.state.v
	for i, m := range c.model.fem.Mass() {
		p := &parts[c.model.nodePart[i]]
		x, u := point(q, i), point(v, i)
		p.m += m
		p.mx = r3.Add(p.mx, r3.Scale(m, x))
		p.mv = r3.Add(p.mv, r3.Scale(m, u))
		p.l = r3.Add(p.l, r3.Scale(m, r3.Cross(x, u)))
		p.xx = m3.Add(p.xx, m3.Scale(m, m3.Outer(x, x)))
	}
	turn := 0.0
	for k := range parts {
		parts[k].rigid()
		turn = math.Max(turn, r3.Norm(parts[k].omega)*c.set.TimeStep)
	}
	return turn
}

// rigid sets the part's c, vc and ω from its moments (ω = 0 for a part
// without mass or with a singular inertia tensor, a single node or a
// line).
func (p *partMotion) rigid() {
	p.omega = r3.Vec{}
	if p.m <= 0 {
		return
	}
	p.c, p.vc = r3.Scale(1/p.m, p.mx), r3.Scale(1/p.m, p.mv)
	// About the centre: L_c = L − c×(Σ m·v), S_c = S − m·c·cᵀ, and
	// I_c = tr(S_c)·I − S_c.
	lc := r3.Sub(p.l, r3.Cross(p.c, p.mv))
	sc := m3.Sub(p.xx, m3.Scale(p.m, m3.Outer(p.c, p.c)))
	tr := sc[0] + sc[4] + sc[8]
	ic := m3.Sub(m3.Scale(tr, m3.Identity()), sc)
	if inv, ok := ic.Inverse(); ok {
		p.omega = inv.MulVec(lc)
	}
}

// predictRigid writes into dv the velocity change Δv* that moves every
// part of the soft body rigidly over the step, its centre by h·vc and its
// nodes turned about it by the rotation of angle h·‖ω‖ about ω (the
// parts' motions of turnPerStep, which must have run this step):
//
//	q*_i = q_t,i + h·vc + (Rot(h·ω) − I)·(q_t,i − c),   Δv*_i = (q*_i − q_t,i)/h − v_t,i.
//
// Unlike the linear extrapolation q_t + h·v_t, which leaves the circle
// by (1 − cos θ) of the radius, q* keeps the body's shape.
func (c *step) predictRigid(dv []float64) {
	h := c.set.TimeStep
	q, v := c.state.q, c.state.v
	parts := c.ws.elastic.turn
	for k := range parts {
		p := &parts[k]
		axis := p.omega
		if r3.Norm(axis) == 0 {
			axis = r3.Vec{Z: 1}
		}
		p.rot = r3.NewRotation(h*r3.Norm(p.omega), axis)
	}
	for i := range c.model.fem.Mass() {
		p := &parts[c.model.nodePart[i]]
		r := r3.Sub(point(q, i), p.c)
		move := r3.Add(r3.Scale(h, p.vc), r3.Sub(p.rot.Rotate(r), r))
		setPoint(dv, i, r3.Sub(r3.Vec{X: move.X / h, Y: move.Y / h, Z: move.Z / h}, point(v, i)))
	}
}
