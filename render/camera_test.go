package render

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

const camTol = 1e-9

func randomCamera(rng *rand.Rand) *Camera {
	target := r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
	c := NewCamera(target, 0.1+rng.Float64())
	c.Orbit(rng.Float64()*2*math.Pi, (rng.Float64()-0.5)*2)
	c.SetViewport(320+rng.IntN(1000), 240+rng.IntN(700))
	if rng.IntN(2) == 0 { // half of them shifted, as beside a panel column
		c.ShiftX = (rng.Float64() - 0.5) * 0.8
	}
	return c
}

func near(a, b r3.Vec, tol float64) bool { return r3.Norm(r3.Sub(a, b)) <= tol }

// mulPoint applies a column-major 4×4 matrix to (p, 1).
func mulPoint(m [16]float32, p [4]float64) [4]float64 {
	var out [4]float64
	for row := 0; row < 4; row++ {
		for col := 0; col < 4; col++ {
			out[row] += float64(m[col*4+row]) * p[col]
		}
	}
	return out
}

func TestOrbitKeepsDistanceAndTarget(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name         string
		dYaw, dPitch float64
	}{
		{"yaw only", 0.7, 0},
		{"pitch only", 0, 0.4},
		{"both", -2.1, -0.3},
		{"pitch past the pole is clamped", 0.2, 5},
		{"full turn", 2 * math.Pi, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := randomCamera(rng)
			target, dist := c.Target, c.Distance
			before := c.Eye()
			c.Orbit(tc.dYaw, tc.dPitch)
			if got := r3.Norm(r3.Sub(c.Eye(), c.Target)); math.Abs(got-dist) > camTol {
				t.Errorf("|eye − target| = %v after orbit, want %v", got, dist)
			}
			if c.Target != target {
				t.Errorf("target moved from %v to %v", target, c.Target)
			}
			if math.Abs(c.Pitch) > maxPitch+camTol {
				t.Errorf("pitch %v beyond the clamp %v", c.Pitch, maxPitch)
			}
			if (tc.dYaw != 2*math.Pi || tc.dPitch != 0) && near(before, c.Eye(), 1e-6) { // all but the full turn move it
				t.Error("eye did not move")
			}
		})
	}
}

func TestBasisIsOrthonormalAndViewMatchesIt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20; i++ {
		c := randomCamera(rng)
		f, r, u := c.Basis()
		for _, v := range []r3.Vec{f, r, u} {
			if math.Abs(r3.Norm(v)-1) > camTol {
				t.Fatalf("basis vector %v not unit", v)
			}
		}
		if math.Abs(r3.Dot(f, r))+math.Abs(r3.Dot(f, u))+math.Abs(r3.Dot(r, u)) > camTol {
			t.Fatalf("basis not orthogonal: %v %v %v", f, r, u)
		}
		if u.Z < 0 {
			t.Fatalf("up %v points down in a Z-up world", u)
		}
		// The view matrix must put the target on the −z axis at Distance.
		v := mulPoint(c.View(), [4]float64{c.Target.X, c.Target.Y, c.Target.Z, 1})
		if math.Abs(v[0])+math.Abs(v[1]) > 1e-5 || math.Abs(v[2]+c.Distance) > 1e-5 {
			t.Fatalf("view·target = %v, want (0, 0, %v)", v, -c.Distance)
		}
	}
}

// TestProjectMatchesMatrices checks that the analytic Project agrees with
// Projection·View followed by the viewport transform.
func TestProjectMatchesMatrices(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 50; i++ {
		c := randomCamera(rng)
		w, h := c.Viewport()
		p := r3.Add(c.Target, r3.Vec{X: rng.NormFloat64() * 0.05, Y: rng.NormFloat64() * 0.05, Z: rng.NormFloat64() * 0.05})
		x, y, ok := c.Project(p)
		if !ok {
			continue
		}
		clip := mulPoint(c.Projection(), mulPoint(c.View(), [4]float64{p.X, p.Y, p.Z, 1}))
		mx := (clip[0]/clip[3] + 1) / 2 * float64(w)
		my := (1 - clip[1]/clip[3]) / 2 * float64(h)
		if math.Abs(mx-x) > 1e-2 || math.Abs(my-y) > 1e-2 {
			t.Fatalf("Project = (%v, %v), matrices give (%v, %v)", x, y, mx, my)
		}
		if z := clip[2] / clip[3]; z < -1 || z > 1 {
			t.Fatalf("point near the target clipped: NDC z = %v", z)
		}
	}
}

