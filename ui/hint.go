package ui

import (
	"fmt"
	"math"

	"softgrasp/physics/frame"
)

// The next step's hint: one line, in the Help bar's title, saying what the
// mouse or a key does next with the gripper, from the frame's state and
// whether a ctrl+click's aim is previewed.

// NextHint returns the hint for the frame f; aimed is whether a
// ctrl+click's aim is previewed. "" in a scene without a gripper.
func NextHint(f *frame.Frame, aimed bool) string {
	if f == nil || !f.Gripper.Present {
		return ""
	}
	s := &f.Stats
	gripped := s.Gripping && s.GripTarget > 0 && math.Min(s.GripLeft, s.GripRight) >= (1-gripHintTolerance)*s.GripTarget
	switch {
	case f.Gripper.Scripted:
		return fmt.Sprintf("grasp and rotate: %s; a drag or Manual takes the gripper", s.Phase)
	case s.Held:
		return "held: right-drag moves it, ctrl+right-drag spins it, G opens the jaws"
	case gripped:
		return "gripped: right-drag up lifts it, ctrl+right-drag spins it"
	case s.Gripping:
		return fmt.Sprintf("closing until both jaws carry %.2g N", s.GripTarget)
	case aimed:
		return "G closes the jaws until they grip"
	}
	return "ctrl+click the object to aim the open jaws at it"
}

// gripHintTolerance is how far below the target the weaker jaw may be and
// the grip count as taken (the controller's own tolerance).
const gripHintTolerance = 0.1
