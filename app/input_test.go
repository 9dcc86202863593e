package main

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/mesh/meshtest"
	"softgrasp/physics/settings"
	"softgrasp/render"
	"softgrasp/ui"
)

// recorder is a ui.Sender that records commands, or refuses them like a
// full queue.
type recorder struct {
	cmds   []frame.Command
	refuse bool
}

func (r *recorder) Send(c frame.Command) bool {
	if r.refuse {
		return false
	}
	r.cmds = append(r.cmds, c)
	return true
}

// mapperFixture is an input mapper on a 800×600 camera with a gripper at
// the camera's target.
func mapperFixture(scale float64) (*inputMapper, *recorder, *frame.Frame) {
	cam := render.NewCamera(r3.Vec{Z: 0.03}, 0.2)
	cam.SetViewport(800, 600)
	out := &recorder{}
	state := ui.NewState(settings.DefaultScenario(settings.GraspRotate), 1)
	m := newInputMapper(cam, out, state, func() (float64, float64) { return scale, scale })
	f := &frame.Frame{SceneVersion: 1}
	f.Gripper = frame.GripperView{Present: true, Target: r3.Vec{Z: 0.03}, Rotation: r3.Rotation{Real: 1}, TargetOpening: 0.05}
	m.frame = func() *frame.Frame { return f }
	return m, out, f
}

// drag moves the pointer by (dx, dy) screen units in steps with the
// given button held.
func drag(m *inputMapper, b ui.MouseButton, mods ui.Mods, dx, dy float64, steps int) {
	p := ui.Pointer{X: 400, Y: 300, Mods: mods}
	p.Down[b] = true
	for i := 0; i < steps; i++ {
		p.DX, p.DY = dx/float64(steps), dy/float64(steps)
		p.X, p.Y = p.X+p.DX, p.Y+p.DY
		m.cursor(p)
	}
}

func TestRightDragMovesTheGripperInTheViewPlane(t *testing.T) {
	tests := []struct {
		name     string
		scale    float64
		dx, dy   float64
		alongRgt float64 // sign of the motion along the camera's right
		alongUp  float64 // and up
	}{
		{"right", 1, 40, 0, 1, 0},
		{"up", 1, 0, -30, 0, 1},
		{"left and down on a high-DPI screen", 2, -20, 10, -1, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, out, f := mapperFixture(tc.scale)
			want := m.cam.ViewPlaneDelta(tc.dx*tc.scale, tc.dy*tc.scale, f.Gripper.Target)
			drag(m, ui.MouseRight, 0, tc.dx, tc.dy, 4)
			m.flush()
			c, ok := out.cmds[0].(frame.MoveGripper)
			if len(out.cmds) != 1 || !ok {
				t.Fatalf("a drag sent %v, want one MoveGripper per frame", out.cmds)
			}
			if d := r3.Norm(r3.Sub(c.Delta, want)); d > 1e-12 {
				t.Fatalf("moved %v, want %v", c.Delta, want)
			}
			_, right, up := m.cam.Basis()
			if r, u := r3.Dot(c.Delta, right), r3.Dot(c.Delta, up); !sameSign(r, tc.alongRgt) || !sameSign(u, tc.alongUp) {
				t.Fatalf("moved %g along right and %g along up, want signs %g and %g", r, u, tc.alongRgt, tc.alongUp)
			}
		})
	}
}

// sameSign compares signs, with 0 meaning "about zero".
func sameSign(v, sign float64) bool {
	if sign == 0 {
		return math.Abs(v) < 1e-9
	}
	return v*sign > 0
}

func TestRefusedGripperMotionIsResent(t *testing.T) {
	m, out, _ := mapperFixture(1)
	out.refuse = true
	drag(m, ui.MouseRight, 0, 10, 0, 1)
	m.flush()
	drag(m, ui.MouseRight, 0, 10, 0, 1)
	out.refuse = false
	m.flush()
	if len(out.cmds) != 1 {
		t.Fatalf("sent %v, want one move carrying both frames' motion", out.cmds)
	}
	want := 2 * r3.Norm(m.cam.ViewPlaneDelta(10, 0, r3.Vec{Z: 0.03}))
	if got := r3.Norm(out.cmds[0].(frame.MoveGripper).Delta); math.Abs(got-want) > 1e-3*want {
		t.Fatalf("resent %g m, want the refused and the new motion, %g m", got, want)
	}
}

