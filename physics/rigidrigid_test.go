package physics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// restingBox is a 20 mm soft box whose bottom rests on the floor at the
// contact distance.
func restingBox(t *testing.T, set settings.Settings) *mesh.TetMesh {
	t.Helper()
	msh, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 4, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range msh.Nodes {
		msh.Nodes[i].Z += set.ContactDistance
	}
	return msh
}

// cubeBesideBox builds a 20 mm soft box resting on the floor and a
// dynamic 10 mm cube beside it, its bottom z0 above the floor, turned
// about x by tilt (rad).
func cubeBesideBox(t *testing.T, set settings.Settings, z0, tilt float64) *Simulation {
	t.Helper()
	msh := restingBox(t, set)
	pose := rigid.Pose{Position: r3.Vec{X: 0.04, Z: 0.005 + z0}, Rotation: r3.NewRotation(tilt, r3.Vec{X: 1})}
	bodies := []rigid.Body{
		{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()},
		cubeBody(pose),
	}
	s, err := New(msh, bodies, set)
	if err != nil {
		t.Fatal(err)
	}
	d := cubeDynamics(r3.Vec{})
	if err := s.SetDynamic(1, &d); err != nil {
		t.Fatal(err)
	}
	return s
}

// stepRigid runs n steps of s and returns the last step's stats and the
// largest rigid–rigid overlap over the second half, once landed.
func stepRigid(t *testing.T, s *Simulation, n int) (*StepStats, float64) {
	t.Helper()
	var st *StepStats
	var err error
	pen := 0.0
	for i := 0; i < n; i++ {
		if st, err = s.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if i >= n/2 {
			pen = math.Max(pen, st.RigidRigidPenetration)
		}
	}
	return st, pen
}

// cubeBody is a 10 mm rigid cube with its corner and edge samples.
func cubeBody(pose rigid.Pose) rigid.Body {
	box, err := rigid.NewBox(r3.Vec{X: 0.005, Y: 0.005, Z: 0.005}, 2.5e-3)
	if err != nil {
		panic(err)
	}
	return rigid.Body{Name: "cube", Shape: box, Start: pose, End: pose}
}

// TestDynamicCubeRestsOnFloor: a dynamic cube dropped 2 mm onto the
// floor (rigid–rigid contact) lands and comes to rest on it: the floor
// carries its weight, it does not sink, and it stops; with either scheme.
// Tilted by 0.1 rad it lands on an edge and settles flat on a face.
func TestDynamicCubeRestsOnFloor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scheme settings.Scheme
		tilt   float64
	}{{"fast", settings.Fast, 0}, {"standard", settings.Standard, 0}, {"fast, tilted", settings.Fast, 0.1}} {
		t.Run(tc.name, func(t *testing.T) {
			set := settings.Default()
			set.Scheme = tc.scheme
			s := cubeBesideBox(t, set, 0.002, tc.tilt)
			defer s.Close()
			st, pen := stepRigid(t, s, 100)
			d, _ := s.Dynamics(1)
			weight := d.Mass * r3.Norm(set.Gravity)
			cube := s.Bodies()[1].Start
			up := cube.Rotate(r3.Vec{Z: 1})
			t.Logf("floor carries %.7f N for %.7f N; cube at %.4f mm, speed %.3g m/s, spin %.3g rad/s, up %v; overlap %.3g m over the last 50 steps",
				st.RigidNormalForce[0], weight, 1e3*cube.Position.Z, r3.Norm(d.Velocity), r3.Norm(d.AngularVelocity), up, pen)
			if math.Abs(st.RigidNormalForce[0]-weight) > 1e-3*weight {
				t.Fatalf("the floor carries %.7f N, the cube weighs %.7f N", st.RigidNormalForce[0], weight)
			}
			if pen > 1e-6 {
				t.Fatalf("the cube sinks %.3g m into the floor", pen)
			}
			if v := r3.Norm(d.Velocity); v > 1e-5 || r3.Norm(d.AngularVelocity) > 1e-3 {
				t.Fatalf("the cube still moves: %.3g m/s, %.3g rad/s", v, r3.Norm(d.AngularVelocity))
			}
			if math.Abs(up.Z) < 1-1e-6 || math.Abs(cube.Position.Z-0.005-set.ContactDistance) > 2e-6 {
				t.Fatalf("the cube rests at %.5f mm with its axis %v: not flat on a face", 1e3*cube.Position.Z, up)
			}
		})
	}
}

