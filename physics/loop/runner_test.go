package loop

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/frame"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// smallConfig is a coarse grasp scene that steps in about a millisecond.
func smallConfig() settings.Scenario {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs = 300
	cfg.Physics.NewtonIterations = 2
	return cfg
}

// waitFrame polls the runner until cond holds for a fresh frame.
func waitFrame(t *testing.T, r *Runner, what string, cond func(*frame.Frame) bool) *frame.Frame {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if f, fresh := r.Acquire(); fresh && cond(f) {
			return f
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
	return nil
}

func TestRunnerSurvivesCommandSpam(t *testing.T) {
	r, err := Start(smallConfig(), Options{Pace: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	const senders, perSender = 4, 1500
	var wg sync.WaitGroup
	for s := 0; s < senders; s++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(seed))
			set := smallConfig().Physics
			for i := 0; i < perSender; i++ {
				for !r.Send(spamCommand(rng, set)) {
					time.Sleep(50 * time.Microsecond)
				}
				if i%25 == 0 { // let steps interleave with the bursts
					time.Sleep(time.Millisecond)
				}
			}
		}(int64(s))
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	frames, steps := readUntil(t, r, done)
	if frames == 0 {
		t.Fatal("the renderer side saw no frame while commands were sent")
	}
	if steps == 0 {
		t.Fatal("no frame of a stepped simulation arrived while commands were sent")
	}
	t.Logf("%d fresh frames, %d of them after a step", frames, steps)
}

// readUntil acquires frames like a renderer, checking each one whole,
// until done closes; it returns how many fresh frames it saw, and how many
// of them came from a step (Seq > 0).
func readUntil(t *testing.T, r *Runner, done <-chan struct{}) (frames, steps int) {
	lastSeq := map[uint64]uint64{}
	for {
		select {
		case <-done:
			return frames, steps
		default:
		}
		f, fresh := r.Acquire()
		if !fresh {
			continue
		}
		frames++
		if f.Seq > 0 {
			steps++
		}
		if got := f.ComputeChecksum(); got != f.Checksum {
			t.Fatalf("frame %d: checksum %x, stored %x: the renderer saw a torn frame", f.Seq, got, f.Checksum)
		}
		if prev, ok := lastSeq[f.SceneVersion]; ok && f.Seq < prev {
			t.Fatalf("scene %d: frame %d after frame %d", f.SceneVersion, f.Seq, prev)
		}
		lastSeq[f.SceneVersion] = f.Seq
	}
}

// spamCommand draws a random command, valid or not: every kind of
// command, scene rebuilds and solver switches (which start and stop the
// background factorisation) among them, rarely, since they are slow.
func spamCommand(rng *rand.Rand, set settings.Settings) frame.Command {
	if rng.Intn(200) == 0 {
		switch rng.Intn(3) {
		case 0:
			return frame.Reset{}
		case 1:
			return frame.SetScene{Config: smallConfig()}
		default:
			set.Solver = settings.Solver(rng.Intn(2))
			return frame.SetSettings{Settings: set}
		}
	}
	switch rng.Intn(14) {
	case 9:
		return frame.SetGripperTarget{Target: rigid.Translation(r3.Vec{Z: 0.03 + 0.01*rng.Float64()}), Opening: 0.03}
	case 10:
		return frame.SetOpening{Opening: 0.02 + 0.03*rng.Float64()}
	case 11:
		return frame.SetOmega{Omega: rng.NormFloat64() * 5}
	case 12:
		return frame.RunScript{}
	case 13:
		return frame.StopScript{}
	case 0:
		return frame.MoveGripper{Delta: r3.Vec{X: rng.NormFloat64() * 1e-3, Y: rng.NormFloat64() * 1e-3, Z: rng.NormFloat64() * 1e-3}}
	case 1:
		return frame.SpinGripper{Angle: rng.NormFloat64() * 0.05}
	case 2:
		set.Scheme = settings.Scheme(rng.Intn(2))
		return frame.SetSettings{Settings: set}
	case 3:
		set.TimeStep = math.NaN() // rejected, must not stop anything
		return frame.SetSettings{Settings: set}
	case 4:
		return frame.TogglePause{}
	case 5:
		return frame.SingleStep{}
	case 6:
		return frame.ToggleJaws{}
	case 7:
		return frame.SetPace{RealtimeFactor: float64(rng.Intn(3))}
	default:
		return frame.Pause{Paused: false}
	}
}

func TestSchemeToggleAppliesAtNextStepWithoutReset(t *testing.T) {
	r, err := Start(smallConfig(), Options{Pace: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	first := waitFrame(t, r, "a fast-scheme step", func(f *frame.Frame) bool { return f.Seq >= 3 && f.Stats.Scheme == "fast" })
	version, seq := first.SceneVersion, first.Seq
	set := r.Config().Scenario.Physics
	set.Scheme = settings.Standard
	if !r.Send(frame.SetSettings{Settings: set}) {
		t.Fatal("command queue refused the scheme switch")
	}
	f := waitFrame(t, r, "a standard-scheme step", func(f *frame.Frame) bool { return f.Stats.Scheme == "standard" })
	if f.SceneVersion != version {
		t.Fatalf("scheme switch rebuilt the scene (version %d → %d); it must apply live", version, f.SceneVersion)
	}
	if f.Seq <= seq {
		t.Fatalf("standard step %d does not follow fast step %d", f.Seq, seq)
	}
}

func TestBadCommandsReportAndKeepRunning(t *testing.T) {
	r, err := Start(smallConfig(), Options{Pace: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	set := smallConfig().Physics
	set.Friction = -1
	r.Send(frame.SetSettings{Settings: set})
	f := waitFrame(t, r, "the rejection message", func(f *frame.Frame) bool { return f.Message != "" })
	if !strings.Contains(f.Message, "Friction") {
		t.Fatalf("message %q does not name the bad field", f.Message)
	}
	bad := smallConfig()
	bad.MeshFile = "/nonexistent/mesh.msh"
	r.Send(frame.SetScene{Config: bad})
	f = waitFrame(t, r, "the mesh error", func(f *frame.Frame) bool { return strings.Contains(f.Message, "mesh.msh") })
	seq := f.Seq
	waitFrame(t, r, "steps after the errors", func(f *frame.Frame) bool { return f.Seq > seq+2 })
}

func TestDivergencePausesWithAMessage(t *testing.T) {
	cfg := smallConfig()
	cfg.Physics.MaxSpeed = 1e-9 // any motion counts as divergence
	r, err := Start(cfg, Options{Pace: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	f := waitFrame(t, r, "the divergence report", func(f *frame.Frame) bool { return f.Stats.Paused && f.Message != "" })
	if !strings.Contains(f.Message, "diverged") {
		t.Fatalf("message %q does not report the divergence", f.Message)
	}
	r.Send(frame.Reset{})
	waitFrame(t, r, "a new scene after reset", func(f *frame.Frame) bool { return f.SceneVersion > 1 })
}

// TestStressFieldOnlyWhenAsked: frames carry no von Mises field until a
// viewer asks for it (frame.SetStressField), then one positive-somewhere
// value per surface vertex, and none again once it is turned off.
func TestStressFieldOnlyWhenAsked(t *testing.T) {
	r, err := Start(smallConfig(), Options{Pace: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	f := waitFrame(t, r, "a step", func(f *frame.Frame) bool { return f.Seq >= 3 })
	if len(f.VonMises) != 0 {
		t.Fatalf("frame %d has %d von Mises values before any was asked for", f.Seq, len(f.VonMises))
	}
	stressed := func(f *frame.Frame) bool {
		if len(f.VonMises) != len(f.Surface)/3 {
			return false
		}
		for _, s := range f.VonMises {
			if s > 0 {
				return true
			}
		}
		return false
	}
	for !r.Send(frame.SetStressField{On: true}) {
		time.Sleep(time.Millisecond)
	}
	waitFrame(t, r, "von Mises values on every surface vertex", stressed)
	for !r.Send(frame.SetStressField{On: false}) {
		time.Sleep(time.Millisecond)
	}
	waitFrame(t, r, "frames without von Mises again", func(f *frame.Frame) bool { return len(f.VonMises) == 0 })
}

// TestAfterStepErrorIsShownOnce: a failing AfterStep hook (a full disk
// under -contacts) is said in the frames' message, is not called again,
// and the loop steps on.
func TestAfterStepErrorIsShownOnce(t *testing.T) {
	calls := 0
	opt := Options{Pace: 0, AfterStep: func(sim *physics.Simulation, st *physics.StepStats) error {
		calls++
		if calls == 3 {
			return errors.New("contacts.csv: no space left on device")
		}
		return nil
	}}
	r, err := Start(smallConfig(), opt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	f := waitFrame(t, r, "the hook's error", func(f *frame.Frame) bool { return strings.Contains(f.Message, "no space left") })
	seq := f.Seq
	waitFrame(t, r, "steps after the error", func(f *frame.Frame) bool { return f.Seq > seq+10 && f.Stats.Error == "" })
	r.Stop()
	if calls != 3 {
		t.Fatalf("the hook was called %d times, want 3 (none after its error)", calls)
	}
}

// TestRunScriptCarriesTheAim: "Grasp and rotate" aims as its command
// says, and the running configuration reports it.
func TestRunScriptCarriesTheAim(t *testing.T) {
	r, err := Start(smallConfig(), Options{Pace: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	waitFrame(t, r, "a step", func(f *frame.Frame) bool { return f.Seq >= 2 })
	if got := r.Config().Scenario.GraspAim; got != settings.AimFollow {
		t.Fatalf("the default scene aims %v, want follow", got)
	}
	for _, aim := range []settings.GraspAim{settings.AimOnce, settings.AimFollow} {
		if !r.Send(frame.RunScript{Aim: aim}) {
			t.Fatal("command queue refused RunScript")
		}
		deadline := time.Now().Add(20 * time.Second)
		for r.Config().Scenario.GraspAim != aim {
			if time.Now().After(deadline) {
				t.Fatalf("RunScript{Aim: %v}: the configuration still aims %v", aim, r.Config().Scenario.GraspAim)
			}
			time.Sleep(time.Millisecond)
		}
	}
	if err := (frame.RunScript{Aim: 7}).Validate(); err == nil {
		t.Fatal("RunScript with an aim out of range validated")
	}
}

// TestFrameNamesTheGripperPath: the frame tells a scene whose gripper
// follows a path of its own (a scene file's waypoints) from the
// grasp-and-rotate one, for the panel's button.
func TestFrameNamesTheGripperPath(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Custom).WithKind(settings.Custom)
	cfg.TargetDOFs, cfg.Soft[0].DOFs = 300, 300
	cfg.Gripper = true
	cfg.GripperPath = []settings.Waypoint{
		{Time: 0, Position: [3]float64{0, 0, 0.07}, Opening: 0.06},
		{Time: 0.5, Position: [3]float64{0, 0, 0.06}, Yaw: 30, Opening: 0.06},
	}
	for _, path := range []bool{true, false} {
		if !path {
			cfg = smallConfig()
		}
		r, err := Start(cfg, Options{Pace: 0})
		if err != nil {
			t.Fatal(err)
		}
		f := waitFrame(t, r, "a step", func(f *frame.Frame) bool { return f.Seq >= 2 })
		g := f.Gripper
		r.Stop()
		if !g.Present || !g.Scripted || g.Path != path {
			t.Fatalf("path scene %v: gripper present %v, scripted %v, path %v", path, g.Present, g.Scripted, g.Path)
		}
	}
}
