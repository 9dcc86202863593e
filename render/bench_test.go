package render_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/render"
	"softgrasp/ui"
)

// BenchmarkDraw measures whole viewer frames under the current GL driver:
// the 3D scene with every layer on, an ImGui statistics panel with a log
// plot and a stacked bar, and the buffer swap (vsync off). Surface sizes
// match a ~3k-DOF mesh (600 surface vertices) and a ~36k-DOF mesh (about
// 4k surface vertices); the wireframe pass is measured apart because a
// software rasteriser pays much more for lines than a GPU does.
func BenchmarkDraw(b *testing.B) {
	for _, c := range []struct {
		n    int
		wire bool
	}{{9, false}, {9, true}, {25, false}, {25, true}} {
		n := c.n
		verts := 6 * (n + 1) * (n + 1)
		b.Run(fmt.Sprintf("surfverts=%d/wireframe=%v", verts, c.wire), func(b *testing.B) {
			withGL(b, func(fx *glFixture) {
				scene := testScene(uint64(1000+n), n)
				if err := fx.renderer.SetScene(scene); err != nil {
					b.Error(err)
					return
				}
				fr := testFrame(scene, 0.1)
				opt := render.DefaultOptions()
				opt.Forces, opt.Wireframe, opt.ColourMap = true, c.wire, render.ColourVonMises
				cam := testCamera()
				residuals := []float32{1e-1, 2e-2, 3e-3, 5e-4, 8e-5}
				stages := []ui.BarSegment{
					{Label: "Rebuild W", Value: 0.4, Colour: imgui.Vec4{X: 0.3, Y: 0.6, Z: 1, W: 1}},
					{Label: "PGS", Value: 1.1, Colour: imgui.Vec4{X: 1, Y: 0.6, Z: 0.2, W: 1}},
					{Label: "Corr.", Value: 0.2, Colour: imgui.Vec4{X: 0.5, Y: 0.9, Z: 0.4, W: 1}},
				}
				oneFrame := func() {
					p := fx.platform
					w, h := p.FramebufferSize()
					dw, dh := p.DisplaySize()
					p.PollEvents()
					p.NewFrame()
					imgui.Begin("Stats")
					imgui.Text("Newton iterations: 5")
					ui.PlotLog("direction change", residuals, ui.LogPlotOptions{Unit: "rad"})
					ui.StackedBar("stages", stages, imgui.Vec2{}, "ms")
					imgui.End()
					imgui.Render()
					if err := fx.renderer.Draw(fr, cam, opt, w, h); err != nil {
						b.Error(err)
					}
					fx.imgui.Render([2]float32{float32(dw), float32(dh)}, [2]float32{float32(w), float32(h)}, imgui.RenderedDrawData())
					p.SwapBuffers()
				}
				oneFrame()
				gl.Finish()
				b.ResetTimer()
				start := time.Now()
				for i := 0; i < b.N; i++ {
					oneFrame()
				}
				gl.Finish()
				elapsed := time.Since(start)
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "fps")
				b.ReportMetric(elapsed.Seconds()*1e3/float64(b.N), "ms/frame")
			})
		})
	}
}