// TestRigidPairs: RigidPairs pairs the dynamic cube's vertices with the
// floor (normal −z, from the cube towards the floor, distance the height
// above it) and nothing between the kinematic bodies.
func TestRigidPairs(t *testing.T) {
	pose := rigid.Translation(r3.Vec{Z: 0.005 + 1e-4})
	bodies := []rigid.Body{
		{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()},
		cubeBody(pose),
		cubeBody(rigid.Translation(r3.Vec{X: 0.02, Z: 0.005})), // kinematic, on the floor
	}
	pairs := collide.RigidPairs(bodies, []bool{false, true, false}, 1e-3, nil)
	bottom := 0
	for _, pr := range pairs {
		if pr.Kind != collide.RigidRigid || pr.Body != 1 || pr.Count != 0 {
			t.Fatalf("pair %+v: want a rigid–rigid pair of the dynamic cube", pr)
		}
		if pr.Other != 0 {
			t.Fatalf("a pair with body %d: the cubes are 10 mm apart", pr.Other)
		}
		if r3.Norm(r3.Sub(pr.Normal, r3.Vec{Z: -1})) > 1e-12 || math.Abs(pr.Distance-1e-4) > 1e-12 {
			t.Fatalf("vertex %d: normal %v, distance %g; want −z, 1e-4", pr.Vertex, pr.Normal, pr.Distance)
		}
		bottom++
	}
	// the bottom face's samples: 4 corners and 4 edges of 3 inner samples
	if bottom != 16 {
		t.Fatalf("%d pairs with the floor, want 16 (the bottom face's samples)", bottom)
	}
}

