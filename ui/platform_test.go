package ui

import (
	"errors"
	"strings"
	"testing"
)

func TestNoDisplayIsAClearError(t *testing.T) {
	tests := []struct {
		name, display, wayland string
		reason                 string // in the message
	}{
		{"nothing set", "", "", "set DISPLAY"},
		// An X server that does not exist: GLFW's own initialisation
		// fails, and its reason is quoted.
		{"unreachable X server", ":987", "", ":987"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DISPLAY", tc.display)
			t.Setenv("WAYLAND_DISPLAY", tc.wayland)
			var err error
			onMain(func() {
				var p *Platform
				p, err = NewPlatform(Config{Title: "t", Width: 64, Height: 64, Hidden: true})
				if p != nil {
					p.Dispose()
				}
			})
			if !errors.Is(err, ErrNoDisplay) {
				t.Fatalf("NewPlatform error = %v, want ErrNoDisplay", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans several lines: %q", err)
			}
			if !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("error %q does not mention %q", err, tc.reason)
			}
		})
	}
}

func TestBadWindowSizeIsAnError(t *testing.T) {
	for _, size := range [][2]int{{0, 480}, {640, -1}} {
		_, err := NewPlatform(Config{Width: size[0], Height: size[1]})
		if err == nil || !strings.Contains(err.Error(), "must be positive") {
			t.Errorf("size %v: error %v, want a size error", size, err)
		}
	}
}
