package loop

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"softgrasp/physics"
	"softgrasp/physics/frame"
	"softgrasp/physics/record"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// Options configure a Runner.
type Options struct {
	// Pace is the real-time factor the loop paces to: 1 steps in real
	// time, 0.25 at a quarter speed, 0 as fast as possible.
	Pace float64
	// Paused starts the loop paused.
	Paused bool
	// QueueLength bounds the command queue (default 1024).
	QueueLength int
	// SolverChanged, when set, is called with the solver of A when the
	// first scene is built and whenever a command changes it, on the
	// physics goroutine between two steps: the application sets its
	// thread policy there.
	SolverChanged func(settings.Solver)
	// Backend is where the first scene's fast scheme runs
	// (frame.BackendCPU, frame.BackendGPU; "" is the CPU). A scene
	// rebuilt later stays on the backend in use.
	Backend string
	// SetBackend, when set, puts sim on the backend named name and
	// returns the name of the one it runs on; on error the simulation
	// stays on the backend it was on, whose name it returns. The loop
	// calls it on the physics goroutine between two steps (a
	// frame.SetBackend, a rebuilt scene); the application supplies it, so
	// that this package never links a device. Without it only the CPU is
	// available.
	SetBackend func(sim *physics.Simulation, name string) (string, error)
	// Record, when set, records the run (physics/record): the starting
	// configuration, each command applied with its step, checkpoints, and
	// the footer when the loop stops. The asynchronous solver then runs
	// at a fixed factor lag (record.Deterministic).
	Record *record.Writer
	// AfterStep, when set, is called on the physics goroutine after each
	// step that succeeded, with the simulation that took it (a reset or a
	// new scene brings another): the application writes per-step output
	// there (the viewer's -contacts). An error is shown in the frames'
	// message and ends the calls; the loop runs on.
	AfterStep func(sim *physics.Simulation, st *physics.StepStats) error
}

// Runner owns a scene on its own goroutine. Viewers send it commands and
// read its frames; neither side ever waits for the other.
type Runner struct {
	cmds chan frame.Command
	stop chan struct{}
	done chan struct{}
	buf  *frame.TripleBuffer

	scene  atomic.Pointer[frame.Scene]
	config atomic.Pointer[frame.Config]

	// Owned by the physics goroutine.
	sc       *scenario.Scene
	opt      Options
	solver   settings.Solver // the solver last reported to SolverChanged
	backend  string          // where the scene's fast scheme runs (frame.BackendCPU, frame.BackendGPU)
	device   deviceClock     // the backend's device times at the last step
	paused   bool
	stepOnce bool
	pace     float64
	message  string // last command error or divergence, shown in frames
	// scriptStop is the grasp script's stop last reported in message.
	scriptStop string
	seq        uint64
	version    uint64 // of the Scene
	vm         []float64
	contacts   []physics.ContactRecord // fillContacts' scratch
	// stressField: publish Frame.VonMises (frame.SetStressField).
	stressField bool
	rate        rateMeter
	lastStats   frame.Stats
	steps       int    // steps attempted since Start, across scenes (the recording's clock)
	stepErr     error  // the last step's error, nil when it succeeded
	recErr      bool   // the recording's write error was reported
	ab          *abRun // the A/B mode's scene B (ab.go), nil when off
}

// Start builds the scene of cfg and starts its physics goroutine. An
// error building the scene is returned here, before anything runs.
func Start(cfg settings.Scenario, opt Options) (*Runner, error) {
	if opt.Record != nil {
		cfg = record.DeterministicConfig(cfg)
	}
	sc, err := scenario.Build(cfg)
	if err != nil {
		return nil, err
	}
	if opt.QueueLength <= 0 {
		opt.QueueLength = 1024
	}
	r := &Runner{
		cmds: make(chan frame.Command, opt.QueueLength),
		stop: make(chan struct{}),
		done: make(chan struct{}),
		buf:  frame.NewTripleBuffer(),
		pace: opt.Pace, paused: opt.Paused, opt: opt,
	}
	r.install(sc)
	if opt.Backend != "" {
		if err := r.setBackend(opt.Backend); err != nil {
			r.message = err.Error()
		}
	}
	if opt.Record != nil {
		opt.Record.Begin(cfg)
	}
	r.reportSolver(true)
	r.publish(nil)
	go r.run()
	return r, nil
}

