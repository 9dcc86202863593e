package main

import (
	"errors"
	"fmt"
	"image"
	"io"
	"path/filepath"
	"time"

	"github.com/inkyblackness/imgui-go/v4"

	"softgrasp/physics"
	"softgrasp/physics/frame"
	"softgrasp/physics/loop"
	"softgrasp/physics/record"
	"softgrasp/physics/settings"
	"softgrasp/render"
	"softgrasp/ui"
)

// viewer is the interactive application: the window and its renderers on
// the main thread, the physics loop on its own goroutine, and between
// them only frames (acquired, never waited for) and commands (sent,
// never blocking).
type viewer struct {
	opt      viewerOptions
	stdout   io.Writer
	platform *ui.Platform
	renderer *render.Renderer
	imgui    *render.ImGuiRenderer
	// layer holds the panels between their redraws (panels decides when).
	layer  *render.PanelLayer
	panels redrawPolicy // newPanelPolicy
	fps    fpsMeter
	runner *loop.Runner
	// recording is the -record file, contacts the -contacts CSV, both
	// closed after the runner stopped.
	recording *record.Writer
	contacts  *contactsLog
	cam       *render.Camera
	state     *ui.State
	input     *inputMapper

	frame    *frame.Frame  // newest acquired frame, ours until the next Acquire
	version  uint64        // Scene version the renderer holds
	framed   framed        // the scene the camera was framed for
	shotPath string        // screenshot asked by F12, written at the next frame
	video    videoRecorder // F9 and -video (viewer_video.go)
	limiter  frameLimiter
	redraw   redrawPolicy
	// drawnSize is the framebuffer size of the last frame drawn: a resize
	// is a reason to draw.
	drawnSize [2]int
	// realtimeSaid: the speed status's first whole window has been
	// reported on stdout (viewer_realtime.go).
	realtimeSaid bool
	autoFrom     uint64 // the scene version the automatic budget last lowered
	speed        speedStatus
	// interrupts stops the run on SIGINT or SIGTERM (signals.go).
	interrupts *interrupts
	sceneDOFs  int // DOFs of the scene the renderer holds
	// stressField is what the loop was last asked about the frames' von
	// Mises field: computed only while the colour map shows it.
	stressField bool
	// simulated sums the simulated time of the frames shown, across
	// resets and scene changes, for the summary line.
	simulated simClock
}

// simClock sums the simulated time the viewer has shown: a frame of the
// same scene adds its advance over the previous one, a frame of a new
// scene (or of a reset one, whose time starts again from 0) its own time,
// which that scene ran from 0. The frame times alone would give a run with
// a reset a negative real-time factor.
type simClock struct {
	total   float64
	last    float64
	version uint64
	started bool
}

// observe takes a newly acquired frame's scene version and time.
func (c *simClock) observe(version uint64, t float64) {
	switch {
	case !c.started:
		c.started = true
	case version != c.version || t < c.last:
		c.total += t
	default:
		c.total += t - c.last
	}
	c.version, c.last = version, t
}

