package scenario

import (
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// TestSummaryCountsInvertedElements: one element turned inside out by
// hand (a corner reflected through its opposite face) is counted at the
// start of the next step, and the summary's InvertedMax is the most any
// step counted.
func TestSummaryCountsInvertedElements(t *testing.T) {
	sc := smallGrasp(t)
	defer sc.Close()
	if _, err := sc.Step(); err != nil {
		t.Fatal(err)
	}
	if got := sc.Summary().InvertedMax; got != 0 {
		t.Fatalf("InvertedMax %d at rest, want 0", got)
	}
	q := append([]float64(nil), sc.Sim.Positions()...)
	v := append([]float64(nil), sc.Sim.Velocities()...)
	at := func(n int) r3.Vec { return r3.Vec{X: q[3*n], Y: q[3*n+1], Z: q[3*n+2]} }
	tet := sc.Sim.Mesh().Tets[0]
	a, b, c, d := at(tet[0]), at(tet[1]), at(tet[2]), at(tet[3])
	n := r3.Unit(r3.Cross(r3.Sub(c, b), r3.Sub(d, b)))
	a = r3.Sub(a, r3.Scale(2*r3.Dot(n, r3.Sub(a, b)), n)) // through the face b, c, d
	q[3*tet[0]], q[3*tet[0]+1], q[3*tet[0]+2] = a.X, a.Y, a.Z
	if err := sc.Sim.SetState(q, v); err != nil {
		t.Fatal(err)
	}
	st, err := sc.Step()
	if err != nil {
		t.Fatal(err)
	}
	if st.Inverted < 1 {
		t.Fatalf("the step counted %d inverted elements after one was turned inside out", st.Inverted)
	}
	if got := sc.Summary().InvertedMax; got != st.Inverted {
		t.Fatalf("InvertedMax %d, want the step's %d", got, st.Inverted)
	}
}
