package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// The Simulation panel: run, pause, step and reset; the real-time factor;
// the scheme, the CPU/GPU backend and the solver of A as live toggles; the solver and material parameters; the
// scenario, object, resolution and mesh file.

func drawSimulation(s *State, f *frame.Frame, out Sender) {
	drawRunControls(s, f, out)
	drawPace(s, out)
	drawSchemeToggle(s, f, out)
	imgui.Separator()
	drawFieldGrid(s, out, "solver", fieldsOn(settings.SolverPanel))
	imgui.Separator()
	drawScene(s, out)
}

// drawRunControls draws run/pause, step and reset and the clock.
func drawRunControls(s *State, f *frame.Frame, out Sender) {
	label := "Pause###run"
	if f.Stats.Paused {
		label = "Run###run"
	}
	if s.button(label, 70) {
		_ = s.TogglePause(out)
	}
	s.trackItem(ItemRunPause)
	tooltip("Space")
	imgui.SameLine()
	if s.button("Step", 60) {
		_ = s.SingleStep(out)
	}
	s.trackItem(ItemStep)
	tooltip("S: one step, then pause")
	imgui.SameLine()
	if s.button("Reset", 60) {
		_ = s.Reset(out)
	}
	s.trackItem(ItemReset)
	tooltip("R: rebuild the scene and run")
	imgui.AlignTextToFramePadding()
	imgui.Text(fmt.Sprintf("t = %.2f s   step %d", f.Time, f.Seq))
	tooltip("simulated time and steps since the scene started; the Gripper panel names the script's phase")
}

// drawPace draws the real-time factor choice, on the clock's line.
func drawPace(s *State, out Sender) {
	opts := PaceOptions()
	current := "custom"
	for _, o := range opts {
		if o.Factor == s.Pace {
			current, _, _ = strings.Cut(o.Label, " ")
		}
	}
	imgui.SameLine()
	imgui.Text("  pace")
	imgui.SameLine()
	imgui.SetNextItemWidth(-1)
	if imgui.BeginCombo("##pace", current) {
		for _, o := range opts {
			if imgui.SelectableV(o.Label, o.Factor == s.Pace, 0, imgui.Vec2{}) {
				_ = s.SetPace(o.Factor, out)
			}
		}
		imgui.EndCombo()
	} else {
		s.fitsCombo(current)
	}
	tooltip("the real-time factor the loop aims at: simulated time per wall-clock time")
}

// drawSchemeToggle draws the fast/standard switch and the exact/async
// solver switch; both take effect at the next step, without a reset (the
// Stats panel names the scheme each step ran with).
func drawSchemeToggle(s *State, f *frame.Frame, out Sender) {
	imgui.AlignTextToFramePadding()
	imgui.Text("scheme")
	for _, o := range []struct {
		scheme settings.Scheme
		item   string
		colour imgui.Vec4
	}{{settings.Fast, ItemSchemeFast, colourFast}, {settings.Standard, ItemSchemeStandard, colourStandard}} {
		imgui.SameLine()
		imgui.PushStyleColor(imgui.StyleColorCheckMark, o.colour)
		if imgui.RadioButton(o.scheme.String(), s.Config.Physics.Scheme == o.scheme) && s.Config.Physics.Scheme != o.scheme {
			_ = s.SetScheme(o.scheme, out)
		}
		imgui.PopStyleColor()
		s.trackItem(o.item)
	}
	drawBackendToggle(s, f, out)
	imgui.AlignTextToFramePadding()
	imgui.Text("solver")
	for _, sv := range []settings.Solver{settings.ExactSolver, settings.AsyncSolver} {
		imgui.SameLine()
		if imgui.RadioButton(sv.String(), s.Config.Physics.Solver == sv) && s.Config.Physics.Solver != sv {
			_ = s.SetSolver(sv, out)
		}
	}
	tooltip("exact: factor A every step; async: refactor in the background, PCG on the current A (fast scheme)")
	drawABControls(s, f, out)
}