func TestSpinGestures(t *testing.T) {
	m, out, _ := mapperFixture(1)
	drag(m, ui.MouseRight, ui.ModControl, 30, 0, 3)
	m.flush()
	m.scroll(0, -2, ui.Pointer{Mods: ui.ModShift})
	m.flush()
	want := []float64{30 * spinPerPixel, -2 * spinPerNotch}
	if len(out.cmds) != len(want) {
		t.Fatalf("sent %v, want two spins", out.cmds)
	}
	for i, w := range want {
		c, ok := out.cmds[i].(frame.SpinGripper)
		if !ok || math.Abs(c.Angle-w) > 1e-12 {
			t.Fatalf("command %d = %#v, want SpinGripper{%g}", i, out.cmds[i], w)
		}
	}
}

func TestCameraGestures(t *testing.T) {
	m, out, _ := mapperFixture(1)
	yaw, pitch := m.cam.Yaw, m.cam.Pitch
	drag(m, ui.MouseLeft, 0, 50, 20, 5)
	if m.cam.Yaw >= yaw || m.cam.Pitch <= pitch {
		t.Fatalf("left drag right and down: yaw %g → %g, pitch %g → %g; want the yaw down and the pitch up", yaw, m.cam.Yaw, pitch, m.cam.Pitch)
	}
	target := m.cam.Target
	drag(m, ui.MouseMiddle, 0, 30, 0, 3)
	_, right, _ := m.cam.Basis()
	if moved := r3.Dot(r3.Sub(m.cam.Target, target), right); moved >= 0 {
		t.Fatalf("middle drag right moved the target %g along right, want it to follow the scene (negative)", moved)
	}
	d := m.cam.Distance
	m.scroll(0, 1, ui.Pointer{})
	if math.Abs(m.cam.Distance-d*zoomPerNotch) > 1e-12 {
		t.Fatalf("one wheel notch forward: distance %g → %g, want ×%g", d, m.cam.Distance, zoomPerNotch)
	}
	if len(out.cmds) != 0 {
		t.Fatalf("camera gestures sent %v", out.cmds)
	}
}

func TestKeys(t *testing.T) {
	tests := []struct {
		key  glfw.Key
		want frame.Command
	}{
		{glfw.KeyG, frame.ToggleJaws{}}, {glfw.KeySpace, frame.TogglePause{}},
		{glfw.KeyS, frame.SingleStep{}}, {glfw.KeyR, frame.Reset{}},
	}
	for _, tc := range tests {
		m, out, _ := mapperFixture(1)
		m.key(ui.Key(tc.key), ui.Press, 0)
		m.key(ui.Key(tc.key), ui.Release, 0)
		if len(out.cmds) != 1 || out.cmds[0] != tc.want {
			t.Errorf("key %d sent %v, want [%#v]", tc.key, out.cmds, tc.want)
		}
	}
	m, out, _ := mapperFixture(1)
	shots := 0
	m.screenshot = func() { shots++ }
	videos := 0
	m.video = func() { videos++ }
	m.key(ui.Key(glfw.KeyF12), ui.Press, 0)
	m.key(ui.Key(glfw.KeyF9), ui.Press, 0)
	m.key(ui.Key(glfw.KeyH), ui.Press, 0)
	if shots != 1 || videos != 1 || !m.state.ShowHelp || len(out.cmds) != 0 {
		t.Fatalf("F12, F9 and H: %d screenshots, %d video toggles, help %v, commands %v; want 1, 1, true, none",
			shots, videos, m.state.ShowHelp, out.cmds)
	}
}

// cubeFixture puts a 4 cm cube on the floor under the mapper's camera
// target, in a scene with the floor and two 3 cm high jaws.
func cubeFixture(m *inputMapper, f *frame.Frame) {
	pos, tris := meshtest.CubeSurface(-0.02, 0.02)
	for i := 2; i < len(pos); i += 3 {
		pos[i] += 0.02
	}
	f.Surface = pos
	jaw, jawTris := meshtest.CubeSurface(-0.015, 0.015)
	bodies := []frame.BodyMesh{{Name: "floor", Floor: true}, {Name: "left jaw", Vertices: jaw, Indices: jawTris}, {Name: "right jaw", Vertices: jaw, Indices: jawTris}}
	m.scene = func() *frame.Scene {
		return &frame.Scene{Version: 1, SurfaceTris: tris, Bodies: bodies, JawWidth: 0.025, JawHeight: 0.03, Reach: 0.06, MinOpening: 0.002}
	}
}

// click ctrl+clicks at the projection of p, dragging a little before the
// release.
func click(t *testing.T, m *inputMapper, p r3.Vec) {
	t.Helper()
	x, y, ok := m.cam.Project(p)
	if !ok {
		t.Fatalf("%v is behind the camera", p)
	}
	ptr := ui.Pointer{X: x, Y: y, Mods: ui.ModControl}
	ptr.Down[ui.MouseLeft] = true
	m.button(ui.MouseLeft, ui.Press, ptr)
	drag(m, ui.MouseLeft, ui.ModControl, 40, 0, 2) // no orbit during a pick
	m.button(ui.MouseLeft, ui.Release, ptr)
}