// newViewer opens the window, creates the renderers and starts the
// physics loop. Without a display it returns ui.ErrNoDisplay (wrapped).
func newViewer(opt viewerOptions, stdout io.Writer) (v *viewer, err error) {
	v = &viewer{opt: opt, stdout: stdout, limiter: frameLimiter{fps: opt.maxFPS}, speed: speedStatus{pace: opt.pace},
		redraw: newFramePolicy(), panels: newPanelPolicy()}
	defer func() {
		if err != nil {
			v.close()
			v = nil
		}
	}()
	v.platform, err = ui.NewPlatform(ui.Config{Title: "softgrasp", Width: opt.width, Height: opt.height, VSync: opt.vsync})
	if err != nil {
		return v, err
	}
	ui.ApplyStyle()
	if v.renderer, err = render.New(); err != nil {
		return v, err
	}
	if v.imgui, err = render.NewImGuiRenderer(); err != nil {
		return v, err
	}
	if v.layer, err = render.NewPanelLayer(); err != nil {
		return v, err
	}
	// The thread policy (threads.go) follows the solver, which the panels
	// switch live: the loop reports each change on its own goroutine,
	// between two steps, where no factorisation runs.
	onSolver := func(s settings.Solver) { setBLASThreads(viewerBLASThreads(s)) }
	// The backend follows -backend, then the Simulation panel's toggle;
	// a GPU that cannot be opened leaves the CPU, said in the message.
	lopt := loop.Options{Pace: opt.pace, SolverChanged: onSolver, Backend: opt.backend, SetBackend: switchBackend}
	if opt.record != "" {
		if v.recording, err = record.Create(opt.record); err != nil {
			return v, err
		}
		lopt.Record = v.recording
	}
	if opt.contacts != "" {
		if v.contacts, err = newContactsLog(opt.contacts); err != nil {
			return v, err
		}
		log := v.contacts // written on the physics goroutine only, closed after it stops
		lopt.AfterStep = func(sim *physics.Simulation, st *physics.StepStats) error { return log.write(sim, st) }
	}
	if v.runner, err = loop.Start(opt.config, lopt); err != nil {
		return v, fmt.Errorf("build the scene: %w", err)
	}
	v.cam = render.NewCamera(homeTarget, homeDistance)
	v.state = ui.NewState(opt.config, opt.pace)
	v.state.DOFsChosen = !opt.autoDOFs
	for _, sw := range append(render.OverlaySwatches(), previewSwatches()...) {
		v.state.Colours = append(v.state.Colours, ui.ColourKey{Colour: sw.Colour, Meaning: sw.Meaning})
	}
	v.state.Display = displayFromOptions(render.DefaultOptions())
	v.input = newInputMapper(v.cam, v.runner, v.state, v.platform.PixelScale)
	v.input.frame = func() *frame.Frame { return v.frame }
	v.input.scene = v.runner.Scene
	v.input.screenshot = v.requestScreenshot
	v.input.video = v.toggleVideo
	v.video.pending = opt.video
	v.platform.SetHandlers(v.input.handlers())
	v.installMeshUI()
	v.state.LoadScene = viewerSceneConfig
	v.state.SceneFiles, _ = filepath.Glob(filepath.Join("assets", "scenes", "*.toml")) // when run from the repository
	return v, nil
}

// close stops the physics loop and frees the GL objects and the window.
func (v *viewer) close() {
	v.stopVideo()
	if v.runner != nil {
		v.runner.Stop() // writes the recording's footer
		v.runner = nil
	}
	if v.recording != nil {
		if err := v.recording.Close(); err != nil {
			fmt.Fprintln(v.stdout, "softgrasp:", err)
		}
		v.recording = nil
	}
	if v.contacts != nil { // the loop that wrote it has stopped
		if err := v.contacts.close(); err != nil {
			fmt.Fprintln(v.stdout, "softgrasp:", err)
		}
		v.contacts = nil
	}
	if v.layer != nil {
		v.layer.Dispose()
		v.layer = nil
	}
	if v.imgui != nil {
		v.imgui.Dispose()
		v.imgui = nil
	}
	if v.renderer != nil {
		v.renderer.Delete()
		v.renderer = nil
	}
	if v.platform != nil {
		v.platform.Dispose()
		v.platform = nil
	}
}

// run renders until the window closes, or for -frames frames (and until
// -shot-time), writing -screenshot from the last one.
//
// A run of -frames ends with one line on stdout: the frames rendered per
// second of wall time and the physics' achieved real-time factor (simulated
// time over wall time) over the run, with rendering on.
func (v *viewer) run() error {
	start := time.Now()
	var t0 float64
	var steady span // the frames after realtimeWarmup
	n := 1
	defer func() {
		// A run stopped by a signal reports what it rendered, as a run
		// of -frames does at its end.
		if _, stopped := v.interrupts.received(); stopped {
			v.summarise(span{start: start, t0: t0, frames: 1}, steady, n)
		}
	}()
	for !v.platform.ShouldClose() {
		if _, stopped := v.interrupts.received(); stopped {
			return nil
		}
		last := v.opt.frames > 0 && n >= v.opt.frames && v.reachedShotTime()
		img, drawn, err := v.renderFrame(last && v.opt.screenshot != "")
		if err != nil {
			return err
		}
		if !drawn {
			v.limiter.wait()
			continue
		}
		if n == 1 && v.frame != nil {
			start, t0 = time.Now(), v.simulated.total
		}
		if steady.start.IsZero() && n > 1 && time.Since(start) >= realtimeWarmup {
			steady = span{start: time.Now(), t0: v.simulated.total, frames: n}
		}
		if last {
			v.summarise(span{start: start, t0: t0, frames: 1}, steady, n)
		}
		if img != nil {
			return render.SavePNG(v.opt.screenshot, img)
		}
		if last {
			return nil
		}
		n++
		v.limiter.wait()
	}
	return nil
}

