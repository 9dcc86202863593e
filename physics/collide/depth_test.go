package collide

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// TestSurfaceDepthBox checks the signed distance to a closed box surface
// against the analytic one, at random points inside and outside.
func TestSurfaceDepthBox(t *testing.T) {
	m, err := mesh.Box(r3.Vec{X: 0.04, Y: 0.03, Z: 0.02}, 6, 5, 4)
	if err != nil {
		t.Fatal(err)
	}
	surf, err := mesh.ExtractSurface(m)
	if err != nil {
		t.Fatal(err)
	}
	q := make([]float64, 3*len(m.Nodes))
	for i, x := range m.Nodes {
		q[3*i], q[3*i+1], q[3*i+2] = x.X, x.Y, x.Z
	}
	sd := NewSurfaceDepth(surf)
	if err := sd.Refit(q); err != nil {
		t.Fatal(err)
	}
	b := m.Bounds()
	rng := rand.New(rand.NewSource(1))
	const limit = 0.01
	inside := 0
	for i := 0; i < 2000; i++ {
		x := r3.Vec{
			X: b.Min.X - 0.005 + rng.Float64()*(b.Max.X-b.Min.X+0.01),
			Y: b.Min.Y - 0.005 + rng.Float64()*(b.Max.Y-b.Min.Y+0.01),
			Z: b.Min.Z - 0.005 + rng.Float64()*(b.Max.Z-b.Min.Z+0.01),
		}
		want := boxSignedDistance(x, b)
		got := sd.SignedDistance(x, limit, limit)
		if math.Abs(want) >= limit {
			want = math.Copysign(limit, want)
		}
		if want < 0 {
			inside++
		}
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("point %v: signed distance %.9g, want %.9g", x, got, want)
		}
	}
	if inside < 500 || inside > 1500 {
		t.Fatalf("%d of 2000 points inside: the sample does not test both sides", inside)
	}
}

func boxSignedDistance(x r3.Vec, b r3.Box) float64 {
	c := r3.Scale(0.5, r3.Add(b.Min, b.Max))
	h := r3.Scale(0.5, r3.Sub(b.Max, b.Min))
	d := r3.Vec{X: math.Abs(x.X-c.X) - h.X, Y: math.Abs(x.Y-c.Y) - h.Y, Z: math.Abs(x.Z-c.Z) - h.Z}
	out := r3.Vec{X: math.Max(d.X, 0), Y: math.Max(d.Y, 0), Z: math.Max(d.Z, 0)}
	return r3.Norm(out) + math.Min(math.Max(d.X, math.Max(d.Y, d.Z)), 0)
}
