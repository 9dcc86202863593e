package physics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// cubeDynamics is a 10 mm rigid cube of density 2000 kg/m³.
func cubeDynamics(v r3.Vec) RigidDynamics {
	const side, rho = 0.01, 2000.0
	m := rho * side * side * side
	i := m * side * side / 6
	return RigidDynamics{Mass: m, Inertia: r3.Vec{X: i, Y: i, Z: i}, Velocity: v}
}

// softAndCube builds a 20 mm soft box (bottom at z = 0) and a dynamic 10 mm
// cube centred above it at height z, moving at v, with the floor under
// the box when floor is set.
func softAndCube(t *testing.T, set settings.Settings, z float64, v r3.Vec, floor bool) *Simulation {
	t.Helper()
	msh, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 6, 6, 6)
	if err != nil {
		t.Fatal(err)
	}
	pose := rigid.Translation(r3.Vec{Z: z})
	bodies := []rigid.Body{{Name: "cube", Shape: rigid.Box{HalfExtents: r3.Vec{X: 0.005, Y: 0.005, Z: 0.005}}, Start: pose, End: pose}}
	if floor {
		bodies = append(bodies, rigid.Body{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()})
	}
	s, err := New(msh, bodies, set)
	if err != nil {
		t.Fatal(err)
	}
	d := cubeDynamics(v)
	if err := s.SetDynamic(0, &d); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDynamicBodyFallsFreely: a dynamic body out of reach of everything
// follows backward Euler exactly: v_n = v_0 + n·h·g, x_n = x_{n−1} + h·v_n.
func TestDynamicBodyFallsFreely(t *testing.T) {
	set := settings.Default()
	s := softAndCube(t, set, 0.5, r3.Vec{X: 0.1}, false)
	defer s.Close()
	h, g := set.TimeStep, set.Gravity
	x, v := s.Bodies()[0].Start.Position, r3.Vec{X: 0.1}
	for i := 0; i < 30; i++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		v = r3.Add(v, r3.Scale(h, g))
		x = r3.Add(x, r3.Scale(h, v))
		d, _ := s.Dynamics(0)
		if r3.Norm(r3.Sub(d.Velocity, v)) > 1e-12 || r3.Norm(r3.Sub(s.Bodies()[0].Start.Position, x)) > 1e-12 {
			t.Fatalf("step %d: velocity %v at %v, backward Euler gives %v at %v", i, d.Velocity, s.Bodies()[0].Start.Position, v, x)
		}
	}
}

// momentum returns the soft body's and the cube's linear momentum.
func momentum(s *Simulation) r3.Vec {
	var p r3.Vec
	for n, m := range s.model.fem.Mass() {
		p = r3.Add(p, r3.Scale(m, point(s.state.v, n)))
	}
	d, _ := s.Dynamics(0)
	return r3.Add(p, r3.Scale(d.Mass, d.Velocity))
}

// TestDynamicImpactConservesMomentum: without gravity or a floor, a cube
// thrown at a free soft box hits it and the two move on together or
// apart: the contact forces are equal and opposite (eq. 14), so the total
// momentum is what it was, with either scheme.
func TestDynamicImpactConservesMomentum(t *testing.T) {
	for _, scheme := range []settings.Scheme{settings.Fast, settings.Standard} {
		t.Run(scheme.String(), func(t *testing.T) {
			set := settings.Default()
			set.Scheme, set.Gravity = scheme, r3.Vec{}
			s := softAndCube(t, set, 0.02+0.005+0.002, r3.Vec{Z: -0.3}, false)
			defer s.Close()
			p0 := momentum(s)
			maxForce, worst := 0.0, 0.0
			for i := 0; i < 60; i++ {
				st, err := s.Step()
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				maxForce = math.Max(maxForce, st.BodyNormalForce[0])
				worst = math.Max(worst, r3.Norm(r3.Sub(momentum(s), p0)))
			}
			d, _ := s.Dynamics(0)
			t.Logf("momentum %.6g kg·m/s; largest drift %.3g; peak normal force %.3g N; cube now at %.4f m/s", p0.Z, worst, maxForce, d.Velocity.Z)
			if maxForce == 0 {
				t.Fatal("the cube never touched the box")
			}
			if d.Velocity.Z < -0.3+0.05 {
				t.Fatalf("the cube kept its speed (%.4f m/s): the impact did not slow it", d.Velocity.Z)
			}
			if worst > 1e-9*math.Abs(p0.Z) {
				t.Fatalf("the total momentum drifted by %.3g of %.3g kg·m/s", worst, math.Abs(p0.Z))
			}
		})
	}
}

