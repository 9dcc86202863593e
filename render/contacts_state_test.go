package render

import (
	"testing"

	"softgrasp/physics/contact"
)

// TestContactStatesMatch: the overlay's state numbers are contact.State's
// (frame.ContactView carries them as bytes), and each has its own colour.
func TestContactStatesMatch(t *testing.T) {
	seen := map[[4]float32]string{}
	for _, tc := range []struct {
		mine  uint8
		state contact.State
	}{{stateSeparated, contact.Separated}, {stateStick, contact.Stick}, {stateSlip, contact.Slip}, {stateHeld, contact.Held}} {
		if tc.mine != uint8(tc.state) {
			t.Errorf("overlay state %d for %v (%d)", tc.mine, tc.state, tc.state)
		}
		c := stateColour(tc.mine)
		if other, ok := seen[c]; ok {
			t.Errorf("%v has the colour of %s", tc.state, other)
		}
		seen[c] = tc.state.String()
	}
}
