package render_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"testing"

	"softgrasp/render"
	"softgrasp/ui"
)

// GL must be called from the thread that owns the context. The testing
// package runs each test on its own goroutine, so TestMain keeps the main
// goroutine, locked to the main thread, serving functions that tests
// submit with onMain. One window, renderer and ImGui renderer are shared
// by all GL tests and benchmarks (opening a window costs a few hundred
// milliseconds).

var mainQueue = make(chan func())

func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) {
	done := make(chan int)
	go func() { done <- m.Run() }()
	for {
		select {
		case f := <-mainQueue:
			f()
		case code := <-done:
			shared.dispose()
			os.Exit(code)
		}
	}
}

// onMain runs f on the main thread and waits for it. f must not call
// t.Fatal or t.Skip (they would end the main goroutine); onMain exits the
// process with a message if f does not return.
func onMain(f func()) {
	done := make(chan struct{})
	mainQueue <- func() {
		returned := false
		defer func() {
			if !returned {
				fmt.Fprintln(os.Stderr, "onMain: function did not return (t.Fatal, t.Skip or a panic on the main thread)")
				os.Exit(2)
			}
			close(done)
		}()
		f()
		returned = true
	}
	<-done
}

// glFixture is the shared window and renderers.
type glFixture struct {
	tried    bool
	err      error
	platform *ui.Platform
	renderer *render.Renderer
	imgui    *render.ImGuiRenderer
}

var shared glFixture

// open creates the fixture once (on the main thread).
func (f *glFixture) open() error {
	if f.tried {
		return f.err
	}
	f.tried = true
	f.platform, f.err = ui.NewPlatform(ui.Config{Title: "render test", Width: 640, Height: 480})
	if f.err != nil {
		return f.err
	}
	if f.renderer, f.err = render.New(); f.err != nil {
		f.err = fmt.Errorf("render.New: %w", f.err)
		return f.err
	}
	if f.imgui, f.err = render.NewImGuiRenderer(); f.err != nil {
		f.err = fmt.Errorf("render.NewImGuiRenderer: %w", f.err)
	}
	return f.err
}

func (f *glFixture) dispose() {
	if f.imgui != nil {
		f.imgui.Dispose()
	}
	if f.renderer != nil {
		f.renderer.Delete()
	}
	if f.platform != nil {
		f.platform.Dispose()
	}
}

// withGL runs f on the main thread with the shared fixture. Without a
// display the test is skipped; any other failure to make a context fails
// it.
func withGL(tb testing.TB, f func(fx *glFixture)) {
	tb.Helper()
	var err error
	onMain(func() {
		if err = shared.open(); err == nil {
			f(&shared)
		}
	})
	if err != nil {
		if errors.Is(err, ui.ErrNoDisplay) {
			tb.Skipf("no display: %v", err)
		}
		tb.Fatalf("GL set-up: %v", err)
	}
}
