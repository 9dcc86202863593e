package scenario

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/settings"
)

// The incline scene checks Coulomb's law against a rigid block's motion,
// a = g·(sin θ − μ·cos θ). A soft block laid on the slope at rest is not
// at rest yet: it sinks under its weight and its base spreads (Poisson),
// and while the base slides outwards the friction opposes that spreading
// instead of the slope, so the block leaves the landing with a downhill
// speed no rigid block would have (about 12 mm/s at 3k DOFs, μ = 0.49,
// tan θ = 0.5; at μ = tan θ it then slides on for ever, as Coulomb
// friction allows). The scene therefore holds the block first, with a
// friction coefficient twice tan θ, until it has settled, then lowers the
// coefficient to the configured μ over inclineRamp: a sudden drop frees
// the shear the base stored while held in one go and kicks the block too
// (about 5 mm/s), a ramp lets the base slip as the limit reaches each
// contact. Every incline measure counts from the end of the ramp.
const (
	inclineSettle = 0.3 // s
	inclineRamp   = 0.2 // s
)

// inclineHoldFriction is the friction of the settling phase for the
// configured μ: enough to hold the block on the slope with margin.
func inclineHoldFriction(theta, mu float64) float64 {
	return math.Max(mu, 2*math.Tan(theta)+0.1)
}

// inclineRelease is the state of the incline's hold and release: done
// once the ramp has ended, then the time, the configured μ, the centre of
// mass and its velocity at the release. Until then the scene overrides
// the simulation's friction (physics.Simulation.SetFrictionOverride); the
// configured μ stays in its settings.
type inclineRelease struct {
	done bool
	time float64
	mu   float64
	com  r3.Vec
	v    r3.Vec
}

// holdIncline makes the steps use the holding friction for the
// configured μ until the release (Build).
func (sc *Scene) holdIncline() error {
	mu := sc.Sim.Settings().Friction
	return sc.Sim.SetFrictionOverride(inclineHoldFriction(sc.cfg.InclineAngle, mu), true)
}

// holding reports whether the scene still holds its block (the incline
// before the end of the ramp).
func (sc *Scene) holding() bool { return sc.cfg.Kind == settings.Incline && !sc.release.done }

// releaseIncline ramps the friction override of the next step from the
// holding μ down to the configured one once the block has settled, and
// lifts it when the ramp reaches the configured μ; called after every
// incline step.
func (sc *Scene) releaseIncline() error {
	r := &sc.release
	t := sc.Sim.Time()
	if r.done || t < inclineSettle-1e-9 {
		return nil
	}
	mu := sc.Sim.Settings().Friction
	hold := inclineHoldFriction(sc.cfg.InclineAngle, mu)
	s := math.Min(1, (t-inclineSettle)/inclineRamp)
	ramp := hold + s*(mu-hold)
	if s >= 1-1e-9 {
		ramp = mu
	}
	if ramp != mu {
		return sc.Sim.SetFrictionOverride(ramp, true)
	}
	*r = inclineRelease{done: true, time: t, mu: mu, com: sc.CentreOfMass(), v: sc.meanVelocity()}
	return sc.Sim.SetFrictionOverride(0, false)
}

// inclineResult measures the block's motion down the slope since its
// release.
func (sc *Scene) inclineResult() *InclineResult {
	theta := sc.cfg.InclineAngle
	mu := sc.Sim.Settings().Friction
	if sc.release.done {
		mu = sc.release.mu
	}
	g := sc.Sim.Settings().Gravity
	n := sc.Sim.Bodies()[FloorBody].End.Rotate(r3.Vec{Z: 1})
	down := r3.Sub(g, r3.Scale(r3.Dot(g, n), n))
	if l := r3.Norm(down); l > 0 {
		down = r3.Scale(1/l, down)
	}
	res := &InclineResult{
		AngleDeg: theta * 180 / math.Pi, TanTheta: math.Tan(theta), ReleaseTime: inclineSettle + inclineRamp,
		PredictedAcceleration: math.Max(0, r3.Norm(g)*(math.Sin(theta)-mu*math.Cos(theta))),
	}
	r := &sc.release
	if !r.done {
		return res
	}
	t := sc.Sim.Time() - r.time
	v := sc.meanVelocity()
	res.Displacement = r3.Dot(r3.Sub(sc.CentreOfMass(), r.com), down)
	res.Speed = r3.Dot(v, down)
	res.ReleaseSpeed = r3.Dot(r.v, down)
	if t > 0 {
		res.Acceleration = (res.Speed - res.ReleaseSpeed) / t
	}
	res.Predicted = 0.5 * res.PredictedAcceleration * t * t
	res.Slides = res.Displacement > 1e-3
	return res
}
