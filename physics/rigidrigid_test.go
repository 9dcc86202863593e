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

// cubeBesideBox builds a 20 mm soft box resting on the floor and a
// dynamic 10 mm cube beside it, its bottom z0 above the floor, turned
// about x by tilt (rad).
func cubeBesideBox(t *testing.T, set settings.Settings, z0, tilt float64) *Simulation {
	t.Helper()
	msh, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 4, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range msh.Nodes {
		msh.Nodes[i].Z += set.ContactDistance
	}
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
			var st *StepStats
			var err error
			pen := 0.0
			for i := 0; i < 100; i++ {
				if st, err = s.Step(); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if i >= 50 {
					pen = math.Max(pen, st.RigidRigidPenetration)
				}
			}
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
