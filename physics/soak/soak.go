// Package soak drives a physics loop with random commands for a while and
// checks what must hold whatever a user and a bad file throw at it: no
// panic, no NaN or infinity in a published frame, every refused command
// answered with a message, a divergence paused with its message and
// recovered by a reset, memory and goroutines flat after the warm-up, and
// the whole run recorded and replayed to the same final state.
//
// The commands are those the viewer sends (package frame), drawn by a
// seeded generator: settings in and out of range (NaN, ±Inf, negative,
// huge), scheme, solver, backend and A/B switches, scenes and mesh files
// (good and deliberately broken), resets, pauses and single steps, the
// script and hand-driven gripper moves. The seed and the duration give the
// same command sequence; which step each lands on depends on the machine,
// and the recording keeps that, so its replay is the reproducible run.
package soak

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/loop"
	"softgrasp/physics/record"
	"softgrasp/physics/settings"
)

// Options configure a soak.
type Options struct {
	Duration time.Duration
	Seed     uint64
	// DOFs is the mechanical budget of the scenes (small keeps the steps
	// many).
	DOFs int
	// Meshes are the mesh files the scene commands load, good and bad
	// alike; none leaves mesh loads out.
	Meshes []string
	// Progress, when set, is called about once a second with the time
	// elapsed.
	Progress func(elapsed time.Duration)
	// Recording, when set, receives the run's recording (softgrasp replay
	// reads it).
	Recording io.Writer
	// Stop, when set, is asked between commands: true ends the soak
	// early (a signal), with the report of what ran and the recording
	// written but not replayed, which would take about as long again.
	Stop func() bool
}

// Report is what a soak saw.
type Report struct {
	Seed     uint64         `json:"seed"`
	Seconds  float64        `json:"seconds"`
	Stopped  bool           `json:"stopped,omitempty"` // ended early by Options.Stop
	Steps    int            `json:"steps"`
	Frames   int            `json:"frames"`
	Commands int            `json:"commands"`
	Mix      map[string]int `json:"mix"`     // commands sent, by kind
	Refused  int            `json:"refused"` // commands answered with a message
	// Checks counts the pauses in the commands, one every checkEvery,
	// that unpaused the loop and waited for it to step (or diverge);
	// Stepped those in which it did within checkLimit (the rest are
	// problems).
	Checks    int `json:"checks"`
	Stepped   int `json:"stepped"`
	Diverged  int `json:"diverged"`
	Recovered int `json:"recovered"` // divergences a reset recovered from
	BadFrames int `json:"bad_frames"`
	// Goroutines and HeapBytes after the warm-up and at the end, and the
	// growth between them (fraction).
	Goroutines   [2]int    `json:"goroutines"`
	HeapBytes    [2]uint64 `json:"heap_bytes"`
	HeapGrowth   float64   `json:"heap_growth"`
	RecordBytes  int       `json:"record_bytes"`
	ReplaySteps  int       `json:"replay_steps"`
	ReplayEqual  bool      `json:"replay_identical"`
	ReplayDetail string    `json:"replay_detail,omitempty"`
	// Problems lists every invariant that failed, in words.
	Problems []string `json:"problems,omitempty"`
}

// warmup is the share of the run before the memory and goroutine baseline.
const warmup = 0.2

