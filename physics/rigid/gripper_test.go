package rigid

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// jawDistance returns the signed distance and world normal of a world
// point against jaw i of the gripper.
func jawDistance(g Gripper, i int, x r3.Vec) (float64, r3.Vec) {
	pose := g.JawPoses()[i]
	_, n, d := g.JawShapes()[i].Closest(pose.ApplyInverse(x))
	return d, pose.Rotate(n)
}

func TestGripperInnerSurfaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, style := range []JawStyle{FlatJaws, RoundJaws} {
		t.Run(style.String(), func(t *testing.T) {
			for i := 0; i < 20; i++ {
				g := DefaultGripper()
				g.Style = style
				g.Pose = randPose(rng)
				g.Opening = 0.02 + 0.04*rng.Float64()
				if err := g.Validate(); err != nil {
					t.Fatal(err)
				}
				x := g.Closing()
				for jaw, side := range []float64{-1, 1} {
					surface := g.Pose.Apply(r3.Vec{X: side * g.Opening / 2})
					d, n := jawDistance(g, jaw, surface)
					if !near(d, 0, 1e-12) {
						t.Fatalf("jaw %d: inner surface point at distance %g", jaw, d)
					}
					if want := r3.Scale(-side, x); !nearVec(n, want, 1e-12) {
						t.Fatalf("jaw %d: normal %v, want %v (facing the grasp centre)", jaw, n, want)
					}
					if d, _ := jawDistance(g, jaw, g.Pose.Position); !near(d, g.Opening/2, 1e-12) {
						t.Fatalf("jaw %d: grasp centre at distance %g, want Opening/2 = %g", jaw, d, g.Opening/2)
					}
				}
			}
		})
	}
}

func TestGripperJawExtent(t *testing.T) {
	for _, style := range []JawStyle{FlatJaws, RoundJaws} {
		t.Run(style.String(), func(t *testing.T) {
			g := DefaultGripper()
			g.Style = style
			shapes := g.JawShapes()
			for i, side := range []float64{-1, 1} {
				b, ok := shapes[i].Bounds()
				if !ok {
					t.Fatal("jaw is unbounded")
				}
				if !near(b.Min.Z, -g.JawHeight/2, 1e-15) || !near(b.Max.Z, g.JawHeight/2, 1e-15) ||
					!near(b.Min.Y, -g.JawWidth/2, 1e-15) || !near(b.Max.Y, g.JawWidth/2, 1e-15) {
					t.Fatalf("jaw %d bounds %v: want y ∈ ±W/2, z ∈ ±H/2", i, b)
				}
				// The inner surface is the plane x = 0 of the jaw frame, the
				// material on the far side from the grasp centre.
				inner := b.Max.X
				if side > 0 {
					inner = b.Min.X
				}
				if !near(inner, 0, 1e-15) {
					t.Fatalf("jaw %d: inner surface at x = %g, want 0 (bounds %v)", i, inner, b)
				}
				if v, ok := shapes[i].(validator); !ok || v.Validate() != nil {
					t.Fatalf("jaw %d shape does not validate", i)
				}
			}
		})
	}
}

func TestGripperSpin(t *testing.T) {
	g := DefaultGripper()
	g.Style = FlatJaws
	g.Pose = Pose{Position: r3.Vec{X: 0.1, Y: -0.2, Z: 0.05}, Rotation: r3.NewRotation(0.7, r3.Unit(r3.Vec{X: 1, Y: 1}))}
	for _, theta := range []float64{0.3, math.Pi / 2, 2} {
		spun := g
		spun.Pose = g.Pose.Compose(Pose{Rotation: r3.NewRotation(theta, r3.Vec{Z: 1})})
		// The left jaw's normal is the closing direction; spinning about
		// the gripper's axis turns it by θ in the plane orthogonal to the
		// axis: n(θ) = cos θ·x + sin θ·y in the gripper's unspun frame.
		_, n := jawDistance(spun, 0, spun.Pose.Apply(r3.Vec{X: -spun.Opening / 2}))
		want := g.Pose.Rotate(r3.Vec{X: math.Cos(theta), Y: math.Sin(theta)})
		if !nearVec(n, want, 1e-12) {
			t.Fatalf("θ=%g: normal %v, want %v", theta, n, want)
		}
		if !nearVec(spun.Axis(), g.Axis(), 1e-12) {
			t.Fatalf("θ=%g: spinning moved the axis", theta)
		}
	}
}

