package physics

import (
	"math"
	"testing"

	"softgrasp/physics/collide"
)

// TestContactResidual checks the definition of NewtonRecord.ContactResidual
// on a box resting on the floor: with its soft-vertex pairs placed by hand,
// a pair without force that overlaps the floor by 1 mm counts 1 mm, a
// pushing pair 0.5 mm off the floor counts 0.5 mm, and a free pair above
// the floor or a pushing one at the contact distance counts nothing.
func TestContactResidual(t *testing.T) {
	s, _ := boxOnFloor(t, 3)
	defer s.Close()
	if _, err := s.Step(); err != nil {
		t.Fatal(err)
	}
	c := s.stepper()
	ct := &c.ws.ct
	a := -1
	for i := range ct.pairs {
		if ct.pairs[i].Kind == collide.SoftVertex {
			a = i
			break
		}
	}
	if a < 0 {
		t.Fatal("no soft-vertex pair on the floor")
	}
	d := c.set.ContactDistance
	for _, tc := range []struct {
		z, lambda, want float64
	}{
		{-1e-3, 0, 1e-3 + d}, // overlapping, no force
		{5e-4, 0, 0},         // apart, no force
		{d + 5e-4, 1, 5e-4},  // pushing while 0.5 mm off
		{d, 1, 0},            // pushing at the contact distance
		{-2e-4, 1, 2e-4 + d}, // pushing and overlapping
	} {
		for i := range ct.pairs {
			ct.lambda[3*i] = 0
			// every other pair well clear of the floor
			ct.p[3*i+2] = 0.01
		}
		ct.p[3*a+2], ct.lambda[3*a] = tc.z, tc.lambda
		c.relinearise(0)
		if got := c.ws.contactResidual; math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("z = %g m, λn = %g: residual %g m, want %g m", tc.z, tc.lambda, got, tc.want)
		}
	}
}
