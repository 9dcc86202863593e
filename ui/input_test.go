package ui

import (
	"strings"
	"testing"

	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/inkyblackness/imgui-go/v4"
)

// headlessImGui creates an ImGui context that can run frames without any
// window: a display size and a built font atlas are all NewFrame needs.
func headlessImGui() (*imgui.Context, imgui.IO) {
	ctx := imgui.CreateContext(nil)
	io := imgui.CurrentIO()
	io.SetIniFilename("")
	io.SetDisplaySize(imgui.Vec2{X: 800, Y: 600})
	io.Fonts().TextureDataRGBA32()
	ConfigureKeyMap(io)
	return ctx, io
}

// recorder keeps what the handlers received.
type recorder struct {
	buttons []string
	moves   []Pointer
	scrolls []float64
	keys    []Key
}

func (r *recorder) handlers() Handlers {
	return Handlers{
		MouseButton: func(b MouseButton, a Action, p Pointer) {
			act := "release"
			if a == Press {
				act = "press"
			}
			r.buttons = append(r.buttons, b.String()+" "+act)
		},
		CursorMove: func(p Pointer) { r.moves = append(r.moves, p) },
		Scroll:     func(dx, dy float64, p Pointer) { r.scrolls = append(r.scrolls, dy) },
		Key:        func(k Key, a Action, m Mods) { r.keys = append(r.keys, k) },
	}
}

// runFrame routes the queued input and runs one ImGui frame; build adds
// windows.
func runFrame(in *Input, io imgui.IO, build func()) {
	in.Route(io)
	imgui.NewFrame()
	if build != nil {
		build()
	}
	imgui.Render()
}

func mustPush(t *testing.T, in *Input, events ...Event) {
	t.Helper()
	for _, e := range events {
		if err := in.Push(e); err != nil {
			t.Errorf("push %+v: %v", e, err)
		}
	}
}

// drain runs frames until every queued event has been routed (Route
// spreads some over frames) and returns how many frames it took.
func drain(in *Input, io imgui.IO) int {
	n := 0
	for ; in.Pending() > 0 && n < 10; n++ {
		runFrame(in, io, nil)
	}
	return n
}

func TestSyntheticMouseReachesImGuiAndHandlers(t *testing.T) {
	onMain(func() {
		ctx, io := headlessImGui()
		defer ctx.Destroy()
		in, rec := NewInput(), &recorder{}
		in.SetHandlers(rec.handlers())

		mustPush(t, in, CursorEvent(100, 120), ButtonEvent(MouseRight, Press, ModShift), CursorEvent(130, 100))
		if frames := drain(in, io); frames != 2 {
			t.Errorf("routing took %d frames, want 2 (the press waits for the frame after the move)", frames)
		}
		imgui.NewFrame()
		if got := io.MousePosition(); got.X != 130 || got.Y != 100 {
			t.Errorf("ImGui mouse position %v, want (130, 100)", got)
		}
		if !imgui.IsMouseDown(int(MouseRight)) {
			t.Error("ImGui does not see the right button down")
		}
		imgui.Render()

		if strings.Join(rec.buttons, ",") != "right press" {
			t.Errorf("button hooks %v, want [right press]", rec.buttons)
		}
		if len(rec.moves) != 2 {
			t.Errorf("cursor hooks called %d times, want 2", len(rec.moves))
			return
		}
		last := rec.moves[1]
		if last.DX != 30 || last.DY != -20 || !last.Down[MouseRight] || last.Mods != ModShift {
			t.Errorf("drag pointer %+v, want DX 30 DY −20 with right held and shift", last)
		}

		mustPush(t, in, ScrollEvent(0, 2))
		in.Route(io)
		if _, wheel := io.MouseWheel(); wheel != 2 {
			t.Errorf("ImGui wheel %v, want 2", wheel)
		}
		if len(rec.scrolls) != 1 || rec.scrolls[0] != 2 {
			t.Errorf("scroll hooks %v, want [2]", rec.scrolls)
		}
		imgui.NewFrame()
		imgui.Render()

		mustPush(t, in, ButtonEvent(MouseRight, Release, 0))
		drain(in, io)
		if strings.Join(rec.buttons, ",") != "right press,right release" {
			t.Errorf("button hooks %v after release", rec.buttons)
		}
		if in.Pointer().Down[MouseRight] {
			t.Error("pointer still reports the right button down")
		}
	})
}

