package loop

import (
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/rigid"
	"softgrasp/physics/scenario"
)

// Command is a request to the physics goroutine. Commands are applied in
// the order sent, between two steps; a command that cannot be applied
// (invalid settings, a mesh that does not load) leaves the simulation as
// it was and is reported in the next frame's Message.
type Command interface {
	apply(r *Runner) error
}

// SetSettings applies new physics settings from the next step on: time
// step, Newton iterations, PGS, friction, scheme (a live toggle, no reset)
// and material. A change of TargetDOFs rebuilds the scene.
type SetSettings struct{ Settings physics.Settings }

// SetScene rebuilds the scene from a new configuration (scenario, object,
// mesh file, resolution); the old scene stays if the new one fails.
type SetScene struct{ Config scenario.Config }

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

// ToggleJaws closes open jaws to the squeeze opening, or opens closed
// ones wide.
type ToggleJaws struct{}

// RunScript starts the scripted grasp-and-rotate sequence from the
// current state; StopScript hands the gripper back to the commands.
type RunScript struct{}
type StopScript struct{}

// SetOmega sets the spin speed of the grasp-and-rotate script (rad/s).
type SetOmega struct{ Omega float64 }