func TestModifierClickAimsTheGripperThroughTheObject(t *testing.T) {
	m, out, f := mapperFixture(1)
	cubeFixture(m, f)
	click(t, m, r3.Vec{Z: 0.04}) // the cube's top centre
	if len(out.cmds) != 1 {
		t.Fatalf("ctrl+click sent %v, want one SetGripperTarget", out.cmds)
	}
	c, ok := out.cmds[0].(frame.SetGripperTarget)
	if !ok {
		t.Fatalf("sent %T, want SetGripperTarget", out.cmds[0])
	}
	// The centre lies inside the cube, on the line of sight through the
	// clicked point up to a shift along the closing axis, which puts it
	// midway across the cube, and one down to the highest grasp (a
	// quarter jaw, 7.5 mm, below the top): within 8 mm of the plane of the
	// line of sight and the closing axis.
	x, y, _ := m.cam.Project(r3.Vec{Z: 0.04})
	origin, dir := m.cam.Ray(x, y, 800, 600)
	p := c.Target.Position
	closing := c.Target.Rotation.Rotate(r3.Vec{X: 1})
	if n := r3.Unit(r3.Cross(dir, closing)); math.Abs(r3.Dot(r3.Sub(p, origin), n)) > 8e-3 {
		t.Errorf("centre %v is %g m off the plane of the line of sight and the closing axis", p, r3.Dot(r3.Sub(p, origin), n))
	}
	if math.Abs(p.X) > 1e-6 || math.Abs(p.Y) > 0.02 || p.Z < 0.005 || p.Z > 0.04 {
		t.Errorf("centre %v is not inside the cube midway along x", p)
	}
	// The gripper's axis stays vertical; the jaws close across two faces
	// (x, the camera's right); they come down open 8 mm clear of each
	// face.
	if a := c.Target.Rotation.Rotate(r3.Vec{Z: 1}); a.Z < 1-1e-9 {
		t.Errorf("gripper axis %v, want vertical", a)
	}
	if x := c.Target.Rotation.Rotate(r3.Vec{X: 1}); math.Abs(x.X) < 1-1e-6 {
		t.Errorf("closing axis %v, want ±x across two faces", x)
	}
	if math.Abs(c.Opening-0.056) > 1e-3 {
		t.Errorf("opening %g, want the cube's 0.04 m and 8 mm each side", c.Opening)
	}
	if m.state.ActionError() != "" {
		t.Errorf("a 4 cm cube in 6 cm jaws warned %q", m.state.ActionError())
	}
	if m.cam.Yaw != render.NewCamera(r3.Vec{}, 1).Yaw {
		t.Error("the drag after a pick orbited the camera")
	}
	// The preview: both jaws open and at the cube's faces, until G.
	g := m.ghosts()
	if len(g) != 4 {
		t.Fatalf("preview of %d ghosts, want 4 (two jaws, open and at contact)", len(g))
	}
	if gap := float64(g[3].Model[12] - g[2].Model[12]); math.Abs(gap-0.04) > 2e-3 {
		t.Errorf("contact preview: jaws %g m apart, want about the cube's 0.04 m", gap)
	}
	m.key(ui.Key(glfw.KeyG), ui.Press, 0)
	if m.ghosts() != nil {
		t.Error("the preview outlived G")
	}
}

// TestAimWarnings: a click on an object the jaws can hold there sends the
// gripper with no banner, on the middle or off it; one wider than the jaws'
// reach is refused with the reason in the banner, and nothing is sent.
func TestAimWarnings(t *testing.T) {
	tests := []struct {
		name  string
		reach float64
		at    r3.Vec
		want  string // in the warning, "" for none
	}{
		{"fits", 0.06, r3.Vec{Z: 0.04}, ""},
		{"wider than the reach", 0.035, r3.Vec{Z: 0.04}, "40 mm wide at its narrowest; the jaws open to 35 mm"},
		{"clicked off the middle", 0.06, r3.Vec{X: 0.015, Y: 0.008, Z: 0.04}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, out, f := mapperFixture(1)
			cubeFixture(m, f)
			sc := m.scene()
			sc.Reach = tc.reach
			m.scene = func() *frame.Scene { return sc }
			click(t, m, tc.at)
			msg := m.state.ActionError()
			if (tc.want == "") != (msg == "") || !strings.Contains(msg, tc.want) {
				t.Fatalf("warning %q, want one containing %q", msg, tc.want)
			}
			if tc.want != "" {
				if len(out.cmds) != 0 || m.ghosts() != nil {
					t.Fatalf("a refused aim sent %v and shows %d ghosts", out.cmds, len(m.ghosts()))
				}
				return
			}
			if len(m.ghosts()) != 4 {
				t.Fatal("no preview")
			}
		})
	}
}
