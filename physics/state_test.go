package physics

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

// TestStateCopy checks that a copied State owns its storage (the
// simulation stepping on does not change it), that it carries the
// element rotations, and that a state of another mesh does not fit.
func TestStateCopy(t *testing.T) {
	box := func(n int) *Simulation {
		msh, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, n, n, n)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(msh, nil, settings.Default())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	s := box(2)
	for i := 0; i < 3; i++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var cp State
	cp.CopyFrom(s.State())
	q := slices.Clone(s.Positions())
	rot := slices.Clone(s.State().Elements().Rotations())
	dv := slices.Clone(s.state.dvLast)
	if len(dv) != len(q) {
		t.Fatalf("the last velocity change has %d entries after three steps, want %d", len(dv), len(q))
	}
	if _, err := s.Step(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cp.Positions(), q) || !slices.Equal(cp.Elements().Rotations(), rot) || !slices.Equal(cp.dvLast, dv) || cp.Steps() != 3 {
		t.Fatalf("the copy changed with the simulation it was taken from")
	}
	if slices.Equal(s.Positions(), q) {
		t.Fatalf("the body did not move under gravity")
	}
	if err := s.state.fits(&cp); err != nil {
		t.Fatalf("a copy does not fit its own simulation: %v", err)
	}
	if err := box(3).state.fits(&cp); err == nil {
		t.Fatalf("a state of another mesh fits")
	}
}