func TestRay(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 20; i++ {
		c := randomCamera(rng)
		w, h := c.Viewport()
		t.Run("the shifted centre hits the target", func(t *testing.T) {
			o, d := c.Ray((1+c.ShiftX)*float64(w)/2, float64(h)/2, w, h)
			if !near(o, c.Eye(), camTol) {
				t.Fatalf("origin %v, want the eye %v", o, c.Eye())
			}
			hit := r3.Add(o, r3.Scale(c.Distance, d))
			if !near(hit, c.Target, 1e-9) {
				t.Fatalf("eye + Distance·dir = %v, want the target %v", hit, c.Target)
			}
		})
		t.Run("any pixel projects back to itself", func(t *testing.T) {
			px, py := rng.Float64()*float64(w), rng.Float64()*float64(h)
			o, d := c.Ray(px, py, w, h)
			if math.Abs(r3.Norm(d)-1) > camTol {
				t.Fatalf("|dir| = %v", r3.Norm(d))
			}
			x, y, ok := c.Project(r3.Add(o, r3.Scale(0.3+rng.Float64(), d)))
			if !ok || math.Abs(x-px) > 1e-6 || math.Abs(y-py) > 1e-6 {
				t.Fatalf("point on ray through (%v, %v) projects to (%v, %v, %v)", px, py, x, y, ok)
			}
		})
	}
}

func TestViewPlaneDelta(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 20; i++ {
		c := randomCamera(rng)
		f, _, _ := c.Basis()
		dx, dy := rng.NormFloat64()*40, rng.NormFloat64()*40
		d1 := c.ViewPlaneDelta(dx, dy, c.Target)
		t.Run("orthogonal to the view direction", func(t *testing.T) {
			if math.Abs(r3.Dot(d1, f)) > 1e-12 {
				t.Fatalf("delta·forward = %v", r3.Dot(d1, f))
			}
		})
		t.Run("scales with depth", func(t *testing.T) {
			far := r3.Add(c.Eye(), r3.Scale(2*c.Distance, f))
			d2 := c.ViewPlaneDelta(dx, dy, far)
			if !near(d2, r3.Scale(2, d1), 1e-12) {
				t.Fatalf("delta at twice the depth %v, want 2·%v", d2, d1)
			}
		})
		t.Run("moves the point by the drag on screen", func(t *testing.T) {
			x0, y0, _ := c.Project(c.Target)
			x1, y1, ok := c.Project(r3.Add(c.Target, d1))
			// Perspective makes the map exact only in the image plane at
			// the point's depth, which is where the delta lies.
			if !ok || math.Abs(x1-x0-dx) > 1e-6 || math.Abs(y1-y0-dy) > 1e-6 {
				t.Fatalf("drag (%v, %v) moved the point by (%v, %v)", dx, dy, x1-x0, y1-y0)
			}
		})
	}
}

func TestPanKeepsTheGrabbedPointUnderTheCursor(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	c := randomCamera(rng)
	old := c.Target
	x0, y0, _ := c.Project(old)
	c.Pan(25, -13)
	x1, y1, _ := c.Project(old)
	if math.Abs(x1-x0-25) > 1e-6 || math.Abs(y1-y0+13) > 1e-6 {
		t.Fatalf("old target moved on screen by (%v, %v), want (25, −13)", x1-x0, y1-y0)
	}
	if math.Abs(r3.Norm(r3.Sub(c.Eye(), c.Target))-c.Distance) > camTol {
		t.Fatal("pan changed the orbit distance")
	}
}

func TestZoomClampsAndResetRestores(t *testing.T) {
	tests := []struct {
		name   string
		factor float64
		want   func(c *Camera) float64
	}{
		{"in", 0.5, func(c *Camera) float64 { return 0.5 }},
		{"out", 2, func(c *Camera) float64 { return 2 }},
		{"clamped in", 1e-9, func(c *Camera) float64 { return c.MinDistance }},
		{"clamped out", 1e9, func(c *Camera) float64 { return c.MaxDistance }},
		{"ignored zero", 0, func(c *Camera) float64 { return 1 }},
		{"ignored NaN", math.NaN(), func(c *Camera) float64 { return 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCamera(r3.Vec{X: 1}, 1)
			c.Zoom(tc.factor)
			if want := tc.want(c); math.Abs(c.Distance-want) > camTol {
				t.Fatalf("distance %v, want %v", c.Distance, want)
			}
			c.Orbit(1, 0.3)
			c.Pan(10, 10)
			c.Reset()
			if c.Distance != 1 || c.Target != (r3.Vec{X: 1}) {
				t.Fatalf("Reset left distance %v target %v", c.Distance, c.Target)
			}
		})
	}
}
