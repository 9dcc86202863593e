package loop

import (
	"fmt"

	"softgrasp/physics"
	"softgrasp/physics/frame"
	"softgrasp/physics/record"
	"softgrasp/physics/scenario"
)

// Player replays a recording on the calling goroutine, without pacing or
// a viewer: it builds the recorded scene, applies each recorded command
// after the step it took effect at, through the loop's own command
// handling (apply), and steps in between, so that the replay runs the
// same code as the recorded run and, the simulation being deterministic,
// ends in the same state to the bit.
type Player struct {
	r   *Runner
	rec *record.Recording
}

// Replayed is what a replay reached.
type Replayed struct {
	Steps    int
	Checksum uint64 // of the final state (scenario.Scene.StateChecksum)
	// Recorded is the footer's checksum; HasRecorded is false for a
	// recording cut short.
	Recorded    uint64
	HasRecorded bool
	// StepError is the last step's error (a divergence), as in the
	// recorded run.
	StepError error
}

// Match reports whether the replay ended where the recording did.
func (p Replayed) Match() bool { return p.HasRecorded && p.Checksum == p.Recorded }

// NewPlayer builds the recorded scene. A scene that does not build (a
// mesh file that is missing) is refused here.
func NewPlayer(rec *record.Recording) (*Player, error) {
	sc, err := scenario.Build(rec.Config)
	if err != nil {
		return nil, fmt.Errorf("the recorded scene does not build: %w", err)
	}
	r := &Runner{buf: frame.NewTripleBuffer(), paused: true}
	r.install(sc)
	return &Player{r: r, rec: rec}, nil
}

// Scene returns the scene being replayed (a command may rebuild it).
func (p *Player) Scene() *scenario.Scene { return p.r.sc }

// Close releases the scene.
func (p *Player) Close() { p.r.sc.Close() }

// Run replays the recording to its last step, calling each (when set)
// after every step with that step's statistics and error. It stops with
// an error when the replay departs from the recording: a command applied
// in one and rejected in the other, or a checkpoint's checksum that
// differs.
func (p *Player) Run(each func(sc *scenario.Scene, st *physics.StepStats, err error) error) (Replayed, error) {
	cmds, cps := p.rec.Commands, p.rec.Checkpoints
	total := p.rec.Steps()
	var out Replayed
	for step := 0; ; step++ {
		// The loop writes a checkpoint right after its step, before the
		// commands that arrive until the next step, which it records
		// with the same step count: the checkpoint comes first.
		for len(cps) > 0 && cps[0].Step == step {
			if sum := p.r.sc.StateChecksum(); sum != cps[0].Checksum {
				return out, fmt.Errorf("the replay departs from the recording at step %d (line %d): state checksum %s, recorded %s",
					step, cps[0].Line, record.FormatChecksum(sum), record.FormatChecksum(cps[0].Checksum))
			}
			cps = cps[1:]
		}
		for len(cmds) > 0 && cmds[0].Step == step {
			if err := p.apply(cmds[0]); err != nil {
				return out, err
			}
			cmds = cmds[1:]
		}
		if step == total {
			break
		}
		st, err := p.r.sc.Step()
		out.StepError = err
		if each != nil {
			if err := each(p.r.sc, st, err); err != nil {
				return out, err
			}
		}
	}
	out.Steps, out.Checksum = total, p.r.sc.StateChecksum()
	out.Recorded, out.HasRecorded = p.rec.EndChecksum()
	return out, nil
}

// apply applies a recorded command as the loop did, and checks that it
// fares as it did in the recorded run.
func (p *Player) apply(e record.Entry) error {
	err := p.r.apply(e.Command)
	switch {
	case err != nil && e.Rejected == "":
		return fmt.Errorf("line %d: command %s was applied in the recorded run but fails in the replay: %w",
			e.Line, record.CommandName(e.Command), err)
	case err == nil && e.Rejected != "":
		return fmt.Errorf("line %d: command %s was rejected in the recorded run (%s) but applies in the replay",
			e.Line, record.CommandName(e.Command), e.Rejected)
	}
	return nil
}
