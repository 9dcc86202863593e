package physics

import (
	"fmt"

	"softgrasp/physics/rigid"
)

// Snapshot is a copy of everything a step depends on: the soft body's
// State (positions, velocities, the warm starts of PGS and of the
// elements' polar decompositions, the step counter and the time) and the
// rigid bodies' poses. Restoring it replays a step exactly, which lets
// the benchmark time both schemes on the very same steps.
type Snapshot struct {
	state  State
	bodies []rigid.Body
	dyn    []*RigidDynamics // the dynamic bodies' velocities, nil for kinematic ones
}

// Snapshot copies the current state into snap (reusing its storage) and
// returns it; pass nil to allocate a new one.
func (s *Simulation) Snapshot(snap *Snapshot) *Snapshot {
	if snap == nil {
		snap = &Snapshot{}
	}
	snap.state.CopyFrom(s.state)
	snap.bodies = append(snap.bodies[:0], s.bodies...)
	snap.dyn = snap.dyn[:0]
	for _, d := range s.dyn {
		var copyOf *RigidDynamics
		if d != nil {
			r := d.RigidDynamics
			copyOf = &r
		}
		snap.dyn = append(snap.dyn, copyOf)
	}
	return snap
}

// Restore puts the simulation back in the state of snap, which must come
// from a simulation of the same mesh and bodies.
func (s *Simulation) Restore(snap *Snapshot) error {
	if err := s.state.fits(&snap.state); err != nil {
		return err
	}
	if len(snap.bodies) != len(s.bodies) {
		return fmt.Errorf("snapshot of %d bodies does not fit a simulation of %d bodies", len(snap.bodies), len(s.bodies))
	}
	s.state.CopyFrom(&snap.state)
	copy(s.bodies, snap.bodies)
	for i, d := range snap.dyn {
		if i < len(s.dyn) && s.dyn[i] != nil && d != nil {
			s.dyn[i].RigidDynamics = *d
		}
	}
	return nil
}
