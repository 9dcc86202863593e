package loop

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/frame"
	"softgrasp/physics/record"
	"softgrasp/physics/rigid"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// stepOnce runs one step of a paused runner and waits for its frame.
func stepOnce(t *testing.T, r *Runner) {
	t.Helper()
	f, _ := r.Acquire()
	seq, version := f.Seq, f.SceneVersion
	r.Send(frame.SingleStep{})
	waitFrame(t, r, "a single step", func(f *frame.Frame) bool { return f.SceneVersion != version || f.Seq > seq })
}

// recordSession drives a runner by hand (open, move, spin, a settings
// change, the jaws, a reset, the script for a while) and returns its
// recording.
func recordSession(t *testing.T, cfg settings.Scenario) string {
	t.Helper()
	var b bytes.Buffer
	r, err := Start(cfg, Options{Pace: 0, Paused: true, Record: record.NewWriter(&b)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	set := r.Config().Scenario.Physics
	set.Friction = 0.5
	script := []frame.Command{
		frame.SetOpening{Opening: 0.05}, frame.MoveGripper{Delta: r3.Vec{Y: 0.003}},
		frame.SpinGripper{Angle: 0.2}, frame.SetSettings{Settings: set}, frame.ToggleJaws{},
		frame.SetPace{RealtimeFactor: 0}, frame.SetOmega{Omega: 3},
	}
	for _, c := range script {
		r.Send(c)
		stepOnce(t, r)
		stepOnce(t, r)
	}
	r.Send(frame.Reset{}) // rebuilds the scene at the live settings, and runs
	r.Send(frame.Pause{Paused: true})
	stepOnce(t, r)
	// The script runs free until paused: how many steps it ran is up to
	// the machine, and the recording's to keep.
	r.Send(frame.RunScript{})
	waitFrame(t, r, "scripted steps", func(f *frame.Frame) bool { return f.Stats.Phase != "manual" && f.Seq > 20 })
	r.Send(frame.Pause{Paused: true})
	// Wait until the loop has taken the pause: a step it had under way
	// still publishes a newer frame, which stepOnce below would take for
	// its own, and Stop would then race the commands still queued.
	waitFrame(t, r, "the pause", func(f *frame.Frame) bool { return f.Stats.Paused })
	r.Send(frame.StopScript{})
	r.Send(frame.SetGripperTarget{Target: rigid.Translation(r3.Vec{Z: 0.03}), Opening: 0.04})
	stepOnce(t, r)
	r.Stop()
	return b.String()
}

// TestReplayOfCommandsIsBitIdentical: a session driven by commands,
// replayed from its recording, ends in the recorded state to the bit, with
// the exact solver and with the asynchronous one (at the recording's
// fixed factor lag), and passes every checkpoint on the way.
func TestReplayOfCommandsIsBitIdentical(t *testing.T) {
	tests := []struct {
		name   string
		solver settings.Solver
	}{{"exact", settings.ExactSolver}, {"async", settings.AsyncSolver}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallConfig()
			cfg.Physics.Solver = tc.solver
			text := recordSession(t, cfg)
			rec, err := record.Read(strings.NewReader(text), "session")
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if len(rec.Commands) != 10 || rec.End == nil {
				t.Fatalf("%d commands and footer %v recorded, want 10 and a footer:\n%s", len(rec.Commands), rec.End, text)
			}
			if tc.solver == settings.AsyncSolver && rec.Config.Physics.AsyncLag != record.AsyncLag {
				t.Fatalf("async recording at lag %d, want the fixed %d", rec.Config.Physics.AsyncLag, record.AsyncLag)
			}
			p, err := NewPlayer(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			steps := 0
			got, err := p.Run(func(*scenario.Scene, *physics.StepStats, error) error { steps++; return nil })
			if err != nil {
				t.Fatal(err)
			}
			if !got.Match() || steps != rec.End.Steps {
				t.Fatalf("replayed %d steps to %s, recorded %d steps to %s", steps, record.FormatChecksum(got.Checksum),
					rec.End.Steps, rec.End.Checksum)
			}
			t.Logf("%d steps, %d commands, %d checkpoints: checksum %s both", steps, len(rec.Commands), len(rec.Checkpoints), rec.End.Checksum)
		})
	}
}

// TestReplayRefusesWhatDoesNotReplay: a recorded scene whose mesh is
// missing, and a replay that departs from a checkpoint, each end with one
// message.
func TestReplayRefusesWhatDoesNotReplay(t *testing.T) {
	var b bytes.Buffer
	w := record.NewWriter(&b)
	cfg := smallConfig()
	cfg.MeshFile = "/nonexistent/object.msh"
	w.Begin(cfg)
	rec, err := record.Read(&b, "missing")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlayer(rec); err == nil || !strings.Contains(err.Error(), "object.msh") {
		t.Fatalf("error %v, want one naming the missing mesh", err)
	}

	b.Reset()
	w = record.NewWriter(&b)
	w.Begin(smallConfig())
	w.Step(record.CheckpointEvery, func() uint64 { return 1 })
	rec, err = record.Read(&b, "forged")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlayer(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Run(nil); err == nil || !strings.Contains(err.Error(), "departs from the recording at step 100") {
		t.Fatalf("error %v, want the departure at the checkpoint", err)
	}
}

// TestReplayCommandOnACheckpointStep: the loop writes a checkpoint right
// after its step and records the commands that arrive before the next
// step with the same step count, so a command that changes the state on
// a checkpoint's step (here a reset right after step CheckpointEvery)
// must be replayed after that checkpoint is compared, not before (the
// soak found a replay that applied it first and departed).
func TestReplayCommandOnACheckpointStep(t *testing.T) {
	var b bytes.Buffer
	r, err := Start(smallConfig(), Options{Pace: 0, Paused: true, Record: record.NewWriter(&b)})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < record.CheckpointEvery; i++ {
		stepOnce(t, r)
	}
	r.Send(frame.Reset{})
	r.Send(frame.Pause{Paused: true})
	stepOnce(t, r)
	stepOnce(t, r)
	r.Stop()
	rec, err := record.Read(strings.NewReader(b.String()), "checkpoint step")
	if err != nil {
		t.Fatal(err)
	}
	var reset *record.Entry
	for i := range rec.Commands {
		if _, ok := rec.Commands[i].Command.(frame.Reset); ok {
			reset = &rec.Commands[i]
		}
	}
	if reset == nil || reset.Step != record.CheckpointEvery || len(rec.Checkpoints) == 0 || rec.Checkpoints[0].Step != record.CheckpointEvery {
		t.Fatalf("the reset (%+v) and the first checkpoint (%+v) are not on step %d: the test shows nothing", reset, rec.Checkpoints, record.CheckpointEvery)
	}
	p, err := NewPlayer(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	got, err := p.Run(nil)
	if err != nil || !got.Match() {
		t.Fatalf("replay: %v, checksum %s, recorded %s", err, record.FormatChecksum(got.Checksum), record.FormatChecksum(got.Recorded))
	}
}
