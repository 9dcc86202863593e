package record

import (
	"encoding/json"
	"fmt"
	"strconv"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// Magic and Version begin every recording: "softgrasp-record 2". The
// reader reads versions 1 and 2 (migrate.go).
const (
	Magic   = "softgrasp-record"
	Version = 2
)

// CheckpointEvery is the number of steps between two checkpoints.
const CheckpointEvery = 100

// AsyncLag is the factor lag that recordings with the asynchronous solver
// run at when none is set: about the age a background factor reaches on
// two cores, so that the recorded run hardly waits for it.
const AsyncLag = 4

// line is one JSON line after the header; exactly one of its groups is set.
type line struct {
	Config   *settings.Scenario `json:"config,omitempty"`
	Step     *int               `json:"step,omitempty"`
	Command  string             `json:"command,omitempty"`
	Args     json.RawMessage    `json:"args,omitempty"`
	Rejected string             `json:"rejected,omitempty"`
	Checksum string             `json:"checksum,omitempty"`
	End      *End               `json:"end,omitempty"`
	File     *File              `json:"file,omitempty"`
}

// End is the footer of a recording.
type End struct {
	Steps    int    `json:"steps"`
	Checksum string `json:"checksum"`
	Error    string `json:"error,omitempty"`
}

// recordedCommand is one recorded command type: its name in a recording,
// whether a command is of that type, and how to rebuild one from its
// recorded arguments.
type recordedCommand struct {
	name   string
	is     func(frame.Command) bool
	decode func(args json.RawMessage) (frame.Command, error)
}

// recorded returns the recordedCommand of type T under name.
func recorded[T frame.Command](name string) recordedCommand {
	return recordedCommand{
		name: name,
		is:   func(c frame.Command) bool { _, ok := c.(T); return ok },
		decode: func(args json.RawMessage) (frame.Command, error) {
			var c T
			if len(args) > 0 {
				if err := strictUnmarshal(args, &c); err != nil {
					return nil, err
				}
			}
			return c, nil
		},
	}
}

// recordedCommands lists every recorded command type; the paces (Pause,
// TogglePause, SingleStep, SetPace) are absent.
var recordedCommands = []recordedCommand{
	recorded[frame.SetSettings]("set-settings"),
	recorded[frame.SetScene]("set-scene"),
	recorded[frame.Reset]("reset"),
	recorded[frame.MoveGripper]("move-gripper"),
	recorded[frame.SpinGripper]("spin-gripper"),
	recorded[frame.SetGripperTarget]("set-gripper-target"),
	recorded[frame.SetOpening]("set-opening"),
	recorded[frame.ToggleJaws]("toggle-jaws"),
	recorded[frame.RunScript]("run-script"),
	recorded[frame.StopScript]("stop-script"),
	recorded[frame.SetOmega]("set-omega"),
	recorded[frame.SetGripForce]("set-grip-force"),
}

// CommandName returns the recorded name of c, or "" for a command that
// changes no state (pause, single step, pace) and is not recorded.
func CommandName(c frame.Command) string {
	for i := range recordedCommands {
		if recordedCommands[i].is(c) {
			return recordedCommands[i].name
		}
	}
	return ""
}

// decodeCommand rebuilds the command of a recorded name and arguments.
func decodeCommand(name string, args json.RawMessage) (frame.Command, error) {
	for i := range recordedCommands {
		if recordedCommands[i].name != name {
			continue
		}
		c, err := recordedCommands[i].decode(args)
		if err != nil {
			return nil, fmt.Errorf("command %s: %w", name, err)
		}
		return c, nil
	}
	return nil, fmt.Errorf("unknown command %q", name)
}

// Deterministic returns the settings a recording runs at: the
// asynchronous solver at a fixed AsyncLag (package doc).
func Deterministic(set settings.Settings) settings.Settings {
	if set.Solver == settings.AsyncSolver && set.AsyncLag == 0 {
		set.AsyncLag = AsyncLag
	}
	return set
}

// DeterministicConfig applies Deterministic to a scenario's settings.
func DeterministicConfig(cfg settings.Scenario) settings.Scenario {
	cfg.Physics = Deterministic(cfg.Physics)
	return cfg
}

// DeterministicCommand applies Deterministic to the settings a command
// carries (SetSettings, SetScene); other commands are returned as they are.
func DeterministicCommand(c frame.Command) frame.Command {
	switch c := c.(type) {
	case frame.SetSettings:
		return frame.SetSettings{Settings: Deterministic(c.Settings)}
	case frame.SetScene:
		return frame.SetScene{Config: DeterministicConfig(c.Config)}
	}
	return c
}

// FormatChecksum writes a checksum as 16 hex digits.
func FormatChecksum(sum uint64) string { return fmt.Sprintf("%016x", sum) }

// parseChecksum reads 16 hex digits.
func parseChecksum(s string) (uint64, error) {
	if len(s) != 16 {
		return 0, fmt.Errorf("checksum %q: want 16 hex digits", s)
	}
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return 0, fmt.Errorf("checksum %q: want 16 hex digits", s)
	}
	return v, nil
}
