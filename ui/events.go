package ui

import "fmt"

// EventKind says which fields of an Event are meaningful.
type EventKind uint8

const (
	// CursorMoved: X, Y are the new cursor position (window coordinates,
	// origin top-left, y down).
	CursorMoved EventKind = iota + 1
	// ButtonChanged: Button, Action (Press or Release) and Mods.
	ButtonChanged
	// Scrolled: X, Y are the horizontal and vertical wheel offsets.
	Scrolled
	// KeyChanged: Key, Action (Press, Release or Repeat) and Mods.
	KeyChanged
	// CharTyped: Char is a Unicode code point of text input.
	CharTyped
)

// MouseButton numbers the mouse buttons as GLFW and ImGui both do.
type MouseButton int

const (
	MouseLeft MouseButton = iota
	MouseRight
	MouseMiddle
	// MouseButtons is the number of buttons tracked.
	MouseButtons
)

// String returns "left", "right" or "middle".
func (b MouseButton) String() string {
	switch b {
	case MouseLeft:
		return "left"
	case MouseRight:
		return "right"
	case MouseMiddle:
		return "middle"
	}
	return fmt.Sprintf("MouseButton(%d)", int(b))
}

// Action is what happened to a button or key.
type Action uint8

const (
	Release Action = iota
	Press
	Repeat // a key held down, auto-repeating
)

// Mods is a set of modifier keys, with GLFW's bit values.
type Mods uint8

const (
	ModShift   Mods = 1 << 0
	ModControl Mods = 1 << 1
	ModAlt     Mods = 1 << 2
	ModSuper   Mods = 1 << 3
)

// Key is a keyboard key as a GLFW key code (glfw.KeyA is 65, glfw.KeyEscape
// 256, …); codes are below 512.
type Key int

// maxKey bounds the key codes ImGui's key table holds.
const maxKey = 512

// Event is one input event. GLFW callbacks and tests create them alike, so
// a test can drive the viewer exactly as a user would.
type Event struct {
	Kind   EventKind
	X, Y   float64 // cursor position or scroll offsets
	Button MouseButton
	Action Action
	Key    Key
	Mods   Mods
	Char   rune
}

// CursorEvent returns a cursor move to (x, y) window coordinates.
func CursorEvent(x, y float64) Event { return Event{Kind: CursorMoved, X: x, Y: y} }

// ButtonEvent returns a mouse button press or release.
func ButtonEvent(b MouseButton, a Action, mods Mods) Event {
	return Event{Kind: ButtonChanged, Button: b, Action: a, Mods: mods}
}

// ScrollEvent returns a wheel turn of (dx, dy) notches.
func ScrollEvent(dx, dy float64) Event { return Event{Kind: Scrolled, X: dx, Y: dy} }

// KeyEvent returns a key press, release or repeat.
func KeyEvent(k Key, a Action, mods Mods) Event {
	return Event{Kind: KeyChanged, Key: k, Action: a, Mods: mods}
}

// CharEvent returns one typed character.
func CharEvent(r rune) Event { return Event{Kind: CharTyped, Char: r} }

// validate reports events that cannot be routed (a test's typo or a
// platform code outside the tracked ranges).
func (e Event) validate() error {
	switch e.Kind {
	case CursorMoved, Scrolled, CharTyped:
		return nil
	case ButtonChanged:
		if e.Button < 0 || e.Button >= MouseButtons {
			return fmt.Errorf("input event: mouse button %d outside [0, %d)", int(e.Button), int(MouseButtons))
		}
		if e.Action == Repeat {
			return fmt.Errorf("input event: mouse %s button cannot repeat", e.Button)
		}
		return nil
	case KeyChanged:
		if e.Key < 0 || e.Key >= maxKey {
			return fmt.Errorf("input event: key code %d outside [0, %d)", int(e.Key), maxKey)
		}
		return nil
	}
	return fmt.Errorf("input event: unknown kind %d", e.Kind)
}