func TestRoundJawNormalsVary(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	g := DefaultGripper()
	g.Pose = randPose(rng)
	R, half := g.TipRadius, g.Opening/2
	const delta = 1e-3 // gap between the point and the inner surface plane
	for _, y := range []float64{-6e-3, -2e-3, 0, 3e-3, 7e-3} {
		// A point in front of the left jaw, offset by y across the jaw.
		local := r3.Vec{X: -half + delta, Y: y}
		for _, style := range []JawStyle{FlatJaws, RoundJaws} {
			g.Style = style
			d, n := jawDistance(g, 0, g.Pose.Apply(local))
			wantD, wantN := delta, r3.Vec{X: 1}
			if style == RoundJaws {
				// The pad's axis is at x = −half − R in the gripper frame.
				v := r3.Vec{X: delta + R, Y: y}
				wantD, wantN = r3.Norm(v)-R, r3.Unit(v)
			}
			if !near(d, wantD, 1e-12) || !nearVec(n, g.Pose.Rotate(wantN), 1e-12) {
				t.Fatalf("%v, y=%g: (d, n) = (%g, %v), want (%g, %v)", style, y, d, n, wantD, g.Pose.Rotate(wantN))
			}
		}
	}
}

func TestGripperMirror(t *testing.T) {
	g := DefaultGripper()
	g.Style = RoundJaws
	shapes := g.JawShapes()
	rng := rand.New(rand.NewPCG(17, 18))
	for i := 0; i < 100; i++ {
		x := randIn(rng, r3.Box{Min: r3.Vec{X: -0.03, Y: -0.02, Z: -0.02}, Max: r3.Vec{X: 0.01, Y: 0.02, Z: 0.02}})
		mirror := r3.Vec{X: -x.X, Y: x.Y, Z: x.Z}
		_, nl, dl := shapes[0].Closest(x)
		_, nr, dr := shapes[1].Closest(mirror)
		if !near(dl, dr, 1e-15) || !nearVec(nr, r3.Vec{X: -nl.X, Y: nl.Y, Z: nl.Z}, 1e-12) {
			t.Fatalf("x=%v: left (%g, %v), right at mirror (%g, %v)", x, dl, nl, dr, nr)
		}
	}
	if len(shapes[0].Vertices()) != len(shapes[1].Vertices()) {
		t.Fatal("mirrored jaws have different vertex counts")
	}
}

func TestGripperValidate(t *testing.T) {
	mod := func(f func(*Gripper)) Gripper {
		g := DefaultGripper()
		f(&g)
		return g
	}
	tests := []struct {
		name string
		g    Gripper
		want string
	}{
		{"default", DefaultGripper(), ""},
		{"round default", mod(func(g *Gripper) { g.Style = RoundJaws }), ""},
		{"flat ignores tip", mod(func(g *Gripper) { g.TipRadius = 0 }), ""},
		{"zero pose", mod(func(g *Gripper) { g.Pose = Pose{} }), "Pose"},
		{"negative opening", mod(func(g *Gripper) { g.Opening = -0.01 }), "Opening"},
		{"NaN opening", mod(func(g *Gripper) { g.Opening = math.NaN() }), "Opening"},
		{"style", mod(func(g *Gripper) { g.Style = 7 }), "Style"},
		{"thickness", mod(func(g *Gripper) { g.JawThickness = 0 }), "JawThickness"},
		{"width", mod(func(g *Gripper) { g.JawWidth = math.Inf(1) }), "JawWidth"},
		{"height", mod(func(g *Gripper) { g.JawHeight = -1 }), "JawHeight"},
		{"round tip zero", mod(func(g *Gripper) { g.Style, g.TipRadius = RoundJaws, 0 }), "TipRadius"},
		{"round tip too wide", mod(func(g *Gripper) { g.Style, g.TipRadius = RoundJaws, 0.02 }), "TipRadius"},
		{"spacing", mod(func(g *Gripper) { g.EdgeSpacing = -1 }), "EdgeSpacing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.g.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("valid gripper rejected: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
}

func TestParseJawStyle(t *testing.T) {
	tests := []struct {
		in   string
		want JawStyle
		ok   bool
	}{{"flat", FlatJaws, true}, {" Round ", RoundJaws, true}, {"square", 0, false}, {"", 0, false}}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseJawStyle(tc.in)
			if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
				t.Fatalf("ParseJawStyle(%q) = %v, %v", tc.in, got, err)
			}
			if tc.ok && got.String() != strings.ToLower(strings.TrimSpace(tc.in)) {
				t.Fatalf("String() = %q does not round-trip %q", got.String(), tc.in)
			}
		})
	}
}