// Run soaks a loop for opt.Duration and returns the report; an error
// means the soak itself could not run (the first scene did not build).
func Run(opt Options) (Report, error) {
	rep := Report{Seed: opt.Seed, Mix: map[string]int{}}
	if opt.DOFs <= 0 {
		opt.DOFs = 600
	}
	base := settings.DefaultScenario(settings.GraspRotate)
	base.TargetDOFs = opt.DOFs
	// The recording streams to a temporary file, not into this process's
	// heap, whose growth the soak measures.
	tmp, err := os.CreateTemp("", "softgrasp-soak-*.rec")
	if err != nil {
		return rep, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	w := record.NewWriter(tmp)
	r, err := loop.Start(base, loop.Options{Record: w})
	if err != nil {
		return rep, err
	}
	g := generator{rng: rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x5eed)), base: base, meshes: opt.Meshes}
	start := time.Now()
	lastMsg, lastProgress := "", start
	baseline := false
	for time.Since(start) < opt.Duration {
		if opt.Stop != nil && opt.Stop() {
			rep.Stopped = true
			break
		}
		kind, c := g.next()
		send(r, c)
		rep.Commands++
		rep.Mix[kind]++
		time.Sleep(time.Duration(g.rng.IntN(20)) * time.Millisecond)
		if rep.Commands%checkEvery == 0 {
			rep.Checks++
			if steps(r) {
				rep.Stepped++
			} else {
				rep.Problems = appendOnce(rep.Problems, fmt.Sprintf("the loop, unpaused, did not step within %v", checkLimit))
			}
		}
		f, fresh := r.Acquire()
		if f != nil && fresh {
			rep.Frames++
			if bad := badValue(f); bad != "" {
				rep.BadFrames++
				rep.Problems = appendOnce(rep.Problems, fmt.Sprintf("frame %d: %s", f.Seq, bad))
			}
			if f.Message != "" && f.Message != lastMsg {
				rep.Refused++
			}
			lastMsg = f.Message
			if f.Stats.Error != "" && f.Stats.Paused {
				// A divergence: paused with its message; a reset must
				// bring the scene back.
				rep.Diverged++
				if recoverScene(r, base) {
					rep.Recovered++
				} else {
					rep.Problems = appendOnce(rep.Problems, "a reset did not recover a diverged scene: "+f.Stats.Error)
				}
			}
		}
		if !baseline && time.Since(start) >= time.Duration(warmup*float64(opt.Duration)) {
			rep.Goroutines[0], rep.HeapBytes[0] = sample(r, base)
			baseline = true
		}
		if opt.Progress != nil && time.Since(lastProgress) >= time.Second {
			opt.Progress(time.Since(start))
			lastProgress = time.Now()
		}
	}
	rep.Goroutines[1], rep.HeapBytes[1] = sample(r, base)
	r.Stop()
	rep.Seconds = time.Since(start).Seconds()
	if rep.HeapBytes[0] > 0 {
		rep.HeapGrowth = float64(rep.HeapBytes[1])/float64(rep.HeapBytes[0]) - 1
	}
	if !baseline {
		// Stopped during the warm-up: there is nothing to compare with.
		rep.Goroutines[0], rep.HeapBytes[0] = rep.Goroutines[1], rep.HeapBytes[1]
	}
	if rep.Goroutines[1] > rep.Goroutines[0] {
		rep.Problems = append(rep.Problems, fmt.Sprintf("goroutines grew from %d to %d", rep.Goroutines[0], rep.Goroutines[1]))
	}
	if opt.Duration >= 5*time.Minute && rep.HeapGrowth > 0.05 {
		rep.Problems = append(rep.Problems, fmt.Sprintf("the live heap grew by %.1f %% after the warm-up", 100*rep.HeapGrowth))
	}
	data, err := os.ReadFile(tmp.Name())
	if err != nil {
		rep.Problems = append(rep.Problems, "reading the recording back: "+err.Error())
	}
	rep.RecordBytes = len(data)
	if opt.Recording != nil {
		if _, err := opt.Recording.Write(data); err != nil {
			rep.Problems = append(rep.Problems, "writing the recording: "+err.Error())
		}
	}
	if rep.Stopped {
		rep.ReplayDetail = "not replayed: the soak was stopped early (softgrasp replay replays its -record file)"
		return rep, nil
	}
	replay(&rep, data)
	return rep, nil
}

// checkEvery is how many commands the soak sends between two checks that
// the loop steps (steps): on a slow machine (a race build, a loaded
// host) the commands may otherwise keep the loop rebuilding scenes, so
// that how many steps a soak sees says how fast the machine is, not
// whether the loop runs.
const checkEvery = 100

// checkLimit bounds the wait of a check: one step of a freshly built
// scene, its first factorisation included.
const checkLimit = 20 * time.Second

// steps unpauses the loop and waits, sending nothing else, for a frame
// of a step after the one it last saw, or of a divergence (which pauses
// the loop, the main loop's to recover). It reports whether one came
// within checkLimit.
func steps(r *loop.Runner) bool {
	send(r, frame.Pause{Paused: false})
	var version, seq uint64
	if f, _ := r.Acquire(); f != nil {
		version, seq = f.SceneVersion, f.Seq
	}
	// A scene rebuilt since (a command still in the queue) numbers its
	// steps from the start.
	return waitFor(r, checkLimit, func(f *frame.Frame) bool {
		stepped := f.Seq > seq
		if f.SceneVersion != version {
			stepped = f.Seq > 0
		}
		return stepped || f.Stats.Error != ""
	})
}

