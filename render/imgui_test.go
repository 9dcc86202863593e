package render_test

import (
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/inkyblackness/imgui-go/v4"
)

// pixel reads the back buffer at (x, y) in top-down window pixels.
func imguiPixel(x, y, fbHeight int) [4]uint8 {
	var px [4]uint8
	gl.ReadBuffer(gl.BACK)
	gl.ReadPixels(int32(x), int32(fbHeight-1-y), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(&px[0]))
	return px
}

func TestImGuiRendererDrawsAWindowWhereImGuiPutsIt(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		p, r := fx.platform, fx.imgui
		fw, fh := p.FramebufferSize()
		dw, dh := p.DisplaySize()
		gl.Viewport(0, 0, int32(fw), int32(fh))
		gl.ClearColor(0, 0, 0, 1)
		gl.Clear(gl.COLOR_BUFFER_BIT)

		p.PollEvents()
		p.NewFrame()
		imgui.SetNextWindowPosV(imgui.Vec2{X: 100, Y: 80}, imgui.ConditionAlways, imgui.Vec2{})
		imgui.SetNextWindowSizeV(imgui.Vec2{X: 220, Y: 160}, imgui.ConditionAlways)
		imgui.Begin("Test panel")
		imgui.Text("contact directions")
		imgui.End()
		imgui.Render()

		// State the 3D renderer may leave behind; Render must restore it.
		gl.Enable(gl.DEPTH_TEST)
		gl.Disable(gl.BLEND)
		gl.Viewport(3, 4, 300, 200)
		r.Render([2]float32{float32(dw), float32(dh)}, [2]float32{float32(fw), float32(fh)}, imgui.RenderedDrawData())
		if err := gl.GetError(); err != gl.NO_ERROR {
			t.Errorf("GL error 0x%04x after Render", err)
		}

		sx, sy := fw/dw, fh/dh
		tests := []struct {
			name       string
			x, y       int
			background bool
		}{
			{"window body", 200, 180, false},
			{"title bar", 150, 88, false},
			{"left of the window", 60, 150, true},
			{"below the window", 200, 300, true},
			{"far corner", 600, 440, true},
		}
		for _, tc := range tests {
			px := imguiPixel(tc.x*sx, tc.y*sy, fh)
			isBackground := px[0] == 0 && px[1] == 0 && px[2] == 0
			if isBackground != tc.background {
				t.Errorf("%s (%d, %d): pixel %v, background = %v, want %v", tc.name, tc.x, tc.y, px, isBackground, tc.background)
			}
		}
		if px := imguiPixel(150*sx, 88*sy, fh); !(px[2] > px[0]+20) {
			t.Errorf("title bar pixel %v is not ImGui's blue", px)
		}

		var vp [4]int32
		gl.GetIntegerv(gl.VIEWPORT, &vp[0])
		if vp != [4]int32{3, 4, 300, 200} {
			t.Errorf("viewport %v not restored", vp)
		}
		if !gl.IsEnabled(gl.DEPTH_TEST) || gl.IsEnabled(gl.BLEND) || gl.IsEnabled(gl.SCISSOR_TEST) {
			t.Error("enable flags not restored (depth on, blend and scissor off)")
		}
		p.SwapBuffers()
	})
}