// Send queues a command without blocking; it returns false when the queue
// is full or the runner stopped.
func (r *Runner) Send(c frame.Command) bool {
	select {
	case <-r.done:
		return false
	default:
	}
	select {
	case r.cmds <- c:
		return true
	default:
		return false
	}
}

// Acquire returns the newest frame and whether it is new since the last
// call. Only one goroutine (the renderer) may call it; the frame is valid
// until its next call.
func (r *Runner) Acquire() (*frame.Frame, bool) { return r.buf.Acquire() }

// Scene returns the static scene of the newest frames (check
// Frame.SceneVersion against Scene.Version).
func (r *Runner) Scene() *frame.Scene { return r.scene.Load() }

// Config returns the running configuration as last published (check
// Frame.ConfigVersion against Config.Version).
func (r *Runner) Config() *frame.Config { return r.config.Load() }

// Stop ends the physics goroutine, waits for it and releases the scene.
func (r *Runner) Stop() {
	select {
	case <-r.stop:
	default:
		close(r.stop)
	}
	<-r.done
}

// run is the physics goroutine: drain commands, step, publish, pace.
func (r *Runner) run() {
	defer close(r.done)
	defer func() { r.endRecord(); r.dropAB(); r.sc.Close() }()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	next := time.Now()
	for {
		applied, ok := r.drain()
		if !ok {
			return
		}
		if r.paused && !r.stepOnce {
			// Show what the drained commands changed before waiting:
			// while paused no step will publish it.
			if applied > 0 {
				r.publish(nil)
			}
			select {
			case c := <-r.cmds:
				r.exec(c)
				r.publish(nil)
			case <-r.stop:
				return
			}
			next = time.Now()
			continue
		}
		r.stepOnce = false
		st, err := r.sc.Step()
		r.recordStep(err)
		if err != nil {
			r.paused = true
			r.message = err.Error()
			r.lastStats.Error = err.Error()
			r.publish(nil)
			continue
		}
		r.stepAB()
		r.reportScriptStop()
		if r.opt.AfterStep != nil {
			if err := r.opt.AfterStep(r.sc.Sim, st); err != nil {
				r.message = err.Error() + " (no more rows are written)"
				r.opt.AfterStep = nil
			}
		}
		r.rate.add(time.Now(), r.sc.Sim.Time())
		r.publish(st)
		if !r.wait(timer, &next) {
			return
		}
	}
}

// drain applies every queued command and counts them; ok is false when
// asked to stop.
func (r *Runner) drain() (applied int, ok bool) {
	for {
		select {
		case <-r.stop:
			return applied, false
		case c := <-r.cmds:
			r.exec(c)
			applied++
		default:
			return applied, true
		}
	}
}

// exec applies one command, keeping its error for the next frame, and
// publishes the configuration if the command changed it.
func (r *Runner) exec(c frame.Command) {
	if r.opt.Record != nil {
		c = record.DeterministicCommand(c)
	}
	err := r.apply(c)
	if err != nil {
		r.message = err.Error()
	}
	r.recordCommand(c, err)
	r.publishConfig()
}

// publishConfig publishes the running configuration when it differs from
// the last one published: once per change, never into every frame.
func (r *Runner) publishConfig() {
	cfg := r.sc.Config()
	last := r.config.Load()
	if last != nil && cfg.Equal(last.Scenario) {
		return
	}
	v := uint64(1)
	if last != nil {
		v = last.Version + 1
	}
	r.config.Store(&frame.Config{Version: v, Scenario: cfg})
}

