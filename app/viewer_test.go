package main

import (
	"errors"
	"image"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
	"softgrasp/ui"
)

// The viewer's GL integration tests run the real render loop in-process
// (renderFrame), inject input through the platform like GLFW would, and
// read the back buffer before the swap. They skip without a display;
// `make test` runs them under Xvfb.

// testOptions is a coarse grasp scene stepping as fast as possible in a
// 1280×800 window, rendering without vsync or cap.
func testOptions() viewerOptions {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs = 300
	cfg.Physics.NewtonIterations = 2
	return viewerOptions{config: cfg, pace: 0, width: 1280, height: 800}
}

// withViewer runs f on the main thread with a viewer of opt, then closes
// it. f must report with t.Error, never t.Fatal (see onMain).
func withViewer(tb testing.TB, opt viewerOptions, f func(v *viewer)) {
	tb.Helper()
	var err error
	onMain(func() {
		var v *viewer
		if v, err = newViewer(opt, io.Discard); err != nil {
			return
		}
		defer v.close()
		f(v)
	})
	if errors.Is(err, ui.ErrNoDisplay) {
		tb.Skipf("no display: %v", err)
	}
	if err != nil {
		tb.Fatalf("newViewer: %v", err)
	}
}

// renderUntil renders frames until cond holds for the newest frame, at
// most limit frames; it reports whether cond was met.
func renderUntil(tb testing.TB, v *viewer, limit int, cond func(f *frame.Frame) bool) bool {
	if limit <= 0 {
		return false
	}
	frames := 0
	return renderLoop(tb, v, cond, func(*frame.Frame) bool { frames++; return frames < limit })
}

// renderUntilSim renders until cond holds or the simulation passes
// simLimit seconds (a bound on the physics, whatever the render's speed
// against it: a frame count ran out before the grip when the frames came
// quicker than the steps), with three minutes of wall time as a backstop.
func renderUntilSim(tb testing.TB, v *viewer, simLimit float64, cond func(f *frame.Frame) bool) bool {
	deadline := time.Now().Add(3 * time.Minute)
	return renderLoop(tb, v, cond, func(f *frame.Frame) bool { return f.Time <= simLimit && time.Now().Before(deadline) })
}

// renderLoop renders a frame at a time until cond holds (true), a frame
// fails to render, or more says to stop (false).
func renderLoop(tb testing.TB, v *viewer, cond, more func(f *frame.Frame) bool) bool {
	for {
		if _, _, err := v.renderFrame(false); err != nil {
			tb.Errorf("renderFrame: %v", err)
			return false
		}
		if cond(v.frame) {
			return true
		}
		if !more(v.frame) {
			return false
		}
	}
}

// gripBy bounds the simulated time the test scenes take to grip: they
// grip at 1.0-1.4 s (the box and the three meshes of the set below), the
// ctrl+click grasp 0.4-0.5 s after G.
const gripBy = 4.0

// moveBy bounds the simulated time the gripper takes to reach a pose the
// user gave it (an aim or a drag): 0.7 s in the ctrl+click grasp.
const moveBy = 3.0

// gripping: the jaws hold the object (the grasp's hold or lift phase).
func gripping(f *frame.Frame) bool { return f.Stats.Phase == "hold" || f.Stats.Phase == "lift" }

// pause stops the physics loop and renders until a paused frame shows.
func pause(tb testing.TB, v *viewer) bool {
	for !v.runner.Send(frame.Pause{Paused: true}) {
	}
	if !renderUntil(tb, v, 2000, func(f *frame.Frame) bool { return f.Stats.Paused }) {
		tb.Error("the loop never reported the pause")
		return false
	}
	return true
}

// inject queues synthetic events and renders one frame after each, as
// the input path delivers at most one button change per frame.
func inject(tb testing.TB, v *viewer, events ...ui.Event) {
	for _, e := range events {
		if err := v.platform.Inject(e); err != nil {
			tb.Errorf("inject %+v: %v", e, err)
		}
		if _, _, err := v.renderFrame(false); err != nil {
			tb.Errorf("renderFrame: %v", err)
		}
	}
}

