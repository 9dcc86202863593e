package ui

import (
	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/inkyblackness/imgui-go/v4"
)

// Pointer is the mouse as the 3D handlers see it: position in window
// coordinates (origin top-left, y down), the motion of the last cursor
// event, the buttons held and the modifier keys.
type Pointer struct {
	X, Y   float64
	DX, DY float64
	Down   [MouseButtons]bool
	Mods   Mods
}

// Handlers are the application's hooks for input that ImGui does not
// capture. Any of them may be nil.
type Handlers struct {
	// MouseButton gets presses outside ImGui windows and the matching
	// releases (wherever the cursor is then), so that a drag that starts
	// in the 3D view always ends there.
	MouseButton func(b MouseButton, a Action, p Pointer)
	// CursorMove gets cursor motion while ImGui does not want the mouse,
	// or while a button pressed in the 3D view is held.
	CursorMove func(p Pointer)
	// Scroll gets wheel turns outside ImGui windows.
	Scroll func(dx, dy float64, p Pointer)
	// Key gets key presses and repeats while ImGui has no keyboard focus,
	// and every release.
	Key func(k Key, a Action, mods Mods)
}

// Input is the single input path of the viewer: a FIFO of Events fed by
// the GLFW callbacks and by tests (Push), drained once per frame by Route,
// which forwards each event to ImGui's IO and, unless ImGui captures it,
// to the Handlers.
//
// ImGui 1.85 reads its input as state (is the button down now?), not as
// events, so a press and release of the same button within one frame
// would be lost to it. Route therefore stops draining at the second change
// of the same button or key and leaves the rest for the next frame: fast
// clicks and synthetic press-release pairs reach ImGui as a click. For the
// same reason a button or wheel event that follows a cursor move waits for
// the next frame: whether ImGui captures it depends on the window under
// the new position, which ImGui only knows after a NewFrame there.
type Input struct {
	queue    []Event
	handlers Handlers
	pointer  Pointer
	moved    bool               // pointer position known
	owned    [MouseButtons]bool // press was delivered to the handlers
	keyDone  [maxKey]bool       // key changed in the current Route
	keyList  []Key              // entries of keyDone to clear
	btnDone  [MouseButtons]bool // button changed in the current Route
	movedNow bool               // cursor moved in the current Route
}

// NewInput returns an empty input path.
func NewInput() *Input { return &Input{} }

// Push appends an event to the queue; an event that cannot be routed is
// rejected with an error naming the bad field.
func (in *Input) Push(e Event) error {
	if err := e.validate(); err != nil {
		return err
	}
	in.queue = append(in.queue, e)
	return nil
}

// Pending returns the number of queued events.
func (in *Input) Pending() int { return len(in.queue) }

// SetHandlers replaces the application's hooks.
func (in *Input) SetHandlers(h Handlers) { in.handlers = h }

// Pointer returns the mouse state after the events routed so far.
func (in *Input) Pointer() Pointer { return in.pointer }

// Route drains the queue into io and the handlers; call it once per frame
// before imgui.NewFrame. Capture decisions use io.WantCaptureMouse and
// WantCaptureKeyboard, which ImGui computed in the previous frame from
// where its windows are.
func (in *Input) Route(io imgui.IO) {
	captureMouse, captureKeys := io.WantCaptureMouse(), io.WantCaptureKeyboard()
	in.btnDone = [MouseButtons]bool{}
	in.movedNow = false
	for _, k := range in.keyList {
		in.keyDone[k] = false
	}
	in.keyList = in.keyList[:0]

	n := 0
	for ; n < len(in.queue); n++ {
		e := in.queue[n]
		if in.secondChange(e) {
			break
		}
		in.route(io, e, captureMouse, captureKeys)
	}
	rest := copy(in.queue, in.queue[n:])
	in.queue = in.queue[:rest]
}

// secondChange reports whether e must wait for the next frame: a button
// or key that already changed during this Route, or a button or wheel
// event after a cursor move. It records the change otherwise.
func (in *Input) secondChange(e Event) bool {
	switch e.Kind {
	case CursorMoved:
		in.movedNow = true
	case Scrolled:
		return in.movedNow
	case ButtonChanged:
		if in.btnDone[e.Button] || in.movedNow {
			return true
		}
		in.btnDone[e.Button] = true
	case KeyChanged:
		if e.Action == Repeat {
			return false
		}
		if in.keyDone[e.Key] {
			return true
		}
		in.keyDone[e.Key] = true
		in.keyList = append(in.keyList, e.Key)
	}
	return false
}

func (in *Input) route(io imgui.IO, e Event, captureMouse, captureKeys bool) {
	switch e.Kind {
	case CursorMoved:
		in.cursor(io, e, captureMouse)
	case ButtonChanged:
		in.button(io, e, captureMouse)
	case Scrolled:
		io.AddMouseWheelDelta(float32(e.X), float32(e.Y))
		if !captureMouse && in.handlers.Scroll != nil {
			in.handlers.Scroll(e.X, e.Y, in.pointer)
		}
	case KeyChanged:
		in.key(io, e, captureKeys)
	case CharTyped:
		io.AddInputCharacters(string(e.Char))
	}
}