// drawBackendToggle draws the CPU/GPU switch of the fast scheme's Newton
// iterations, a "gpu" box on the scheme's line. It shows the backend of
// the newest frame: a switch shows once the loop made it, and a GPU that
// could not be opened never shows (the message says why).
func drawBackendToggle(s *State, f *frame.Frame, out Sender) {
	imgui.SameLine()
	onGPU := f.Stats.Backend == frame.BackendGPU
	checked := onGPU
	if imgui.Checkbox("gpu", &checked) && checked != onGPU {
		name := frame.BackendCPU
		if checked {
			name = frame.BackendGPU
		}
		_ = s.SetBackend(name, out)
	}
	s.trackItem(ItemBackendGPU)
	tooltip("run the fast scheme's rebuild W, PGS and correction on the GPU (unticked: the CPU); needs a CUDA build (make run-cuda) and a device, else it stays on the CPU")
}

// drawFieldGrid draws fields two per row (label, input) in a table named
// id, then the errors of any field in red. Labels and tooltips are the
// parameter table's (settings.Param.Label, Hint).
func drawFieldGrid(s *State, out Sender, id string, fields []FieldID) {
	drawGrid(s, out, id, nil, fields)
}

// gridCell is a widget with its label that takes one place of a grid.
type gridCell struct {
	label, hint string
	draw        func()
}

// drawGrid draws lead, then fields, two per row in a table named id (a
// field changed from its default with its label in changedColour), then
// the fields' errors in red.
func drawGrid(s *State, out Sender, id string, lead []gridCell, fields []FieldID) {
	if imgui.BeginTableV(id, 4, imgui.TableFlagsSizingFixedFit, imgui.Vec2{}, 0) {
		cell := func(i int, label, hint string, changed bool) {
			if i%2 == 0 {
				imgui.TableNextRow()
			}
			imgui.TableNextColumn()
			imgui.AlignTextToFramePadding()
			if changed {
				colouredText(changedColour, label)
			} else {
				imgui.Text(label)
			}
			tooltip(hint)
			imgui.TableNextColumn()
		}
		for i, c := range lead {
			cell(i, c.label, c.hint, false)
			c.draw()
		}
		for i, fid := range fields {
			f := s.fields[fid]
			hint, changed := f.p.Hint, f.changed(&s.Config)
			if changed {
				hint += " (changed: default " + f.defaultOf(&s.Config) + ")"
			}
			cell(len(lead)+i, f.p.Label, hint, changed)
			if f.p.Kind == settings.Choice {
				s.choiceInput(fid, 70, out)
			} else {
				s.numberInput(fid, 70, out)
			}
		}
		imgui.EndTable()
	}
	for _, fid := range fields {
		if e := s.fields[fid].err; e != "" {
			wrappedText(colourError, e)
		}
	}
}

// numberInput draws one numeric field of the given width. Enter, or
// leaving the field after an edit, commits it (CommitField); Escape
// reverts the edit.
func (s *State) numberInput(id FieldID, width float32, out Sender) {
	f := s.fields[id]
	imgui.SetNextItemWidth(width)
	flags := imgui.InputTextFlagsEnterReturnsTrue | imgui.InputTextFlagsCharsScientific | imgui.InputTextFlagsAutoSelectAll
	if f.err != "" {
		imgui.PushStyleColor(imgui.StyleColorFrameBg, imgui.Vec4{X: 0.45, Y: 0.12, Z: 0.12, W: 1})
	}
	entered := imgui.InputTextV("##"+f.p.Key, &f.text, flags, nil)
	if f.err != "" {
		imgui.PopStyleColor()
	}
	s.trackItem(FieldItem(id))
	s.fits(f.text, 0)
	if entered || imgui.IsItemDeactivatedAfterEdit() {
		_ = s.CommitField(id, f.text, out)
	}
}

