package scenario

import (
	"math"
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
	// The summary measures the whole run, and counts the grasps: the
	// repeats start a grasp's measurements again, not the run's (the
	// real-time factor was the whole simulated time over the last grasp's
	// wall time).
	steps := int(math.Round(sc.Sim.Time() / sc.Sim.Settings().TimeStep))
	sum := sc.Summary()
	if sum.Steps != steps || math.Abs(sum.SimSeconds-sc.Sim.Time()) > 1e-9 {
		t.Errorf("summary: %d steps, %.3f s simulated; want the run's %d steps, %.3f s", sum.Steps, sum.SimSeconds, steps, sc.Sim.Time())
	}
	earlier := spins // the grasps before the current one that spun
	if s := sc.script; sc.Sim.Time() >= (s.spinStart()+s.spinEnd())/2 {
		earlier--
	}
	if g := sum.Grasp; g == nil || g.Cycles != earlier || g.HeldCycles != earlier {
		t.Errorf("summary's grasp %+v; want %d earlier grasps counted, each held", g, earlier)
	}
	// The first run ends when the first repeat starts: before 1.5 runs.
	if d := sc.Duration(); d > 15/float64(sc.Cycles()+1)*1.5 {
		t.Errorf("the scene's length is %g s after %d repeats; want the first run's", d, sc.Cycles())
	}
}

// TestReleaseOpensPastTheGrip: a repeating script's release opens the
// jaws to at least the opening they gripped at plus the approach's gap
// each side, even where that is wider than the aim planned (an object
// turned in the jaws), and to the planned opening where it is wider;
// before the release the planned opening stands.
func TestReleaseOpensPastTheGrip(t *testing.T) {
	for _, tc := range []struct {
		name            string
		planned, atGrip float64
		wider           bool // the grip's opening and gaps, not the plan, stand
	}{
		{"turned, wider than planned", 0.030, 0.035, true},
		{"as planned", 0.030, 0.010, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &graspScript{zHigh: 0.05, zGrasp: 0.02, lift: 0.03, openWide: tc.planned, openGrip: tc.planned, grip: true, loop: true}
			s.schedule(phaseDurations{settle: 0.1, approach: 0.2, close: 0.2, hold: 0.1, lift: 0.2, spin: 0.2})
			release := s.timeOf(PhaseRelease, true)
			s.releaseOpening = tc.atGrip + 2*approachGap
			want := tc.planned
			if tc.wider {
				want = s.releaseOpening
			}
			if got := s.at(release - 0.01).Opening; got != tc.planned {
				t.Errorf("before the release: opening %g, want the planned %g", got, tc.planned)
			}
			for _, dt := range []float64{0, 0.1, 0.4} {
				if got := s.at(release + dt).Opening; got != want {
					t.Errorf("release + %g s: opening %g, want %g", dt, got, want)
				}
			}
		})
	}
}
