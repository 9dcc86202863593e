package rigid

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

type closestCase struct {
	name      string
	x         r3.Vec
	wantPoint r3.Vec
	wantN     r3.Vec
	wantD     float64
}

func runClosestCases(t *testing.T, s Shape, cases []closestCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, n, d := s.Closest(c.x)
			if !near(d, c.wantD, 1e-12) || !nearVec(p, c.wantPoint, 1e-12) || !nearVec(n, c.wantN, 1e-12) {
				t.Fatalf("Closest(%v) = (%v, %v, %g), want (%v, %v, %g)", c.x, p, n, d, c.wantPoint, c.wantN, c.wantD)
			}
			checkClosestConsistent(t, s, c.x, 1, true)
		})
	}
}

func TestBoxClosestAnalytic(t *testing.T) {
	b, err := NewBox(r3.Vec{X: 1, Y: 2, Z: 3}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	s2, s3 := math.Sqrt2, math.Sqrt(3)
	runClosestCases(t, b, []closestCase{
		{"outside +x face", r3.Vec{X: 2, Y: 0.5, Z: -1}, r3.Vec{X: 1, Y: 0.5, Z: -1}, r3.Vec{X: 1}, 1},
		{"outside -y face", r3.Vec{X: 0.2, Y: -2.5, Z: 1}, r3.Vec{X: 0.2, Y: -2, Z: 1}, r3.Vec{Y: -1}, 0.5},
		{"outside edge", r3.Vec{X: 2, Y: 3, Z: 0}, r3.Vec{X: 1, Y: 2}, r3.Vec{X: 1 / s2, Y: 1 / s2}, s2},
		{"outside corner", r3.Vec{X: -2, Y: -3, Z: 4}, r3.Vec{X: -1, Y: -2, Z: 3}, r3.Vec{X: -1 / s3, Y: -1 / s3, Z: 1 / s3}, s3},
		{"inside near +z", r3.Vec{X: 0.1, Y: 0.2, Z: 2.9}, r3.Vec{X: 0.1, Y: 0.2, Z: 3}, r3.Vec{Z: 1}, -0.1},
		{"inside near -x", r3.Vec{X: -0.8}, r3.Vec{X: -1}, r3.Vec{X: -1}, -0.2},
		{"centre exits +x", r3.Vec{}, r3.Vec{X: 1}, r3.Vec{X: 1}, -1},
		{"on face", r3.Vec{X: 1, Y: 1}, r3.Vec{X: 1, Y: 1}, r3.Vec{X: 1}, 0},
	})
}

func TestCylinderClosestAnalytic(t *testing.T) {
	c, err := NewCylinder(0.5, 1, 0.1, 0)
	if err != nil {
		t.Fatal(err)
	}
	s2 := math.Sqrt2
	runClosestCases(t, c, []closestCase{
		{"outside side", r3.Vec{X: 1, Z: 0.3}, r3.Vec{X: 0.5, Z: 0.3}, r3.Vec{X: 1}, 0.5},
		{"outside side -y", r3.Vec{Y: -2}, r3.Vec{Y: -0.5}, r3.Vec{Y: -1}, 1.5},
		{"outside cap", r3.Vec{X: 0.1, Y: 0.2, Z: 1.5}, r3.Vec{X: 0.1, Y: 0.2, Z: 1}, r3.Vec{Z: 1}, 0.5},
		{"outside rim", r3.Vec{X: 1.5, Z: -2}, r3.Vec{X: 0.5, Z: -1}, r3.Vec{X: 1 / s2, Z: -1 / s2}, s2},
		{"inside near side", r3.Vec{Y: 0.4}, r3.Vec{Y: 0.5}, r3.Vec{Y: 1}, -0.1},
		{"inside near cap", r3.Vec{Y: 0.1, Z: -0.9}, r3.Vec{Y: 0.1, Z: -1}, r3.Vec{Z: -1}, -0.1},
		{"on axis exits +x", r3.Vec{}, r3.Vec{X: 0.5}, r3.Vec{X: 1}, -0.5},
	})
}

func TestPlaneClosest(t *testing.T) {
	p := Plane{Size: 2}
	runClosestCases(t, p, []closestCase{
		{"above", r3.Vec{X: 3, Y: -1, Z: 0.25}, r3.Vec{X: 3, Y: -1}, r3.Vec{Z: 1}, 0.25},
		{"below", r3.Vec{X: -7, Y: 2, Z: -0.5}, r3.Vec{X: -7, Y: 2}, r3.Vec{Z: 1}, -0.5},
	})
	if _, ok := p.Bounds(); ok {
		t.Error("a plane reports bounds")
	}
	if v := p.Vertices(); len(v) != 0 {
		t.Errorf("a plane has %d vertices, want none", len(v))
	}
	verts, tris := p.Triangulate()
	area := 0.0
	for _, tri := range tris {
		n := r3.Cross(r3.Sub(verts[tri[1]], verts[tri[0]]), r3.Sub(verts[tri[2]], verts[tri[0]]))
		if n.Z <= 0 || n.X != 0 || n.Y != 0 {
			t.Errorf("patch triangle %v has normal %v, want +z", tri, n)
		}
		area += n.Z / 2
	}
	if !near(area, 4, 1e-12) {
		t.Errorf("patch area %g, want Size² = 4", area)
	}
}

// boxSamples samples the six faces of the box on an n×n grid and returns
// the samples and their gap (half the diagonal of the largest cell).
func boxSamples(h r3.Vec, n int) ([]r3.Vec, float64) {
	var out []r3.Vec
	hv := [3]float64{h.X, h.Y, h.Z}
	gap := 0.0
	for axis := 0; axis < 3; axis++ {
		u, v := (axis+1)%3, (axis+2)%3
		for _, s := range []float64{-1, 1} {
			var o, du, dv [3]float64
			o[axis], o[u], o[v] = s*hv[axis], -hv[u], -hv[v]
			du[u], dv[v] = 2*hv[u], 2*hv[v]
			out = sampleRect(out, r3.Vec{X: o[0], Y: o[1], Z: o[2]}, r3.Vec{X: du[0], Y: du[1], Z: du[2]}, r3.Vec{X: dv[0], Y: dv[1], Z: dv[2]}, n)
			gap = max(gap, 0.5*math.Hypot(2*hv[u]/float64(n), 2*hv[v]/float64(n)))
		}
	}
	return out, gap
}

// cylinderSamples samples the side on an angle×height grid and the caps on
// polar grids; gap bounds the distance from any surface point to them.
func cylinderSamples(R, L float64, n int) ([]r3.Vec, float64) {
	var out []r3.Vec
	m := 4 * n
	for i := 0; i < m; i++ {
		s, c := math.Sincos(2 * math.Pi * float64(i) / float64(m))
		for j := 0; j <= n; j++ {
			out = append(out, r3.Vec{X: R * c, Y: R * s, Z: -L + 2*L*float64(j)/float64(n)})
			r := R * float64(j) / float64(n)
			out = append(out, r3.Vec{X: r * c, Y: r * s, Z: -L}, r3.Vec{X: r * c, Y: r * s, Z: L})
		}
	}
	arc := 2 * math.Pi * R / float64(m)
	return out, 0.5 * math.Hypot(arc, max(2*L, R)/float64(n))
}

func TestShapesAgainstBruteForce(t *testing.T) {
	box, err := NewBox(r3.Vec{X: 0.01, Y: 0.02, Z: 0.015}, 0)
	if err != nil {
		t.Fatal(err)
	}
	cyl, err := NewCylinder(0.008, 0.015, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	bs, bgap := boxSamples(box.HalfExtents, 60)
	cs, cgap := cylinderSamples(cyl.Radius, cyl.HalfLength, 60)
	tests := []struct {
		name    string
		shape   Shape
		samples []r3.Vec
		gap     float64
		inside  func(r3.Vec) bool
	}{
		{"box", box, bs, bgap, func(x r3.Vec) bool {
			return math.Abs(x.X) <= 0.01 && math.Abs(x.Y) <= 0.02 && math.Abs(x.Z) <= 0.015
		}},
		{"cylinder", cyl, cs, cgap, func(x r3.Vec) bool {
			return math.Hypot(x.X, x.Y) <= 0.008 && math.Abs(x.Z) <= 0.015
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			bounds, ok := tc.shape.Bounds()
			if !ok {
				t.Fatal("bounded shape reports no bounds")
			}
			query := r3.Box{Min: r3.Scale(1.6, bounds.Min), Max: r3.Scale(1.6, bounds.Max)}
			nIn := 0
			for i := 0; i < 300; i++ {
				x := randIn(rng, query)
				in := tc.inside(x)
				if in {
					nIn++
				}
				if !bounds.Contains(x) && in {
					t.Fatalf("inside point %v outside Bounds %v", x, bounds)
				}
				checkAgainstSamples(t, tc.shape, x, tc.samples, tc.gap, in)
				checkClosestConsistent(t, tc.shape, x, 0.02, true)
			}
			if nIn < 30 || nIn > 270 {
				t.Fatalf("only %d of 300 random points inside: test does not cover both sides", nIn)
			}
		})
	}
}

// onSegment reports whether x lies on [a, b] and returns its parameter.
func onSegment(x, a, b r3.Vec) (float64, bool) {
	ab := r3.Sub(b, a)
	s := r3.Dot(r3.Sub(x, a), ab) / r3.Norm2(ab)
	if s < -1e-12 || s > 1+1e-12 {
		return 0, false
	}
	return s, nearVec(x, r3.Add(a, r3.Scale(s, ab)), 1e-12)
}

// checkEdgeSampling fails unless the samples on [a, b] include both ends
// and are never farther apart than spacing; it returns how many there are.
func checkEdgeSampling(t *testing.T, samples []r3.Vec, a, b r3.Vec, spacing float64) int {
	t.Helper()
	var s []float64
	for _, v := range samples {
		if p, ok := onSegment(v, a, b); ok {
			s = append(s, p)
		}
	}
	sort.Float64s(s)
	length := r3.Norm(r3.Sub(b, a))
	if len(s) < 2 || s[0] > 1e-12 || s[len(s)-1] < 1-1e-12 {
		t.Fatalf("edge %v–%v: samples %v do not reach both ends", a, b, s)
	}
	for i := 1; i < len(s); i++ {
		if (s[i]-s[i-1])*length > spacing*(1+1e-9) {
			t.Fatalf("edge %v–%v: gap %g > spacing %g", a, b, (s[i]-s[i-1])*length, spacing)
		}
	}
	return len(s)
}

func TestBoxVertices(t *testing.T) {
	h := r3.Vec{X: 0.003, Y: 0.0125, Z: 0.015}
	const spacing = 0.002
	b, err := NewBox(h, spacing)
	if err != nil {
		t.Fatal(err)
	}
	verts := b.Vertices()
	// Expected count: 8 corners plus, per edge of length ℓ, ⌈ℓ/s⌉ − 1
	// interior samples, four edges per axis.
	want := 8
	for _, l := range []float64{2 * h.X, 2 * h.Y, 2 * h.Z} {
		want += 4 * (int(math.Ceil(l/spacing)) - 1)
	}
	if len(verts) != want {
		t.Fatalf("%d vertices, want %d", len(verts), want)
	}
	for _, v := range verts {
		if _, _, d := b.Closest(v); !near(d, 0, 1e-15) {
			t.Fatalf("vertex %v off the surface by %g", v, d)
		}
	}
	covered := 0
	for i := 0; i < 8; i++ {
		for bit := 0; bit < 3; bit++ {
			if j := i | 1<<bit; j != i {
				covered += checkEdgeSampling(t, verts, boxCorner(h, i), boxCorner(h, j), spacing)
			}
		}
	}
	// Each corner is counted on its three edges.
	if covered-2*8 != len(verts) {
		t.Fatalf("edges hold %d samples (corners thrice), but there are %d vertices: some lie off the edges", covered-16, len(verts))
	}
	if lit := (Box{HalfExtents: h, EdgeSpacing: spacing}).Vertices(); len(lit) != len(verts) {
		t.Fatalf("a Box literal gives %d vertices, NewBox %d", len(lit), len(verts))
	}
}

func TestCylinderVertices(t *testing.T) {
	const R, L, spacing, G = 0.008, 0.015, 0.002, 6
	c, err := NewCylinder(R, L, spacing, G)
	if err != nil {
		t.Fatal(err)
	}
	verts := c.Vertices()
	var rims [2][]float64
	for _, v := range verts {
		if _, _, d := c.Closest(v); !near(d, 0, 1e-15) || !near(math.Hypot(v.X, v.Y), R, 1e-15) {
			t.Fatalf("vertex %v is not on the curved side", v)
		}
		if near(math.Abs(v.Z), L, 1e-15) {
			k := 0
			if v.Z > 0 {
				k = 1
			}
			rims[k] = append(rims[k], math.Atan2(v.Y, v.X))
		}
	}
	for k, angles := range rims {
		sort.Float64s(angles)
		angles = append(angles, angles[0]+2*math.Pi)
		for i := 1; i < len(angles); i++ {
			if chord := 2 * R * math.Sin((angles[i]-angles[i-1])/2); chord > spacing {
				t.Fatalf("rim %d: samples %g m apart > spacing %g", k, chord, spacing)
			}
		}
	}
	total := len(rims[0]) + len(rims[1])
	for g := 0; g < G; g++ {
		s, co := math.Sincos(2 * math.Pi * float64(g) / G)
		total += checkEdgeSampling(t, verts, r3.Vec{X: R * co, Y: R * s, Z: -L}, r3.Vec{X: R * co, Y: R * s, Z: L}, spacing) - 2
	}
	if total != len(verts) {
		t.Fatalf("rims and %d generators hold %d samples, but there are %d vertices", G, total, len(verts))
	}
}

func TestTriangulateClosedOutward(t *testing.T) {
	box, _ := NewBox(r3.Vec{X: 1, Y: 2, Z: 3}, 0)
	cyl, _ := NewCylinder(0.5, 1, 0, 0)
	// The faceted cylinder is a regular n-gon prism: area n/2·R²·sin(2π/n).
	n := float64(cylinderSegments)
	prism := n / 2 * 0.25 * math.Sin(2*math.Pi/n) * 2
	tests := []struct {
		name   string
		shape  Shape
		volume float64
	}{
		{"box", box, 8 * 1 * 2 * 3},
		{"cylinder", cyl, prism},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verts, tris := tc.shape.Triangulate()
			if vol := checkClosedOutward(t, verts, tris); !near(vol, tc.volume, 1e-12*tc.volume) {
				t.Fatalf("volume %g, want %g", vol, tc.volume)
			}
		})
	}
}