// TestImGuiWindowCapturesTheMouse checks the routing rule: presses over an
// ImGui window go to ImGui only, while a drag that started in the 3D view
// keeps reaching the handlers when it crosses a window.
func TestImGuiWindowCapturesTheMouse(t *testing.T) {
	onMain(func() {
		ctx, io := headlessImGui()
		defer ctx.Destroy()
		in, rec := NewInput(), &recorder{}
		in.SetHandlers(rec.handlers())
		panel := func() {
			imgui.SetNextWindowPosV(imgui.Vec2{X: 10, Y: 10}, imgui.ConditionAlways, imgui.Vec2{})
			imgui.SetNextWindowSizeV(imgui.Vec2{X: 200, Y: 150}, imgui.ConditionAlways)
			imgui.Begin("panel")
			imgui.Text("settings")
			imgui.End()
		}
		steps := []struct {
			name        string
			events      []Event
			wantButtons int // hook calls so far
			wantCapture bool
		}{
			{"hover the panel", []Event{CursorEvent(50, 50)}, 0, true},
			{"click on the panel", []Event{ButtonEvent(MouseLeft, Press, 0)}, 0, true},
			{"release on the panel", []Event{ButtonEvent(MouseLeft, Release, 0)}, 0, true},
			{"press in the 3D view", []Event{CursorEvent(500, 400), ButtonEvent(MouseLeft, Press, 0)}, 1, false},
			{"drag over the panel", []Event{CursorEvent(60, 60)}, 1, false},
			{"release over the panel", []Event{ButtonEvent(MouseLeft, Release, 0)}, 2, false},
		}
		runFrame(in, io, panel)
		for _, s := range steps {
			mustPush(t, in, s.events...)
			moves := len(rec.moves)
			// Routing may take two frames, and the capture flag follows
			// one frame after the cursor.
			for i := 0; i < 3; i++ {
				runFrame(in, io, panel)
			}
			if len(rec.buttons) != s.wantButtons {
				t.Errorf("%s: %d button hook calls %v, want %d", s.name, len(rec.buttons), rec.buttons, s.wantButtons)
			}
			if s.name == "drag over the panel" && len(rec.moves) == moves {
				t.Errorf("%s: the 3D drag lost its cursor moves", s.name)
			}
			if s.name == "hover the panel" && io.WantCaptureMouse() != s.wantCapture {
				t.Errorf("%s: WantCaptureMouse = %v", s.name, io.WantCaptureMouse())
			}
		}
	})
}

// TestFastClickIsSplitAcrossFrames checks that a press and release queued
// in one frame reach ImGui in two frames, so it registers a click.
func TestFastClickIsSplitAcrossFrames(t *testing.T) {
	onMain(func() {
		ctx, io := headlessImGui()
		defer ctx.Destroy()
		in := NewInput()
		mustPush(t, in, CursorEvent(300, 300))
		runFrame(in, io, nil)
		mustPush(t, in, ButtonEvent(MouseLeft, Press, 0), ButtonEvent(MouseLeft, Release, 0))
		in.Route(io)
		imgui.NewFrame()
		if !imgui.IsMouseClicked(int(MouseLeft)) {
			t.Error("first frame: no click seen")
		}
		imgui.Render()
		if in.Pending() != 1 {
			t.Errorf("after the first frame %d events pending, want the release", in.Pending())
		}
		in.Route(io)
		imgui.NewFrame()
		if imgui.IsMouseDown(int(MouseLeft)) {
			t.Error("second frame: button still down")
		}
		imgui.Render()
		if in.Pending() != 0 {
			t.Errorf("%d events left", in.Pending())
		}
	})
}

func TestKeysAndModifiers(t *testing.T) {
	onMain(func() {
		ctx, io := headlessImGui()
		defer ctx.Destroy()
		in, rec := NewInput(), &recorder{}
		in.SetHandlers(rec.handlers())
		mustPush(t, in, KeyEvent(Key(glfw.KeyLeftShift), Press, 0), KeyEvent(Key(glfw.KeyR), Press, ModShift))
		runFrame(in, io, nil)
		if !io.KeyShiftPressed() {
			t.Error("ImGui does not see shift")
		}
		if in.Pointer().Mods&ModShift == 0 {
			t.Error("pointer modifiers miss shift")
		}
		if len(rec.keys) != 2 || rec.keys[1] != Key(glfw.KeyR) {
			t.Errorf("key hooks %v, want [shift R]", rec.keys)
		}
		mustPush(t, in, KeyEvent(Key(glfw.KeyLeftShift), Release, ModShift))
		runFrame(in, io, nil)
		if io.KeyShiftPressed() || in.Pointer().Mods&ModShift != 0 {
			t.Error("shift still down after its release")
		}
	})
}

func TestInvalidEventsAreRejected(t *testing.T) {
	tests := []struct {
		name string
		e    Event
		want string
	}{
		{"button out of range", ButtonEvent(MouseButton(7), Press, 0), "mouse button 7"},
		{"negative button", ButtonEvent(MouseButton(-1), Press, 0), "mouse button -1"},
		{"button repeat", ButtonEvent(MouseLeft, Repeat, 0), "cannot repeat"},
		{"key code too large", KeyEvent(Key(600), Press, 0), "key code 600"},
		{"unknown key", KeyEvent(Key(glfw.KeyUnknown), Press, 0), "key code -1"},
		{"zero kind", Event{}, "unknown kind"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := NewInput()
			err := in.Push(tc.e)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Push = %v, want an error containing %q", err, tc.want)
			}
			if in.Pending() != 0 {
				t.Error("rejected event was queued")
			}
		})
	}
}
