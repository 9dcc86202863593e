package ui

import (
	"path/filepath"
	"strings"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// The actions behind the panels' buttons and the keyboard shortcuts. Each
// builds one command, which validates itself (frame.Command.Validate, the
// same check the physics loop runs), sends it and records a refusal for
// the panels to show (ActionError); the panels and the application's key
// handler call the same methods, so that a test of an action tests the
// button too.

// act validates and sends c, and records the outcome.
func (s *State) act(out Sender, c frame.Command) error {
	if err := c.Validate(); err != nil {
		return s.refuse(err)
	}
	if err := send(out, c); err != nil {
		s.actionErr = err.Error()
		return err
	}
	s.actionErr, s.notice = "", ""
	return nil
}

// Warn shows msg in the message banner, as a refused action is shown,
// until the next action succeeds or the banner is dismissed; "" clears
// it.
func (s *State) Warn(msg string) { s.actionErr = msg }

// Notify shows msg in the banner as a note, not a warning (its colour is
// calm), until the next action succeeds or the banner is dismissed.
func (s *State) Notify(msg string) { s.notice = msg }

// refuse records and returns a validation error.
func (s *State) refuse(err error) error {
	s.actionErr = err.Error()
	return err
}

// TogglePause runs or pauses the simulation.
func (s *State) TogglePause(out Sender) error { return s.act(out, frame.TogglePause{}) }

// SingleStep pauses and advances one step.
func (s *State) SingleStep(out Sender) error { return s.act(out, frame.SingleStep{}) }

// Reset rebuilds the running scene from its configuration and runs it.
// It says what it keeps: the settings that differ from the defaults.
func (s *State) Reset(out Sender) error {
	if err := s.act(out, frame.Reset{}); err != nil {
		return err
	}
	s.Notify(s.resetNote())
	return nil
}

// PaceOption is one choice of the real-time factor.
type PaceOption struct {
	Label  string
	Factor float64 // 0: as fast as possible
}

// PaceOptions are the real-time factors the Simulation panel offers.
func PaceOptions() []PaceOption {
	return []PaceOption{{"1 (real time)", 1}, {"1/2", 0.5}, {"1/4", 0.25}, {"1/10", 0.1}, {"max (as fast as possible)", 0}}
}

// SetPace asks the loop to pace its steps to factor × wall time.
func (s *State) SetPace(factor float64, out Sender) error {
	if err := s.act(out, frame.SetPace{RealtimeFactor: factor}); err != nil {
		return err
	}
	s.Pace = factor
	return nil
}

// SetScheme switches the constraint update live: the next step uses it,
// the scene is not rebuilt.
func (s *State) SetScheme(scheme settings.Scheme, out Sender) error {
	set := s.Config.Physics
	set.Scheme = scheme
	if err := s.act(out, frame.SetSettings{Settings: set}); err != nil {
		return err
	}
	s.Config.Physics = set
	return nil
}

// SetSolver switches how A is factored (exact every step, or refreshed
// in the background) from the next step on.
func (s *State) SetSolver(solver settings.Solver, out Sender) error {
	set := s.Config.Physics
	set.Solver = solver
	if err := s.act(out, frame.SetSettings{Settings: set}); err != nil {
		return err
	}
	s.Config.Physics = set
	return nil
}

// SetBackend moves the fast scheme's Newton iterations to the CPU or the
// GPU (frame.BackendCPU, frame.BackendGPU) from the next step on. The
// panel shows the backend the frames report, never the one asked for: a
// GPU that cannot be opened leaves the toggle on the CPU, and the frame's
// message says why.
func (s *State) SetBackend(name string, out Sender) error {
	return s.act(out, frame.SetBackend{Backend: name})
}

// SetScenario rebuilds the scene as another scenario with the working
// settings.
func (s *State) SetScenario(kind settings.Kind, out Sender) error {
	return s.rebuild(s.Config.WithKind(kind), out)
}

// LoadSceneFile rebuilds the scene from a scene file, as typing its path
// in the mesh-file field and loading it does.
func (s *State) LoadSceneFile(path string, out Sender) error {
	s.meshFile = path
	return s.LoadMesh(out)
}

// SetAttachments rebuilds the scene with the attachments of text: specs
// in -attach's syntax (settings.AttachSyntax) separated by ";", none for
// "". A spec that does not parse is refused, naming it, and nothing is
// sent; one the scene cannot resolve (no node selected, no such body)
// comes back in the frame's message, and the running scene stays.
func (s *State) SetAttachments(text string, out Sender) error {
	s.attach = text
	specs, err := settings.ParseAttachList(text)
	if err != nil {
		return s.refuse(err)
	}
	cfg := s.Config
	cfg.Attach = specs
	return s.rebuild(cfg, out)
}

// AttachText returns the attachments field's text: as typed, or the
// running configuration's attachments since it last changed (Observe).
func (s *State) AttachText() string { return s.attach }

// SetObject rebuilds the scene with another procedural object (and no
// mesh file).
func (s *State) SetObject(obj settings.Object, out Sender) error {
	cfg := s.Config
	cfg.Object, cfg.MeshFile = obj, ""
	return s.rebuild(cfg, out)
}

// SetMeshFileText records the mesh-file field's text as typed.
func (s *State) SetMeshFileText(path string) { s.meshFile = path }

// MeshFileText returns the mesh-file field's text.
func (s *State) MeshFileText() string { return s.meshFile }

// LoadMesh rebuilds the scene with the mesh file of the field ("" goes
// back to the procedural object), or, for a scene file (.toml, read by
// LoadScene), with the scene it describes; a scene file that does not
// read is refused here, in one line. Whether a mesh loads is known only
// when the physics loop builds it: a failure comes back in the frame's
// message and the running scene stays.
func (s *State) LoadMesh(out Sender) error {
	path := strings.TrimSpace(s.meshFile)
	if s.LoadScene != nil && strings.EqualFold(filepath.Ext(path), ".toml") {
		cfg, err := s.LoadScene(path)
		if err != nil {
			s.actionErr = err.Error()
			return err
		}
		return s.rebuild(cfg, out)
	}
	cfg := s.Config
	cfg.MeshFile = path
	return s.rebuild(cfg, out)
}

func (s *State) rebuild(cfg settings.Scenario, out Sender) error {
	if err := s.act(out, frame.SetScene{Config: cfg}); err != nil {
		return err
	}
	s.Config = cfg
	return nil
}

// SetAutoDOFs rebuilds the scene at n mechanical DOFs, chosen by the
// viewer to keep real time (-dofs auto), and says why in note (a calm
// banner). A budget the user typed (DOFsChosen) is not changed.
func (s *State) SetAutoDOFs(n int, note string, out Sender) error {
	if s.DOFsChosen {
		return nil
	}
	cfg := s.Config
	cfg.TargetDOFs = n
	if err := s.rebuild(cfg, out); err != nil {
		return err
	}
	s.refreshFields()
	s.Notify(note)
	return nil
}

// ToggleJaws closes open jaws or opens closed ones (manual mode).
func (s *State) ToggleJaws(out Sender) error { return s.act(out, frame.ToggleJaws{}) }

// SliderOpening is the largest opening the Gripper panel's slider offers
// (m): the widget's range, within the command's own bound
// (frame.MaxOpening).
const SliderOpening = 0.08

// SetOpening sets the gripper's target opening (m, manual mode).
func (s *State) SetOpening(opening float64, out Sender) error {
	return s.act(out, frame.SetOpening{Opening: opening})
}

// SpinGripper turns the gripper's target about its own axis (rad).
func (s *State) SpinGripper(angle float64, out Sender) error {
	return s.act(out, frame.SpinGripper{Angle: angle})
}

// SetGraspAim sets how the next "Grasp and rotate" aims at the object
// (settings.GraspAim); RunScript carries it.
func (s *State) SetGraspAim(aim settings.GraspAim) error {
	if err := (frame.RunScript{Aim: aim}).Validate(); err != nil {
		return s.refuse(err)
	}
	s.Config.GraspAim = aim
	return nil
}

// RunScript starts the scripted grasp-and-rotate sequence from where the
// gripper is, aimed as SetGraspAim chose; Manual hands the gripper back
// to the mouse and panels.
func (s *State) RunScript(out Sender) error {
	return s.act(out, frame.RunScript{Aim: s.Config.GraspAim})
}
func (s *State) Manual(out Sender) error { return s.act(out, frame.StopScript{}) }

// Dismiss hides the frame message msg until another one arrives, and
// the last refused action.
func (s *State) Dismiss(msg string) { s.dismissed, s.actionErr, s.notice = msg, "", "" }
