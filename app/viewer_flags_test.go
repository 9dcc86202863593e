package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"softgrasp/physics/settings"
)

func TestViewerFlags(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"negative pace", []string{"-pace", "-1"}, 2, "-pace"},
		{"negative frames", []string{"-frames", "-2"}, 2, "-frames"},
		{"tiny window", []string{"-width", "10"}, 2, "-width"},
		{"unknown scheme", []string{"-scheme", "quick"}, 2, "-scheme"},
		{"bad friction", []string{"-mu", "-1"}, 2, "-mu"},
		{"headless-only flag", []string{"-steps", "5"}, 2, "-steps"},
		{"stray argument", []string{"extra"}, 2, "extra"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := runViewer(tc.args, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.inStderr) {
				t.Fatalf("exit %d, stderr %q; want %d and a message naming %s", code, stderr.String(), tc.code, tc.inStderr)
			}
			if n := strings.Count(strings.TrimSpace(stderr.String()), "\n"); n != 0 {
				t.Fatalf("the error takes %d lines, want one: %q", n+1, stderr.String())
			}
		})
	}
}

func TestViewerHelpListsSceneAndWindowFlags(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := runViewer([]string{"-h"}, &stdout, &stderr); code != 0 {
		t.Fatalf("-h exit %d", code)
	}
	help := stdout.String()
	for _, want := range []string{"-scenario", "-scheme", "-dofs", "-mesh", "-omega", "-mu", "-newton", "-dt", "-pace", "-frames", "-screenshot", "-width", "-height"} {
		if !strings.Contains(help, want+" ") && !strings.Contains(help, want+"\n") {
			t.Errorf("viewer help lacks %s", want)
		}
	}
	for _, banned := range []string{"-csv", "-newton-csv", "-json", "-steps"} {
		if strings.Contains(help, banned+" ") {
			t.Errorf("viewer help offers the headless-only %s", banned)
		}
	}
}

// TestViewerFlagsBuildTheHeadlessConfig: the same scene flags build the
// same scene in both commands; only the solver's defaults differ (async in
// the viewer, exact headless; the viewer's -async-refresh) and the grasp's
// loop (repeat in the viewer, once headless).
func TestViewerFlagsBuildTheHeadlessConfig(t *testing.T) {
	scene := []string{"-scenario", "drop", "-scheme", "standard", "-dofs", "600", "-mu", "0.3", "-newton", "3", "-dt", "0.005", "-omega", "2"}
	for _, tc := range []struct {
		name         string
		args         []string
		viewerSolver settings.Solver
	}{
		{"solver given", append([]string{"-solver", "exact"}, scene...), settings.ExactSolver},
		{"default solver", scene, settings.AsyncSolver},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, h := viewerAndHeadlessConfigs(t, tc.args)
			if v.Physics.Solver != tc.viewerSolver {
				t.Fatalf("viewer solver %v, want %v", v.Physics.Solver, tc.viewerSolver)
			}
			if v.Physics.AsyncRefresh != viewerAsyncRefresh || h.Physics.AsyncRefresh != 0 {
				t.Fatalf("-async-refresh %d in the viewer, %d headless; want %d and 0", v.Physics.AsyncRefresh, h.Physics.AsyncRefresh, viewerAsyncRefresh)
			}
			if v.GraspLoop != settings.LoopRepeat || h.GraspLoop != settings.LoopOnce {
				t.Fatalf("-grasp-loop %v in the viewer, %v headless; want repeat and once", v.GraspLoop, h.GraspLoop)
			}
			v.Physics.Solver, v.Physics.AsyncRefresh, v.GraspLoop = h.Physics.Solver, h.Physics.AsyncRefresh, h.GraspLoop
			if !v.Equal(h) {
				t.Fatalf("viewer config %+v differs from the headless one %+v for the same flags", v, h)
			}
		})
	}
}

// viewerAndHeadlessConfigs parses args with both commands' flags.
func viewerAndHeadlessConfigs(t *testing.T, args []string) (viewer, headless settings.Scenario) {
	t.Helper()
	var v viewerFlags
	vfs := newFlagSet("v")
	v.register(vfs)
	var h headlessFlags
	hfs := newFlagSet("h")
	h.register(hfs)
	if err := vfs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if err := hfs.Parse(args); err != nil {
		t.Fatal(err)
	}
	opt, err := v.options()
	if err != nil {
		t.Fatal(err)
	}
	want, err := h.config()
	if err != nil {
		t.Fatal(err)
	}
	return opt.config, want
}

func TestNoDisplayIsOneLine(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	var stdout, stderr strings.Builder
	code := runViewer(nil, &stdout, &stderr)
	want := `softgrasp: no display (DISPLAY is not set); run "softgrasp headless" for the simulation without a window` + "\n"
	if code != 1 || stderr.String() != want {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr.String(), want)
	}
}

func TestUnreachableDisplayIsOneLine(t *testing.T) {
	t.Setenv("DISPLAY", ":54321")
	t.Setenv("WAYLAND_DISPLAY", "")
	var stdout, stderr strings.Builder
	var code int
	onMain(func() { code = runViewer([]string{"-dofs", "300"}, &stdout, &stderr) })
	msg := stderr.String()
	if code != 1 || !strings.Contains(msg, `no display (cannot open DISPLAY=":54321")`) || strings.Count(msg, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q; want 1 and one line naming the display", code, msg)
	}
}