// catchUpWindow is how far behind its paced time the loop may fall and
// still catch up, by stepping without sleeping until it is back on time;
// past it the lost time is given up. It covers the phases whose steps
// cost more than h for a few seconds (a grip closing, a factor swapped
// in), which a loop with spare time in the others makes up. In the viewer
// (Xvfb, 2 vCPUs, 20 s at the defaults, 2026-12-02) the default box ran
// at 0.964–0.976 of real time with a window of 100 ms, giving up about
// 100 ms eleven times, and at 0.995 with 300 ms; the stomach of the mesh
// set 0.986 → 0.999, the lying cylinder 0.954 → 0.985 (docs/viewer.md).
// A longer stall (a rebuild, a paused debugger) is given up: catching it
// up would play the scene fast for as long.
const catchUpWindow = 300 * time.Millisecond

// wait sleeps until the paced time of the next step, waking early to stop.
// A loop that falls more than catchUpWindow behind gives up catching up.
func (r *Runner) wait(timer *time.Timer, next *time.Time) bool {
	if r.pace <= 0 {
		*next = time.Now()
		return true
	}
	h := r.sc.Sim.Settings().TimeStep
	*next = next.Add(time.Duration(float64(time.Second) * h / r.pace))
	d := time.Until(*next)
	if d <= 0 {
		if d < -catchUpWindow {
			*next = time.Now()
		}
		return true
	}
	timer.Reset(d)
	select {
	case <-timer.C:
		return true
	case <-r.stop:
		return false
	}
}

// install makes sc the current scene and publishes its static part.
func (r *Runner) install(sc *scenario.Scene) {
	if r.sc != nil {
		r.sc.Close()
	}
	r.sc = sc
	r.backend = frame.BackendCPU // a scene is built on the CPU backend
	r.version++
	r.seq = 0
	r.rate = rateMeter{}
	r.lastStats = frame.Stats{}
	r.scene.Store(newScene(sc, r.version))
	r.publishConfig()
}

// reportSolver calls Options.SolverChanged when the scene's solver is not
// the one last reported (always when first).
func (r *Runner) reportSolver(first bool) {
	s := r.sc.Sim.Settings().Solver
	if r.opt.SolverChanged != nil && (first || s != r.solver) {
		r.opt.SolverChanged(s)
	}
	r.solver = s
}

// rebuild replaces the scene by one built from cfg; on failure the
// current scene stays.
func (r *Runner) rebuild(cfg settings.Scenario) error {
	sc, err := scenario.Build(cfg)
	if err != nil {
		return fmt.Errorf("could not build the scene: %w", err)
	}
	want := r.backend
	r.install(sc)
	r.reportSolver(false)
	r.message = ""
	if err := r.setBackend(want); err != nil {
		r.message = err.Error()
	}
	r.restartAB()
	return nil
}

var errNoGripper = errors.New("this scene has no gripper")

// reportScriptStop puts why the grasp script stopped (or refused the
// object) in the frames' message, once per stop.
func (r *Runner) reportScriptStop() {
	stop := r.sc.ScriptStop()
	if stop == r.scriptStop {
		return
	}
	r.scriptStop = stop
	if stop != "" {
		r.message = "Grasp and rotate stopped: " + stop + "."
		if r.sc.Phase() == scenario.PhaseRefused {
			r.message = "Grasp and rotate cannot take this object: " + stop + "."
		}
	}
}

// rateMeter measures the achieved step rate and real-time factor over the
// last second.
type rateMeter struct {
	wall [64]time.Time
	sim  [64]float64
	n    int
}

func (m *rateMeter) add(w time.Time, s float64) {
	m.wall[m.n%64], m.sim[m.n%64] = w, s
	m.n++
}

// rates returns steps per wall second and simulated per wall seconds.
func (m *rateMeter) rates() (stepRate, realtime float64) {
	if m.n < 2 {
		return 0, 0
	}
	k := m.n - 1
	j := k - 1
	for j > 0 && k-j < 63 && m.wall[k%64].Sub(m.wall[j%64]) < time.Second {
		j--
	}
	dt := m.wall[k%64].Sub(m.wall[j%64]).Seconds()
	if dt <= 0 {
		return 0, 0
	}
	return float64(k-j) / dt, (m.sim[k%64] - m.sim[j%64]) / dt
}
