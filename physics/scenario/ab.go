package scenario

import (
	"fmt"

	"softgrasp/physics"
	"softgrasp/physics/m3"
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

// ABReport is a side-by-side run (RunAB): run A, run B (A with the
// changes BChanges) and how far apart they went.
type ABReport struct {
	A          Summary      `json:"a"`
	B          Summary      `json:"b"`
	BChanges   string       `json:"b_changes"`
	Divergence ABDivergence `json:"divergence"`
}

// ABDivergence measures the two runs against each other at every step:
// the largest distance between the same node in A and in B (m), when it
// happened, and the distance at the end.
type ABDivergence struct {
	MaxNodeDistance   float64 `json:"max_node_distance"`
	MaxAt             float64 `json:"max_at"` // simulated time, s
	FinalNodeDistance float64 `json:"final_node_distance"`
	Steps             int     `json:"steps"`
}

// RunAB runs cfgA and cfgB (cfgA with the changes spec, settings.ApplyAB)
// step for step, each with its own script, for steps steps (0: until
// the longer script ends), and reports both and their divergence. A run
// that diverges stops both there; its summary carries the error. The
// error is a scene that could not be built.
func RunAB(cfgA, cfgB settings.Scenario, spec string, steps int) (ABReport, error) {
	a, err := Build(cfgA)
	if err != nil {
		return ABReport{}, err
	}
	defer a.Close()
	b, err := Build(cfgB)
	if err != nil {
		return ABReport{}, err
	}
	defer b.Close()
	scripted := steps == 0
	var d ABDivergence
	var errA, errB error
	for i := 0; (i < steps || scripted && i < max(a.DefaultSteps(), b.DefaultSteps())) && errA == nil && errB == nil; i++ {
		_, errA = a.Step()
		_, errB = b.Step()
		dist := m3.MaxBlockDistance(a.Sim.Positions(), b.Sim.Positions())
		if dist > d.MaxNodeDistance {
			d.MaxNodeDistance, d.MaxAt = dist, a.Sim.Time()
		}
		d.FinalNodeDistance, d.Steps = dist, i+1
	}
	rep := ABReport{A: a.Summary(), B: b.Summary(), BChanges: spec, Divergence: d}
	for _, r := range []struct {
		sum *Summary
		err error
	}{{&rep.A, errA}, {&rep.B, errB}} {
		if r.err != nil {
			r.sum.Error = r.err.Error()
		}
	}
	return rep, nil
}
