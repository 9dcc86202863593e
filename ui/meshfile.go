package ui

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// The mesh file of the Simulation panel: the path field (typed, picked
// from the recent files, or dropped onto the window), the unit of the
// file's coordinates, and what the running scene made of it.

// maxRecentMeshes is how many mesh files the recent list keeps.
const maxRecentMeshes = 8

// meshPanel is the state of the mesh-file widgets.
type meshPanel struct {
	recent     []string // absolute paths, most recent first
	recentFile string   // where the list is kept ("": in memory only)
	name       string   // the running scene's mesh description
	dofs       int      // the running scene's mechanical DOFs
	tris       int      // and the triangles of its surface
	scaleText  string   // the custom scale field
}

// OnDrop hands the paths of files dropped onto the window to fn (GLFW's
// drop callback). fn runs on the main thread, inside PollEvents.
func (p *Platform) OnDrop(fn func(paths []string)) {
	p.window.SetDropCallback(func(_ *glfw.Window, names []string) { fn(names) })
}

// DropMesh loads the first of the dropped files as the mesh, exactly as if
// its path had been typed into the field and Load pressed: a file that
// does not load comes back in the frame's message.
func (s *State) DropMesh(paths []string, out Sender) error {
	if len(paths) == 0 {
		return nil
	}
	s.meshFile = paths[0]
	err := s.LoadMesh(out)
	if err == nil && len(paths) > 1 {
		s.notice = fmt.Sprintf("%d files dropped: loading the first, %s", len(paths), filepath.Base(paths[0]))
	}
	return err
}

// SetMeshName records the running scene's mesh description (the file and
// how its coordinates were scaled), for the panel.
func (s *State) SetMeshName(name string) { s.mesh.name = name }

// SetSceneSize records the running scene's mechanical DOFs and the
// triangles of the surface that touches and is drawn (a mesh file's
// surface mapped onto the mechanical mesh has its own), for the Stats
// panel.
func (s *State) SetSceneSize(dofs, surfaceTris int) { s.mesh.dofs, s.mesh.tris = dofs, surfaceTris }

// SetMeshScale sets the metres per unit of the mesh file's coordinates (0:
// fit the mesh into the object size) and reloads the running mesh file at
// that scale. Without a mesh file the scale waits in the working copy for
// the next one, checked as the command that will carry it.
func (s *State) SetMeshScale(scale float64, out Sender) error {
	cfg := s.Config
	cfg.MeshScale = scale
	return s.setMeshOption(cfg, out)
}

// SetMeshUp sets which axis of the mesh file's coordinates points up (a
// Y-up file is turned so that its +y points up) and reloads the running
// mesh file so; without a mesh file it waits like SetMeshScale's scale.
func (s *State) SetMeshUp(up settings.UpAxis, out Sender) error {
	cfg := s.Config
	cfg.MeshUp = up
	return s.setMeshOption(cfg, out)
}

// setMeshOption takes cfg, the working copy with an option of the mesh
// file changed: the running mesh file is reloaded with it; without one,
// it is checked as the command that will carry it and kept.
func (s *State) setMeshOption(cfg settings.Scenario, out Sender) error {
	if cfg.MeshFile == "" {
		if err := (frame.SetScene{Config: cfg}).Validate(); err != nil {
			return s.refuse(err)
		}
		s.Config = cfg
		return nil
	}
	return s.rebuild(cfg, out)
}

// RecentMeshes returns the recent mesh files, most recent first.
func (s *State) RecentMeshes() []string { return s.mesh.recent }

// KeepRecentMeshes loads the recent list from path and keeps it there
// from now on (one path per line). A missing file is an empty list.
func (s *State) KeepRecentMeshes(path string) {
	s.mesh.recentFile = path
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(s.mesh.recent) < maxRecentMeshes {
		if p := strings.TrimSpace(sc.Text()); p != "" {
			s.mesh.recent = append(s.mesh.recent, p)
		}
	}
}

