package loop

import (
	"fmt"

	"softgrasp/physics/frame"
	"softgrasp/physics/m3"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// This file runs the A/B mode (frame.SetAB): a second scene B, built from
// the running configuration with other solver settings and from the
// running state, stepped right after A with A's gripper poses
// (scenario.StepAlong) and measured against it after every step. B
// never changes A: a recording of A stays valid, and the A/B command is
// not recorded.

// abRun is the A/B mode's scene B and its measures.
type abRun struct {
	sc      *scenario.Scene
	changes string
	stats   frame.ABStats
	stopped bool // B diverged: it stays where it was
}

// setAB turns the A/B mode on (rebuilding B from A's current state) or off.
func (r *Runner) setAB(c frame.SetAB) error {
	r.dropAB()
	if !c.Enabled {
		return nil
	}
	return r.startAB(c.Changes)
}

// startAB builds B from A's configuration with changes and A's state.
func (r *Runner) startAB(changes string) error {
	cfg, err := settings.ApplyAB(r.sc.Config(), changes)
	if err != nil {
		return fmt.Errorf("A/B changes %q: %w", changes, err)
	}
	b, err := scenario.NewFollower(r.sc, cfg)
	if err != nil {
		return fmt.Errorf("A/B: could not build B: %w", err)
	}
	r.ab = &abRun{sc: b, changes: changes, stats: frame.ABStats{On: true, Changes: changes}}
	return nil
}

// dropAB ends the A/B mode, releasing B.
func (r *Runner) dropAB() {
	if r.ab != nil {
		r.ab.sc.Close()
		r.ab = nil
	}
}

// restartAB rebuilds B from the new scene A (a reset, a new scene), with
// the same changes; B is dropped, with a message, if it cannot be built.
func (r *Runner) restartAB() {
	if r.ab == nil {
		return
	}
	changes := r.ab.changes
	r.dropAB()
	if err := r.startAB(changes); err != nil {
		r.message = err.Error()
	}
}

// settingsAB gives B A's new settings with B's changes applied again.
func (r *Runner) settingsAB() error {
	if r.ab == nil {
		return nil
	}
	cfg, err := settings.ApplyAB(r.sc.Config(), r.ab.changes)
	if err == nil {
		err = r.ab.sc.SetSettings(cfg.Physics)
	}
	if err != nil {
		return fmt.Errorf("A/B: B keeps its settings: %w", err)
	}
	return nil
}

// stepAB steps B after A's step and measures the two against each other.
// A B that diverges stops with its error; A goes on.
func (r *Runner) stepAB() {
	ab := r.ab
	if ab == nil || ab.stopped {
		return
	}
	st, err := ab.sc.StepAlong(r.sc)
	if err != nil {
		ab.stopped = true
		ab.stats.Error = err.Error()
		r.message = fmt.Sprintf("A/B: B (%s) diverged at t = %.3f s and stopped; A goes on: %v", ab.changes, r.sc.Sim.Time(), err)
		return
	}
	d := m3.MaxBlockDistance(r.sc.Sim.Positions(), ab.sc.Sim.Positions())
	ab.stats.NodeDistance, ab.stats.Penetration = d, st.Penetration
	ab.stats.MaxNodeDistance = max(ab.stats.MaxNodeDistance, d)
}

// fillAB copies B's surface positions and measures into the frame (an
// empty ghost and zero measures when the mode is off).
func (r *Runner) fillAB(f *frame.Frame) {
	ab := r.ab
	if ab == nil {
		f.GhostSurface = f.GhostSurface[:0]
		f.Stats.AB = frame.ABStats{}
		return
	}
	q := ab.sc.Sim.SurfacePositions()
	verts := ab.sc.Sim.Surface().Vertices
	f.GhostSurface = growF32(f.GhostSurface, 3*len(verts))
	for i, n := range verts {
		f.GhostSurface[3*i], f.GhostSurface[3*i+1], f.GhostSurface[3*i+2] = float32(q[3*n]), float32(q[3*n+1]), float32(q[3*n+2])
	}
	f.Stats.AB = ab.stats
}
