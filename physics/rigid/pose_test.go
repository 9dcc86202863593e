package rigid

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

func TestPoseCompose(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 50; i++ {
		a, b := randPose(rng), randPose(rng)
		x := randIn(rng, r3.Box{Min: r3.Vec{X: -1, Y: -1, Z: -1}, Max: r3.Vec{X: 1, Y: 1, Z: 1}})
		want := a.Apply(b.Apply(x))
		if got := a.Compose(b).Apply(x); !nearVec(got, want, 1e-12) {
			t.Fatalf("Compose: %v, want a(b(x)) = %v", got, want)
		}
		if got := a.Inverse().Apply(a.Apply(x)); !nearVec(got, x, 1e-12) {
			t.Fatalf("Inverse: %v, want %v", got, x)
		}
		if got := a.ApplyInverse(a.Apply(x)); !nearVec(got, x, 1e-12) {
			t.Fatalf("ApplyInverse: %v, want %v", got, x)
		}
		R := a.RotationMatrix()
		if got, want := R.MulVec(x), a.Rotate(x); !nearVec(got, want, 1e-12) {
			t.Fatalf("RotationMatrix·x = %v, Rotate(x) = %v", got, want)
		}
		if err := a.Compose(b).Validate(); err != nil {
			t.Fatalf("composition of rigid poses is invalid: %v", err)
		}
	}
}

func TestLerp(t *testing.T) {
	axis := r3.Unit(r3.Vec{X: 1, Y: -2, Z: 0.5})
	a := Pose{Position: r3.Vec{X: 1}, Rotation: r3.NewRotation(0.3, axis)}
	b := Pose{Position: r3.Vec{Y: 2, Z: -1}, Rotation: r3.NewRotation(1.9, axis)}
	// The same end rotation written with the opposite quaternion sign: slerp
	// must still take the short arc.
	bNeg := b
	bNeg.Rotation = r3.Rotation{Real: -b.Rotation.Real, Imag: -b.Rotation.Imag, Jmag: -b.Rotation.Jmag, Kmag: -b.Rotation.Kmag}
	x := r3.Vec{X: 0.3, Y: 0.7, Z: -0.2}
	for _, end := range []struct {
		name string
		pose Pose
	}{{"same sign", b}, {"opposite sign", bNeg}} {
		t.Run(end.name, func(t *testing.T) {
			for _, s := range []float64{0, 0.25, 0.5, 1} {
				got := Lerp(a, end.pose, s)
				// About a fixed axis slerp is the rotation by the
				// interpolated angle.
				want := Pose{
					Position: r3.Add(r3.Scale(1-s, a.Position), r3.Scale(s, b.Position)),
					Rotation: r3.NewRotation(0.3+s*(1.9-0.3), axis),
				}
				if !nearVec(got.Apply(x), want.Apply(x), 1e-12) {
					t.Fatalf("s=%g: Lerp maps x to %v, want %v", s, got.Apply(x), want.Apply(x))
				}
			}
		})
	}
}

func TestPoseValidate(t *testing.T) {
	tests := []struct {
		name string
		pose Pose
		want string // empty: valid
	}{
		{"identity", IdentityPose(), ""},
		{"translation", Translation(r3.Vec{X: 1, Y: 2, Z: 3}), ""},
		{"zero pose", Pose{}, "unit quaternion"},
		{"scaled quaternion", Pose{Rotation: r3.Rotation{Real: 2}}, "unit quaternion"},
		{"NaN position", Pose{Position: r3.Vec{X: math.NaN()}, Rotation: r3.Rotation{Real: 1}}, "not finite"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.pose.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("valid pose rejected: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestPointDisplacement(t *testing.T) {
	b := Body{Start: IdentityPose(), End: Pose{Position: r3.Vec{Z: 1}, Rotation: r3.NewRotation(math.Pi/2, r3.Vec{Z: 1})}}
	// (1,0,0) turns a quarter about z to (0,1,0) and rises by 1.
	if got, want := b.PointDisplacement(r3.Vec{X: 1}), (r3.Vec{X: -1, Y: 1, Z: 1}); !nearVec(got, want, 1e-12) {
		t.Fatalf("PointDisplacement = %v, want %v", got, want)
	}
}