// recoverScene sends a reset and waits for a step that succeeds; when the
// scene's own settings make it diverge again, it resets to the base scene
// with the default settings, the user's other way back.
func recoverScene(r *loop.Runner, base settings.Scenario) bool {
	for _, cmds := range [][]frame.Command{
		{frame.Reset{}, frame.Pause{Paused: false}},
		{frame.SetAB{}, frame.SetScene{Config: base}, frame.Pause{Paused: false}},
	} {
		for _, c := range cmds {
			send(r, c)
		}
		if waitFor(r, 10*time.Second, func(f *frame.Frame) bool { return f.Stats.Error == "" && !f.Stats.Paused }) {
			return true
		}
	}
	return false
}

// send queues c, waiting while the queue is full.
func send(r *loop.Runner, c frame.Command) {
	for !r.Send(c) {
		time.Sleep(time.Millisecond)
	}
}

// waitFor polls the frames for up to limit until ok holds for a fresh one.
func waitFor(r *loop.Runner, limit time.Duration, ok func(*frame.Frame) bool) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		if f, fresh := r.Acquire(); f != nil && fresh && ok(f) {
			return true
		}
	}
	return false
}

// sample puts the loop in one state, the base scene with the default
// settings, paused, without A/B, so that two samples compare like with
// like, and returns the goroutines and the live heap after a collection;
// the loop runs on after it.
func sample(r *loop.Runner, base settings.Scenario) (int, uint64) {
	for _, c := range []frame.Command{frame.SetAB{}, frame.SetScene{Config: base}, frame.Pause{Paused: true}} {
		send(r, c)
	}
	waitFor(r, 10*time.Second, func(f *frame.Frame) bool { return f.Stats.Paused && f.Time == 0 })
	// The old scenes' element pools end when a collection finds their
	// model unreachable (fem's cleanup), the background factorisation as
	// its scene closes; a loaded machine may take a while to run either:
	// the count is the least seen over two seconds of collections.
	n := runtime.NumGoroutine()
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		runtime.GC()
		n = min(n, runtime.NumGoroutine())
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	send(r, frame.Pause{Paused: false})
	return n, m.HeapAlloc
}

// replay replays the recording and notes whether it reached the recorded
// final state.
func replay(rep *Report, data []byte) {
	rec, err := record.Read(bytes.NewReader(data), "soak recording")
	if err != nil {
		rep.ReplayDetail = err.Error()
		rep.Problems = append(rep.Problems, "the recording does not read back: "+err.Error())
		return
	}
	p, err := loop.NewPlayer(rec)
	if err != nil {
		rep.ReplayDetail = err.Error()
		rep.Problems = append(rep.Problems, "the recording does not replay: "+err.Error())
		return
	}
	defer p.Close()
	got, err := p.Run(nil)
	rep.ReplaySteps = rec.Steps()
	rep.Steps = rec.Steps() // the steps the loop attempted, by its own clock
	rep.ReplayEqual = err == nil && got.Match()
	if !rep.ReplayEqual {
		rep.ReplayDetail = fmt.Sprintf("checksum %s, recorded %s, error %v",
			record.FormatChecksum(got.Checksum), record.FormatChecksum(got.Recorded), err)
		rep.Problems = append(rep.Problems, "the replay differs from the recorded run: "+rep.ReplayDetail)
	}
}

// badValue names the first NaN or infinity in a frame's surface, bodies
// or stats, "" when there is none.
func badValue(f *frame.Frame) string {
	for i, x := range f.Surface {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Sprintf("surface coordinate %d is %v", i, x)
		}
	}
	s := &f.Stats
	for name, x := range map[string]float64{"penetration": s.Penetration, "slip": s.Slip, "grip force": s.GripForce, "time": f.Time} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprintf("%s is %v", name, x)
		}
	}
	return ""
}

// appendOnce appends s unless it is already there (a failing invariant
// would otherwise repeat every frame).
func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// generator draws the commands.
type generator struct {
	rng    *rand.Rand
	base   settings.Scenario
	meshes []string
}

// bad returns a value out of any range: NaN, ±Inf, negative or huge.
func (g *generator) bad() float64 {
	return [...]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 1e300}[g.rng.IntN(5)]
}

// between returns a uniform value in [lo, hi].
func (g *generator) between(lo, hi float64) float64 { return lo + (hi-lo)*g.rng.Float64() }

