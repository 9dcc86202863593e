package ui

import (
	"errors"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/go-gl/glfw/v3.3/glfw"
	"github.com/inkyblackness/imgui-go/v4"
)

// ErrNoDisplay is returned (possibly wrapped with GLFW's reason) when no
// window can be opened because there is no display to open it on.
var ErrNoDisplay = errors.New("no display: set DISPLAY (X11) or WAYLAND_DISPLAY, or run under xvfb-run")

// Config describes the window.
type Config struct {
	Title         string
	Width, Height int  // window size in screen coordinates
	VSync         bool // swap on the display's refresh
	Hidden        bool // create the window invisible (off-screen use)
	// IniFilename is where ImGui keeps window positions; "" disables it,
	// which tests want so that runs do not depend on each other.
	IniFilename string
}

// DefaultConfig returns a 1280×800 window with vsync and no ImGui ini
// file.
func DefaultConfig() Config {
	return Config{Title: "softgrasp", Width: 1280, Height: 800, VSync: true}
}

// Platform owns the window, its OpenGL 4.1 core context and the ImGui
// context, and turns GLFW callbacks into Events on its Input. GLFW allows
// one Platform at a time per process; create it, and call every method, on
// the main OS thread.
type Platform struct {
	window   *glfw.Window
	context  *imgui.Context
	input    *Input
	lastTime float64
}

// NewPlatform opens the window and makes its context current. Without a
// display it returns ErrNoDisplay instead of failing inside GLFW.
func NewPlatform(cfg Config) (*Platform, error) {
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("window size %d×%d must be positive", cfg.Width, cfg.Height)
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, ErrNoDisplay
	}
	if err := initGLFW(); err != nil {
		return nil, err
	}
	window, err := createWindow(cfg)
	if err != nil {
		glfw.Terminate()
		return nil, err
	}
	window.MakeContextCurrent()
	if cfg.VSync {
		glfw.SwapInterval(1)
	} else {
		glfw.SwapInterval(0)
	}

	p := &Platform{window: window, input: NewInput(), lastTime: glfw.GetTime()}
	p.context = imgui.CreateContext(nil)
	io := imgui.CurrentIO()
	io.SetIniFilename(cfg.IniFilename)
	io.SetBackendFlags(io.GetBackendFlags() | imgui.BackendFlagsRendererHasVtxOffset)
	ConfigureKeyMap(io)
	p.installCallbacks()
	return p, nil
}

// initGLFW initialises GLFW and proves that it worked. The GLFW binding
// reports a platform error (no X server at DISPLAY) only through the
// standard logger and returns nil from Init; any later call then panics
// with NotInitialized. initGLFW captures the logger's output during Init
// to quote GLFW's reason, and probes with GetTime under recover.
func initGLFW() (err error) {
	var reason strings.Builder
	writer, flags := log.Writer(), log.Flags()
	log.SetOutput(&reason)
	log.SetFlags(0)
	initErr := glfw.Init()
	log.SetOutput(writer)
	log.SetFlags(flags)
	why := strings.TrimSpace(reason.String())
	if initErr != nil {
		return fmt.Errorf("%w (GLFW: %v)", ErrNoDisplay, initErr)
	}
	defer func() {
		if r := recover(); r != nil {
			if why == "" {
				why = fmt.Sprint(r)
			}
			err = fmt.Errorf("%w (GLFW: %s)", ErrNoDisplay, strings.ReplaceAll(why, "\n", "; "))
		}
	}()
	glfw.GetTime()
	if why != "" {
		// Initialised with a warning: pass it on where it was going.
		fmt.Fprintln(writer, "GLFW:", why)
	}
	return nil
}

// createWindow asks for an OpenGL 4.1 core, forward-compatible context,
// the newest that macOS offers too. GLFW panics on programmer errors and
// may return no window with no error; both become errors here.
func createWindow(cfg Config) (w *glfw.Window, err error) {
	defer func() {
		if r := recover(); r != nil {
			w, err = nil, fmt.Errorf("create %d×%d window: %v", cfg.Width, cfg.Height, r)
		}
	}()
	glfw.DefaultWindowHints()
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 1)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.DepthBits, 24)
	if cfg.Hidden {
		glfw.WindowHint(glfw.Visible, glfw.False)
	}
	w, err = glfw.CreateWindow(cfg.Width, cfg.Height, cfg.Title, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("create %d×%d window with an OpenGL 4.1 core context: %w", cfg.Width, cfg.Height, err)
	}
	if w == nil {
		return nil, fmt.Errorf("create %d×%d window with an OpenGL 4.1 core context: GLFW returned no window (see its log)", cfg.Width, cfg.Height)
	}
	return w, nil
}

