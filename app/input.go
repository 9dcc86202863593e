package main

import (
	"math"

	"github.com/go-gl/glfw/v3.3/glfw"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/scenario"
	"softgrasp/render"
	"softgrasp/ui"
)

// The mouse and keyboard of the 3D view. ImGui's input routing (ui.Input)
// calls these handlers only for input the panels do not capture:
//
//	left drag                 orbit          middle drag   pan
//	wheel                     zoom           right drag    move the gripper in the view plane
//	ctrl + right drag         spin the gripper about its axis (shift + wheel too)
//	ctrl or alt + left click  aim the gripper through the clicked object (input_aim.go)
//	G jaws, Space run/pause, S step, R reset, H help, F9 video on/off, F12 screenshot,
//	Esc cancel the aim
//
// An aim is previewed (the jaws open at the aimed pose, and where they
// meet the object) until G closes the jaws, the gripper is moved or spun
// by hand, the scene is reset or rebuilt, or Esc cancels it.
//
// Pointer positions arrive in screen coordinates; the camera works in
// framebuffer pixels, so every position and motion is multiplied by the
// platform's pixel scale first.

// Rates of the mouse mapping.
const (
	orbitPerPixel = 0.006                     // rad of orbit per pixel dragged
	spinPerPixel  = 0.01                      // rad of gripper spin per pixel dragged
	spinPerNotch  = 5 * math.Pi / 180         // rad of gripper spin per wheel notch
	zoomPerNotch  = 0.9                       // distance factor per wheel notch (forward: closer)
	pickModifiers = ui.ModControl | ui.ModAlt // with a left click: aim the gripper there
)

// inputMapper turns the 3D view's input into camera motion and physics
// commands. Gripper motion is summed over a frame and sent once per frame
// (flush); a motion the command queue refuses is kept and sent with the
// next one, so a drag is never lost.
type inputMapper struct {
	cam   *render.Camera
	out   ui.Sender
	state *ui.State
	scale func() (sx, sy float64)
	// frame and scene return the newest frame and its scene (nil before
	// the first); screenshot asks for a PNG of the next frame; video
	// starts or stops a recording.
	frame      func() *frame.Frame
	scene      func() *frame.Scene
	screenshot func()
	video      func()

	move    r3.Vec  // gripper motion not yet sent, m
	spin    float64 // gripper spin not yet sent, rad
	picking bool    // the left button went down for a pick, not an orbit

	aim      *graspAim // the last ctrl+click's aim while previewed, else nil
	aimScene uint64    // the Scene version the aim was made in
}

func newInputMapper(cam *render.Camera, out ui.Sender, state *ui.State, scale func() (float64, float64)) *inputMapper {
	none := func() {}
	return &inputMapper{cam: cam, out: out, state: state, scale: scale,
		frame: func() *frame.Frame { return nil }, scene: func() *frame.Scene { return nil }, screenshot: none, video: none}
}

// handlers returns the hooks for ui.Platform.SetHandlers.
func (m *inputMapper) handlers() ui.Handlers {
	return ui.Handlers{MouseButton: m.button, CursorMove: m.cursor, Scroll: m.scroll, Key: m.key}
}

func (m *inputMapper) button(b ui.MouseButton, a ui.Action, p ui.Pointer) {
	if b != ui.MouseLeft {
		return
	}
	if a == ui.Press && p.Mods&pickModifiers != 0 {
		m.picking = true
		m.pick(p)
		return
	}
	if a == ui.Release {
		m.picking = false
	}
}

func (m *inputMapper) cursor(p ui.Pointer) {
	sx, sy := m.scale()
	dx, dy := p.DX*sx, p.DY*sy
	switch {
	case p.Down[ui.MouseRight] && p.Mods&ui.ModControl != 0:
		m.spin += dx * spinPerPixel
		m.aim = nil
	case p.Down[ui.MouseRight]:
		m.aim = nil
		m.move = r3.Add(m.move, m.cam.ViewPlaneDelta(dx, dy, m.gripperPosition()))
	case p.Down[ui.MouseMiddle]:
		m.cam.Pan(dx, dy)
	case p.Down[ui.MouseLeft] && !m.picking:
		// Dragging right turns the scene with the pointer: the eye moves
		// the other way about the target.
		m.cam.Orbit(-dx*orbitPerPixel, dy*orbitPerPixel)
	}
}

func (m *inputMapper) scroll(dx, dy float64, p ui.Pointer) {
	if p.Mods&ui.ModShift != 0 {
		// Some platforms turn shift + wheel into a horizontal scroll.
		m.spin += (dy + dx) * spinPerNotch
		m.aim = nil
		return
	}
	m.cam.Zoom(math.Pow(zoomPerNotch, dy))
}