// dynamicCubes builds the 20 mm soft box of cubeBesideBox with two dynamic
// 10 mm cubes beside it: the lower one resting on the floor, the upper one
// gap above it (cubeDynamics', the upper one twice as heavy), or, without
// floor, two such cubes side by side in free space, gap apart, moving
// towards each other at v and −v/4.
func dynamicCubes(t *testing.T, set settings.Settings, gap float64, floor bool, v r3.Vec) *Simulation {
	t.Helper()
	msh := restingBox(t, set)
	dc := set.ContactDistance
	lower := rigid.Translation(r3.Vec{X: 0.04, Z: 0.005 + dc})
	upper := rigid.Pose{Position: r3.Vec{X: 0.04, Z: 0.015 + 2*dc + gap}, Rotation: r3.NewRotation(0.3, r3.Vec{Z: 1})}
	if !floor {
		lower = rigid.Translation(r3.Vec{X: 0.04, Z: 0.05})
		upper = rigid.Translation(r3.Vec{X: 0.052 + gap, Z: 0.05})
	}
	bodies := []rigid.Body{
		{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()},
		cubeBody(lower), cubeBody(upper),
	}
	s, err := New(msh, bodies, set)
	if err != nil {
		t.Fatal(err)
	}
	d1, d2 := cubeDynamics(v), cubeDynamics(r3.Scale(-0.25, v))
	d2.Mass, d2.Inertia = 2*d2.Mass, r3.Scale(2, d2.Inertia)
	if err := s.SetDynamic(1, &d1); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDynamic(2, &d2); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDynamicCubesStack: a dynamic cube dropped 1 mm onto another resting
// on the floor (rigid–rigid contact between two dynamic bodies, Eq. 16's
// sum of both compliances) comes to rest on it: the lower cube carries the
// upper one's weight, the floor both, neither sinks, both stop; with
// either scheme.
func TestDynamicCubesStack(t *testing.T) {
	for _, scheme := range []settings.Scheme{settings.Fast, settings.Standard} {
		t.Run(scheme.String(), func(t *testing.T) {
			set := settings.Default()
			set.Scheme = scheme
			s := dynamicCubes(t, set, 1e-3, true, r3.Vec{})
			defer s.Close()
			st, pen := stepRigid(t, s, 120)
			d1, _ := s.Dynamics(1)
			d2, _ := s.Dynamics(2)
			g := r3.Norm(set.Gravity)
			w1, w2 := d1.Mass*g, d2.Mass*g
			upper, lower := s.Bodies()[2].Start, s.Bodies()[1].Start
			t.Logf("floor %.7f N for %.7f N, lower cube %.7f N for %.7f N; heights %.4f and %.4f mm; speeds %.3g, %.3g m/s; overlap %.3g m over the last 60 steps",
				st.RigidNormalForce[0], w1+w2, st.RigidNormalForce[2], w2, 1e3*lower.Position.Z, 1e3*upper.Position.Z, r3.Norm(d1.Velocity), r3.Norm(d2.Velocity), pen)
			if math.Abs(st.RigidNormalForce[0]-(w1+w2)) > 1e-3*(w1+w2) {
				t.Fatalf("the floor carries %.7f N, the cubes weigh %.7f N", st.RigidNormalForce[0], w1+w2)
			}
			// The cubes' pairs have the lower cube as their dynamic body and
			// the upper one as the other (collide.RigidPairs): the force on
			// the upper one is its RigidNormalForce.
			if math.Abs(st.RigidNormalForce[2]-w2) > 1e-3*w2 {
				t.Fatalf("the lower cube carries %.7f N, the upper one weighs %.7f N", st.RigidNormalForce[2], w2)
			}
			if pen > 1e-6 {
				t.Fatalf("the cubes overlap by %.3g m at rest", pen)
			}
			if v := math.Max(r3.Norm(d1.Velocity), r3.Norm(d2.Velocity)); v > 1e-5 {
				t.Fatalf("the cubes still move at %.3g m/s", v)
			}
			dc := set.ContactDistance
			if math.Abs(upper.Position.Z-(0.015+2*dc)) > 2e-6 {
				t.Fatalf("the upper cube rests at %.5f mm, want %.5f", 1e3*upper.Position.Z, 1e3*(0.015+2*dc))
			}
		})
	}
}

// TestDynamicCubesCollide: two dynamic cubes thrown at each other in free
// space (no gravity, no floor contact) collide: the contact forces are
// internal, so the total momentum stays as it was, and they end moving
// apart or together, not through each other.
func TestDynamicCubesCollide(t *testing.T) {
	set := settings.Default()
	set.Gravity = r3.Vec{}
	s := dynamicCubes(t, set, 1e-3, false, r3.Vec{X: 0.2})
	defer s.Close()
	d1, _ := s.Dynamics(1)
	d2, _ := s.Dynamics(2)
	p0 := r3.Add(r3.Scale(d1.Mass, d1.Velocity), r3.Scale(d2.Mass, d2.Velocity))
	touched := 0.0
	for i := 0; i < 40; i++ {
		st, err := s.Step()
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		touched = math.Max(touched, st.RigidNormalForce[2])
	}
	d1, _ = s.Dynamics(1)
	d2, _ = s.Dynamics(2)
	p := r3.Add(r3.Scale(d1.Mass, d1.Velocity), r3.Scale(d2.Mass, d2.Velocity))
	gap := s.Bodies()[2].Start.Position.X - s.Bodies()[1].Start.Position.X
	t.Logf("momentum %v → %v kg·m/s; velocities %v, %v; centres %.4f mm apart; largest force %.3g N", p0, p, d1.Velocity, d2.Velocity, 1e3*gap, touched)
	if touched == 0 {
		t.Fatal("the cubes never touched")
	}
	if r3.Norm(r3.Sub(p, p0)) > 1e-12*r3.Norm(p0)+1e-15 {
		t.Fatalf("momentum %v became %v", p0, p)
	}
	if gap < 0.01 || d2.Velocity.X < d1.Velocity.X-1e-9 {
		t.Fatalf("the cubes pass through each other: centres %.4f mm apart, velocities %v and %v", 1e3*gap, d1.Velocity, d2.Velocity)
	}
}