// toPixels maps window coordinates to framebuffer pixels.
func toPixels(v *viewer, x, y float32) (int, int) {
	sx, sy := v.platform.PixelScale()
	return int(float64(x) * sx), int(float64(y) * sy)
}

// rgb returns a pixel as three ints.
func rgb(img *image.RGBA, x, y int) (r, g, b int) {
	c := img.RGBAAt(x, y)
	return int(c.R), int(c.G), int(c.B)
}

// share returns the fraction of the (2k+1)² pixels around (x, y) that
// satisfy is.
func share(img *image.RGBA, x, y, k int, is func(r, g, b int) bool) float64 {
	n, hits := 0, 0
	for j := y - k; j <= y+k; j++ {
		for i := x - k; i <= x+k; i++ {
			if image.Pt(i, j).In(img.Rect) {
				n++
				if is(rgb(img, i, j)) {
					hits++
				}
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(hits) / float64(n)
}

// The colour classes of the default palette: the soft object is shaded
// orange (0.88, 0.52, 0.30), the jaws steel blue (0.55, 0.62, 0.72).
func isObject(r, g, b int) bool { return r > b+40 && r > g+15 }
func isJaw(r, g, b int) bool    { return b > r+10 && r+g+b > 150 }

// centroid returns the mean of xyz triples.
func centroid(xyz []float32) r3.Vec {
	var c r3.Vec
	n := len(xyz) / 3
	for i := 0; i < n; i++ {
		c = r3.Add(c, r3.Vec{X: float64(xyz[3*i]), Y: float64(xyz[3*i+1]), Z: float64(xyz[3*i+2])})
	}
	return r3.Scale(1/float64(max(n, 1)), c)
}

// transform applies a column-major model matrix to p.
func transform(m [16]float32, p r3.Vec) r3.Vec {
	return r3.Vec{
		X: float64(m[0])*p.X + float64(m[4])*p.Y + float64(m[8])*p.Z + float64(m[12]),
		Y: float64(m[1])*p.X + float64(m[5])*p.Y + float64(m[9])*p.Z + float64(m[13]),
		Z: float64(m[2])*p.X + float64(m[6])*p.Y + float64(m[10])*p.Z + float64(m[14]),
	}
}

func TestViewerDrawsTheGraspScene(t *testing.T) {
	withViewer(t, testOptions(), func(v *viewer) {
		if !renderUntilSim(t, v, gripBy, gripping) || !pause(t, v) {
			t.Errorf("the grasp scene never closed its jaws (t = %.2f s, %s)", v.frame.Time, v.frame.Stats.Phase)
			return
		}
		// Look along +y, across the closing axis x: both jaws beside the
		// object.
		v.cam.Yaw, v.cam.Pitch = -math.Pi/2, 0.3
		renderUntil(t, v, 2, func(*frame.Frame) bool { return false })
		shot, _, err := v.renderFrame(true)
		v.state.Display.Bodies = false
		bare, _, err2 := v.renderFrame(true)
		if err != nil || err2 != nil {
			t.Errorf("screenshots: %v, %v", err, err2)
			return
		}
		checkObject(t, v, shot)
		checkJaws(t, v, shot, bare)
		checkPanels(t, v, shot)
	})
}

// checkObject looks for the soft object at its projected centre.
func checkObject(t *testing.T, v *viewer, shot *image.RGBA) {
	x, y, ok := v.cam.Project(centroid(v.frame.Surface))
	if !ok {
		t.Error("the object's centre is behind the camera")
		return
	}
	if s := share(shot, int(x), int(y), 4, isObject); s < 0.6 {
		r, g, b := rgb(shot, int(x), int(y))
		t.Errorf("object centre (%.0f, %.0f): %.0f%% object pixels (centre %d,%d,%d), want ≥ 60%%", x, y, 100*s, r, g, b)
	}
	sx, sy := v.platform.PixelScale()
	if v.state.OverPanel(float32(x/sx), float32(y/sy)) {
		t.Errorf("a panel hides the object's centre (%.0f, %.0f)", x, y)
	}
}

// checkJaws looks for each jaw at the projected centre of its mesh, and
// checks that the pixels there come from the jaw: they change when the
// bodies are hidden.
func checkJaws(t *testing.T, v *viewer, shot, bare *image.RGBA) {
	sc := v.runner.Scene()
	for _, body := range []int{scenario.LeftJawBody, scenario.RightJawBody} {
		c := transform(v.frame.BodyPoses[body], centroid(sc.Bodies[body].Vertices))
		x, y, ok := v.cam.Project(c)
		if !ok {
			t.Errorf("jaw %d is behind the camera", body)
			continue
		}
		px, py := int(x), int(y)
		if s := share(shot, px, py, 3, isJaw); s < 0.6 {
			r, g, b := rgb(shot, px, py)
			t.Errorf("jaw %d centre (%d, %d): %.0f%% jaw pixels (centre %d,%d,%d), want ≥ 60%%", body, px, py, 100*s, r, g, b)
		}
		r1, g1, b1 := rgb(shot, px, py)
		r0, g0, b0 := rgb(bare, px, py)
		if d := abs(r1-r0) + abs(g1-g0) + abs(b1-b0); d < 40 {
			t.Errorf("jaw %d centre (%d, %d) barely changes (%d) when the bodies are hidden", body, px, py, d)
		}
	}
}

// checkPanels looks for each docked panel inside the rectangle ImGui gave
// it: a dark body in the window padding and a blue title bar.
func checkPanels(t *testing.T, v *viewer, shot *image.RGBA) {
	for _, title := range []string{ui.PanelSimulation, ui.PanelGripper, ui.PanelDisplay, ui.PanelStats} {
		r, ok := v.state.Layout.Panels[title]
		if !ok || r.Empty() {
			t.Errorf("panel %s was not drawn", title)
			continue
		}
		bx, by := toPixels(v, r.Min.X+4, (r.Min.Y+r.Max.Y)/2)
		if s := share(shot, bx, by, 1, func(r, g, b int) bool { return r+g+b < 90 }); s < 1 {
			cr, cg, cb := rgb(shot, bx, by)
			t.Errorf("panel %s body at (%d, %d) is %d,%d,%d: not the dark panel background", title, bx, by, cr, cg, cb)
		}
		tx, ty := toPixels(v, r.Max.X-12, r.Min.Y+5)
		if s := share(shot, tx, ty, 1, func(r, g, b int) bool { return b > r+30 && b > 55 }); s < 1 {
			cr, cg, cb := rgb(shot, tx, ty)
			t.Errorf("panel %s title bar at (%d, %d) is %d,%d,%d: not the blue title colour", title, tx, ty, cr, cg, cb)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestSchemeToggleFromThePanel(t *testing.T) {
	withViewer(t, testOptions(), func(v *viewer) {
		if !renderUntil(t, v, 5000, func(f *frame.Frame) bool { return f.Seq >= 3 && f.Stats.Scheme == "fast" }) {
			t.Error("no fast-scheme step")
			return
		}
		version, seq := v.frame.SceneVersion, v.frame.Seq
		r, ok := v.state.Layout.Items[ui.ItemSchemeStandard]
		if !ok {
			t.Error("the scheme toggle was not drawn")
			return
		}
		c := r.Centre()
		inject(t, v, ui.CursorEvent(float64(c.X), float64(c.Y)),
			ui.ButtonEvent(ui.MouseLeft, ui.Press, 0), ui.ButtonEvent(ui.MouseLeft, ui.Release, 0))
		if !renderUntil(t, v, 5000, func(f *frame.Frame) bool { return f.Stats.Scheme == "standard" }) {
			t.Error("no standard-scheme step after clicking the toggle")
			return
		}
		if v.frame.SceneVersion != version {
			t.Errorf("the switch rebuilt the scene (version %d → %d): it must apply live", version, v.frame.SceneVersion)
		}
		if v.frame.Seq <= seq {
			t.Errorf("standard step %d does not follow fast step %d", v.frame.Seq, seq)
		}
	})
}

// TestBackendToggleFromThePanel: the gpu box reaches the physics loop
// through the application's hook. Without CUDA (the default build) the
// frames stay on the CPU and the message says so in one line; with it,
// the frames run on the GPU or, without a device, say the same.
func TestBackendToggleFromThePanel(t *testing.T) {
	withViewer(t, testOptions(), func(v *viewer) {
		if !renderUntil(t, v, 5000, func(f *frame.Frame) bool { return f.Seq >= 2 && f.Stats.Backend == frame.BackendCPU }) {
			t.Error("no step on the CPU backend")
			return
		}
		r, ok := v.state.Layout.Items[ui.ItemBackendGPU]
		if !ok {
			t.Error("the backend toggle was not drawn")
			return
		}
		c := r.Centre()
		inject(t, v, ui.CursorEvent(float64(c.X), float64(c.Y)),
			ui.ButtonEvent(ui.MouseLeft, ui.Press, 0), ui.ButtonEvent(ui.MouseLeft, ui.Release, 0))
		if !renderUntil(t, v, 5000, func(f *frame.Frame) bool {
			return f.Stats.Backend == frame.BackendGPU || strings.Contains(f.Message, "staying on the CPU")
		}) {
			t.Errorf("after the click: backend %q, message %q; want the GPU or the fallback message", v.frame.Stats.Backend, v.frame.Message)
			return
		}
		f := v.frame
		if !gpuAvailable && (f.Stats.Backend != frame.BackendCPU || strings.Contains(f.Message, "\n")) {
			t.Errorf("default build: backend %q, message %q; want the CPU and one line", f.Stats.Backend, f.Message)
		}
		if f.Stats.Backend == frame.BackendCPU && f.Stats.DeviceTimed {
			t.Error("device times on the CPU backend")
		}
	})
}

func TestRightDragMovesTheGripperTarget(t *testing.T) {
	withViewer(t, testOptions(), func(v *viewer) {
		if !renderUntil(t, v, 5000, func(f *frame.Frame) bool { return f.Seq >= 2 }) || !pause(t, v) {
			return
		}
		before := v.frame.Gripper.Target
		const x0, y0, dx, steps = 640.0, 380.0, 12.0, 5
		if v.state.OverPanel(x0, y0) {
			t.Errorf("the drag's start (%g, %g) is over a panel", x0, y0)
			return
		}
		events := []ui.Event{ui.CursorEvent(x0, y0), ui.ButtonEvent(ui.MouseRight, ui.Press, 0)}
		for i := 1; i <= steps; i++ {
			events = append(events, ui.CursorEvent(x0+dx*float64(i), y0))
		}
		inject(t, v, append(events, ui.ButtonEvent(ui.MouseRight, ui.Release, 0))...)
		sx, _ := v.platform.PixelScale()
		want := v.cam.ViewPlaneDelta(dx*steps*sx, 0, before)
		arrived := func(f *frame.Frame) bool {
			return r3.Norm(r3.Sub(r3.Sub(f.Gripper.Target, before), want)) < 0.02*r3.Norm(want)
		}
		if !renderUntil(t, v, 500, arrived) {
			t.Errorf("gripper target moved by %v after a %g-pixel right drag, want about %v",
				r3.Sub(v.frame.Gripper.Target, before), dx*steps, want)
		}
		_, right, _ := v.cam.Basis()
		if moved := r3.Sub(v.frame.Gripper.Target, before); r3.Dot(moved, right) <= 0.98*r3.Norm(moved) {
			t.Errorf("target moved %v, not along the camera's right %v", moved, right)
		}
	})
}