func (m *inputMapper) key(k ui.Key, a ui.Action, _ ui.Mods) {
	if a != ui.Press {
		return
	}
	switch glfw.Key(k) {
	case glfw.KeyG:
		m.aim = nil
		_ = m.state.ToggleJaws(m.out)
	case glfw.KeySpace:
		_ = m.state.TogglePause(m.out)
	case glfw.KeyS:
		_ = m.state.SingleStep(m.out)
	case glfw.KeyR:
		m.aim = nil
		_ = m.state.Reset(m.out)
	case glfw.KeyEscape:
		m.aim = nil
	case glfw.KeyH, glfw.KeyF1:
		m.state.ToggleHelp()
	case glfw.KeyTab:
		m.state.ToggleHidePanels()
	case glfw.KeyF9:
		m.video()
	case glfw.KeyF12:
		m.screenshot()
	}
}

// flush sends the gripper motion summed since the last frame.
func (m *inputMapper) flush() {
	if m.move != (r3.Vec{}) && m.out.Send(frame.MoveGripper{Delta: m.move}) {
		m.move = r3.Vec{}
	}
	if m.spin != 0 && m.out.Send(frame.SpinGripper{Angle: m.spin}) {
		m.spin = 0
	}
}

// gripperPosition is the depth reference of the view-plane drag: the
// gripper's target (where the drag is taking it), or the camera's target
// in a scene without a gripper.
func (m *inputMapper) gripperPosition() r3.Vec {
	if f := m.frame(); f != nil && f.Gripper.Present {
		return r3.Add(f.Gripper.Target, m.move)
	}
	return m.cam.Target
}

// pick casts the pointer's ray through the soft surface of the newest
// frame and sends the gripper to the aim (aimGrasp) with the aim's open
// opening, clearing the message banner; an aim refused there says why in
// the banner and sends nothing.
func (m *inputMapper) pick(p ui.Pointer) {
	f, sc := m.frame(), m.scene()
	if f == nil || sc == nil || sc.Version != f.SceneVersion || !f.Gripper.Present {
		return
	}
	sx, sy := m.scale()
	w, h := m.cam.Viewport()
	origin, dir := m.cam.Ray(p.X*sx, p.Y*sy, w, h)
	_, right, _ := m.cam.Basis()
	a, ok := aimGrasp(origin, dir, right, f.Surface, sc.SurfaceTris, sc, m.state.Config.Physics.Friction)
	if !ok {
		return
	}
	if a.Warning != "" {
		m.aim = nil
		m.state.Warn(a.Warning)
		return
	}
	if !m.out.Send(frame.SetGripperTarget{Target: a.Pose, Opening: a.Opening}) {
		return
	}
	m.aim, m.aimScene = &a, sc.Version
	m.state.Warn("")
}

// Colours of the preview: the open jaws, and the jaws where they meet the
// object; both in the warning colour when the aim does not fit.
var (
	previewOpen    = [3]float32{0.35, 0.90, 0.45}
	previewContact = [3]float32{0.95, 0.85, 0.30}
	previewWarn    = [3]float32{0.95, 0.30, 0.25}
)

// previewSwatches are the preview's colours for the viewer's legend.
func previewSwatches() []render.Swatch {
	return []render.Swatch{
		{Colour: previewOpen, Meaning: "aim preview: the open jaws"},
		{Colour: previewContact, Meaning: "aim preview: the jaws where they meet the object"},
		{Colour: previewWarn, Meaning: "aim preview: an aim that does not fit (the banner says why)"},
	}
}

// ghosts returns the preview of the current aim for the renderer: the
// two jaws open at the aimed pose and at the opening where the first of
// them meets the object; nil without an aim, or once the scene changed.
func (m *inputMapper) ghosts() []render.Ghost {
	sc := m.scene()
	if m.aim == nil || sc == nil || sc.Version != m.aimScene || len(sc.Bodies) <= scenario.RightJawBody {
		return nil
	}
	open, contact := previewOpen, previewContact
	if m.aim.Warning != "" {
		open, contact = previewWarn, previewWarn
	}
	var out []render.Ghost
	for _, o := range []struct {
		opening float64
		colour  [3]float32
	}{{m.aim.Opening, open}, {m.aim.Width, contact}} {
		poses := jawPoses(m.aim.Pose, o.opening)
		out = append(out,
			render.Ghost{Body: scenario.LeftJawBody, Model: frame.ModelMatrix(poses[0]), Colour: o.colour},
			render.Ghost{Body: scenario.RightJawBody, Model: frame.ModelMatrix(poses[1]), Colour: o.colour})
	}
	return out
}

// jawHeight is the left jaw mesh's extent along its body z (the
// gripper's axis), 0 in a scene without jaws.
func jawHeight(sc *frame.Scene) float64 {
	if len(sc.Bodies) <= scenario.LeftJawBody {
		return 0
	}
	v := sc.Bodies[scenario.LeftJawBody].Vertices
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := 2; i < len(v); i += 3 {
		lo, hi = math.Min(lo, float64(v[i])), math.Max(hi, float64(v[i]))
	}
	return math.Max(hi-lo, 0)
}
