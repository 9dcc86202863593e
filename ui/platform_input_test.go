package ui

import (
	"errors"
	"testing"

	"github.com/inkyblackness/imgui-go/v4"
)

// withWindow runs f on the main thread with a 640×480 platform whose
// ImGui font atlas is built (NewFrame needs it; no GL is drawn); it skips
// the test when no display exists.
func withWindow(t *testing.T, f func(p *Platform)) {
	t.Helper()
	var skip error
	onMain(func() {
		p, err := NewPlatform(Config{Title: "ui test", Width: 640, Height: 480})
		if err != nil {
			skip = err
			return
		}
		defer p.Dispose()
		imgui.CurrentIO().Fonts().TextureDataRGBA32()
		f(p)
	})
	if skip != nil {
		if !errors.Is(skip, ErrNoDisplay) {
			t.Errorf("NewPlatform failed with a display present: %v", skip)
		}
		t.Skipf("no GL window: %v", skip)
	}
}

// TestInjectedEventsReachImGuiThroughThePlatform drives the platform's own
// input path: an injected cursor move and press show in ImGui's IO and in
// the handlers after NewFrame.
func TestInjectedEventsReachImGuiThroughThePlatform(t *testing.T) {
	withWindow(t, func(p *Platform) {
		var pressed []MouseButton
		p.SetHandlers(Handlers{MouseButton: func(b MouseButton, a Action, _ Pointer) {
			if a == Press {
				pressed = append(pressed, b)
			}
		}})
		events := []Event{CursorEvent(320, 240), ButtonEvent(MouseRight, Press, 0)}
		for _, e := range events {
			if err := p.Inject(e); err != nil {
				t.Errorf("inject: %v", err)
			}
		}
		for i := 0; i < 3; i++ {
			p.NewFrame()
			imgui.Render()
		}
		io := imgui.CurrentIO()
		if pos := io.MousePosition(); pos.X != 320 || pos.Y != 240 {
			t.Errorf("ImGui mouse at %v, want (320, 240)", pos)
		}
		if len(pressed) != 1 || pressed[0] != MouseRight {
			t.Errorf("handler saw presses %v, want [right]", pressed)
		}
		if p.WantCaptureMouse() {
			t.Error("ImGui captures the mouse with no window under it")
		}
	})
}
