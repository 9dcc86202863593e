package scenario

import (
	"fmt"

	"softgrasp/physics"
	"softgrasp/physics/settings"
)

// An A/B comparison runs a second scene B beside the running scene A,
// built from A's configuration with other solver settings
// (settings.ApplyAB), from A's state, and stepped right after A with
// A's kinematic bodies where A's driver put them: whatever drives A's
// gripper (the script, the mouse, a replay) drives B's the same, and
// the two differ only by their solver.

// NewFollower builds the scene of cfg (A's configuration with B's
// changes) in lead's current state: positions, velocities, rigid poses,
// warm starts, time, the gripper and the incline's hold. The follower has
// no script of its own; StepAlong moves its bodies.
func NewFollower(lead *Scene, cfg settings.Scenario) (*Scene, error) {
	b, err := Build(cfg)
	if err != nil {
		return nil, err
	}
	if err := b.follow(lead); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// follow copies lead's state into sc (same mesh and bodies).
func (sc *Scene) follow(lead *Scene) error {
	if err := sc.Sim.Restore(lead.Sim.Snapshot(nil)); err != nil {
		return fmt.Errorf("B does not fit A: %w", err)
	}
	if sc.Driver != nil && lead.Driver != nil {
		*sc.Driver = *lead.Driver
	}
	sc.script = nil
	sc.release = lead.release
	if err := sc.Sim.SetFrictionOverride(lead.Sim.FrictionOverride()); err != nil {
		return err
	}
	sc.metrics.reset(sc)
	return nil
}

// StepAlong steps sc with its gripper where lead's driver put lead's at
// lead's last step (call it right after lead.Step), then as Step does.
func (sc *Scene) StepAlong(lead *Scene) (*physics.StepStats, error) {
	if sc.Driver != nil && lead.Driver != nil {
		*sc.Driver = *lead.Driver
		poses := sc.Driver.Gripper.JawPoses()
		sc.Sim.SetBodyEnd(LeftJawBody, poses[0])
		sc.Sim.SetBodyEnd(RightJawBody, poses[1])
	}
	return sc.advance()
}