// choiceInput draws the combo of a choice's names of the given width;
// picking one commits it (CommitField).
func (s *State) choiceInput(id FieldID, width float32, out Sender) {
	f := s.fields[id]
	imgui.SetNextItemWidth(width)
	if imgui.BeginCombo("##"+f.p.Key, f.text) {
		for _, name := range f.p.Choices {
			if imgui.SelectableV(name, name == f.text, 0, imgui.Vec2{}) && name != f.text {
				_ = s.CommitField(id, name, out)
			}
		}
		imgui.EndCombo()
	} else {
		s.fitsCombo(f.text)
	}
	s.trackItem(FieldItem(id))
}

// drawScene draws the scenario, object, resolution and mesh file.
func drawScene(s *State, out Sender) {
	imgui.SetNextItemWidth(130)
	if imgui.BeginCombo("scenario", string(s.Config.Kind)) {
		for _, k := range settings.Kinds() {
			if imgui.SelectableV(string(k), k == s.Config.Kind, 0, imgui.Vec2{}) && k != s.Config.Kind {
				_ = s.SetScenario(k, out)
			}
		}
		if s.LoadScene != nil && len(s.SceneFiles) > 0 {
			imgui.Separator()
			for _, f := range s.SceneFiles {
				if imgui.Selectable("scene " + filepath.Base(f)) {
					_ = s.LoadSceneFile(f, out)
				}
			}
		}
		imgui.EndCombo()
	} else {
		s.fitsCombo(string(s.Config.Kind))
	}
	// The object shares a row with the scene's numeric fields (the
	// resolution), which keeps the left column within 800 pixels.
	drawGrid(s, out, "scene", []gridCell{{"object", "the procedural object (a mesh file replaces it)", func() { drawObjectCombo(s, out) }}},
		fieldsOn(settings.ScenePanel))
	imgui.SetNextItemWidth(150)
	if imgui.InputTextWithHint("##mesh", meshFileHint, &s.meshFile) {
		s.SetMeshFileText(s.meshFile)
	}
	if s.meshFile == "" {
		s.fits(meshFileHint, 0)
	} else {
		tooltip(s.meshFile)
	}
	imgui.SameLine()
	if imgui.Button("Load") {
		_ = s.LoadMesh(out)
	}
	tooltip("rebuild the scene with this mesh: a tetrahedral mesh, or a closed surface that TetGen fills (empty: the procedural object)")
	// The attachments field opens from a button on the same row: the left
	// column has no row to spare within 800 pixels.
	imgui.SameLine()
	if imgui.Button("Attach") {
		imgui.OpenPopup("attach")
	}
	tooltip("hold soft nodes in place, as -attach: specs separated by \";\" (Enter rebuilds the scene; empty: none)")
	if imgui.BeginPopup("attach") {
		imgui.SetNextItemWidth(320)
		if imgui.InputTextWithHintV("##attach", "below:z=0.004; above:x=0.01@left jaw", &s.attach, imgui.InputTextFlagsEnterReturnsTrue, nil) {
			_ = s.SetAttachments(s.attach, out)
			imgui.CloseCurrentPopup()
		}
		imgui.EndPopup()
	}
	drawMeshFile(s, out)
}

// meshFileHint is the mesh-file field's placeholder.
const meshFileHint = "mesh or scene file"

// drawObjectCombo draws the procedural object's choice, "mesh file" when
// a file replaces it.
func drawObjectCombo(s *State, out Sender) {
	object := string(s.Config.Object)
	if s.Config.MeshFile != "" {
		object = "mesh file"
	}
	imgui.SetNextItemWidth(95)
	if imgui.BeginCombo("##object", object) {
		for _, o := range []settings.Object{settings.BoxObject, settings.CylinderObject} {
			if imgui.SelectableV(string(o), object == string(o), 0, imgui.Vec2{}) && object != string(o) {
				_ = s.SetObject(o, out)
			}
		}
		imgui.EndCombo()
	} else {
		s.fitsCombo(object)
	}
}
