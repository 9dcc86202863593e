package loop

import (
	"sync"
	"testing"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// TestConfigIsPublishedOncePerChange: steps leave the published
// configuration alone (frames carry only its version), an applied setting
// publishes a new version that holds it, and a rejected one publishes
// nothing.
func TestConfigIsPublishedOncePerChange(t *testing.T) {
	r, err := Start(smallConfig(), Options{Pace: 0})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	first := r.Config()
	if first == nil || first.Scenario.TargetDOFs != smallConfig().TargetDOFs {
		t.Fatalf("published configuration %+v, want the started one", first)
	}
	f := waitFrame(t, r, "a few steps", func(f *frame.Frame) bool { return f.Seq >= 3 })
	if f.ConfigVersion != first.Version || r.Config() != first {
		t.Fatalf("steps changed the published configuration (version %d → %d)", first.Version, f.ConfigVersion)
	}
	bad := first.Scenario.Physics
	bad.TimeStep = -1
	r.Send(frame.SetSettings{Settings: bad})
	set := first.Scenario.Physics
	set.Friction = 0.3
	r.Send(frame.SetSettings{Settings: set})
	f = waitFrame(t, r, "the new configuration", func(f *frame.Frame) bool { return f.ConfigVersion != first.Version })
	cfg := r.Config()
	if cfg.Version != first.Version+1 || f.ConfigVersion != cfg.Version {
		t.Fatalf("versions %d → %d (frame %d): want one new version for one applied change", first.Version, cfg.Version, f.ConfigVersion)
	}
	if cfg.Scenario.Physics.Friction != 0.3 {
		t.Fatalf("published friction %g, want the applied 0.3", cfg.Scenario.Physics.Friction)
	}
}

// TestSolverChangedFollowsTheSolver: the hook hears the starting solver,
// then each switch, on the physics goroutine.
func TestSolverChangedFollowsTheSolver(t *testing.T) {
	var mu sync.Mutex
	var heard []settings.Solver
	hook := func(s settings.Solver) {
		mu.Lock()
		heard = append(heard, s)
		mu.Unlock()
	}
	r, err := Start(smallConfig(), Options{Pace: 0, Paused: true, SolverChanged: hook})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	set := smallConfig().Physics
	set.Solver = settings.AsyncSolver
	r.Send(frame.SetSettings{Settings: set})
	r.Send(frame.SetSettings{Settings: set}) // no change, no call
	waitFrame(t, r, "the async solver", func(*frame.Frame) bool {
		return r.Config().Scenario.Physics.Solver == settings.AsyncSolver
	})
	r.Stop()
	mu.Lock()
	defer mu.Unlock()
	if len(heard) != 2 || heard[0] != settings.ExactSolver || heard[1] != settings.AsyncSolver {
		t.Fatalf("hook heard %v, want [exact async]", heard)
	}
}
