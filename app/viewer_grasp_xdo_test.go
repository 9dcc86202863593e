package main

import (
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// TestCtrlClickGraspsALoadedMesh drives the viewer's real window with
// xdotool as a user would, on two meshes of the set that are not boxes, at
// the default 3000 DOFs and in real time: once the object has come to
// rest, ctrl+click on it (a Y-up scanned animal on
// its body's middle, a cylinder volume lying on its side off its middle,
// 40 % of the way to its silhouette's right edge), G to close the jaws,
// and a right drag up. The first click must aim without a refusal, the
// jaws must close by force until both carry the grip, and the lift must
// hold the object and raise it; at each step the Help bar's hint names
// the next one.
func TestCtrlClickGraspsALoadedMesh(t *testing.T) {
	needXdotool(t, "drives the viewer through the X server")
	for _, tc := range []struct {
		file string
		off  float64 // of the way from the object's projected centre to its right edge
	}{
		{"../testdata/meshes/03_horse_scan_yup.stl", 0},
		{"../testdata/meshes/11_cylinder_lying_volume.msh", 0.4},
	} {
		t.Run(tc.file[len("../testdata/meshes/"):], func(t *testing.T) { xdoGrasp(t, tc.file, tc.off) })
	}
}

func xdoGrasp(t *testing.T, file string, off float64) {
	opt := testOptions()
	// In real time: the drags and keys arrive between frames as a user's
	// would, not seconds of simulated time apart.
	opt.config.Scripted, opt.config.MeshFile, opt.config.TargetDOFs, opt.pace = false, file, 3000, 1
	opt.config.Physics = settings.Default() // the viewer's default scene but for the solver: exact, reproducible
	withViewer(t, opt, func(v *viewer) {
		win, err := fuzzWindow(os.Getpid())
		if err != nil {
			t.Error(err)
			return
		}
		simFor := func(what string, dt float64) bool {
			t0 := v.frame.Time
			if !renderWithin(t, v, 20*time.Second, func(f *frame.Frame) bool { return f.Time >= t0+dt }) {
				t.Errorf("%s: the simulation did not advance %g s", what, dt)
				return false
			}
			return true
		}
		// As a user would: click once the object has come to rest (its
		// centroid moving less than 1 mm/s over 0.2 s of simulation).
		var last r3.Vec
		var lastT float64
		rest := func(f *frame.Frame) bool {
			if f.Time < lastT+0.2 {
				return false
			}
			c := centroid(f.Surface)
			still := lastT > 0 && r3.Norm(r3.Sub(c, last)) < 1e-3*(f.Time-lastT)
			last, lastT = c, f.Time
			return still
		}
		if !renderWithin(t, v, 30*time.Second, rest) {
			t.Error("the object never came to rest")
			return
		}
		still := centroid(v.frame.Surface)
		x, y, ok := clickPoint(v, still, off)
		if !ok {
			t.Errorf("no point of the object to click %g of the way to its edge", off)
			return
		}
		for _, args := range [][]string{
			{"mousemove", "--window", win, strconv.Itoa(x), strconv.Itoa(y)},
			{"keydown", "ctrl"}, {"click", "1"}, {"keyup", "ctrl"},
		} {
			if err := xdo(args...); err != nil {
				t.Error(err)
				return
			}
		}
		if !renderWithin(t, v, 5*time.Second, func(*frame.Frame) bool { return v.input.aim != nil || v.state.ActionError() != "" }) || v.input.aim == nil {
			t.Errorf("ctrl+click at (%d, %d) made no aim (banner %q)", x, y, v.state.ActionError())
			return
		}
		hint := func(step, want string) {
			renderUntil(t, v, 2, func(*frame.Frame) bool { return false })
			if !strings.Contains(v.state.Hint, want) {
				t.Errorf("%s: the hint says %q, want %q", step, v.state.Hint, want)
			}
		}
		hint("after the ctrl+click", "G closes the jaws")
		aim := *v.input.aim
		// Arrived: at the aim's centre and turned to its heading.
		arrived := func(f *frame.Frame) bool {
			x := f.Gripper.Rotation.Rotate(r3.Vec{X: 1})
			return r3.Norm(r3.Sub(f.Gripper.Position, f.Gripper.Target)) < 1e-4 && r3.Dot(x, aim.Pose.Rotate(r3.Vec{X: 1})) > 1-1e-6
		}
		if !renderWithin(t, v, 20*time.Second, arrived) || !simFor("settle at the aim", 0.1) {
			t.Errorf("the gripper never reached the aim %v", aim.Pose.Position)
			return
		}
		if err := xdo("key", "g"); err != nil {
			t.Error(err)
			return
		}
		gripped := func(f *frame.Frame) bool {
			s := f.Stats
			return s.Gripping && s.GripTarget > 0 && math.Min(s.GripLeft, s.GripRight) >= 0.9*s.GripTarget
		}
		if !renderWithin(t, v, 20*time.Second, gripped) || !simFor("squeeze", 0.2) {
			s := v.frame.Stats
			t.Errorf("G: the jaws never gripped (gripping %v, %.3g N and %.3g N of %.3g N)", s.Gripping, s.GripLeft, s.GripRight, s.GripTarget)
			return
		}
		grip := v.frame.Stats
		hint("gripped on the floor", "right-drag up lifts it")
		lift := []string{"mousedown", "3"}
		if err := xdo(lift...); err != nil {
			t.Error(err)
			return
		}
		for i := 1; i <= 10; i++ {
			if err := xdo("mousemove", "--window", win, strconv.Itoa(x), strconv.Itoa(y-15*i)); err != nil {
				t.Error(err)
			}
			renderUntil(t, v, 3, func(*frame.Frame) bool { return false })
		}
		if err := xdo("mouseup", "3"); err != nil {
			t.Error(err)
			return
		}
		if !renderWithin(t, v, 20*time.Second, arrived) || !simFor("hold up", 0.3) {
			t.Error("the gripper never finished the lift")
			return
		}
		hint("lifted", "held: right-drag moves it")
		f := v.frame
		up := centroid(f.Surface).Z - still.Z
		t.Logf("aim (%.1f, %.1f, %.1f) mm heading %.0f°, %.1f mm wide in %.1f mm jaws; gripped %.3g/%.3g N of %.3g N; lifted: %.3g/%.3g N, held %v, raised %.1f mm",
			1e3*aim.Pose.Position.X, 1e3*aim.Pose.Position.Y, 1e3*aim.Pose.Position.Z, aim.Yaw*180/math.Pi, 1e3*aim.Width, 1e3*aim.Opening,
			grip.GripLeft, grip.GripRight, grip.GripTarget, f.Stats.GripLeft, f.Stats.GripRight, f.Stats.Held, 1e3*up)
		if !f.Stats.Held || up < 5e-3 || math.IsNaN(up) {
			t.Errorf("after the lift: held %v, object raised %.2f mm; want held and > 5 mm", f.Stats.Held, 1e3*up)
		}
	})
}

// clickPoint returns the window point off of the way from the object's
// projected centre c to the right edge of its silhouette, nudged to the
// nearest surface vertex whose line of sight hits the object, outside the
// panels.
func clickPoint(v *viewer, c r3.Vec, off float64) (int, int, bool) {
	sx, sy := v.platform.PixelScale()
	cx, cy, ok := v.cam.Project(c)
	if !ok {
		return 0, 0, false
	}
	s := v.frame.Surface
	right := cx
	for i := 0; i+2 < len(s); i += 3 {
		if px, _, ok := v.cam.Project(r3.Vec{X: float64(s[i]), Y: float64(s[i+1]), Z: float64(s[i+2])}); ok {
			right = math.Max(right, px)
		}
	}
	tx := cx + off*(right-cx)
	w, h := v.cam.Viewport()
	tris := v.runner.Scene().SurfaceTris
	type point struct{ d, x, y float64 }
	var pts []point
	for i := 0; i+2 < len(s); i += 3 {
		px, py, ok := v.cam.Project(r3.Vec{X: float64(s[i]), Y: float64(s[i+1]), Z: float64(s[i+2])})
		if ok && !v.state.OverPanel(float32(px/sx), float32(py/sy)) {
			pts = append(pts, point{math.Hypot(px-tx, py-cy), px, py})
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].d < pts[j].d })
	best, bx, by := math.Inf(1), 0.0, 0.0
	for _, p := range pts {
		origin, dir := v.cam.Ray(p.x, p.y, w, h)
		if _, hit, _ := scenario.AimAlongRay(origin, dir, r3.Vec{X: 1}, scenario.Surface[float32, uint32]{Positions: s, Tris: tris}, scenario.Jaws{Width: 1, Height: 1, Reach: 1}, 0); hit {
			best, bx, by = p.d, p.x, p.y
			break
		}
	}
	if math.IsInf(best, 1) {
		return 0, 0, false
	}
	return int(bx / sx), int(by / sy), true
}

// renderWithin renders frames until cond holds for the newest frame, for
// at most limit of wall time (the scene runs in real time); it reports
// whether cond was met.
func renderWithin(tb testing.TB, v *viewer, limit time.Duration, cond func(f *frame.Frame) bool) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); {
		if renderUntil(tb, v, 1, cond) {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}