// span is a stretch of a -frames run: from wall time start, simulated
// time t0 (simClock's total) and frame number frames on.
type span struct {
	start  time.Time
	t0     float64
	frames int
}

// summarise prints the rendered frames per second and the physics'
// real-time factor from the frame after the first (which opened the
// scene) to frame n, and the same after realtimeWarmup, without the
// start-up (the first, synchronous factorisation and the settling steps,
// whose lost time a paced loop never makes up).
func (v *viewer) summarise(all, steady span, n int) {
	if n <= all.frames || v.frame == nil {
		return
	}
	rates := func(s span) (fps, rtf float64, wall, sim float64) {
		wall = time.Since(s.start).Seconds()
		sim = v.simulated.total - s.t0
		return float64(n-s.frames) / wall, sim / wall, wall, sim
	}
	fps, rtf, wall, sim := rates(all)
	after := ""
	if !steady.start.IsZero() && n > steady.frames {
		if sfps, srtf, swall, _ := rates(steady); swall >= 1 { // shorter says nothing
			after = fmt.Sprintf("; after the first %.0f s: %.1f rendered frames/s, real-time factor %.3f", realtimeWarmup.Seconds(), sfps, srtf)
		}
	}
	device := ""
	if st := v.frame.Stats; st.DeviceTimed {
		device = fmt.Sprintf("; last step on the device: kernels %.3f ms, transfers %.3f ms", st.DeviceKernel, st.DeviceTransfer)
	}
	fmt.Fprintf(v.stdout, "softgrasp: %d frames in %.2f s: %.1f rendered frames/s; physics %.3f s simulated, real-time factor %.3f%s (scheme %s, solver %s, backend %s%s)\n",
		n-all.frames, wall, fps, sim, rtf, after,
		v.opt.config.Physics.Scheme, v.opt.config.Physics.Solver, v.frame.Stats.Backend, device)
}

// reachedShotTime reports whether the last frame is at or past -shot-time
// (or can no longer get there: the loop is paused); before the first
// frame only when no -shot-time was asked for.
func (v *viewer) reachedShotTime() bool {
	if v.frame == nil {
		return v.opt.shotTime == 0
	}
	return v.frame.Time >= v.opt.shotTime || v.frame.Stats.Paused
}

// renderFrame runs one iteration of the render loop: poll the input, take
// the newest frame and, when redrawPolicy says so (viewer_redraw.go),
// route the input (3D handlers get what ImGui does not capture), draw the
// 3D view and the panels, and present. With shot set it draws and returns
// the back buffer read before the swap; drawn is false when it skipped.
func (v *viewer) renderFrame(shot bool) (img *image.RGBA, drawn bool, err error) {
	v.platform.PollEvents()
	events := v.platform.Input().Pending()
	fresh, newScene, err := v.acquire()
	if err != nil {
		return nil, false, err
	}
	v.checkRealtime()
	w, h := v.platform.FramebufferSize()
	cause := redrawCause{fresh: fresh, events: events,
		forced: shot || newScene || v.shotPath != "" || v.video.pending != "" || [2]int{w, h} != v.drawnSize}
	if !v.redraw.due(cause, time.Now()) {
		return nil, false, nil
	}
	v.drawnSize = [2]int{w, h}
	now := time.Now()
	panels := v.panels.due(cause, now)
	// The panels first, so that the 3D view skips the pixels they cover.
	if panels {
		v.platform.NewFrame()
		v.state.Hint = ui.NextHint(v.frame, v.input.aim != nil)
		ui.DrawPanels(v.state, v.frame, v.runner)
		imgui.Render()
		if x, width := v.state.ViewCentre(); width > 0 {
			v.cam.ShiftX = float64(2*x/width - 1) // the scene in the middle of the free view
		}
		dw, dh := v.platform.DisplaySize()
		bg := ui.PanelBackground
		if err := v.layer.Update(v.imgui, [2]float32{float32(dw), float32(dh)}, [2]float32{float32(w), float32(h)},
			imgui.RenderedDrawData(), [4]float32{bg.X, bg.Y, bg.Z, bg.W}); err != nil {
			return nil, true, err
		}
	}
	v.input.flush()
	if v.state.Display.TakeCameraReset() {
		v.cam.Reset()
	}
	if err := v.draw(w, h); err != nil {
		return nil, true, err
	}
	v.layer.Composite()
	img, err = v.readBack(shot, w, h)
	v.recordVideo(w, h)
	v.platform.SwapBuffers()
	v.state.RenderFPS = v.fps.tick(now)
	return img, true, err
}