// installCallbacks turns every GLFW input callback into an Event on the
// same queue that tests feed.
func (p *Platform) installCallbacks() {
	push := func(e Event) {
		// GLFW only reports codes the Event type can carry, except keys
		// without a code (KeyUnknown = −1), which are dropped.
		_ = p.input.Push(e)
	}
	p.window.SetCursorPosCallback(func(_ *glfw.Window, x, y float64) { push(CursorEvent(x, y)) })
	p.window.SetMouseButtonCallback(func(_ *glfw.Window, b glfw.MouseButton, a glfw.Action, m glfw.ModifierKey) {
		push(ButtonEvent(MouseButton(b), fromGLFWAction(a), Mods(m)))
	})
	p.window.SetScrollCallback(func(_ *glfw.Window, dx, dy float64) { push(ScrollEvent(dx, dy)) })
	p.window.SetKeyCallback(func(_ *glfw.Window, k glfw.Key, _ int, a glfw.Action, m glfw.ModifierKey) {
		push(KeyEvent(Key(k), fromGLFWAction(a), Mods(m)))
	})
	p.window.SetCharCallback(func(_ *glfw.Window, r rune) { push(CharEvent(r)) })
}

func fromGLFWAction(a glfw.Action) Action {
	switch a {
	case glfw.Press:
		return Press
	case glfw.Repeat:
		return Repeat
	}
	return Release
}

// Dispose destroys the ImGui context and the window and terminates GLFW.
func (p *Platform) Dispose() {
	if p.context != nil {
		p.context.Destroy()
		p.context = nil
	}
	if p.window != nil {
		p.window.Destroy()
		p.window = nil
		glfw.Terminate()
	}
}

// PollEvents processes pending window-system events; their callbacks queue
// Events for the next NewFrame.
func (p *Platform) PollEvents() { glfw.PollEvents() }

// Inject queues a synthetic event, routed exactly like a real one.
func (p *Platform) Inject(e Event) error { return p.input.Push(e) }

// Input returns the platform's input path (for its Pointer and Pending).
func (p *Platform) Input() *Input { return p.input }

// SetHandlers installs the application's input hooks.
func (p *Platform) SetHandlers(h Handlers) { p.input.SetHandlers(h) }

// NewFrame feeds ImGui the display size, framebuffer scale and time step,
// routes the queued input, and starts the ImGui frame.
func (p *Platform) NewFrame() {
	io := imgui.CurrentIO()
	w, h := p.DisplaySize()
	fw, fh := p.FramebufferSize()
	io.SetDisplaySize(imgui.Vec2{X: float32(w), Y: float32(h)})
	if w > 0 && h > 0 {
		io.SetDisplayFrameBufferScale(imgui.Vec2{X: float32(fw) / float32(w), Y: float32(fh) / float32(h)})
	}
	now := glfw.GetTime()
	// ImGui asserts a positive time step; two frames within the timer's
	// resolution would give zero.
	dt := max(now-p.lastTime, 1e-4)
	p.lastTime = now
	io.SetDeltaTime(float32(dt))
	p.input.Route(io)
	imgui.NewFrame()
}

// SwapBuffers presents the frame. Read pixels before calling it.
func (p *Platform) SwapBuffers() { p.window.SwapBuffers() }

// ShouldClose reports whether the user asked to close the window.
func (p *Platform) ShouldClose() bool { return p.window.ShouldClose() }

// SetShouldClose sets or clears the close request.
func (p *Platform) SetShouldClose(v bool) { p.window.SetShouldClose(v) }

// SetTitle changes the window title.
func (p *Platform) SetTitle(title string) { p.window.SetTitle(title) }

// DisplaySize returns the window size in screen coordinates, the space of
// mouse positions.
func (p *Platform) DisplaySize() (w, h int) { return p.window.GetSize() }

// FramebufferSize returns the drawable size in pixels (larger than the
// display size on high-DPI screens).
func (p *Platform) FramebufferSize() (w, h int) { return p.window.GetFramebufferSize() }

// PixelScale returns framebuffer pixels per screen coordinate. Pointer
// positions are in screen coordinates; multiply them by the scale before
// handing them to code that works in framebuffer pixels (picking rays,
// view-plane drags).
func (p *Platform) PixelScale() (sx, sy float64) {
	w, h := p.DisplaySize()
	fw, fh := p.FramebufferSize()
	if w <= 0 || h <= 0 {
		return 1, 1
	}
	return float64(fw) / float64(w), float64(fh) / float64(h)
}

// WantCaptureMouse reports whether ImGui uses the mouse (the cursor is
// over a panel or a widget is being dragged): 3D interaction should pause.
func (p *Platform) WantCaptureMouse() bool { return imgui.CurrentIO().WantCaptureMouse() }

// WantCaptureKeyboard reports whether ImGui has keyboard focus (a text
// field is active): 3D shortcuts should pause.
func (p *Platform) WantCaptureKeyboard() bool { return imgui.CurrentIO().WantCaptureKeyboard() }
