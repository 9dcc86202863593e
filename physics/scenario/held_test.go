package scenario

import (
	"testing"

	"softgrasp/physics/settings"
)

// TestHeldMeansCarried: "held" is the jaws closed on the object and
// carrying it. Between the open jaws of the approach, and squeezed while
// it still rests on the floor, the object is not held, though its centre
// of mass lies between the jaws all along; once lifted it is, through the
// spin.
func TestHeldMeansCarried(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a grasp")
	}
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs = 400
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	seen := map[Phase]map[bool]int{}
	for sc.Phase() != PhaseSpin || sc.Sim.Time() < sc.script.spinStart()+0.3 {
		if _, err := sc.Step(); err != nil {
			t.Fatal(err)
		}
		l := sc.Live()
		if seen[l.Phase] == nil {
			seen[l.Phase] = map[bool]int{}
		}
		seen[l.Phase][l.Held]++
	}
	for _, p := range []Phase{PhaseApproach, PhaseClose} {
		if seen[p][true] > 0 || seen[p][false] == 0 {
			t.Errorf("phase %s: held in %d steps, not held in %d; want never held", p, seen[p][true], seen[p][false])
		}
	}
	if seen[PhaseSpin][false] > 0 || seen[PhaseSpin][true] == 0 {
		t.Errorf("spin: held in %d steps, not held in %d; want held throughout", seen[PhaseSpin][true], seen[PhaseSpin][false])
	}
}
