package physics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

// TestTurnPerStep checks StepStats.Turn, h·‖ω‖ of the part that turns
// most, against velocities set by hand on the two cubes of twoCubes: a
// rigid motion (translation plus rotation about an axis through a point
// off the part's centre) gives its ω exactly; a uniform expansion about
// the centre has no angular momentum and gives 0. The gate of Newton on
// the whole residual (Settings.ElasticTurn) stays shut for this body of
// two parts unless it is 0 (TestTurnGate has the one-part body).
func TestTurnPerStep(t *testing.T) {
	set := settings.Default()
	set.Gravity = r3.Vec{}
	const h = 0.02
	set.TimeStep = h
	s := twoCubes(t, set, 0.002, 0.004, false)
	defer s.Close()
	q := append([]float64(nil), s.Positions()...)
	centre := func(part int) r3.Vec {
		var c r3.Vec
		m := 0.0
		for n, mi := range s.model.fem.Mass() {
			if s.model.NodePart(n) == part {
				c = r3.Add(c, r3.Scale(mi, point(q, n)))
				m += mi
			}
		}
		return r3.Scale(1/m, c)
	}
	type motion struct {
		omega, through, along r3.Vec  // rigid: along + ω × (x − through)
		expand                float64 // plus expand·(x − centre)
	}
	for _, tc := range []struct {
		name  string
		parts [2]motion
		want  float64
	}{
		{"still", [2]motion{}, 0},
		{"translation", [2]motion{{along: r3.Vec{X: 0.3, Z: -1}}, {along: r3.Vec{Y: 2}}}, 0},
		{"lower cube spins about z", [2]motion{{omega: r3.Vec{Z: 8 * math.Pi}}, {}}, 8 * math.Pi * h},
		{"upper cube spins faster, axis off its centre, translating",
			[2]motion{{omega: r3.Vec{X: 3}}, {omega: r3.Vec{X: 4, Y: -7, Z: 12}, through: r3.Vec{X: 0.05, Y: -0.03, Z: 0.1}, along: r3.Vec{Z: 0.5}}},
			math.Sqrt(16+49+144) * h},
		{"expansion", [2]motion{{expand: 5}, {expand: -3}}, 0},
		{"expansion and spin", [2]motion{{expand: 5, omega: r3.Vec{Y: 2}}, {}}, 2 * h},
	} {
		v := make([]float64, len(q))
		cm := [2]r3.Vec{centre(0), centre(1)}
		for n := range v[:len(v)/3] {
			p := s.model.NodePart(n)
			m := tc.parts[p]
			x := point(q, n)
			u := r3.Add(m.along, r3.Cross(m.omega, r3.Sub(x, m.through)))
			u = r3.Add(u, r3.Scale(m.expand, r3.Sub(x, cm[p])))
			v[3*n], v[3*n+1], v[3*n+2] = u.X, u.Y, u.Z
		}
		if err := s.SetState(q, v); err != nil {
			t.Fatal(err)
		}
		c := s.stepper()
		got := c.turnPerStep()
		if math.Abs(got-tc.want) > 1e-9*math.Max(tc.want, 1) {
			t.Errorf("%s: turn %.12g rad, want %.12g", tc.name, got, tc.want)
		}
		for _, gate := range []float64{0, tc.want / 2, tc.want * 2} {
			c.set.ElasticTurn = gate
			st, err := s.Step()
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			// twoCubes is a body of two parts: the gate opens for it only
			// at 0 (every step).
			if want := gate == 0; st.ElasticOn != want || math.Abs(st.Turn-tc.want) > 1e-9*math.Max(tc.want, 1) {
				t.Errorf("%s, ElasticTurn %g: turn %g, ElasticOn %v", tc.name, gate, st.Turn, st.ElasticOn)
			}
			if err := s.SetState(q, v); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestTurnGate: a one-part box spun at ω = 8π rad/s, h = 20 ms (0.5 rad
// per step) iterates on the whole residual when ElasticTurn is below
// that, from the predicted start (StepStats.Predicted), and not above it;
// with TurnStart linearised it iterates from A⁻¹·b.
func TestTurnGate(t *testing.T) {
	msh, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 4, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	set := settings.Default()
	set.Gravity, set.TimeStep = r3.Vec{}, 0.02
	s, err := New(msh, nil, set)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q := append([]float64(nil), s.Positions()...)
	v := make([]float64, len(q))
	omega := r3.Vec{Z: 8 * math.Pi}
	for n := range v[:len(v)/3] {
		u := r3.Cross(omega, point(q, n))
		v[3*n], v[3*n+1], v[3*n+2] = u.X, u.Y, u.Z
	}
	for _, tc := range []struct {
		gate     float64
		start    settings.TurnStart
		on, pred bool
	}{
		{0.1, settings.TurnPredicted, true, true},
		{0.4, settings.TurnPredicted, true, true},
		{0.6, settings.TurnPredicted, false, false},
		{0.1, settings.TurnLinearised, true, false},
	} {
		if err := s.SetState(q, v); err != nil {
			t.Fatal(err)
		}
		s.set.ElasticTurn, s.set.TurnStart = tc.gate, tc.start
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if st.ElasticOn != tc.on || st.Predicted != tc.pred || math.Abs(st.Turn-0.5026548245743669) > 1e-6 {
			t.Errorf("ElasticTurn %g, %v: turn %g, ElasticOn %v, Predicted %v; want %v, %v", tc.gate, tc.start, st.Turn, st.ElasticOn, st.Predicted, tc.on, tc.pred)
		}
	}
}