// acquire takes the newest frame and, when it belongs to a new scene,
// hands the scene to the renderer (and frames the camera on a new
// scenario). fresh says the frame was not acquired before.
func (v *viewer) acquire() (fresh, newScene bool, err error) {
	f, fresh := v.runner.Acquire()
	v.frame = f
	if fresh {
		v.simulated.observe(f.SceneVersion, f.Time)
	}
	cfg := v.runner.Config()
	if f.SceneVersion != v.version {
		sc := v.runner.Scene()
		if err := v.renderer.SetScene(sc); err != nil {
			return fresh, true, err
		}
		v.version, newScene = sc.Version, true
		v.sceneDOFs = sc.DOFs
		v.showMesh(sc)
		if v.framed.reframe(string(cfg.Scenario.Kind), sc) {
			poses := f
			if f.SceneVersion != sc.Version {
				poses = nil // a frame of another scene: no jaws to look across
			}
			frameCamera(v.cam, sc, poses)
		}
	}
	v.state.Observe(f, cfg, fresh)
	return fresh, newScene, nil
}

// draw renders the 3D view. A frame whose scene the renderer does not hold
// yet (a reset between Scene and Acquire) is skipped: the scene at rest is
// drawn for that one frame.
func (v *viewer) draw(w, h int) error {
	if w <= 0 || h <= 0 {
		return nil // minimised
	}
	opt := renderOptions(v.state.Display)
	opt.Ghosts = v.input.ghosts()
	opt.Covered = v.layer.Rects()
	if want := opt.ColourMap == render.ColourVonMises; want != v.stressField && v.runner.Send(frame.SetStressField{On: want}) {
		v.stressField = want
	}
	err := v.renderer.Draw(v.frame, v.cam, opt, w, h)
	if errors.Is(err, render.ErrSceneMismatch) {
		err = v.renderer.Draw(nil, v.cam, opt, w, h)
	}
	lo, hi, label := v.renderer.LegendRange()
	v.state.Legend = ui.Legend{Lo: lo, Hi: hi, Label: label}
	for i := range v.state.Legend.Ramp {
		v.state.Legend.Ramp[i] = render.Viridis(float32(i) / (ui.LegendSteps - 1))
	}
	return err
}

// readBack reads the back buffer when a screenshot is due (shot, or F12)
// and writes the F12 one to its file. It returns the image only for shot
// (the -screenshot of the last frame): an F12 screenshot is written here,
// and the render loop, given its image, would take the run for one of
// -screenshot and end it.
func (v *viewer) readBack(shot bool, w, h int) (*image.RGBA, error) {
	if !shot && v.shotPath == "" {
		return nil, nil
	}
	img, err := render.Screenshot(w, h)
	if err != nil {
		return nil, err
	}
	if v.shotPath != "" {
		if err := render.SavePNG(v.shotPath, img); err != nil {
			fmt.Fprintln(v.stdout, "softgrasp:", err)
		} else {
			fmt.Fprintln(v.stdout, "softgrasp: wrote", v.shotPath)
		}
		v.shotPath = ""
	}
	if !shot {
		return nil, nil
	}
	return img, nil
}

// requestScreenshot asks for the next frame to be written to a PNG named
// after the time, in the working directory.
func (v *viewer) requestScreenshot() {
	v.shotPath = "softgrasp-" + time.Now().Format("20060102-150405.000") + ".png"
}
