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
// stiffness (N of force per m of opening): the larger of the secant from
// the opening o_c at the first touch, F/(o_c − o), and the tangent the
// last steps measured, −ΔF/Δo, smoothed. With the gain g < 1 the loop
// settles without overshoot while k̂ is no less than the tangent stiffness
// (an object touched first by a thin branch, then squeezed on its body,
// stiffens far beyond the secant). F is the weaker jaw's force: an object resting on the
// floor can take more on one jaw than on the other (the floor's friction
// holds the difference), and both must carry F* before the lift; held in
// the air, the two are equal. The grip has settled when the weaker jaw
// has carried F* within gripTolerance for gripSettle.
//
// An automatic target (settings.AutoGrip: a multiple of the object's
// weight) is also bounded by the squeeze: once both jaws touch, where the
// force is still short of F* when the jaws have closed by maxSqueeze of
// the width they touched at, the force reached becomes the target
// (Limited; but no less than Least, what the object's weight needs with a
// margin), and from then on the jaws close by no more than floorShare of
// that width whatever the force; held there, the target is what the
// object gives there (no less than Least). A floppy object (a ring, a knot) is
// held by what it gives at that squeeze instead of being folded up; a
// firm one (the default box gives its 4.5 N at 15 %) never meets the
// bound. A target the user set is held whatever the squeeze.

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
	floorShare = 0.3
	// tangentStep is the least change of the opening the tangent
	// stiffness is measured over, m.
	tangentStep = 5e-5
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
	// Least is the least target the squeeze bound may set, N: what holds
	// the object's weight with a margin (Scene.gripTarget).
	Least float64

	left, right float64 // each jaw's squeeze at the last step, N
	touched     bool    // a jaw has touched
	touchAt     float64 // the opening at the first touch, m
	bothAt      float64 // the opening at which the second jaw touched (0: not yet), m
	stiffness   float64 // k̂, N/m
	tangent     float64 // the smoothed tangent stiffness, N/m
	lastO       float64 // the opening and the weaker jaw's force at the last tangent sample
	lastF       float64
	limit       float64 // the target the squeeze bound set (0: none)
	floor       float64 // the least opening the squeeze bound allows (0: none), m
	settledFor  float64 // s that the weaker jaw has been within the tolerance
	lowFor      float64 // s that both jaws have carried less than lostShare
	freeFor     float64 // s that both jaws have carried nothing since a touch
	atMinimum   bool    // the opening reached MinOpening
}

// Sense records the jaws' squeeze of the last step.
func (c *GripControl) Sense(left, right float64) { c.left, c.right = left, right }

// Release forgets what the controller felt while closing (the forces it
// senses stay): the next closing starts from no touch.
func (c *GripControl) Release() {
	*c = GripControl{Force: c.Force, Auto: c.Auto, Least: c.Least, CloseSpeed: c.CloseSpeed, left: c.left, right: c.right}
}

// SetTarget sets the target squeeze, automatic or the user's; a limit the
// squeeze bound set is forgotten.
func (c *GripControl) SetTarget(force float64, auto bool) {
	c.Force, c.Auto, c.limit, c.floor = force, auto, 0, 0
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
	if c.touched && c.limit == 0 && math.Max(c.left, c.right) <= touch {
		// A touch that let go before the grip took hold (a jaw brushing
		// the object as the gripper turned) is forgotten.
		if c.freeFor += h; c.freeFor >= gripSettle {
			c.touched, c.bothAt, c.stiffness, c.tangent, c.lastO = false, 0, 0, 0, 0
		}
	} else {
		c.freeFor = 0
	}
	if c.bothAt == 0 && f > touch {
		c.bothAt = o
	}
	if c.Auto && c.limit == 0 && c.bothAt > 0 && c.bothAt-o >= maxSqueeze*c.bothAt && f < c.Force {
		c.limit, c.floor = math.Max(f, math.Min(c.Least, c.Force)), (1-floorShare)*c.bothAt
	}
	if c.limit > 0 && c.atMinimum && c.floor > 0 && f < c.limit {
		// Held at the squeeze's floor, the object gives what it gives there.
		c.limit = math.Max(f, math.Min(c.Least, c.Force))
	}
	target := c.Target()
	c.estimateStiffness(o, f, touch)
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
	least := math.Max(MinOpening, c.floor)
	o = math.Max(o+delta, least)
	c.atMinimum = o <= least
	return o
}

// estimateStiffness updates k̂ from the opening o and the weaker jaw's
// force f: the secant from the first touch, and the tangent between this
// step and the last sample at least tangentStep away (half the old
// tangent, half the new).
func (c *GripControl) estimateStiffness(o, f, touch float64) {
	if !c.touched || f <= touch {
		return
	}
	secant := 0.0
	if c.touchAt-o > 1e-5 {
		secant = f / (c.touchAt - o)
	}
	if c.lastO == 0 {
		c.lastO, c.lastF = o, f
	} else if do := c.lastO - o; math.Abs(do) >= tangentStep {
		if k := (f - c.lastF) / do; k > 0 {
			c.tangent = 0.5*c.tangent + 0.5*k
		}
		c.lastO, c.lastF = o, f
	}
	c.stiffness = math.Max(secant, c.tangent)
}

// failure says why a grip has not settled.
func (c *GripControl) failure(waited float64) string {
	if !c.touched {
		return fmt.Sprintf("the jaws closed to %.0f mm without touching the object", 1e3*MinOpening)
	}
	why := fmt.Sprintf("in %.1f s", waited)
	switch {
	case c.atMinimum && c.floor > 0:
		why = fmt.Sprintf("squeezing it by %.0f %% of its width: the object is too soft there", 100*floorShare)
	case c.atMinimum:
		why = fmt.Sprintf("at their least opening (%.0f mm): the object is too thin or too soft there", 1e3*MinOpening)
	}
	return fmt.Sprintf("the jaws carry %.2g N and %.2g N of the %.2g N grip %s", c.left, c.right, c.Target(), why)
}
