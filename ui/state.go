package ui

import (
	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// Sender queues a command for the physics loop without blocking. Send
// returns false when the command could not be queued (the queue is full
// or the loop stopped); the panels then keep their edit and say so, and
// the user may try again. The physics loop's Runner is a Sender; tests
// capture the commands with their own.
type Sender interface {
	Send(c frame.Command) bool
}

// State is everything the panels edit and show between frames: a working
// copy of the scene configuration (the physics settings included), the
// pace, the display toggles, the text of the numeric fields with their
// errors, the plot histories and where ImGui placed the panels. The
// physics loop never sees it; the panels turn edits into commands.
//
// State is used on the main thread only.
type State struct {
	// Config is the working copy of the running configuration. It follows
	// the running one (Observe) whenever that changes, and each accepted
	// edit updates it at once.
	Config settings.Scenario
	// Pace is the real-time factor asked of the physics loop (0: as fast
	// as possible).
	Pace float64
	// Display holds the 3D view toggles; the application maps it onto its
	// renderer's options every frame.
	Display Display
	// Legend is the colour map's range, set by the application after each
	// draw for the Display panel.
	Legend Legend
	// Colours are the 3D view's colours and their meanings, set by the
	// application; the Help panel lists them with the panels' own.
	Colours []ColourKey
	// RenderFPS is the rendered frame rate, set by the application.
	RenderFPS float64
	// ShowHelp unfolds the Help panel (key H toggles it).
	ShowHelp bool
	// HidePanels hides every panel but the message banner and the prompt
	// (key Tab toggles it).
	HidePanels bool
	// Hint is the next step's hint the Help bar shows (NextHint), set by
	// the viewer each frame.
	Hint string
	// SpeedStatus is the viewer's measure of the physics' real-time
	// factor over its last seconds ("" while it warms up), SpeedAdvice
	// what to try when it falls behind the pace (SpeedSlow); the Stats
	// panel shows them.
	SpeedStatus, SpeedAdvice string
	SpeedSlow                bool

	// ABChanges is the text of the A/B field: scene B's changes
	// (settings.ApplyAB), DefaultABChanges at start.
	ABChanges string

	// LoadScene, when set, reads a scene file (a path ending in .toml
	// typed in the mesh-file field or dropped onto the window) into the
	// configuration it describes; the application supplies it.
	LoadScene func(path string) (settings.Scenario, error)
	// SceneFiles are the shipped scene files the scenario list offers
	// after the scenarios (the application fills it; LoadScene reads them).
	SceneFiles []string

	// History holds the per-step time series of the plots.
	History History
	// Layout records where the panels and their main widgets were drawn
	// in the last frame, in window coordinates.
	Layout Layout

	fields    []*numberField
	meshFile  string // text of the mesh-file field
	attach    string // text of the attachments field (SetAttachments)
	mesh      meshPanel
	actionErr string // last refused action, shown under the panels' buttons
	notice    string // a note on the last action (what Reset kept), shown in a calm banner
	// DOFsChosen is true once the user has set the mechanical budget (the
	// -dofs flag, a scene file's dofs, the DOFs field): the viewer then
	// never changes it to keep real time (SetAutoDOFs).
	DOFsChosen bool
	// DOFsNote, when set, follows the DOFs in the Stats panel: how the
	// viewer chose them ("auto: 3000 ran at 0.62×").
	DOFsNote  string
	dismissed string  // frame message the user closed
	helpDirty bool    // ShowHelp changed outside the Help window
	compact   bool    // the last frame folded the panels into one column
	openPanel string  // the folded column's open panel ("": none)
	panel     string  // the docked panel being drawn ("": none)
	free      Rect    // the 3D view the last frame's panels left free
	viewWidth float32 // the window's width in the last frame

	openingMM   float32 // the opening slider's value while dragged
	openingDrag bool

	running  uint64 // Version of the running configuration last adopted
	haveRun  bool
	lastSeq  uint64
	lastVer  uint64
	dirLog   []float32 // scratch of the Newton convergence plots
	resLog   []float32
	conLog   []float32 // the contact law residual per Newton iteration
	posLog   []float32
	plotTemp []float32
}

// NewState returns the panels' state for a scene starting from cfg at
// the given pace, with the default display.
func NewState(cfg settings.Scenario, pace float64) *State {
	s := &State{Config: cfg, Pace: pace, Display: DefaultDisplay(), meshFile: cfg.MeshFile, ABChanges: DefaultABChanges,
		openPanel: PanelGripper}
	s.fields = newFields()
	s.refreshFields()
	s.History = NewHistory(DefaultHistoryLength)
	s.Layout = newLayout()
	return s
}

// Observe takes in the newest frame and the running configuration once
// per rendered frame (fresh is what the frame source's Acquire reported).
// A frame of a new step is appended to the histories; a new scene version
// clears them; a new version of the running configuration (a rebuild, an
// applied setting) is adopted as the working copy.
func (s *State) Observe(f *frame.Frame, cfg *frame.Config, fresh bool) {
	if f == nil {
		return
	}
	if cfg != nil && (!s.haveRun || cfg.Version != s.running) {
		s.running, s.haveRun = cfg.Version, true
		s.Config = cfg.Scenario
		s.meshFile = cfg.Scenario.MeshFile
		s.attach = settings.FormatAttachList(cfg.Scenario.Attach)
		s.rememberMesh(cfg.Scenario.MeshFile)
		s.refreshFields()
	}
	if !fresh {
		return
	}
	if f.SceneVersion != s.lastVer {
		s.History.Clear()
		s.lastVer, s.lastSeq = f.SceneVersion, 0
	}
	if f.Seq > s.lastSeq {
		s.History.Add(&f.Stats)
		s.lastSeq = f.Seq
	}
}

// ToggleHelp shows or hides the Help panel.
func (s *State) ToggleHelp() {
	s.ShowHelp = !s.ShowHelp
	s.helpDirty = true
}

// ActionError returns the last refused action's message ("" when the
// last action went through).
func (s *State) ActionError() string { return s.actionErr }

// Notice returns the note on the last action, "" when there is none.
func (s *State) Notice() string { return s.notice }

// ColourKey is one colour of the legend and what it means.
type ColourKey struct {
	Colour  [3]float32
	Meaning string
}

// Legend is a colour map's data range and caption ("" when no map is
// drawn).
type Legend struct {
	Lo, Hi float32
	Label  string
	// Ramp samples the colour map at equal steps from Lo to Hi (RGB in
	// [0, 1]); the panel draws it as a colour bar. The application fills
	// it from the renderer's own map, so bar and surface agree.
	Ramp [LegendSteps][3]float32
}

// LegendSteps is the number of colours of a legend's bar.
const LegendSteps = 16
