package main

import (
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The viewer under random input: xdotool drives a real window (mouse
// clicks and drags on the panels and on the object, ctrl+click aims,
// wheel turns, typed values good and bad, key shortcuts, window resizes)
// while the test checks that the process stays up, that the screenshots
// it asks for at intervals (F12) are written and not blank, and that the
// viewer still closes cleanly with its summary line. It runs 20 s in
// make test; SOFTGRASP_VIEWER_FUZZ=5m (any Go duration) runs it longer
// (make viewer-fuzz), SOFTGRASP_VIEWER_FUZZ_SEED picks the sequence.

// fuzzTyped are the values typed into whatever field has the focus:
// numbers in and out of range, non-numbers, and an empty entry.
var fuzzTyped = []string{"0.5", "2", "3000", "-1", "0", "1e308", "-1e-300", "nan", "inf", "abc", "", "10000000", "0.001"}

// fuzzKeys are the viewer's shortcuts (help panel) and a few keys ImGui
// uses, none of which closes the window.
var fuzzKeys = []string{"g", "space", "s", "r", "Escape", "h", "F1", "Tab", "Return", "Left", "Right", "Up", "Down", "BackSpace", "Delete", "F9"}

// xdo runs one xdotool command.
func xdo(args ...string) error {
	out, err := exec.Command("xdotool", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// fuzzWindow finds the viewer's window by its process id.
func fuzzWindow(pid int) (string, error) {
	var last error
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		out, err := exec.Command("xdotool", "search", "--pid", strconv.Itoa(pid)).Output()
		if err == nil {
			if f := strings.Fields(string(out)); len(f) > 0 {
				return f[len(f)-1], nil
			}
		}
		last = err
	}
	return "", fmt.Errorf("no window of process %d after 30 s (%v)", pid, last)
}

// blank reports whether an image is one colour (or nearly: fewer than
// 0.1 % of its pixels differ from the first).
func blank(img image.Image) bool {
	b := img.Bounds()
	r0, g0, b0, _ := img.At(b.Min.X, b.Min.Y).RGBA()
	differ := 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bl != b0 {
				differ++
			}
		}
	}
	return differ*4 < b.Dx()*b.Dy()/1000
}

// newScreenshots returns the PNG files in dir not in seen, marking them.
func newScreenshots(dir string, seen map[string]bool) []string {
	var out []string
	paths, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// needXdotool skips a test that drives a window through the X server
// under -short, without a display, or without xdotool (which make test
// requires through SOFTGRASP_REQUIRE_XDOTOOL).
func needXdotool(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip(what)
	}
	if missingDisplay() != "" {
		t.Skip("no display")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		if os.Getenv("SOFTGRASP_REQUIRE_XDOTOOL") != "" {
			t.Fatal("xdotool is not installed (make deps installs it)")
		}
		t.Skip("xdotool is not installed")
	}
}

func TestViewerUnderRandomInput(t *testing.T) {
	needXdotool(t, "drives the viewer in a child process")
	length := 20 * time.Second
	if s := os.Getenv("SOFTGRASP_VIEWER_FUZZ"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			t.Fatalf("SOFTGRASP_VIEWER_FUZZ=%q: want a positive Go duration such as 5m", s)
		}
		length = d
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("SOFTGRASP_VIEWER_FUZZ_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("SOFTGRASP_VIEWER_FUZZ_SEED=%q: want an unsigned integer", s)
		}
		seed = v
	}
	t.Logf("seed %d (SOFTGRASP_VIEWER_FUZZ_SEED reproduces the sequence), %s", seed, length)
	rng := rand.New(rand.NewPCG(seed, 17))

	dir := t.TempDir() // F12 screenshots and F9 videos land in the working directory
	cmd := exec.Command(os.Args[0])
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), subprocessArgs+"="+strings.Join([]string{"-dofs", "1000", "-width", "1024", "-height", "720"}, "\x1f"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out, errOut syncBuffer // read while the viewer runs, on a failure
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	ended := false
	defer func() {
		if !ended {
			_ = cmd.Process.Kill()
			<-exited
		}
	}()
	win, err := fuzzWindow(cmd.Process.Pid)
	if err != nil {
		t.Fatalf("%v; stderr: %s", err, &errOut)
	}
	w, h := 1024, 720
	seen := map[string]bool{}
	shots, actions := 0, 0
	var failures []string
	alive := func() bool {
		select {
		case err := <-exited:
			ended = true
			t.Fatalf("the viewer ended after %d actions: %v\nstdout: %s\nstderr: %s", actions, err, &out, &errOut)
			return false
		default:
			return true
		}
	}
	at := func() (string, string) { return strconv.Itoa(rng.IntN(w)), strconv.Itoa(rng.IntN(h)) }
	panel := func() (string, string) { // the panels sit along the left edge
		return strconv.Itoa(rng.IntN(min(w, 420))), strconv.Itoa(rng.IntN(h))
	}
	move := func(x, y string) error { return xdo("mousemove", "--window", win, x, y) }
	drag := func(button string) error {
		x, y := at()
		if err := move(x, y); err != nil {
			return err
		}
		if err := xdo("mousedown", button); err != nil {
			return err
		}
		for i := 0; i < 1+rng.IntN(6); i++ {
			x, y = at()
			if err := move(x, y); err != nil {
				return err
			}
			time.Sleep(30 * time.Millisecond)
		}
		return xdo("mouseup", button)
	}
	screenshot := func() {
		// Escape leaves a text field, so that F12 reaches the viewer.
		_ = xdo("key", "Escape")
		time.Sleep(100 * time.Millisecond)
		if err := xdo("key", "F12"); err != nil {
			failures = append(failures, err.Error())
			return
		}
		var got []string
		waitFor(10*time.Second, func() bool {
			got = newScreenshots(dir, seen)
			return len(got) > 0
		})
		if len(got) == 0 {
			failures = append(failures, fmt.Sprintf("after %d actions: F12 wrote no screenshot within 10 s", actions))
			return
		}
		for _, p := range got {
			var img image.Image
			if !waitFor(5*time.Second, func() bool {
				f, err := os.Open(p)
				if err != nil {
					return false
				}
				defer f.Close()
				img, err = png.Decode(f)
				return err == nil
			}) {
				failures = append(failures, fmt.Sprintf("%s is not a readable PNG", filepath.Base(p)))
				continue
			}
			if blank(img) {
				failures = append(failures, fmt.Sprintf("after %d actions: %s is blank", actions, filepath.Base(p)))
			}
			shots++
		}
	}
	if err := xdo("windowfocus", "--sync", win); err != nil {
		t.Logf("focus: %v", err) // without a window manager focus may be refused; keys then go to the pointer's window
	}
	time.Sleep(2 * time.Second)
	screenshot()
	end, nextShot := time.Now().Add(length), time.Now().Add(length/4)
	for time.Now().Before(end) && alive() {
		var err error
		switch k := rng.IntN(100); {
		case k < 20: // a click on a panel or on the 3D view
			x, y := at()
			if k < 12 {
				x, y = panel()
			}
			if err = move(x, y); err == nil {
				err = xdo("click", "1")
			}
		case k < 32:
			err = drag([]string{"1", "3", "2"}[rng.IntN(3)])
		case k < 38: // ctrl+drag with the right button spins the gripper
			if err = xdo("keydown", "ctrl"); err == nil {
				err = drag("3")
				_ = xdo("keyup", "ctrl")
			}
		case k < 48: // ctrl+click aims the grasp
			x, y := at()
			if err = move(x, y); err == nil {
				if err = xdo("keydown", "ctrl"); err == nil {
					err = xdo("click", "1")
					_ = xdo("keyup", "ctrl")
				}
			}
		case k < 56: // the wheel, with and without shift
			x, y := at()
			if err = move(x, y); err == nil {
				if rng.IntN(3) == 0 {
					_ = xdo("keydown", "shift")
					err = xdo("click", "--repeat", strconv.Itoa(1+rng.IntN(4)), []string{"4", "5"}[rng.IntN(2)])
					_ = xdo("keyup", "shift")
				} else {
					err = xdo("click", "--repeat", strconv.Itoa(1+rng.IntN(4)), []string{"4", "5"}[rng.IntN(2)])
				}
			}
		case k < 74: // a value typed into a field: ctrl+click or double-click on a panel, type, enter
			x, y := panel()
			if err = move(x, y); err == nil {
				if rng.IntN(2) == 0 {
					_ = xdo("keydown", "ctrl")
					err = xdo("click", "1")
					_ = xdo("keyup", "ctrl")
				} else {
					err = xdo("click", "--repeat", "2", "1")
				}
			}
			if err == nil {
				_ = xdo("key", "ctrl+a")
				if s := fuzzTyped[rng.IntN(len(fuzzTyped))]; s != "" {
					err = xdo("type", "--delay", "20", "--", s)
				}
				if err == nil {
					err = xdo("key", "Return")
				}
			}
		case k < 94:
			err = xdo("key", fuzzKeys[rng.IntN(len(fuzzKeys))])
		default: // a window resize
			w, h = 640+rng.IntN(640), 480+rng.IntN(320)
			err = xdo("windowsize", win, strconv.Itoa(w), strconv.Itoa(h))
		}
		if err != nil {
			failures = append(failures, err.Error())
		}
		actions++
		time.Sleep(time.Duration(50+rng.IntN(250)) * time.Millisecond)
		if time.Now().After(nextShot) {
			screenshot()
			nextShot = time.Now().Add(length / 4)
		}
	}
	screenshot()
	if !alive() {
		return
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
		ended = true
	case <-time.After(60 * time.Second):
		t.Fatalf("the viewer did not end within 60 s of SIGTERM; stderr: %s", &errOut)
	}
	if code := cmd.ProcessState.ExitCode(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status %d after SIGTERM, want %d", code, 128+int(syscall.SIGTERM))
	}
	t.Logf("%d actions, %d screenshots; last stdout line: %s", actions, shots, lastLine(out.String()))
	if !strings.Contains(out.String(), "rendered frames/s") {
		t.Errorf("no summary line: %s", &out)
	}
	if strings.Contains(errOut.String(), "panic") || strings.Contains(errOut.String(), "goroutine ") {
		t.Errorf("stderr: %s", &errOut)
	}
	if shots < 3 {
		t.Errorf("only %d screenshots were taken", shots)
	}
	for _, f := range failures {
		t.Error(f)
	}
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
