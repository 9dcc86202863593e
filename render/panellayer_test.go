package render_test

import (
	"image"
	"testing"

	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/render"
)

// TestPanelLayerMatchesDirectPanels draws the same frame twice: the scene
// with an opaque panel drawn over it directly, and the scene drawn with
// the panel's rectangle covered (Options.Covered) and the panel copied in
// from a PanelLayer. Away from the panel's one-pixel antialiased edge the
// two pictures are the same: inside it the panel, outside it the scene.
func TestPanelLayerMatchesDirectPanels(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(7, 4)
		setScene(t, fx, scene)
		fr := testFrame(scene, 0.002)
		p := fx.platform
		w, h := p.FramebufferSize()
		dw, dh := p.DisplaySize()
		display, fb := [2]float32{float32(dw), float32(dh)}, [2]float32{float32(w), float32(h)}
		bg := [4]float32{0.075, 0.08, 0.095, 1}

		p.PollEvents()
		p.NewFrame()
		imgui.PushStyleColor(imgui.StyleColorWindowBg, imgui.Vec4{X: bg[0], Y: bg[1], Z: bg[2], W: bg[3]})
		imgui.PushStyleVarFloat(imgui.StyleVarWindowRounding, 0)
		imgui.SetNextWindowPosV(imgui.Vec2{X: 20, Y: 300}, imgui.ConditionAlways, imgui.Vec2{})
		imgui.SetNextWindowSizeV(imgui.Vec2{X: 200, Y: 120}, imgui.ConditionAlways)
		imgui.Begin("Solver")
		imgui.Text("Newton iterations: 5")
		imgui.End()
		imgui.PopStyleVar()
		imgui.PopStyleColor()
		imgui.Render()
		data := imgui.RenderedDrawData()

		opt := render.DefaultOptions()
		shot := func() *image.RGBA {
			img, err := render.Screenshot(w, h)
			if err != nil {
				t.Fatalf("Screenshot: %v", err)
			}
			return img
		}
		if err := fx.renderer.Draw(fr, testCamera(), opt, w, h); err != nil {
			t.Fatal(err)
		}
		fx.imgui.Render(display, fb, data)
		direct := shot()

		layer, err := render.NewPanelLayer()
		if err != nil {
			t.Fatal(err)
		}
		defer layer.Dispose()
		if err := layer.Update(fx.imgui, display, fb, data, bg); err != nil {
			t.Fatal(err)
		}
		rects := layer.Rects()
		if len(rects) != 1 {
			t.Fatalf("layer rectangles %v, want the one window", rects)
		}
		sx, sy := w/dw, h/dh
		// Corners x0, y0, x1, y1 (bottom-up) of the window, and of the
		// rectangle, which adds the antialiased edge.
		want := [4]int32{int32(20 * sx), int32(h - 420*sy), int32(220 * sx), int32(h - 300*sy)}
		got := [4]int32{rects[0][0], rects[0][1], rects[0][0] + rects[0][2], rects[0][1] + rects[0][3]}
		for i := range want {
			if d := got[i] - want[i]; d < -2 || d > 2 {
				t.Fatalf("layer rectangle corners %v, want the window's %v within 2 pixels", got, want)
			}
		}
		opt.Covered = rects
		if err := fx.renderer.Draw(fr, testCamera(), opt, w, h); err != nil {
			t.Fatal(err)
		}
		// Covered pixels keep the background, where the direct picture's
		// scene (under the panel) differs from it.
		covered := shot()
		cx, cy := int(rects[0][0]+rects[0][2]/2), h-int(rects[0][1]+rects[0][3]/2)
		back := [3]int{int(opt.Background[0]*255 + 0.5), int(opt.Background[1]*255 + 0.5), int(opt.Background[2]*255 + 0.5)}
		if c := rgb(covered, cx, cy); absDiff(uint8(c[0]), uint8(back[0])) > 1 || absDiff(uint8(c[1]), uint8(back[1])) > 1 || absDiff(uint8(c[2]), uint8(back[2])) > 1 {
			t.Errorf("covered pixel (%d, %d) is %v, want the background %v", cx, cy, c, back)
		}
		opt.Covered = nil
		if err := fx.renderer.Draw(fr, testCamera(), opt, w, h); err != nil {
			t.Fatal(err)
		}
		if c := rgb(shot(), cx, cy); c == back {
			t.Errorf("pixel (%d, %d) is the background without the cover too: the test shows nothing", cx, cy)
		}
		opt.Covered = rects
		if err := fx.renderer.Draw(fr, testCamera(), opt, w, h); err != nil {
			t.Fatal(err)
		}
		layer.Composite()
		layered := shot()
		p.SwapBuffers()

		r := rects[0]
		// Screenshot rows run top-down; the rectangle is bottom-up.
		x0, x1 := int(r[0]), int(r[0]+r[2])
		y0, y1 := h-int(r[1]+r[3]), h-int(r[1])
		edge := func(x, y int) bool {
			near := func(v, a int) bool { return v >= a-2 && v <= a+2 }
			return (near(x, x0) || near(x, x1)) && y >= y0-2 && y <= y1+2 ||
				(near(y, y0) || near(y, y1)) && x >= x0-2 && x <= x1+2
		}
		inside, outside, bad := 0, 0, 0
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if edge(x, y) {
					continue
				}
				a, b := direct.RGBAAt(x, y), layered.RGBAAt(x, y)
				if x > x0 && x < x1 && y > y0 && y < y1 {
					inside++
				} else {
					outside++
				}
				if absDiff(a.R, b.R) > 1 || absDiff(a.G, b.G) > 1 || absDiff(a.B, b.B) > 1 {
					if bad < 5 {
						t.Errorf("pixel (%d, %d): direct %v, through the layer %v", x, y, a, b)
					}
					bad++
				}
			}
		}
		if bad > 0 || inside == 0 || outside == 0 {
			t.Fatalf("%d pixels differ (%d inside the panel, %d outside compared)", bad, inside, outside)
		}
	})
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
