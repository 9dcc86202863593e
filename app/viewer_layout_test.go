package main

import (
	"testing"

	"github.com/inkyblackness/imgui-go/v4"
	"gonum.org/v1/gonum/spatial/r3"
)

// TestViewerFitsEachWindowSize opens the real viewer at the README's three
// window sizes and, once the jaws grip, checks what a user sees: a
// screenshot of the window's size, the layout's own problems (panels
// inside the window and apart, no label cut, nothing clipped on the
// right), and the object's centre in the part of the view the panels
// leave free.
func TestViewerFitsEachWindowSize(t *testing.T) {
	for _, size := range [][2]int{{800, 600}, {1280, 800}, {1920, 1080}} {
		opt := testOptions()
		opt.width, opt.height = size[0], size[1]
		withViewer(t, opt, func(v *viewer) {
			if !renderUntilSim(t, v, gripBy, gripping) || !pause(t, v) {
				t.Errorf("%v: the jaws never closed (t = %.2f s, %s)", size, v.frame.Time, v.frame.Stats.Phase)
				return
			}
			shot, _, err := v.renderFrame(true)
			if err != nil {
				t.Errorf("%v: screenshot: %v", size, err)
				return
			}
			sx, sy := v.platform.PixelScale()
			if b := shot.Bounds(); b.Dx() != int(float64(size[0])*sx) || b.Dy() != int(float64(size[1])*sy) {
				t.Errorf("%v: the screenshot is %d×%d", size, b.Dx(), b.Dy())
			}
			for _, p := range v.state.Layout.Problems(imgui.Vec2{X: float32(size[0]), Y: float32(size[1])}) {
				t.Errorf("%v: %s", size, p)
			}
			t.Logf("%v: t = %.2f s, %s, %d panels drawn", size, v.frame.Time, v.frame.Stats.Phase, len(v.state.Layout.Panels))
			checkObject(t, v, shot)
		})
	}
}

// TestViewerFramesALoadedMesh: a mesh of the set loaded from the command
// line is framed once the jaws grip it: its centre shows the object, not
// a jaw or a panel, and nearly all of its surface lies in the window's
// free view. The three are a Y-up statue (the one that once sat behind a
// jaw), a tall vase and a Y-up scan of an animal.
func TestViewerFramesALoadedMesh(t *testing.T) {
	for _, file := range []string{"04_statue_yup.obj", "16_vase_tall.stl", "03_horse_scan_yup.stl"} {
		opt := testOptions()
		opt.config.MeshFile, opt.config.TargetDOFs = "../testdata/meshes/"+file, 600
		withViewer(t, opt, func(v *viewer) {
			if !renderUntilSim(t, v, gripBy, gripping) || !pause(t, v) {
				t.Errorf("%s: the jaws never gripped (t = %.2f s, %s, %s)", file, v.frame.Time, v.frame.Stats.Phase, v.frame.Message)
				return
			}
			t.Logf("%s: gripped at t = %.2f s", file, v.frame.Time)
			shot, _, err := v.renderFrame(true)
			if err != nil {
				t.Errorf("%s: screenshot: %v", file, err)
				return
			}
			checkObject(t, v, shot)
			sx, sy := v.platform.PixelScale()
			w, h := float64(opt.width)*sx, float64(opt.height)*sy
			s := v.frame.Surface
			seen := 0
			for i := 0; i+2 < len(s); i += 3 {
				x, y, ok := v.cam.Project(r3.Vec{X: float64(s[i]), Y: float64(s[i+1]), Z: float64(s[i+2])})
				if ok && x >= 0 && y >= 0 && x < w && y < h && !v.state.OverPanel(float32(x/sx), float32(y/sy)) {
					seen++
				}
			}
			if share := float64(seen) / float64(len(s)/3); share < 0.95 {
				t.Errorf("%s: %.0f%% of the surface in the free view, want ≥ 95%%", file, 100*share)
			} else {
				t.Logf("%s: %.1f%% of the surface in the free view", file, 100*share)
			}
		})
	}
}
