package physics

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/rigid"
)

// nearBodyCase is a rigid body in a pose for the nearBody tests.
type nearBodyCase struct {
	name  string
	shape rigid.Shape
	pose  rigid.Pose
}

// nearMargin is the nearBody tests' margin: the contact distance and the
// nanometre measureOverlap adds.
const nearMargin = 1e-5 + 1e-9

// near returns the case's body at its pose and its nearBody.
func (c nearBodyCase) near() (*rigid.Body, nearBody) {
	b := &rigid.Body{Shape: c.shape, Start: c.pose, End: c.pose}
	return b, bodyNear(b, nearMargin)
}

// nearBodyCases are turned jaws, a turned box and planes.
func nearBodyCases() []nearBodyCase {
	jaws := rigid.DefaultGripper().JawShapes()
	return []nearBodyCase{
		{"round jaw, turned", jaws[0], rigid.Pose{Position: r3.Vec{X: 0.01, Y: -0.02, Z: 0.03}, Rotation: r3.NewRotation(0.7, r3.Unit(r3.Vec{X: 0.2, Y: 0.3, Z: 1}))}},
		{"round jaw, right", jaws[1], rigid.Pose{Position: r3.Vec{X: -0.02, Z: 0.02}, Rotation: r3.NewRotation(math.Pi/4, r3.Vec{Z: 1})}},
		{"box", rigid.Box{HalfExtents: r3.Vec{X: 0.01, Y: 0.02, Z: 0.005}}, rigid.Pose{Position: r3.Vec{Z: 0.01}, Rotation: r3.NewRotation(1.1, r3.Unit(r3.Vec{X: 1, Y: 1}))}},
		{"floor", rigid.Plane{}, rigid.Translation(r3.Vec{Z: -0.001})},
		{"tilted plane", rigid.Plane{}, rigid.Pose{Position: r3.Vec{X: 0.01}, Rotation: r3.NewRotation(0.4, r3.Vec{Y: 1})}},
	}
}

// TestNearBodyHoldsEveryNearPoint checks the test that measureOverlap
// passes points over by: every point whose signed distance to the body at
// its end pose is below the margin must be held, for turned jaws, a box
// and planes, with points sampled around each body (most of them farther).
// It also checks that the test passes most far points over, its purpose.
func TestNearBodyHoldsEveryNearPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range nearBodyCases() {
		t.Run(tc.name, func(t *testing.T) {
			b, nb := tc.near()
			near, farHeld, far := 0, 0, 0
			for i := 0; i < 20000; i++ {
				// Points spread over 6 cm around the body, and points
				// placed just off its surface (within ±2 margins).
				x := r3.Add(tc.pose.Position, r3.Vec{X: 0.06 * (rng.Float64() - 0.5), Y: 0.06 * (rng.Float64() - 0.5), Z: 0.06 * (rng.Float64() - 0.5)})
				if i%2 == 1 {
					_, n, c := collide.SignedDistance(b, x)
					x = r3.Add(c, r3.Scale(2*nearMargin*(2*rng.Float64()-1), n))
				}
				d, _, _ := collide.SignedDistance(b, x)
				h := nb.holds(x)
				if d < nearMargin {
					near++
					if !h {
						t.Fatalf("point %v at distance %g < %g passed over", x, d, nearMargin)
					}
				} else if d > 1e-3 {
					far++
					if h {
						farHeld++
					}
				}
			}
			if near < 1000 {
				t.Fatalf("%d near points: too few to check the margin", near)
			}
			if float64(farHeld) > 0.5*float64(far) {
				t.Errorf("%d of %d points farther than 1 mm held: the test passes too few over", farHeld, far)
			}
		})
	}
}

// TestNearBodyAwayHoldsNoPoint checks the test by which measureOverlap
// passes over a whole run of surface vertices: where nearBody.away says so
// of a box, no point in it is held, for the cases of
// TestNearBodyHoldsEveryNearPoint and clusters of points of every size
// from 0.1 to 20 mm around each body, some grazing its surface; and the
// test passes over some runs, its purpose.
func TestNearBodyAwayHoldsNoPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range nearBodyCases() {
		t.Run(tc.name, func(t *testing.T) {
			b, nb := tc.near()
			away, kept := 0, 0
			run := make([]r3.Vec, collide.VertexRun)
			for i := 0; i < 4000; i++ {
				centre := r3.Add(tc.pose.Position, r3.Vec{X: 0.06 * (rng.Float64() - 0.5), Y: 0.06 * (rng.Float64() - 0.5), Z: 0.06 * (rng.Float64() - 0.5)})
				if i%2 == 1 { // a run about a point of the surface
					_, _, c := collide.SignedDistance(b, centre)
					centre = c
				}
				spread := 1e-4 * math.Pow(200, rng.Float64())
				box := r3.Box{Min: r3.Vec{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}, Max: r3.Vec{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)}}
				for k := range run {
					x := r3.Add(centre, r3.Scale(spread, r3.Vec{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5, Z: rng.Float64() - 0.5}))
					run[k] = x
					box.Min = r3.Vec{X: min(box.Min.X, x.X), Y: min(box.Min.Y, x.Y), Z: min(box.Min.Z, x.Z)}
					box.Max = r3.Vec{X: max(box.Max.X, x.X), Y: max(box.Max.Y, x.Y), Z: max(box.Max.Z, x.Z)}
				}
				if !nb.away(&box) {
					kept++
					continue
				}
				away++
				for _, x := range run {
					if nb.holds(x) {
						t.Fatalf("run %d passed over, but its point %v is held", i, x)
					}
				}
			}
			if away < 400 || kept < 400 {
				t.Fatalf("%d runs passed over and %d kept: the cases do not exercise both", away, kept)
			}
		})
	}
}
