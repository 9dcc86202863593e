package physics

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// TestNearNodesCoverTheStepsPairs checks the node set that the solver's
// worker computes for its next factor (nearNodes): at the state the step
// detected on, it holds every node of the step's pairs (it reaches one
// and a half alarm distances on a mapped surface, and the step's own
// pairs' nodes always), it is a part of the
// mesh, and it comes from the copy taken when the job starts: the step's
// positions moved a metre away between the two halves of the Near do not
// change it.
func TestNearNodesCoverTheStepsPairs(t *testing.T) {
	s := pressedFineBox(t)
	defer s.Close()
	c := s.stepper()
	c.detect()
	if len(c.ws.ct.pairs) == 0 || !c.ws.detection.thinning {
		t.Fatalf("%d pairs, thinning %v: the test needs pairs on a thinned mapped surface", len(c.ws.ct.pairs), c.ws.detection.thinning)
	}
	nodes := c.nearNodes()()
	in := make(map[int]bool, len(nodes))
	for _, n := range nodes {
		in[n] = true
	}
	for a := range c.ws.ct.pairs {
		pr := &c.ws.ct.pairs[a]
		for _, n := range pr.Nodes[:pr.Count] {
			if !in[n] {
				t.Fatalf("pair %d (kind %d) reaches node %d, not in the near set of %d nodes", a, pr.Kind, n, len(in))
			}
		}
	}
	if total := c.model.DOFs() / 3; len(in) >= total {
		t.Fatalf("the near set holds %d of the mesh's %d nodes: every node", len(in), total)
	}

	// The worker's half reads the copies the first half took.
	want := len(in)
	worker := c.nearNodes()
	q := c.state.q
	saved := append([]float64(nil), q...)
	for i := 2; i < len(q); i += 3 {
		q[i] += 1
	}
	got := map[int]bool{}
	for _, n := range worker() {
		got[n] = true
	}
	copy(q, saved)
	if len(got) != want {
		t.Fatalf("with the step's positions moved after the job started, the near set holds %d nodes, want %d", len(got), want)
	}
}

// TestNearNodesByReach checks which pairs beyond the step's own the near
// set counts on a mapped surface. A press pushes into the top of a fine-
// surfaced box, so that the pairs found exceed a budget of 4 and the
// budget drops those that cannot close within the step; a second body
// hovers 3 mm over another part of the top, its pairs within the alarm
// distance but beyond the step's reach. The nodes only the hovering body's
// pairs reach are in the near set when that body closes fast enough to
// meet the box within nearHorizon steps (alarmMargin·nearHorizon·move
// above the 3 mm gap: 0.3 mm a step) and not when it rests or closes
// slower (0.1 mm a step); with no budget every pair within reach counts.
func TestNearNodesByReach(t *testing.T) {
	const gap = 3e-3
	cases := []struct {
		name   string
		budget int
		move   float64 // the hovering body's motion towards the box over the step, m
		want   bool
	}{
		{"at rest", 4, 0, false},
		{"closing 0.1 mm a step", 4, 0.1e-3, false},
		{"closing 0.3 mm a step", 4, 0.3e-3, true},
		{"no budget, at rest", 0, 0, true},
	}
	if alarmMargin*nearHorizon*0.1e-3 >= gap || alarmMargin*nearHorizon*0.3e-3 <= gap {
		t.Fatalf("the cases assume that 0.1 mm a step cannot close %g m within %g steps and 0.3 mm can", gap, nearHorizon)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := pressedFineBox(t)
			defer s.Close()
			s.set.ContactBudget = tc.budget
			top := 0.0
			for i := 2; i < len(s.model.qRest); i += 3 {
				top = max(top, s.model.qRest[i])
			}
			shape, err := rigid.NewBox(r3.Vec{X: 0.003, Y: 0.003, Z: 0.003}, 0.001)
			if err != nil {
				t.Fatal(err)
			}
			start := rigid.Translation(r3.Vec{X: -0.014, Y: 0.012, Z: top + gap + 0.003})
			end := rigid.Translation(r3.Vec{X: -0.014, Y: 0.012, Z: top + gap + 0.003 - tc.move})
			s.bodies = append(s.bodies, rigid.Body{Name: "hover", Shape: shape, Start: start, End: end})
			c := s.stepper()
			c.detect()
			if tc.budget > 0 && c.ws.stats.Found <= tc.budget {
				t.Fatalf("%d pairs found: the case needs more than the budget of %d", c.ws.stats.Found, tc.budget)
			}

			// The nodes of the hovering body's pairs within reach, less
			// those of the press's.
			p := c.surfaceAt(c.state.q)
			det := c.model.newDetector()
			alarm := c.nearAlarms() * c.ws.detection.alarm
			press := map[int]bool{}
			for _, pr := range det.DetectSupports(p, c.bodies[:1], alarm, nil) {
				c.model.mapPair(&pr)
				for _, n := range pr.Nodes[:pr.Count] {
					press[n] = true
				}
			}
			var only []int
			for _, pr := range det.Detect(p, c.bodies[1:], alarm, nil) {
				c.model.mapPair(&pr)
				for _, n := range pr.Nodes[:pr.Count] {
					if !press[n] && !slices.Contains(only, n) {
						only = append(only, n)
					}
				}
			}
			if len(only) == 0 {
				t.Fatal("no node is reached by the hovering body's pairs alone: the case needs some")
			}

			near := c.nearNodes()()
			for _, n := range only {
				if got := slices.Contains(near, n); got != tc.want {
					t.Fatalf("node %d of the hovering body's pairs: in the near set %v, want %v (%d nodes)", n, got, tc.want, len(near))
				}
			}
		})
	}
}
