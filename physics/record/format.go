package record

import (
	"encoding/json"
	"fmt"
	"strconv"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// Magic and Version begin every recording: "softgrasp-record 1".
const (
	Magic   = "softgrasp-record"
	Version = 1
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
}

// End is the footer of a recording.
type End struct {
	Steps    int    `json:"steps"`
	Checksum string `json:"checksum"`
	Error    string `json:"error,omitempty"`
}

// commandNames names each recorded command type; the paces (Pause,
// TogglePause, SingleStep, SetPace) are absent.
var commandNames = map[string]func() frame.Command{
	"set-settings":       func() frame.Command { return &frame.SetSettings{} },
	"set-scene":          func() frame.Command { return &frame.SetScene{} },
	"reset":              func() frame.Command { return &frame.Reset{} },
	"move-gripper":       func() frame.Command { return &frame.MoveGripper{} },
	"spin-gripper":       func() frame.Command { return &frame.SpinGripper{} },
	"set-gripper-target": func() frame.Command { return &frame.SetGripperTarget{} },
	"set-opening":        func() frame.Command { return &frame.SetOpening{} },
	"toggle-jaws":        func() frame.Command { return &frame.ToggleJaws{} },
	"run-script":         func() frame.Command { return &frame.RunScript{} },
	"stop-script":        func() frame.Command { return &frame.StopScript{} },
	"set-omega":          func() frame.Command { return &frame.SetOmega{} },
}

// CommandName returns the recorded name of c, or "" for a command that
// changes no state (pause, single step, pace) and is not recorded.
func CommandName(c frame.Command) string {
	switch c.(type) {
	case frame.SetSettings:
		return "set-settings"
	case frame.SetScene:
		return "set-scene"
	case frame.Reset:
		return "reset"
	case frame.MoveGripper:
		return "move-gripper"
	case frame.SpinGripper:
		return "spin-gripper"
	case frame.SetGripperTarget:
		return "set-gripper-target"
	case frame.SetOpening:
		return "set-opening"
	case frame.ToggleJaws:
		return "toggle-jaws"
	case frame.RunScript:
		return "run-script"
	case frame.StopScript:
		return "stop-script"
	case frame.SetOmega:
		return "set-omega"
	}
	return ""
}

// decodeCommand rebuilds the command of a recorded name and arguments.
func decodeCommand(name string, args json.RawMessage) (frame.Command, error) {
	newCmd, ok := commandNames[name]
	if !ok {
		return nil, fmt.Errorf("unknown command %q", name)
	}
	p := newCmd()
	if len(args) > 0 {
		if err := strictUnmarshal(args, p); err != nil {
			return nil, fmt.Errorf("command %s: %w", name, err)
		}
	}
	return deref(p), nil
}

// deref returns the command value a pointer of commandNames points to.
func deref(p frame.Command) frame.Command {
	switch p := p.(type) {
	case *frame.SetSettings:
		return *p
	case *frame.SetScene:
		return *p
	case *frame.Reset:
		return *p
	case *frame.MoveGripper:
		return *p
	case *frame.SpinGripper:
		return *p
	case *frame.SetGripperTarget:
		return *p
	case *frame.SetOpening:
		return *p
	case *frame.ToggleJaws:
		return *p
	case *frame.RunScript:
		return *p
	case *frame.StopScript:
		return *p
	case *frame.SetOmega:
		return *p
	}
	return p
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
