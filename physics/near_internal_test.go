package physics

import "testing"

// TestNearNodesCoverTheStepsPairs checks the node set that the solver's
// worker computes for its next factor (nearNodes): at the state the step
// detected on, it holds every node of the step's pairs (it reaches one
// and a half alarm distances on a mapped surface), it is a part of the
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
