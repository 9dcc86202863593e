package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"

	"softgrasp/physics/settings"
	"softgrasp/ui"
)

// GLFW, OpenGL and ImGui must run on the process's main thread: lock the
// main goroutine to it before main starts.
func init() { runtime.LockOSThread() }

// viewerOptions are the viewer's validated settings.
type viewerOptions struct {
	config settings.Scenario
	// frames > 0 renders that many frames (and, with shotTime, until the
	// simulation reaches shotTime seconds), writes screenshot if set and
	// exits; 0 runs until the window closes.
	frames     int
	screenshot string
	video      string // record a video to this file from the first frame (-video)
	shotTime   float64
	pace       float64 // real-time factor of the physics loop, 0 = as fast as possible
	width      int
	height     int
	maxFPS     float64 // cap on rendered frames per second, 0 = none
	vsync      bool
	record     string // record the session to this file (-record)
	contacts   string // write one CSV row per contact per step to this file (-contacts)
	backend    string // where the fast scheme starts: cpu or gpu (-backend; the Simulation panel switches it)
	// autoDOFs lets the viewer lower the mechanical budget when the
	// physics falls behind real time (no -dofs given, nor a scene file's
	// dofs: the viewer's default; viewer_realtime.go).
	autoDOFs bool
}

// viewerFlags are the viewer's command line: the scene flags of the
// headless runner plus the window's own.
type viewerFlags struct {
	scene headlessFlags // only its scene flags are registered
	opt   viewerOptions
}

// viewerAsyncRefresh is the viewer's -async-refresh: one background
// factorisation per 8 steps at most. Measured under Xvfb on 2 cores at
// the default scene (docs/viewer.md, "Keeping the renderer off the physics' core"): it frees about a quarter of a
// core for the renderer; the default scene's slip moves by 0.5 %.
const viewerAsyncRefresh = 8

// headlessOnly names the headless runner's flags that say how to run and
// report rather than what scene to build; the viewer leaves them out.
// (-threads and -blas-threads too: the viewer leaves one core to the renderer itself.)
var headlessOnly = map[string]bool{"steps": true, "csv": true, "newton-csv": true, "json": true, "cpuprofile": true, "threads": true, "blas-threads": true, "lambda": true}

// register declares the flags. The scene flags are the headless runner's
// own flag values, so both commands parse and validate a scene the same
// way (headlessFlags.config).
func (f *viewerFlags) register(fs *flag.FlagSet) {
	all := flag.NewFlagSet("scene", flag.ContinueOnError)
	f.scene.register(all)
	// The interactive scene runs the asynchronous solver by default: the
	// exact one (the headless default, reproducible step for step) does not
	// keep up with real time on 2 cores (docs/headless.md, "Solvers: exact and asynchronous").
	// Nor does a background factorisation that restarts the moment it
	// ends: it takes the core the renderer needs (docs/viewer.md, "Keeping the renderer off the physics' core").
	// And the demo goes on: grasp, lift, spin, set down, open, again.
	for key, value := range map[string]string{
		"solver":        settings.AsyncSolver.String(),
		"async-refresh": fmt.Sprint(viewerAsyncRefresh),
		"grasp-loop":    settings.LoopRepeat.String(),
	} {
		if err := paramFlagOf(f.scene.params, key).setDefault(all, value); err != nil {
			panic(err) // a valid value of a declared flag
		}
	}
	all.VisitAll(func(fl *flag.Flag) {
		if !headlessOnly[fl.Name] {
			copyFlag(fs, fl)
		}
	})
	o := &f.opt
	fs.IntVar(&o.frames, "frames", 0, "render this many frames, then exit (0 = until the window is closed)")
	fs.StringVar(&o.screenshot, "screenshot", "", "write the last frame to this PNG file (back buffer, before the swap)")
	fs.StringVar(&o.video, "video", "", "record a video (MP4, 30 frames per simulated second, through ffmpeg) to this file from the first frame; F9 starts and stops one")
	fs.Float64Var(&o.shotTime, "shot-time", 0, "with -frames: keep rendering until the simulated time reaches this many seconds")
	fs.Float64Var(&o.pace, "pace", 1, "real-time factor of the physics loop (1 = real time, 0.25 = quarter speed, 0 = as fast as possible)")
	fs.IntVar(&o.width, "width", 1280, "window width, screen coordinates")
	fs.IntVar(&o.height, "height", 800, "window height, screen coordinates")
	fs.Float64Var(&o.maxFPS, "max-fps", 30, "cap on rendered frames per second, leaving the CPU to the physics (0 = no cap); the viewer also skips frames with nothing new to show")
	fs.BoolVar(&o.vsync, "vsync", true, "swap buffers on the display's refresh")
}

