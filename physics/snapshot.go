package physics

import (
	"fmt"

	"softgrasp/physics/fem"
	"softgrasp/physics/rigid"
)

// Snapshot is a copy of everything a step depends on: positions,
// velocities, the rigid bodies' poses, the warm starts (of PGS and of the
// elements' polar decompositions), the step counter and the time. Restoring it replays a step exactly, which lets the
// benchmark time both schemes on the very same steps.
type Snapshot struct {
	q, v   []float64
	elem   fem.State
	bodies []rigid.Body
	warm   map[uint64]warmStart
	steps  int
	time   float64
}

// Snapshot copies the current state into snap (reusing its storage) and
// returns it; pass nil to allocate a new one.
func (s *Simulation) Snapshot(snap *Snapshot) *Snapshot {
	if snap == nil {
		snap = &Snapshot{}
	}
	snap.q = append(snap.q[:0], s.q...)
	snap.v = append(snap.v[:0], s.v...)
	snap.elem.CopyFrom(s.elem)
	snap.bodies = append(snap.bodies[:0], s.bodies...)
	if snap.warm == nil {
		snap.warm = make(map[uint64]warmStart, len(s.warm))
	}
	clear(snap.warm)
	for k, w := range s.warm {
		snap.warm[k] = w
	}
	snap.steps, snap.time = s.steps, s.time
	return snap
}

// Restore puts the simulation back in the state of snap, which must come
// from a simulation of the same mesh and bodies.
func (s *Simulation) Restore(snap *Snapshot) error {
	if len(snap.q) != len(s.q) || len(snap.bodies) != len(s.bodies) {
		return fmt.Errorf("snapshot of %d DOFs and %d bodies does not fit a simulation of %d DOFs and %d bodies",
			len(snap.q), len(snap.bodies), len(s.q), len(s.bodies))
	}
	if len(snap.elem.Rotations()) != len(s.elem.Rotations()) {
		return fmt.Errorf("snapshot of %d elements does not fit a simulation of %d", len(snap.elem.Rotations()), len(s.elem.Rotations()))
	}
	s.elem.CopyFrom(&snap.elem)
	copy(s.q, snap.q)
	copy(s.v, snap.v)
	copy(s.bodies, snap.bodies)
	clear(s.warm)
	for k, w := range snap.warm {
		s.warm[k] = w
	}
	s.steps, s.time = snap.steps, snap.time
	return nil
}
