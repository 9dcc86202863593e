package frame

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// Command is a request to the physics goroutine. Commands are applied in
// the order sent, between two steps. Each validates itself (Validate): a
// viewer checks a command before sending it, and the physics loop checks
// it again before applying it, with the same bounds written once here. A
// command that cannot be applied (invalid values, a mesh that does not
// load) leaves the simulation as it was and is reported in the next
// frame's Message.
type Command interface {
	// Validate reports a value out of range, naming it.
	Validate() error
	command()
}

// Bounds of the gripper commands.
const (
	// MaxOpening bounds a commanded opening between the jaws, m.
	MaxOpening = 0.2
	// Reach bounds each coordinate of the gripper's target, m: the loop
	// clamps targets to the cube ±Reach around the scene's origin.
	Reach = 0.25
	// MaxPace bounds the real-time factor a viewer may ask for.
	MaxPace = 100
)

// SetSettings applies new physics settings from the next step on: time
// step, Newton iterations, PGS, friction, scheme and solver (live
// toggles, no reset) and material.
type SetSettings struct{ Settings settings.Settings }

// SetScene rebuilds the scene from a new configuration (scenario, object,
// mesh file, resolution); the old scene stays if the new one fails.
type SetScene struct{ Config settings.Scenario }

// Reset rebuilds the current scene from its configuration.
type Reset struct{}

// Pause stops (true) or resumes (false) stepping; TogglePause flips it.
type Pause struct{ Paused bool }
type TogglePause struct{}

// SingleStep runs one step while paused.
type SingleStep struct{}

// SetPace sets the real-time factor the loop paces to (1 = real time,
// 0.5 = half speed); 0 runs as fast as possible.
type SetPace struct{ RealtimeFactor float64 }

// MoveGripper moves the gripper's target by Delta (world, m) and takes
// the gripper off the script.
type MoveGripper struct{ Delta r3.Vec }

// SpinGripper turns the gripper's target about its own axis by Angle
// (rad) and takes the gripper off the script.
type SpinGripper struct{ Angle float64 }

// SetGripperTarget sets the gripper's target pose and opening outright
// (for example, a click on the object sends the gripper there).
type SetGripperTarget struct {
	Target  rigid.Pose
	Opening float64
}

// SetOpening sets the gripper's target opening (m).
type SetOpening struct{ Opening float64 }

// ToggleJaws closes open jaws until they grip (with the scene's grip
// force), or opens closing or closed ones wide.
type ToggleJaws struct{}

// RunScript starts the scripted grasp-and-rotate sequence from the
// current state, aimed as Aim says (settings.GraspAim: its zero value
// is the default aim); StopScript hands the gripper back to the commands.
type RunScript struct {
	Aim settings.GraspAim `json:",omitempty"`
}
type StopScript struct{}

// SetOmega sets the spin speed of the grasp-and-rotate script (rad/s).
type SetOmega struct{ Omega float64 }

// SetGripForce sets the normal force each jaw closes to and holds (N),
// from the next step on.
type SetGripForce struct{ Force float64 }

// The backends a SetBackend may name: where the fast scheme's
// per-Newton-iteration work (rebuild W, PGS, correction) runs.
const (
	BackendCPU = "cpu"
	BackendGPU = "gpu"
)

// SetBackend moves the fast scheme's per-Newton-iteration work to the CPU
// or the GPU from the next step on, without a rebuild; a rebuilt scene
// stays on it. A backend that cannot be opened (no device, a binary built
// without CUDA) leaves the simulation where it was, and the next frame's
// Message says why in one line.
type SetBackend struct{ Backend string }

// SetStressField turns the von Mises field of the published frames
// (Frame.VonMises) on or off. It costs an element pass as long as the
// step's own stress pass, on the physics goroutine, for every published
// frame, so the loop computes it only while a viewer shows it (its colour
// map); off, frames carry no VonMises. It changes no simulation state and
// is not recorded.
type SetStressField struct{ On bool }

// SetAB turns the A/B mode on or off. On, the loop builds a second scene
// B from the running configuration with Changes applied
// (settings.ApplyAB: "newton=1", "scheme=standard,pgs=60") and the
// running state, steps it right after A with A's gripper poses, and
// publishes its surface and its divergence from A in every frame; a
// reset or a new scene rebuilds B with the same changes. Off drops B.
type SetAB struct {
	Enabled bool
	Changes string
}

