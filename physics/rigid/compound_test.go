package rigid

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// Sizes of a round jaw: a plate of thickness T behind a pad of radius R.
const (
	jawR = 0.008
	jawT = 0.006
	jawW = 0.025
	jawH = 0.03
)

func roundJaw(t *testing.T) (Compound, Box, Cylinder, [2]Pose) {
	t.Helper()
	plate, err := NewBox(r3.Vec{X: jawT / 2, Y: jawW / 2, Z: jawH / 2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	pad, err := NewCylinder(jawR, jawH/2, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	offs := [2]Pose{Translation(r3.Vec{X: -jawR - jawT/2}), Translation(r3.Vec{X: -jawR})}
	c, err := NewCompound(Part{plate, offs[0]}, Part{pad, offs[1]})
	if err != nil {
		t.Fatal(err)
	}
	return c, plate, pad, offs
}

// strictlyInsidePlate and strictlyInsidePad are independent inside tests
// (deeper than insideTolerance) in the compound frame.
func strictlyInsidePlate(x r3.Vec) bool {
	tol := insideTolerance
	return math.Abs(x.X+jawR+jawT/2) < jawT/2-tol && math.Abs(x.Y) < jawW/2-tol && math.Abs(x.Z) < jawH/2-tol
}

func strictlyInsidePad(x r3.Vec) bool {
	tol := insideTolerance
	return math.Hypot(x.X+jawR, x.Y) < jawR-tol && math.Abs(x.Z) < jawH/2-tol
}

func TestCompoundAgainstBruteForce(t *testing.T) {
	c, plate, pad, offs := roundJaw(t)
	bs, bgap := boxSamples(plate.HalfExtents, 60)
	cs, cgap := cylinderSamples(pad.Radius, pad.HalfLength, 60)
	// The union's surface: each part's surface outside the other part.
	var samples []r3.Vec
	for _, s := range bs {
		if w := offs[0].Apply(s); !strictlyInsidePad(w) {
			samples = append(samples, w)
		}
	}
	for _, s := range cs {
		if w := offs[1].Apply(s); !strictlyInsidePlate(w) {
			samples = append(samples, w)
		}
	}
	gap := max(bgap, cgap)
	bounds, ok := c.Bounds()
	want := r3.Box{Min: r3.Vec{X: -2 * jawR, Y: -jawW / 2, Z: -jawH / 2}, Max: r3.Vec{Y: jawW / 2, Z: jawH / 2}}
	if !ok || !nearVec(bounds.Min, want.Min, 1e-15) || !nearVec(bounds.Max, want.Max, 1e-15) {
		t.Fatalf("Bounds = %v (%v), want %v", bounds, ok, want)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	q := r3.Box{Min: r3.Scale(1.4, bounds.Min), Max: r3.Add(bounds.Max, r3.Vec{X: 0.01})}
	outside := 0
	for i := 0; i < 300; i++ {
		x := randIn(rng, q)
		in := strictlyInsidePlate(x) || strictlyInsidePad(x)
		_, _, d := c.Closest(x)
		if in != (d < 0) && math.Abs(d) > 1e-9 {
			t.Fatalf("x=%v: d = %g but inside = %v", x, d, in)
		}
		if !in {
			// Outside the union the least part distance is exact.
			outside++
			checkAgainstSamples(t, c, x, samples, gap, false)
		}
		if !(strictlyInsidePlate(x) && strictlyInsidePad(x)) {
			// In the overlap the deepest part's exit can lie inside the
			// other part (the documented approximation): skip the
			// on-surface check there.
			checkClosestConsistent(t, c, x, 0.02, false)
		}
	}
	if outside < 50 {
		t.Fatalf("only %d outside points tested", outside)
	}
}

func TestCompoundVertices(t *testing.T) {
	c, plate, pad, offs := roundJaw(t)
	want := 0
	for _, v := range plate.Vertices() {
		if !strictlyInsidePad(offs[0].Apply(v)) {
			want++
		}
	}
	for _, v := range pad.Vertices() {
		if !strictlyInsidePlate(offs[1].Apply(v)) {
			want++
		}
	}
	got := c.Vertices()
	if len(got) != want {
		t.Fatalf("%d vertices, want %d (parts' vertices not buried in the other part)", len(got), want)
	}
	if want == len(plate.Vertices())+len(pad.Vertices()) {
		t.Fatal("no vertex is buried: the test does not exercise the filter")
	}
	for _, v := range got {
		if strictlyInsidePlate(v) || strictlyInsidePad(v) {
			t.Fatalf("vertex %v is buried in a part", v)
		}
		if _, _, d := c.Closest(v); !near(d, 0, 1e-12) {
			t.Fatalf("vertex %v is off the surface by %g", v, d)
		}
	}
	verts, tris := c.Triangulate()
	checkClosedOutward(t, verts, tris)
}

func TestCompoundRotatedPart(t *testing.T) {
	cube, _ := NewBox(r3.Vec{X: 1, Y: 1, Z: 1}, 0)
	off := Pose{Position: r3.Vec{Z: 5}, Rotation: r3.NewRotation(math.Pi/4, r3.Vec{Z: 1})}
	c, err := NewCompound(Part{cube, off})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Bounds()
	s := math.Sqrt2
	if !nearVec(b.Min, r3.Vec{X: -s, Y: -s, Z: 4}, 1e-12) || !nearVec(b.Max, r3.Vec{X: s, Y: s, Z: 6}, 1e-12) {
		t.Fatalf("bounds %v, want ±√2 in x, y and [4, 6] in z", b)
	}
	// A point on the rotated +x face's normal line: the face normal is
	// (1, 1, 0)/√2 and the face is at distance 1 from the centre.
	x := r3.Vec{X: 2 / s, Y: 2 / s, Z: 5}
	p, n, d := c.Closest(x)
	if !near(d, 1, 1e-12) || !nearVec(n, r3.Vec{X: 1 / s, Y: 1 / s}, 1e-12) || !nearVec(p, r3.Vec{X: 1 / s, Y: 1 / s, Z: 5}, 1e-12) {
		t.Fatalf("Closest = (%v, %v, %g)", p, n, d)
	}
}

func TestCompoundValidate(t *testing.T) {
	cube, _ := NewBox(r3.Vec{X: 1, Y: 1, Z: 1}, 0)
	tests := []struct {
		name  string
		parts []Part
		want  string
	}{
		{"empty", nil, "no parts"},
		{"nil shape", []Part{{Offset: IdentityPose()}}, "no shape"},
		{"bad offset", []Part{{Shape: cube}}, "offset"},
		{"bad part", []Part{{Shape: Box{HalfExtents: r3.Vec{X: 1}}, Offset: IdentityPose()}}, "part 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCompound(tc.parts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	withPlane, err := NewCompound(Part{cube, IdentityPose()}, Part{Plane{}, IdentityPose()})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := withPlane.Bounds(); ok {
		t.Error("a compound with a plane reports bounds")
	}
}

// TestCompoundClosestPassesOverFarParts: a cached compound (whose
// Closest passes over the parts whose box is farther than the best so
// far) answers exactly what the same parts evaluated one by one answer,
// at points outside, between and inside the parts of a round jaw (a
// cylinder pad in front of a box plate, overlapping it) and of two boxes
// that overlap.
func TestCompoundClosestPassesOverFarParts(t *testing.T) {
	g := DefaultGripper()
	g.Style = RoundJaws
	jaw := g.JawShapes()[0].(Compound)
	boxes, err := NewCompound(
		Part{Shape: Box{HalfExtents: r3.Vec{X: 0.01, Y: 0.01, Z: 0.01}}, Offset: IdentityPose()},
		Part{Shape: Box{HalfExtents: r3.Vec{X: 0.02, Y: 0.005, Z: 0.005}}, Offset: Translation(r3.Vec{X: 0.015})},
	)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []Compound{jaw, boxes} {
		plain := Compound{Parts: c.Parts} // not cached: every part evaluated
		box, _ := c.Bounds()
		skipped := 0
		for range 20000 {
			x := r3.Vec{
				X: box.Min.X - 0.01 + (box.Max.X-box.Min.X+0.02)*rng.Float64(),
				Y: box.Min.Y - 0.01 + (box.Max.Y-box.Min.Y+0.02)*rng.Float64(),
				Z: box.Min.Z - 0.01 + (box.Max.Z-box.Min.Z+0.02)*rng.Float64(),
			}
			p1, n1, d1 := c.Closest(x)
			p0, n0, d0 := plain.Closest(x)
			if p1 != p0 || n1 != n0 || d1 != d0 {
				t.Fatalf("at %v: %v %v %g, every part evaluated: %v %v %g", x, p1, n1, d1, p0, n0, d0)
			}
			for i := range c.partBounds {
				if outsideBy(x, &c.partBounds[i]) > max(d0, 0)*(1+1e-9)+1e-12 {
					skipped++
					break
				}
			}
		}
		if skipped == 0 {
			t.Fatal("no point let a part be passed over: the test does not exercise it")
		}
	}
}
