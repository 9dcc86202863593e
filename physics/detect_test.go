package physics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// TestBodyMotion checks the largest corner displacement of a body between
// its poses against the closed forms: a translation moves every corner by
// its length; a turn by θ about the box's centre moves the farthest corner
// (at distance r) by 2·r·sin(θ/2); an unbounded plane counts its origin.
func TestBodyMotion(t *testing.T) {
	box, err := rigid.NewBox(r3.Vec{X: 0.01, Y: 0.02, Z: 0.03}, 0.005)
	if err != nil {
		t.Fatal(err)
	}
	theta := 0.3
	turn := rigid.Pose{Rotation: r3.Rotation{Real: math.Cos(theta / 2), Kmag: math.Sin(theta / 2)}}
	rest := rigid.Translation(r3.Vec{})
	for _, tc := range []struct {
		name       string
		shape      rigid.Shape
		start, end rigid.Pose
		want       float64
	}{
		{"still", box, rest, rest, 0},
		{"translated", box, rest, rigid.Translation(r3.Vec{X: 3e-3, Z: 4e-3}), 5e-3},
		// The corner farthest from the z axis sets the bound, at
		// distance √(0.01² + 0.02²) from it.
		{"turned about z", box, rest, turn, 2 * math.Hypot(0.01, 0.02) * math.Sin(theta/2)},
		{"plane translated", rigid.Plane{}, rest, rigid.Translation(r3.Vec{Y: 2e-3}), 2e-3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := rigid.Body{Shape: tc.shape, Start: tc.start, End: tc.end}
			if got := bodyMotion(&b); math.Abs(got-tc.want) > 1e-12 {
				t.Fatalf("motion %g, want %g", got, tc.want)
			}
		})
	}
}
