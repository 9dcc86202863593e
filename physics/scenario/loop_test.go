package scenario

import (
	"testing"

	"softgrasp/physics/settings"
)

// TestRepeatingGraspLoops runs the repeating grasp-and-rotate script (the
// viewer's default) for 15 s at 1000 DOFs: it must grasp, lift, spin, set
// down, open and start again at least three times, the object held at the
// middle of every spin, while the scene's length (what a headless run
// without -steps runs) stays the first run's.
func TestRepeatingGraspLoops(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 15 s of the scene")
	}
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs, cfg.GraspLoop = 1000, settings.LoopRepeat
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	spins, held := 0, 0
	var spinEnd float64
	for sc.Sim.Time() < 15 {
		if _, err := sc.Step(); err != nil {
			t.Fatalf("t = %.2f s: %v", sc.Sim.Time(), err)
		}
		s := sc.script
		if mid := (s.spinStart() + s.spinEnd()) / 2; s.spinEnd() != spinEnd && sc.Sim.Time() >= mid {
			spinEnd = s.spinEnd()
			spins++
			if sc.Live().Held {
				held++
			}
		}
	}
	t.Logf("%d spins, %d held at their middle, %d repeats; scene length %.2f s", spins, held, sc.Cycles(), sc.Duration())
	if spins < 3 || held != spins || sc.Cycles() < 3 {
		t.Errorf("%d spins, %d held, %d repeats in 15 s; want at least three, every one held", spins, held, sc.Cycles())
	}
	// The first run ends when the first repeat starts: before 1.5 runs.
	if d := sc.Duration(); d > 15/float64(sc.Cycles()+1)*1.5 {
		t.Errorf("the scene's length is %g s after %d repeats; want the first run's", d, sc.Cycles())
	}
}
