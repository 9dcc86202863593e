package loop

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/num/quat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/scenario"
)

// This file applies each command on the physics goroutine.

func (c SetSettings) apply(r *Runner) error {
	if err := c.Settings.Validate(); err != nil {
		return fmt.Errorf("settings rejected: %w", err)
	}
	if c.Settings.TargetDOFs != r.sc.Config.Physics.TargetDOFs {
		cfg := r.sc.Config
		cfg.Physics = c.Settings
		return r.rebuild(cfg)
	}
	if err := r.sc.SetSettings(c.Settings); err != nil {
		return fmt.Errorf("settings rejected: %w", err)
	}
	r.reportSolver(false)
	return nil
}

func (c SetScene) apply(r *Runner) error { return r.rebuild(c.Config) }

func (Reset) apply(r *Runner) error {
	if err := r.rebuild(r.sc.Config); err != nil {
		return err
	}
	r.paused = false
	return nil
}

func (c Pause) apply(r *Runner) error { r.paused = c.Paused; return nil }

func (TogglePause) apply(r *Runner) error { r.paused = !r.paused; return nil }

func (SingleStep) apply(r *Runner) error {
	r.paused, r.stepOnce = true, true
	return nil
}

func (c SetPace) apply(r *Runner) error {
	if math.IsNaN(c.RealtimeFactor) || c.RealtimeFactor < 0 || c.RealtimeFactor > 100 {
		return fmt.Errorf("real-time factor %g is out of range: must be in [0, 100] (0 = as fast as possible)", c.RealtimeFactor)
	}
	r.pace = c.RealtimeFactor
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

func (c MoveGripper) apply(r *Runner) error {
	if !finiteVec(c.Delta) {
		return fmt.Errorf("gripper move %v is not finite", c.Delta)
	}
	cmd, err := r.manual()
	if err != nil {
		return err
	}
	p := r3.Add(cmd.Target.Position, c.Delta)
	// Keep the jaws above the floor and near the scene.
	p.Z = math.Max(p.Z, r.sc.Driver.Gripper.JawHeight/2+1e-3)
	p = clampVec(p, 0.25)
	cmd.Target.Position = p
	return nil
}

func (c SpinGripper) apply(r *Runner) error {
	if math.IsNaN(c.Angle) || math.IsInf(c.Angle, 0) {
		return fmt.Errorf("gripper spin %g is not finite", c.Angle)
	}
	cmd, err := r.manual()
	if err != nil {
		return err
	}
	axis := cmd.Target.Rotation.Rotate(r3.Vec{Z: 1})
	q := quat.Mul(quat.Number(r3.NewRotation(c.Angle, axis)), quat.Number(cmd.Target.Rotation))
	cmd.Target.Rotation = r3.Rotation(quat.Scale(1/quat.Abs(q), q))
	return nil
}

func (c SetGripperTarget) apply(r *Runner) error {
	if !finiteVec(c.Target.Position) || math.IsNaN(c.Opening) || c.Opening < 0 || c.Opening > 0.2 {
		return fmt.Errorf("gripper target %v with opening %g m is invalid (opening must be in [0, 0.2] m)", c.Target.Position, c.Opening)
	}
	cmd, err := r.manual()
	if err != nil {
		return err
	}
	cmd.Target = c.Target
	cmd.Target.Position = clampVec(c.Target.Position, 0.25)
	cmd.Opening = c.Opening
	return nil
}

func (c SetOpening) apply(r *Runner) error {
	if math.IsNaN(c.Opening) || c.Opening < 0 || c.Opening > 0.2 {
		return fmt.Errorf("opening %g m is out of range: must be in [0, 0.2] m", c.Opening)
	}
	cmd, err := r.manual()
	if err != nil {
		return err
	}
	cmd.Opening = c.Opening
	return nil
}

func (ToggleJaws) apply(r *Runner) error {
	cmd, err := r.manual()
	if err != nil {
		return err
	}
	open, closed := r.sc.Openings()
	if cmd.Opening > (open+closed)/2 {
		cmd.Opening = closed
	} else {
		cmd.Opening = open
	}
	return nil
}

func (RunScript) apply(r *Runner) error {
	if r.sc.Driver == nil {
		return errNoGripper
	}
	r.sc.SetScripted(true)
	r.paused = false
	return nil
}

func (StopScript) apply(r *Runner) error {
	_, err := r.manual()
	return err
}

func (c SetOmega) apply(r *Runner) error { return r.sc.SetOmega(c.Omega) }

func finiteVec(v r3.Vec) bool {
	s := v.X + v.Y + v.Z
	return !math.IsNaN(s) && !math.IsInf(s, 0)
}

// clampVec keeps each coordinate within ±l.
func clampVec(v r3.Vec, l float64) r3.Vec {
	c := func(x float64) float64 { return math.Max(-l, math.Min(l, x)) }
	return r3.Vec{X: c(v.X), Y: c(v.Y), Z: c(v.Z)}
}
