package main

import (
	"testing"

	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics/frame"
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
			gripping := func(f *frame.Frame) bool { return f.Stats.Phase == "hold" || f.Stats.Phase == "lift" }
			if !renderUntil(t, v, 20000, gripping) || !pause(t, v) {
				t.Errorf("%v: the jaws never closed", size)
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
