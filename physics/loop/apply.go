package loop

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/num/quat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// This file applies each command on the physics goroutine, after the
// command validated itself (frame.Command.Validate, the check the viewer
// ran before sending it).

// apply validates c and applies it.
func (r *Runner) apply(c frame.Command) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("command rejected: %w", err)
	}
	switch c := c.(type) {
	case frame.SetSettings:
		return r.setSettings(c)
	case frame.SetScene:
		return r.rebuild(c.Config)
	case frame.Reset:
		return r.reset()
	case frame.Pause:
		r.paused = c.Paused
	case frame.TogglePause:
		r.paused = !r.paused
	case frame.SingleStep:
		r.paused, r.stepOnce = true, true
	case frame.SetPace:
		r.pace = c.RealtimeFactor
	case frame.SetOmega:
		r.sc.SetOmega(c.Omega)
	case frame.SetGripForce:
		r.sc.SetGripForce(c.Force)
	case frame.RunScript:
		return r.runScript(c.Aim)
	case frame.SetBackend:
		return r.setBackend(c.Backend)
	case frame.SetStressField:
		r.stressField = c.On
	case frame.SetAB:
		return r.setAB(c)
	default:
		return r.applyGripper(c)
	}
	return nil
}

// applyGripper applies the commands that drive the gripper by hand: each
// takes it off the script.
func (r *Runner) applyGripper(c frame.Command) error {
	cmd, err := r.manual()
	if err != nil {
		return err
	}
	if _, aim := c.(frame.SetGripperTarget); !aim {
		r.sc.Driver.Via = nil // a hand on the gripper: no approach path
	}
	switch c := c.(type) {
	case frame.MoveGripper:
		p := r3.Add(cmd.Target.Position, c.Delta)
		// Keep the jaws above the floor and within reach.
		p.Z = math.Max(p.Z, r.sc.Driver.Gripper.JawHeight/2+1e-3)
		cmd.Target.Position = clampVec(p, frame.Reach)
	case frame.SpinGripper:
		axis := cmd.Target.Rotation.Rotate(r3.Vec{Z: 1})
		q := quat.Mul(quat.Number(r3.NewRotation(c.Angle, axis)), quat.Number(cmd.Target.Rotation))
		cmd.Target.Rotation = r3.Rotation(quat.Scale(1/quat.Abs(q), q))
	case frame.SetGripperTarget:
		next := *cmd
		next.Target = c.Target
		next.Target.Position = clampVec(c.Target.Position, frame.Reach)
		next.Opening, next.Grip = c.Opening, false
		r.sc.Approach(next)
		return nil
	case frame.SetOpening:
		cmd.Opening = c.Opening
	case frame.ToggleJaws:
		r.sc.ToggleJaws(cmd)
	case frame.StopScript:
	default:
		return fmt.Errorf("command %T is not known to the physics loop", c)
	}
	return nil
}

// setSettings applies new settings to the running simulation.
func (r *Runner) setSettings(c frame.SetSettings) error {
	if err := r.sc.SetSettings(c.Settings); err != nil {
		return fmt.Errorf("settings rejected: %w", err)
	}
	r.reportSolver(false)
	return r.settingsAB()
}

// reset rebuilds the scene from its configuration and runs it.
func (r *Runner) reset() error {
	if err := r.rebuild(r.sc.Config()); err != nil {
		return err
	}
	r.paused = false
	return nil
}

// runScript hands the gripper to the grasp script and runs.
func (r *Runner) runScript(aim settings.GraspAim) error {
	if r.sc.Driver == nil {
		return errNoGripper
	}
	r.sc.SetGraspAim(aim)
	r.sc.SetScripted(true)
	r.paused = false
	return nil
}

// manual takes the gripper off the script and returns its command to edit.
func (r *Runner) manual() (*scenario.GripperCommand, error) {
	if r.sc.Driver == nil {
		return nil, errNoGripper
	}
	r.sc.SetScripted(false)
	return &r.sc.Driver.Command, nil
}

// clampVec keeps each coordinate within ±l.
func clampVec(v r3.Vec, l float64) r3.Vec {
	c := func(x float64) float64 { return math.Max(-l, math.Min(l, x)) }
	return r3.Vec{X: c(v.X), Y: c(v.Y), Z: c(v.Z)}
}
