package physics_test

import (
	"math"
	"testing"

	"softgrasp/physics/mesh/meshtest"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// TestContactBudgetLandsFlat drops a 3000-DOF box carrying a 5292-
// triangle box surface flat onto the floor (the drop scene, 20 mm), with
// a budget of 100 pairs: its whole bottom face reaches the floor within
// one step, about 290 supports, far more than the budget keeps. The
// budget keeps every pair at most, and the fine surface's penetration
// stays within 0.1 mm, the target, through the landing.
func TestContactBudgetLandsFlat(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Drop)
	cfg.Physics.ContactBudget = 100
	m, emb, err := meshtest.BoxWithFineSurface(cfg.ObjectSize, 3000, 3*22*22*22)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.BuildObject(cfg, m, emb)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	pen, found, groups := 0.0, 0, 0
	for i := 0; i < 16; i++ { // it lands at about step 7
		st, err := sc.Step()
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if st.Contacts > cfg.Physics.ContactBudget {
			t.Fatalf("step %d: %d pairs kept, budget %d", i, st.Contacts, cfg.Physics.ContactBudget)
		}
		pen, found, groups = math.Max(pen, st.Penetration), max(found, st.Found), max(groups, st.Groups)
	}
	t.Logf("penetration %.4f mm; pairs found %d, groups %d at most", 1e3*pen, found, groups)
	if groups <= cfg.Physics.ContactBudget {
		t.Fatalf("at most %d groups a step; the test needs more than the budget", groups)
	}
	if pen > 0.1e-3 {
		t.Fatalf("the fine surface sank %.4g mm into the floor as it landed", 1e3*pen)
	}
}
