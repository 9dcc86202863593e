package physics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
)

// TestContactResidual checks the definition of NewtonRecord.ContactResidual
// on a box resting on the floor: with its soft-vertex pairs placed by hand,
// a pair without force that overlaps the floor by 1 mm counts 1 mm, a
// pushing pair 0.5 mm off the floor counts 0.5 mm, and a free pair above
// the floor or a pushing one at the contact distance counts nothing.
func TestContactResidual(t *testing.T) {
	s, c, a := floorPair(t)
	defer s.Close()
	ct := &c.ws.ct
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
			ct.lambda[3*i], ct.lambda[3*i+1], ct.lambda[3*i+2] = 0, 0, 0
			// every other pair well clear of the floor
			ct.p[3*i+2] = 0.01
		}
		// no slip over the step (Coulomb's part: TestFrictionResidual)
		ct.p[3*a], ct.p[3*a+1] = ct.pT[3*a], ct.pT[3*a+1]
		ct.p[3*a+2], ct.lambda[3*a] = tc.z, tc.lambda
		c.relinearise(0)
		if got := c.ws.contactResidual; math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("z = %g m, λn = %g: residual %g m, want %g m", tc.z, tc.lambda, got, tc.want)
		}
	}
}

// TestFrictionResidual checks Coulomb's part of the contact residual on a
// pushing pair at the contact distance, its slip over the step and its
// tangential force set by hand: zero where the law holds (no slip while
// sticking, slip against the force while sliding), the slip's length or
// its misalignment where it does not.
func TestFrictionResidual(t *testing.T) {
	s, c, a := floorPair(t)
	defer s.Close()
	ct := &c.ws.ct
	mu := c.set.Friction
	t1, t2 := ct.C[a].Row(1), ct.C[a].Row(2)
	for _, tc := range []struct {
		name string
		f1   float64 // tangential force along t1, in units of μλn
		slip r3.Vec  // slip over the step
		want float64
	}{
		{"sticking, still", 0, r3.Vec{}, 0},
		{"sticking, slipping", 0.5, r3.Scale(3e-4, t2), 3e-4},
		{"sliding against the force", 1, r3.Scale(-2e-4, t1), 0},
		{"sliding with the force", 1, r3.Scale(2e-4, t1), 4e-4},
		{"sliding across the force", 1, r3.Scale(2e-4, t2), 2e-4 * math.Sqrt2},
	} {
		for i := range ct.pairs {
			ct.lambda[3*i], ct.lambda[3*i+1], ct.lambda[3*i+2] = 0, 0, 0
			ct.p[3*i+2] = 0.01 // every other pair well clear of the floor
		}
		rigid := r3.Sub(ct.rEnd[a], ct.rT[a])
		p := r3.Add(r3.Add(point(ct.pT, a), rigid), tc.slip)
		p.Z = c.set.ContactDistance // on the floor's surface, z = 0: no Signorini residual
		ct.p[3*a], ct.p[3*a+1], ct.p[3*a+2] = p.X, p.Y, p.Z
		ct.lambda[3*a], ct.lambda[3*a+1] = 1, tc.f1*mu
		c.relinearise(0)
		if got := c.ws.contactResidual; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: residual %g m, want %g m", tc.name, got, tc.want)
		}
	}
}

// floorPair steps a box resting on the floor once and returns the
// simulation, its last step and the index of a soft-vertex pair on the
// floor; the caller closes the simulation.
func floorPair(t *testing.T) (*Simulation, *step, int) {
	t.Helper()
	s, _ := boxOnFloor(t, 3)
	if _, err := s.Step(); err != nil {
		s.Close()
		t.Fatal(err)
	}
	c := s.stepper()
	for a := range c.ws.ct.pairs {
		if c.ws.ct.pairs[a].Kind == collide.SoftVertex {
			return s, c, a
		}
	}
	s.Close()
	t.Fatal("no soft-vertex pair on the floor")
	return nil, nil, 0
}