// options validates the flags and returns the viewer's options.
func (f *viewerFlags) options() (viewerOptions, error) {
	o := f.opt
	cfg, err := f.scene.config()
	if err != nil {
		return o, err
	}
	o.config = cfg
	o.record, o.backend, o.contacts = f.scene.record, f.scene.backend, f.scene.contacts
	o.autoDOFs = !f.scene.given["dofs"]
	if o.frames < 0 {
		return o, fmt.Errorf("-frames = %d: must be ≥ 0", o.frames)
	}
	if o.screenshot != "" && o.frames == 0 {
		o.frames = 1
	}
	checks := []struct {
		name      string
		v, lo, hi float64
	}{
		{"-shot-time", o.shotTime, 0, 3600}, {"-pace", o.pace, 0, 100},
		{"-width", float64(o.width), 64, 8192}, {"-height", float64(o.height), 64, 8192},
		{"-max-fps", o.maxFPS, 0, 1000},
	}
	for _, c := range checks {
		if math.IsNaN(c.v) || c.v < c.lo || c.v > c.hi {
			return o, fmt.Errorf("%s = %g is out of range: must be in [%g, %g]", c.name, c.v, c.lo, c.hi)
		}
	}
	return o, nil
}

// runViewer opens the window on the scene of the flags and runs it until
// the window is closed or the -frames are rendered.
func runViewer(args []string, stdout, stderr io.Writer) int {
	var f viewerFlags
	fs, code, done := parseCommand("softgrasp", f.register, args, stdout, stderr)
	if done {
		return code
	}
	if err := f.scene.noteGiven(fs); err != nil {
		fmt.Fprintln(stderr, "softgrasp:", err)
		return 2
	}
	opt, err := f.options()
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp:", err)
		return 2
	}
	if reason := missingDisplay(); reason != "" {
		fmt.Fprintln(stderr, noDisplayMessage(reason))
		return 1
	}
	v, err := newViewer(opt, stdout)
	if errors.Is(err, ui.ErrNoDisplay) {
		fmt.Fprintln(stderr, noDisplayMessage(fmt.Sprintf("cannot open DISPLAY=%q", os.Getenv("DISPLAY"))))
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "softgrasp:", oneLine(err))
		return 1
	}
	defer v.close()
	v.interrupts = catchInterrupts()
	defer v.interrupts.stop()
	if err := v.run(); err != nil {
		fmt.Fprintln(stderr, "softgrasp:", oneLine(err))
		return 1
	}
	if sig, stopped := v.interrupts.received(); stopped {
		t := 0.0
		if v.frame != nil {
			t = v.frame.Time
		}
		fmt.Fprintf(stderr, "softgrasp: stopped by %s at t = %.2f s\n", signalName(sig), t)
		return exitStatus(sig)
	}
	return 0
}

// missingDisplay returns why no window can be opened without trying, or
// "" when a display is named.
func missingDisplay() string {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return "DISPLAY is not set"
	}
	return ""
}

// noDisplayMessage is the one line printed when there is no display.
func noDisplayMessage(reason string) string {
	return fmt.Sprintf(`softgrasp: no display (%s); run "softgrasp headless" for the simulation without a window`, reason)
}
