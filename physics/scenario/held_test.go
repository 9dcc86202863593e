package scenario

import (
	"strings"
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

// TestWeakGripSaysWhyItSlid: with a grip whose friction carries half the
// box's weight (μ = 0.1), the lifted box slides down the jaws; the script
// stops once it slid twice the held margin, and says so with the
// friction and the weight, instead of showing a lift that carries
// nothing.
func TestWeakGripSaysWhyItSlid(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a grasp")
	}
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs, cfg.Physics.Friction = 400, 0.1
	probe, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	weight := probe.total * 9.81
	probe.Close()
	cfg.GripForce = 0.5 * weight / (2 * cfg.Physics.Friction) // each jaw's
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for sc.Sim.Time() < sc.Duration()-1e-9 && sc.Phase() != PhaseStopped {
		if _, err := sc.Step(); err != nil {
			t.Fatal(err)
		}
	}
	stop := sc.ScriptStop()
	t.Logf("weight %.3f N, grip %.3f N a jaw: %s", weight, cfg.GripForce, stop)
	if sc.Phase() != PhaseStopped || !strings.Contains(stop, "slid") || !strings.Contains(stop, "is less than its") {
		t.Fatalf("phase %s, stop %q: want the script stopped, saying the box slid and its friction is less than its weight", sc.Phase(), stop)
	}
	if sc.Summary().Held {
		t.Error("the summary says held")
	}
}