// TestDynamicCubeRestsOnSoftBox: a cube dropped 2 mm onto a soft box on
// the floor comes to rest on it, carried by the box: the contact force on
// the cube equals its weight and the floor carries both.
func TestDynamicCubeRestsOnSoftBox(t *testing.T) {
	for _, scheme := range []settings.Scheme{settings.Fast, settings.Standard} {
		t.Run(scheme.String(), func(t *testing.T) {
			set := settings.Default()
			set.Scheme = scheme
			set.Material.MassDamping = 5
			s := softAndCube(t, set, 0.02+0.005+0.002, r3.Vec{}, true)
			defer s.Close()
			var st *StepStats
			var err error
			for i := 0; i < 150; i++ {
				if st, err = s.Step(); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
			}
			d, _ := s.Dynamics(0)
			w := d.Mass * -set.Gravity.Z
			soft := s.model.fem.TotalMass() * -set.Gravity.Z
			t.Logf("cube at %.5f m, %.3g m/s; on it %.6f N for %.6f N; floor %.6f N for %.6f N; penetration %.3g m",
				s.Bodies()[0].Start.Position.Z, r3.Norm(d.Velocity), st.BodyNormalForce[0], w, st.BodyNormalForce[1], w+soft, st.Penetration)
			if v := r3.Norm(d.Velocity); v > 1e-3 {
				t.Fatalf("the cube still moves at %.3g m/s", v)
			}
			if math.Abs(st.BodyNormalForce[0]-w) > 0.01*w {
				t.Fatalf("the box pushes the cube with %.6f N, its weight is %.6f N", st.BodyNormalForce[0], w)
			}
			if math.Abs(st.BodyNormalForce[1]-(w+soft)) > 0.01*(w+soft) {
				t.Fatalf("the floor carries %.6f N of %.6f N", st.BodyNormalForce[1], w+soft)
			}
			if st.Penetration > 1e-4 {
				t.Fatalf("penetration %.3g m", st.Penetration)
			}
		})
	}
}

// TestDynamicStandardEqualsFast: with A and H held over the step (the
// mapping frozen), both schemes add the same body compliance K (W_H + K
// and W + C·K·Cᵀ) and move the same relative points, so a cube dropped on
// the soft box follows the same trajectory with either, to round-off.
func TestDynamicStandardEqualsFast(t *testing.T) {
	run := func(scheme settings.Scheme) ([]float64, []r3.Vec) {
		set := settings.Default()
		set.Scheme, set.NewtonIterations = scheme, 3
		s := softAndCube(t, set, 0.02+0.005+0.002, r3.Vec{Z: -0.05}, true)
		s.freezeMapping = true
		defer s.Close()
		var cube []r3.Vec
		for i := 0; i < 60; i++ {
			if _, err := s.Step(); err != nil {
				t.Fatalf("%s step %d: %v", scheme, i, err)
			}
			cube = append(cube, s.Bodies()[0].Start.Position)
		}
		return append([]float64(nil), s.state.q...), cube
	}
	qf, cf := run(settings.Fast)
	qs, cs := run(settings.Standard)
	worst := 0.0
	for i := range cf {
		worst = math.Max(worst, r3.Norm(r3.Sub(cf[i], cs[i])))
	}
	dq, scale := 0.0, 0.0
	for i := range qf {
		dq = math.Max(dq, math.Abs(qf[i]-qs[i]))
		scale = math.Max(scale, math.Abs(qf[i]))
	}
	dq /= scale
	t.Logf("cube paths %.3g m apart at most; soft positions %.3g relative; the cube fell %.3f mm", worst, dq, 1e3*(0.027-cf[len(cf)-1].Z))
	if worst > 1e-12 || dq > 1e-9 {
		t.Fatalf("fast and standard differ: cube %.3g m, soft body %.3g relative", worst, dq)
	}
}
