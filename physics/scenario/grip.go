package scenario

import (
	"fmt"
	"math"
)

// Force-controlled closing: what a parallel gripper does with an object
// of unknown size and stiffness. The jaws stay kinematic (the step moves
// them exactly as commanded); what is controlled is the commanded
// opening. They close at CloseSpeed until a jaw feels the object, then
// the opening follows the jaws' squeeze F (each jaw's force on the object
// along the closing axis, from the last step's λ) to the target F*:
//
//	Δo = −clamp(g·(F* − F)/k̂, −v·h, v·h),   o ≥ MinOpening,
//
// a proportional step on the force error through k̂, the contact's
// stiffness (N of force per m of opening) estimated as the secant from
// the opening o_c at the first touch, k̂ = F/(o_c − o). With the gain g < 1
// the loop settles without overshoot on any object whose force grows no
// more than 1/g times faster than the secant (a Hertzian contact grows 1.5
// times faster). F is the weaker jaw's force: an object resting on the
// floor can take more on one jaw than on the other (the floor's friction
// holds the difference), and both must carry F* before the lift; held in
// the air, the two are equal. The grip has settled when the weaker jaw
// has carried F* within gripTolerance for gripSettle.
//
// An automatic target (settings.AutoGrip: a multiple of the object's
// weight) is also bounded by the squeeze: once both jaws touch, the jaws
// close by at most maxSqueeze of the width they touched at, and where the
// force is still short of F* there, the force reached becomes the target
// (Limited). A floppy object (a ring, a knot) is held by what it gives at
// that squeeze instead of being folded up; a firm one (the default box
// gives its 4.5 N at 15 %) never meets the bound. A target the user set
// is held whatever the squeeze.

// Constants of the grip controller.
const (
	gripGain      = 0.3
	gripTolerance = 0.1  // of the target, each jaw
	gripSettle    = 0.05 // s within the tolerance before the grip counts as settled
	// touchShare is the share of the target one jaw's force must reach to
	// count as a touch (below it, contact noise).
	touchShare = 0.02
	// maxSqueeze bounds an automatic grip's squeeze, as a share of the
	// width the jaws touched at.
	maxSqueeze = 0.2
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
	// Force is the target squeeze of each jaw, N; Auto marks a target
	// chosen from the object (bounded by maxSqueeze); CloseSpeed is the
	// speed the opening closes at before and while it squeezes, m/s.
	Force      float64
	Auto       bool
	CloseSpeed float64

	left, right float64 // each jaw's squeeze at the last step, N
	touched     bool    // a jaw has touched
	touchAt     float64 // the opening at the first touch, m
	bothAt      float64 // the opening at which the second jaw touched (0: not yet), m
	stiffness   float64 // k̂, N/m
	limit       float64 // the target the squeeze bound set (0: none)
	settledFor  float64 // s that the weaker jaw has been within the tolerance
	lowFor      float64 // s that both jaws have carried less than lostShare
	atMinimum   bool    // the opening reached MinOpening
}

// Sense records the jaws' squeeze of the last step.
func (c *GripControl) Sense(left, right float64) { c.left, c.right = left, right }

// Release forgets what the controller felt while closing (the forces it
// senses stay): the next closing starts from no touch.
func (c *GripControl) Release() {
	*c = GripControl{Force: c.Force, Auto: c.Auto, CloseSpeed: c.CloseSpeed, left: c.left, right: c.right}
}

// SetTarget sets the target squeeze, automatic or the user's; a limit the
// squeeze bound set is forgotten.
func (c *GripControl) SetTarget(force float64, auto bool) {
	c.Force, c.Auto, c.limit = force, auto, 0
}

// Target is the force the jaws close to: the squeeze bound's, where it
// set one, else Force.
func (c *GripControl) Target() float64 {
	if c.limit > 0 {
		return c.limit
	}
	return c.Force
}

// Limited reports whether the squeeze bound set the target.
func (c *GripControl) Limited() bool { return c.limit > 0 }

// Settled reports whether the weaker jaw has carried the target long
// enough.
func (c *GripControl) Settled() bool { return c.settledFor >= gripSettle }

// Lost reports whether a grip that touched no longer carries anything.
func (c *GripControl) Lost() bool { return c.touched && c.lowFor >= lostFor }

// next returns the opening after a step of length h from opening o.
func (c *GripControl) next(o, h float64) float64 {
	f := math.Min(c.left, c.right)
	touch := touchShare * c.Force
	if !c.touched && math.Max(c.left, c.right) > touch {
		c.touched, c.touchAt = true, o
	}
	if c.bothAt == 0 && f > touch {
		c.bothAt = o
	}
	if c.Auto && c.limit == 0 && c.bothAt > 0 && c.bothAt-o >= maxSqueeze*c.bothAt && f < c.Force {
		c.limit = f
	}
	target := c.Target()
	if c.touched && c.touchAt-o > 1e-5 && f > touch {
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
	return fmt.Sprintf("the jaws carry %.2g N and %.2g N of the %.2g N grip %s", c.left, c.right, c.Target(), why)
}