// next returns a command and its kind, for the mix.
func (g *generator) next() (string, frame.Command) {
	switch n := g.rng.IntN(100); {
	case n < 25:
		return g.settings()
	case n < 33:
		return g.scene()
	case n < 37:
		return "reset", frame.Reset{}
	case n < 45:
		return "pause", [...]frame.Command{frame.Pause{Paused: true}, frame.Pause{Paused: false}, frame.TogglePause{}, frame.SingleStep{}}[g.rng.IntN(4)]
	case n < 50:
		aim := settings.GraspAim(g.rng.IntN(2)) // once or follow
		return "script", [...]frame.Command{frame.RunScript{Aim: aim}, frame.StopScript{}}[g.rng.IntN(2)]
	case n < 55:
		if g.rng.IntN(4) == 0 {
			return "omega (bad)", frame.SetOmega{Omega: g.bad()}
		}
		return "omega", frame.SetOmega{Omega: g.between(-8*math.Pi, 8*math.Pi)}
	case n < 60:
		return "backend", frame.SetBackend{Backend: [...]string{frame.BackendCPU, frame.BackendGPU, "tpu"}[g.rng.IntN(3)]}
	case n < 64:
		changes := [...]string{"newton=1", "scheme=standard,pgs=60", "newton-elastic-tol=1e-5", "pgs=-3", "nonsense=1", ""}[g.rng.IntN(6)]
		return "A/B", frame.SetAB{Enabled: g.rng.IntN(3) > 0, Changes: changes}
	case n < 66:
		return "stress field", frame.SetStressField{On: g.rng.IntN(2) == 0}
	default:
		return g.gripper()
	}
}

// settings returns a change of one setting of the parameter table (its
// physics and material entries), out of range one time in four, or of
// gravity, which the table leaves out.
func (g *generator) settings() (string, frame.Command) {
	s := settings.Default()
	bad := g.rng.IntN(4) == 0
	var ps []*settings.Param
	for _, p := range settings.Params() {
		if p.Scope != settings.SceneScope {
			ps = append(ps, p)
		}
	}
	c := settings.Scenario{Physics: s}
	if n := g.rng.IntN(len(ps) + 1); n < len(ps) {
		p := ps[n]
		v := g.tableValue(p)
		if bad {
			v = g.bad()
		}
		p.Set(&c, v)
	} else if bad {
		c.Physics.Gravity = r3.Vec{Z: g.bad()}
	} else {
		c.Physics.Gravity = r3.Vec{Z: -g.between(0, 30)}
	}
	if bad {
		return "settings (bad)", frame.SetSettings{Settings: c.Physics}
	}
	return "settings", frame.SetSettings{Settings: c.Physics}
}

// tableValue draws a value of p inside its range: a choice among its
// names; a number within a factor of two of its default (log-uniform;
// from its lower bound up to one for a default of zero), clipped to the
// range. (A decade made a step of ten times the alarm distance or the
// sweeps so slow that 20 s of soak ran under a hundred steps.)
func (g *generator) tableValue(p *settings.Param) float64 {
	if p.Kind == settings.Choice {
		return float64(g.rng.IntN(len(p.Choices)))
	}
	lo, hi := p.Lo, p.Hi
	if p.HiOf != nil {
		hi = p.HiOf(&settings.Scenario{Physics: settings.Default()})
	}
	var v float64
	if d := p.Default(); d > 0 {
		v = d * math.Pow(2, g.between(-1, 1))
	} else {
		v = g.between(lo, math.Min(hi, lo+1))
	}
	v = math.Max(lo, math.Min(hi, v))
	if p.Kind == settings.Integer {
		v = math.Round(v)
	}
	if (p.OpenLo && v == lo) || (p.OpenHi && v == hi) {
		v = p.Default()
	}
	return v
}

// scene returns a new scene: a scenario kind, and one time in two a mesh
// file from the list.
func (g *generator) scene() (string, frame.Command) {
	cfg := g.base
	kinds := settings.Kinds()
	cfg.Kind = kinds[g.rng.IntN(len(kinds))]
	if cfg.Kind == settings.FastSpin {
		cfg = settings.DefaultScenario(settings.FastSpin)
		cfg.TargetDOFs = g.base.TargetDOFs
	}
	if cfg.Kind == settings.Custom && g.rng.IntN(2) == 0 {
		if g.rng.IntN(3) == 0 {
			return g.hangingScene(cfg.WithKind(settings.Custom))
		}
		return g.pathScene(cfg.WithKind(settings.Custom))
	}
	if g.rng.IntN(4) == 0 {
		// Attachments, good and bad: a layer, a side, a layer following a
		// jaw, the whole object, and three that the scene refuses (no
		// node selected, a node out of range, a body it does not have).
		specs := [...]string{"below:z=0.004", "above:x=0.01", "below:z=0.004@left jaw", "box:-1,-1,-1,1,1,1",
			"above:z=1", "nodes:0,99999999", "below:z=0.004@nothing"}
		spec, err := settings.ParseAttach(specs[g.rng.IntN(len(specs))])
		if err == nil {
			cfg.Attach = []settings.AttachSpec{spec}
			return "scene with attachment", frame.SetScene{Config: cfg}
		}
	}
	if len(g.meshes) > 0 && g.rng.IntN(2) == 0 {
		cfg.MeshFile = g.meshes[g.rng.IntN(len(g.meshes))]
		return "scene with mesh", frame.SetScene{Config: cfg}
	}
	return "scene", frame.SetScene{Config: cfg}
}