func (in *Input) cursor(io imgui.IO, e Event, captureMouse bool) {
	if in.moved {
		in.pointer.DX, in.pointer.DY = e.X-in.pointer.X, e.Y-in.pointer.Y
	}
	in.pointer.X, in.pointer.Y, in.moved = e.X, e.Y, true
	io.SetMousePosition(imgui.Vec2{X: float32(e.X), Y: float32(e.Y)})
	if (!captureMouse || in.anyOwned()) && in.handlers.CursorMove != nil {
		in.handlers.CursorMove(in.pointer)
	}
}

func (in *Input) button(io imgui.IO, e Event, captureMouse bool) {
	down := e.Action == Press
	in.pointer.Down[e.Button] = down
	in.pointer.Mods = e.Mods
	io.SetMouseButtonDown(int(e.Button), down)
	deliver := false
	if down {
		deliver = !captureMouse
		in.owned[e.Button] = deliver
	} else {
		deliver = in.owned[e.Button]
		in.owned[e.Button] = false
	}
	if deliver && in.handlers.MouseButton != nil {
		in.handlers.MouseButton(e.Button, e.Action, in.pointer)
	}
}

func (in *Input) anyOwned() bool {
	for _, o := range in.owned {
		if o {
			return true
		}
	}
	return false
}

func (in *Input) key(io imgui.IO, e Event, captureKeys bool) {
	if e.Action == Release {
		io.KeyRelease(int(e.Key))
	} else {
		io.KeyPress(int(e.Key))
	}
	// ImGui derives its modifier flags from the left/right key states.
	io.KeyCtrl(int(glfw.KeyLeftControl), int(glfw.KeyRightControl))
	io.KeyShift(int(glfw.KeyLeftShift), int(glfw.KeyRightShift))
	io.KeyAlt(int(glfw.KeyLeftAlt), int(glfw.KeyRightAlt))
	io.KeySuper(int(glfw.KeyLeftSuper), int(glfw.KeyRightSuper))
	in.pointer.Mods = e.Mods
	// GLFW reports a modifier key's own event with the modifier state from
	// before it (X11 does), so track the modifier keys themselves.
	if bit := modifierBit(e.Key); bit != 0 {
		if e.Action == Release {
			in.pointer.Mods &^= bit
		} else {
			in.pointer.Mods |= bit
		}
	}
	if (e.Action == Release || !captureKeys) && in.handlers.Key != nil {
		in.handlers.Key(e.Key, e.Action, e.Mods)
	}
}

// modifierBit returns the Mods bit a modifier key sets, 0 for other keys.
func modifierBit(k Key) Mods {
	switch glfw.Key(k) {
	case glfw.KeyLeftShift, glfw.KeyRightShift:
		return ModShift
	case glfw.KeyLeftControl, glfw.KeyRightControl:
		return ModControl
	case glfw.KeyLeftAlt, glfw.KeyRightAlt:
		return ModAlt
	case glfw.KeyLeftSuper, glfw.KeyRightSuper:
		return ModSuper
	}
	return 0
}

// ConfigureKeyMap tells ImGui which GLFW key codes its navigation and
// text-editing keys are.
func ConfigureKeyMap(io imgui.IO) {
	pairs := [...]struct {
		imguiKey int
		key      glfw.Key
	}{
		{imgui.KeyTab, glfw.KeyTab}, {imgui.KeyLeftArrow, glfw.KeyLeft}, {imgui.KeyRightArrow, glfw.KeyRight},
		{imgui.KeyUpArrow, glfw.KeyUp}, {imgui.KeyDownArrow, glfw.KeyDown}, {imgui.KeyPageUp, glfw.KeyPageUp},
		{imgui.KeyPageDown, glfw.KeyPageDown}, {imgui.KeyHome, glfw.KeyHome}, {imgui.KeyEnd, glfw.KeyEnd},
		{imgui.KeyInsert, glfw.KeyInsert}, {imgui.KeyDelete, glfw.KeyDelete}, {imgui.KeyBackspace, glfw.KeyBackspace},
		{imgui.KeySpace, glfw.KeySpace}, {imgui.KeyEnter, glfw.KeyEnter}, {imgui.KeyEscape, glfw.KeyEscape},
		{imgui.KeyKeyPadEnter, glfw.KeyKPEnter}, {imgui.KeyA, glfw.KeyA}, {imgui.KeyC, glfw.KeyC},
		{imgui.KeyV, glfw.KeyV}, {imgui.KeyX, glfw.KeyX}, {imgui.KeyY, glfw.KeyY}, {imgui.KeyZ, glfw.KeyZ},
	}
	for _, p := range pairs {
		io.KeyMap(p.imguiKey, int(p.key))
	}
}