func TestShapeValidate(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"box zero extent", Box{HalfExtents: r3.Vec{X: 1, Y: 0, Z: 1}}.Validate(), "HalfExtents.Y"},
		{"box NaN extent", Box{HalfExtents: r3.Vec{X: math.NaN(), Y: 1, Z: 1}}.Validate(), "HalfExtents.X"},
		{"box negative spacing", Box{HalfExtents: r3.Vec{X: 1, Y: 1, Z: 1}, EdgeSpacing: -1}.Validate(), "EdgeSpacing"},
		{"box spacing too fine", Box{HalfExtents: r3.Vec{X: 1, Y: 1, Z: 1}, EdgeSpacing: 1e-6}.Validate(), "too fine"},
		{"cylinder radius", Cylinder{Radius: -1, HalfLength: 1}.Validate(), "Radius"},
		{"cylinder length", Cylinder{Radius: 1, HalfLength: math.Inf(1)}.Validate(), "HalfLength"},
		{"cylinder generators", Cylinder{Radius: 1, HalfLength: 1, Generators: -2}.Validate(), "Generators"},
		{"plane size", Plane{Size: -1}.Validate(), "Size"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", tc.err, tc.want)
			}
		})
	}
	if _, err := NewBox(r3.Vec{X: 1, Y: 1, Z: -1}, 0); err == nil {
		t.Error("NewBox accepted a negative extent")
	}
	if _, err := NewCylinder(1, 0, 0, 0); err == nil {
		t.Error("NewCylinder accepted a zero length")
	}
}