// pathScene returns a custom scene (its one soft box) whose gripper
// follows a random path of 2 to 6 waypoints around it, one field of one
// waypoint out of range one time in eight.
func (g *generator) pathScene(cfg settings.Scenario) (string, frame.Command) {
	cfg.Gripper = true
	t := 0.0
	for range 2 + g.rng.IntN(5) {
		cfg.GripperPath = append(cfg.GripperPath, settings.Waypoint{
			Time:     t,
			Position: [3]float64{g.between(-0.02, 0.02), g.between(-0.02, 0.02), g.between(0.01, 0.06)},
			Yaw:      g.between(-180, 180),
			Opening:  g.between(0.02, 0.06),
		})
		t += g.between(0.05, 0.6)
	}
	if g.rng.IntN(8) == 0 {
		w := &cfg.GripperPath[g.rng.IntN(len(cfg.GripperPath))]
		*[...]*float64{&w.Time, &w.Yaw, &w.Opening, &w.Position[2]}[g.rng.IntN(4)] = g.bad()
		return "path scene (bad)", frame.SetScene{Config: cfg}
	}
	return "path scene", frame.SetScene{Config: cfg}
}

// hangingScene returns a custom scene of a dynamic rigid bob of random
// mass and velocity hung from a soft cord by attachments to the world and
// to the bob (bilateral pairs), with the gripper one time in two; one
// time in eight the bob's mass is out of range (refused by the scene).
func (g *generator) hangingScene(cfg settings.Scenario) (string, frame.Command) {
	cfg.Gripper = g.rng.IntN(2) == 0
	cfg.Soft = []settings.SoftSpec{{Shape: settings.BoxShape, Size: [3]float64{0.01, 0.01, 0.04}, DOFs: max(settings.MinSoftDOFs, cfg.TargetDOFs/2),
		Position: [3]float64{0, 0, 0.03}}}
	bob := settings.RigidSpec{Name: "bob", Shape: settings.BoxShape, Size: [3]float64{0.02, 0.02, 0.02}, Position: [3]float64{0, 0, 0.02},
		Mass:            g.between(0.002, 0.2),
		Velocity:        [3]float64{g.between(-0.5, 0.5), g.between(-0.5, 0.5), g.between(-0.2, 0.2)},
		AngularVelocity: [3]float64{g.between(-5, 5), g.between(-5, 5), g.between(-5, 5)}}
	name := "hanging scene"
	if g.rng.IntN(8) == 0 {
		bob.Mass, name = g.bad(), "hanging scene (bad)"
	}
	cfg.Rigid = []settings.RigidSpec{bob}
	// The cord's top to the world, its bottom to the bob: the half-spaces
	// −z ≤ −0.0699 and z ≤ 0.0301 (`above:z=0.0699`, `below:z=0.0301@bob`).
	cfg.Attach = []settings.AttachSpec{
		{Plane: &settings.AttachPlane{Normal: r3.Vec{Z: -1}, Offset: -0.0699}},
		{Plane: &settings.AttachPlane{Normal: r3.Vec{Z: 1}, Offset: 0.0301}, Body: "bob"},
	}
	return name, frame.SetScene{Config: cfg}
}

// gripper returns a hand-driven gripper command, out of range one time in
// eight.
func (g *generator) gripper() (string, frame.Command) {
	if g.rng.IntN(8) == 0 {
		return "gripper (bad)", [...]frame.Command{
			frame.MoveGripper{Delta: r3.Vec{X: g.bad()}},
			frame.SpinGripper{Angle: g.bad()},
			frame.SetOpening{Opening: g.bad()},
		}[g.rng.IntN(3)]
	}
	switch g.rng.IntN(5) {
	case 0:
		d := 0.005
		return "gripper", frame.MoveGripper{Delta: r3.Vec{X: g.between(-d, d), Y: g.between(-d, d), Z: g.between(-d, d)}}
	case 1:
		return "gripper", frame.SpinGripper{Angle: g.between(-0.3, 0.3)}
	case 2:
		return "gripper", frame.SetOpening{Opening: g.between(0, 0.08)}
	default:
		return "gripper", frame.ToggleJaws{}
	}
}
