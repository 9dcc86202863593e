package scenario

import (
	"fmt"
	"math"
)

// Force-controlled closing: what a parallel gripper does with an object
// of unknown size and stiffness. The jaws stay kinematic (the step moves
// them exactly as commanded); what is controlled is the commanded
// opening. They close at CloseSpeed until a jaw feels the object, then
// the opening follows the jaws' mean normal force F (each jaw's is the
// sum of its contacts' λn, from the last step) to the target F*:
//
//	Δo = −clamp(g·(F* − F)/k̂, −v·h, v·h),   o ≥ MinOpening,
//
// a proportional step on the force error through k̂, the contact's
// stiffness (N of force per m of opening) estimated as the secant from
// the opening o_c at first touch, k̂ = F/(o_c − o). With the gain g < 1 the
// loop settles without overshoot on any object whose force grows no more
// than 1/g times faster than the secant (a Hertzian contact grows 1.5
// times faster). F is the weaker jaw's force: an object resting on the
// floor can take more on one jaw than on the other (the floor's friction
// holds the difference), and both must carry F* before the lift; held in
// the air, the two are equal. The grip has settled when the weaker jaw
// has carried F* within gripTolerance for gripSettle.

// Constants of the grip controller.
const (
	gripGain      = 0.3
	gripTolerance = 0.1  // of the target, each jaw
	gripSettle    = 0.05 // s within the tolerance before the grip counts as settled
	// touchShare is the share of the target one jaw's force must reach to
	// count as a touch (below it, contact noise).
	touchShare = 0.02
	// gripTimeout is how long the script waits, from the start of the
	// close, for the grip to settle before it gives up, s.
	gripTimeout = 3.0
	// lostShare and lostFor: a settled grip is lost when both jaws carry
	// less than lostShare of the target for lostFor seconds.
	lostShare = 0.1
	lostFor   = 0.2
)

// GripControl is the state of the force controller: its target and
// closing speed, and what it has felt so far.
type GripControl struct {
	// Force is the target normal force of each jaw, N; CloseSpeed the
	// speed the opening closes at before and while it squeezes, m/s.
	Force, CloseSpeed float64

	left, right float64 // each jaw's normal force at the last step, N
	touched     bool
	touchAt     float64 // the opening at the first touch, m
	stiffness   float64 // k̂, N/m
	settledFor  float64 // s that both jaws have been within the tolerance
	lowFor      float64 // s that both jaws have carried less than lostShare
	atMinimum   bool    // the opening reached MinOpening
}

// Sense records the jaws' normal forces of the last step.
func (c *GripControl) Sense(left, right float64) { c.left, c.right = left, right }

// Release forgets what the controller felt while closing (the forces it
// senses stay): the next closing starts from no touch.
func (c *GripControl) Release() {
	*c = GripControl{Force: c.Force, CloseSpeed: c.CloseSpeed, left: c.left, right: c.right}
}

// Settled reports whether the weaker jaw has carried the target long
// enough.
func (c *GripControl) Settled() bool { return c.settledFor >= gripSettle }

// Lost reports whether a grip that touched no longer carries anything.
func (c *GripControl) Lost() bool { return c.touched && c.lowFor >= lostFor }

// Forces returns each jaw's normal force at the last step, N.
func (c *GripControl) Forces() (left, right float64) { return c.left, c.right }

// next returns the opening after a step of length h from opening o.
func (c *GripControl) next(o, h float64) float64 {
	target := c.Force
	f := math.Min(c.left, c.right)
	if !c.touched && math.Max(c.left, c.right) > touchShare*target {
		c.touched, c.touchAt = true, o
	}
	if c.touched && c.touchAt-o > 1e-5 && f > touchShare*target {
		c.stiffness = f / (c.touchAt - o)
	}
	if math.Abs(f-target) <= gripTolerance*target {
		c.settledFor += h
	} else {
		c.settledFor = 0
	}
	if math.Max(c.left, c.right) < lostShare*target {
		c.lowFor += h
	} else {
		c.lowFor = 0
	}
	step := c.CloseSpeed * h
	delta := -step // closing until a touch, or while the stiffness is unknown
	if c.touched && c.stiffness > 0 {
		delta = -math.Max(-step, math.Min(step, gripGain*(target-f)/c.stiffness))
	}
	o = math.Max(o+delta, MinOpening)
	c.atMinimum = o <= MinOpening
	return o
}

// failure says why a grip has not settled.
func (c *GripControl) failure(waited float64) string {
	if !c.touched {
		return fmt.Sprintf("the jaws closed to %.0f mm without touching the object", 1e3*MinOpening)
	}
	why := fmt.Sprintf("in %.1f s", waited)
	if c.atMinimum {
		why = fmt.Sprintf("at their least opening (%.0f mm): the object is too thin or too soft there", 1e3*MinOpening)
	}
	return fmt.Sprintf("the jaws carry %.2f N and %.2f N of the %.2g N grip %s", c.left, c.right, c.Force, why)
}