func TestScreenshotFlag(t *testing.T) {
	if missingDisplay() != "" {
		t.Skip("no display")
	}
	path := t.TempDir() + "/shot.png"
	var code int
	var stdout, stderr strings.Builder
	onMain(func() {
		code = runViewer([]string{"-frames", "3", "-screenshot", path, "-dofs", "300", "-width", "640", "-height", "400"}, &stdout, &stderr)
	})
	if strings.Contains(stderr.String(), "no display") {
		t.Skipf("no display: %s", stderr.String())
	}
	if code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, stderr.String())
	}
	img, err := readPNG(path)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 400 {
		t.Fatalf("screenshot is %d×%d, want the 640×400 window", b.Dx(), b.Dy())
	}
	if colours := distinctColours(img, 16); colours < 16 {
		t.Fatalf("the screenshot has %d colours: nothing was drawn", colours)
	}
	// The run ends with its summary: 2 frames after the first, a rate and
	// a real-time factor.
	var frames int
	var sec, fps, simulated, rtf float64
	at := strings.Index(stdout.String(), "softgrasp: ")
	if at < 0 {
		t.Fatalf("no summary line on stdout: %q", stdout.String())
	}
	line := stdout.String()[at:]
	if _, err := fmt.Sscanf(line, "softgrasp: %d frames in %g s: %g rendered frames/s; physics %g s simulated, real-time factor %g",
		&frames, &sec, &fps, &simulated, &rtf); err != nil || frames != 2 || !(fps > 0) || !(rtf >= 0) {
		t.Fatalf("summary %q: %v (frames %d, fps %g, rtf %g)", line, err, frames, fps, rtf)
	}
}

func readPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

// distinctColours counts the distinct colours of img, up to limit.
func distinctColours(img image.Image, limit int) int {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r, g, bl}] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// TestHelpListsTheViewerFlags: softgrasp -h names the subcommands and the
// demo's own flags, not the headless runner's.
func TestHelpListsTheViewerFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, &stderr)
	}
	out := stdout.String()
	for _, want := range []string{"softgrasp grasp-set", "-frames", "-shot-time", "-screenshot", "-width", "-pace", "-video"} {
		if !strings.Contains(out, want) {
			t.Errorf("softgrasp -h does not list %s:\n%s", want, out)
		}
	}
	for _, not := range []string{"-steps\n", "-mu\n", "-csv\n"} {
		if strings.Contains(out, "  "+not) {
			t.Errorf("softgrasp -h lists the headless flag %s", strings.TrimSpace(not))
		}
	}
}

// TestHeadlessHelpListsTheEverydayFlags: headless -h lists at most 25
// flags, the everyday ones, and says how to list the rest; -help-all lists
// every flag; a flag that only -help-all lists works as before.
func TestHeadlessHelpListsTheEverydayFlags(t *testing.T) {
	code, short, _ := headless("-h")
	if code != 0 {
		t.Fatalf("-h exit %d", code)
	}
	flags := func(help string) []string {
		var out []string
		for _, l := range strings.Split(help, "\n") {
			if strings.HasPrefix(l, "  -") {
				out = append(out, strings.Fields(l)[0])
			}
		}
		return out
	}
	listed := flags(short)
	if len(listed) > 25 {
		t.Errorf("-h lists %d flags, want at most 25: %v", len(listed), listed)
	}
	for _, want := range []string{"-scenario", "-scene", "-mesh", "-dofs", "-dt", "-newton", "-pgs", "-mu", "-scheme", "-solver", "-json", "-csv", "-record"} {
		if !slices.Contains(listed, want) {
			t.Errorf("-h lacks %s", want)
		}
	}
	if !strings.Contains(short, "softgrasp headless -help-all lists all") {
		t.Errorf("-h does not say how to list every flag:\n%s", short)
	}
	code, all, _ := headless("-help-all")
	fs := flag.NewFlagSet("n", flag.ContinueOnError)
	var f headlessFlags
	f.register(fs)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if code != 0 || len(flags(all)) != n || slices.Contains(flags(short), "-alarm-fall") || !slices.Contains(flags(all), "-alarm-fall") {
		t.Errorf("-help-all: exit %d, %d flags listed of %d", code, len(flags(all)), n)
	}
	if code, _, errs := headless("-dofs", "300", "-steps", "2", "-alarm-fall", "gravity", "-json"); code != 0 {
		t.Errorf("an advanced flag: exit %d, %s", code, errs)
	}
}

// TestFlagReferenceIsCurrent: docs/flags.md is what flagReference writes
// from today's flags and parameter table; SOFTGRASP_WRITE_FLAGS=1 (make
// flags) writes it.
func TestFlagReferenceIsCurrent(t *testing.T) {
	const path = "../docs/flags.md"
	want := flagReference()
	if os.Getenv("SOFTGRASP_WRITE_FLAGS") != "" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("docs/flags.md is stale (%v): run make flags", err)
	}
	for _, key := range []string{"jaws", "dt", "alarm-fall"} {
		if !strings.Contains(want, "| `-"+key+"` |") {
			t.Errorf("the reference lacks -%s", key)
		}
	}
}