// Validate checks the changes when enabling (settings.CheckAB): the one
// check of the panel's field and the loop.
func (c SetAB) Validate() error {
	if !c.Enabled {
		return nil
	}
	if err := settings.CheckAB(c.Changes); err != nil {
		return fmt.Errorf("A/B changes %q: %w", c.Changes, err)
	}
	return nil
}

// Validate checks the settings (settings.Settings.Validate).
func (c SetSettings) Validate() error { return c.Settings.Validate() }

// Validate checks the configuration (settings.Scenario.Validate); whether
// its mesh file loads is known only when the loop builds it.
func (c SetScene) Validate() error { return c.Config.Validate() }

// Validate checks the factor against [0, MaxPace].
func (c SetPace) Validate() error {
	if math.IsNaN(c.RealtimeFactor) || c.RealtimeFactor < 0 || c.RealtimeFactor > MaxPace {
		return fmt.Errorf("real-time factor %g is out of range: must be in [0, %d] (0 = as fast as possible)", c.RealtimeFactor, MaxPace)
	}
	return nil
}

// Validate checks that the move is finite.
func (c MoveGripper) Validate() error {
	if !finite(c.Delta.X + c.Delta.Y + c.Delta.Z) {
		return fmt.Errorf("gripper move %v is not finite", c.Delta)
	}
	return nil
}

// Validate checks that the angle is finite.
func (c SpinGripper) Validate() error {
	if !finite(c.Angle) {
		return fmt.Errorf("gripper spin %g is not finite", c.Angle)
	}
	return nil
}

// Validate checks that the target is finite and the opening in
// [0, MaxOpening].
func (c SetGripperTarget) Validate() error {
	p := c.Target.Position
	if !finite(p.X+p.Y+p.Z) || checkOpening(c.Opening) != nil {
		return fmt.Errorf("gripper target %v with opening %g m is invalid (opening must be in [0, %g] m)", p, c.Opening, MaxOpening)
	}
	return nil
}

// Validate checks the opening against [0, MaxOpening].
func (c SetOpening) Validate() error { return checkOpening(c.Opening) }

// Validate checks the spin speed (settings.CheckOmega).
func (c SetOmega) Validate() error { return settings.CheckOmega(c.Omega) }

// Validate checks the force against the parameter table's range.
func (c SetGripForce) Validate() error {
	cfg := settings.Scenario{GripForce: c.Force}
	return settings.ParamByKey("grip-force").Check(&cfg)
}

// Validate accepts both values.
func (SetStressField) Validate() error { return nil }

// Validate checks the name (CheckBackend).
func (c SetBackend) Validate() error { return CheckBackend(c.Backend) }

// CheckBackend reports a backend name other than BackendCPU and
// BackendGPU: the one check of the panel's toggle, the loop and the
// -backend flag.
func CheckBackend(name string) error {
	if name != BackendCPU && name != BackendGPU {
		return fmt.Errorf("backend %q is not known: want %s or %s", name, BackendCPU, BackendGPU)
	}
	return nil
}

// Validate names an aim that is none of the choices.
func (c RunScript) Validate() error {
	if c.Aim != settings.AimOnce && c.Aim != settings.AimFollow {
		return fmt.Errorf("RunScript: aim %v is not once or follow", c.Aim)
	}
	return nil
}

// The commands without values are always valid.
func (Reset) Validate() error       { return nil }
func (Pause) Validate() error       { return nil }
func (TogglePause) Validate() error { return nil }
func (SingleStep) Validate() error  { return nil }
func (ToggleJaws) Validate() error  { return nil }
func (StopScript) Validate() error  { return nil }

func (SetSettings) command()      {}
func (SetScene) command()         {}
func (Reset) command()            {}
func (Pause) command()            {}
func (TogglePause) command()      {}
func (SingleStep) command()       {}
func (SetPace) command()          {}
func (MoveGripper) command()      {}
func (SpinGripper) command()      {}
func (SetGripperTarget) command() {}
func (SetOpening) command()       {}
func (ToggleJaws) command()       {}
func (RunScript) command()        {}
func (StopScript) command()       {}
func (SetOmega) command()         {}
func (SetGripForce) command()     {}
func (SetBackend) command()       {}
func (SetStressField) command()   {}
func (SetAB) command()            {}

// checkOpening reports an opening outside [0, MaxOpening].
func checkOpening(opening float64) error {
	if math.IsNaN(opening) || opening < 0 || opening > MaxOpening {
		return fmt.Errorf("opening %g m is out of range: must be in [0, %g] m", opening, MaxOpening)
	}
	return nil
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