// rememberMesh puts a mesh file that the running scene opened at the top
// of the recent list.
func (s *State) rememberMesh(path string) {
	if path == "" {
		return
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if len(s.mesh.recent) > 0 && s.mesh.recent[0] == path {
		return
	}
	list := []string{path}
	for _, p := range s.mesh.recent {
		if p != path && len(list) < maxRecentMeshes {
			list = append(list, p)
		}
	}
	s.mesh.recent = list
	if s.mesh.recentFile != "" {
		_ = os.MkdirAll(filepath.Dir(s.mesh.recentFile), 0o755)
		_ = os.WriteFile(s.mesh.recentFile, []byte(strings.Join(list, "\n")+"\n"), 0o644)
	}
}

// meshUnitChoices are the scale choices of the units combo.
var meshUnitChoices = []struct {
	label string
	scale float64
}{{"fit", 0}, {"m", 1}, {"cm", 0.01}, {"mm", 0.001}}

// meshScaleLabel names the current scale for the combo.
func meshScaleLabel(scale float64) string {
	for _, u := range meshUnitChoices {
		if u.scale == scale {
			return u.label
		}
	}
	return "×" + strconv.FormatFloat(scale, 'g', 4, 64)
}

// drawMeshFile draws the recent files, the units of the mesh file and the
// running mesh's description, below the path field.
func drawMeshFile(s *State, out Sender) {
	preview := "none yet"
	if n := len(s.mesh.recent); n > 0 {
		preview = fmt.Sprintf("%d files", n)
	}
	imgui.SetNextItemWidth(110)
	if imgui.BeginCombo("recent", preview) {
		for _, p := range s.mesh.recent {
			if imgui.Selectable(filepath.Base(p) + "##" + p) {
				s.meshFile = p
				_ = s.LoadMesh(out)
			}
			tooltip(p)
		}
		if len(s.mesh.recent) == 0 {
			colouredText(colourDim, "no mesh file opened yet")
		}
		imgui.EndCombo()
	} else {
		s.fitsCombo(preview)
	}
	tooltip("mesh files opened before; a file dropped onto the window opens too")
	imgui.SameLine()
	drawMeshUp(s, out)
	drawMeshUnits(s, out)
	if s.Config.MeshFile != "" && s.mesh.name != "" {
		imgui.PushTextWrapPosV(LeftColumnWidth - 16)
		colouredText(colourDim, s.mesh.name)
		imgui.PopTextWrapPos()
	}
}

// meshUpChoices are the choices of the up-axis combo.
var meshUpChoices = settings.UpAxes()

// drawMeshUp draws the choice of the mesh file's axis that points up.
func drawMeshUp(s *State, out Sender) {
	imgui.SetNextItemWidth(55)
	if imgui.BeginCombo("up", meshUpLabel(s.Config.MeshUp)) {
		for _, u := range meshUpChoices {
			if imgui.SelectableV(meshUpLabel(u), u == s.Config.MeshUp, 0, imgui.Vec2{}) && u != s.Config.MeshUp {
				_ = s.SetMeshUp(u, out)
			}
		}
		imgui.EndCombo()
	} else {
		s.fitsCombo(meshUpLabel(s.Config.MeshUp))
	}
	tooltip("the mesh file's axis that points up: auto turns it to rest stably (on its own z or y bottom when it stands level there, else on its most stable side); +z as it is, +y for a Y-up file")
}

// meshUpLabel names an up axis in the combo: "+z", "+y" or "auto".
func meshUpLabel(u settings.UpAxis) string {
	if u == settings.AutoUp {
		return u.String()
	}
	return "+" + u.String()
}

// drawMeshUnits draws the unit combo and the custom scale field.
func drawMeshUnits(s *State, out Sender) {
	imgui.SetNextItemWidth(70)
	if imgui.BeginCombo("units", meshScaleLabel(s.Config.MeshScale)) {
		for _, u := range meshUnitChoices {
			if imgui.SelectableV(u.label, u.scale == s.Config.MeshScale, 0, imgui.Vec2{}) && u.scale != s.Config.MeshScale {
				_ = s.SetMeshScale(u.scale, out)
			}
		}
		imgui.EndCombo()
	} else {
		s.fitsCombo(meshScaleLabel(s.Config.MeshScale))
	}
	tooltip("unit of the mesh file's coordinates; fit: scale the mesh to the object size (the factor is shown below)")
	imgui.SameLine()
	imgui.SetNextItemWidth(70)
	flags := imgui.InputTextFlagsEnterReturnsTrue | imgui.InputTextFlagsCharsScientific
	scaleEntered := imgui.InputTextWithHintV("scale##mesh", "m/unit", &s.mesh.scaleText, flags, nil)
	if s.mesh.scaleText == "" {
		s.fits("m/unit", 0)
	} else {
		s.fits(s.mesh.scaleText, 0)
	}
	if scaleEntered {
		v, err := strconv.ParseFloat(strings.TrimSpace(s.mesh.scaleText), 64)
		if err != nil || v < 0 {
			_ = s.refuse(fmt.Errorf("mesh scale %q: want metres per unit of the file (0.001 for millimetres), or 0 to fit", s.mesh.scaleText))
		} else {
			_ = s.SetMeshScale(v, out)
		}
	}
	tooltip("any other factor: metres per unit of the mesh file's coordinates")
}
