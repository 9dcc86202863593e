package render

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
)

func normalAt(normals []float32, i int) r3.Vec {
	return r3.Vec{X: float64(normals[3*i]), Y: float64(normals[3*i+1]), Z: float64(normals[3*i+2])}
}

func TestVertexNormals(t *testing.T) {
	// Octahedron: each vertex touches four congruent faces symmetric about
	// its axis, so the area-weighted normal is the radial direction.
	octa := []float32{1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1}
	octaTris := []uint32{
		0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4,
		2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5,
	}
	// Two faces meeting at vertex 0: a right triangle with legs 2, 2 in
	// z = 0 (area 2, normal +z) and one with legs 2, 1 in x = 0 (area 1,
	// normal +x): the area-weighted normal is ∝ 2·ẑ + 1·x̂, where an
	// unweighted mean would give ẑ + x̂.
	hinge := []float32{0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1}
	hingeTris := []uint32{0, 1, 2, 0, 2, 3}
	tests := []struct {
		name   string
		pos    []float32
		tris   []uint32
		vertex int
		want   r3.Vec
	}{
		{"octahedron +x", octa, octaTris, 0, r3.Vec{X: 1}},
		{"octahedron −z", octa, octaTris, 5, r3.Vec{Z: -1}},
		{"area weighting", hinge, hingeTris, 0, r3.Unit(r3.Vec{X: 1, Z: 2})},
		{"single face", hinge, hingeTris, 1, r3.Vec{Z: 1}},
		{"untouched vertex gets +z", []float32{0, 0, 0, 1, 0, 0}, nil, 1, r3.Vec{Z: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			normals := make([]float32, len(tc.pos))
			vertexNormals(normals, tc.pos, tc.tris)
			if got := normalAt(normals, tc.vertex); r3.Norm(r3.Sub(got, tc.want)) > 1e-6 {
				t.Fatalf("normal of vertex %d = %v, want %v", tc.vertex, got, tc.want)
			}
		})
	}
	t.Run("all unit and outward on a random convex hull", func(t *testing.T) {
		// A flattened octahedron, randomly scaled: normals stay unit and
		// point away from the centre.
		rng := rand.New(rand.NewPCG(3, 3))
		pos := append([]float32(nil), octa...)
		for i := range pos {
			pos[i] *= 0.5 + rng.Float32()
		}
		normals := make([]float32, len(pos))
		vertexNormals(normals, pos, octaTris)
		for i := 0; i < len(pos)/3; i++ {
			n := normalAt(normals, i)
			p := r3.Vec{X: float64(pos[3*i]), Y: float64(pos[3*i+1]), Z: float64(pos[3*i+2])}
			if math.Abs(r3.Norm(n)-1) > 1e-6 || r3.Dot(n, p) <= 0 {
				t.Fatalf("vertex %d: normal %v at %v", i, n, p)
			}
		}
	})
}

func TestQuantileMatchesSorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{1, 2, 3, 10, 101, 1000} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			values := make([]float32, n)
			for i := range values {
				values[i] = float32(rng.IntN(20)) // many ties
			}
			if n > 3 {
				values[1] = float32(math.NaN())
				values[2] = float32(math.Inf(1))
			}
			var finite []float64
			for _, v := range values {
				if !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) {
					finite = append(finite, float64(v))
				}
			}
			sortFloats(finite)
			scratch := make([]float32, n)
			before := append([]float32(nil), values...)
			for _, q := range []float64{0, 0.02, 0.5, 0.98, 1} {
				want := finite[int(math.Round(q*float64(len(finite)-1)))]
				if got := quantile(values, scratch, q); float64(got) != want {
					t.Errorf("q=%v: %v, want %v", q, got, want)
				}
			}
			for i := range values {
				if values[i] != before[i] && !math.IsNaN(float64(values[i])) {
					t.Fatal("quantile modified its input")
				}
			}
		})
	}
	if q := quantile([]float32{float32(math.NaN())}, make([]float32, 1), 0.5); !math.IsNaN(float64(q)) {
		t.Errorf("quantile of no finite value = %v, want NaN", q)
	}
}

// sortFloats is an insertion sort: the reference must not share code
// with the quickselect under test.
func sortFloats(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func TestRangeTracker(t *testing.T) {
	ramp := func(n int, scale float32) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = scale * float32(i) / float32(n-1)
		}
		return v
	}
	scratch := make([]float32, 101)
	t.Run("first update jumps to the robust range", func(t *testing.T) {
		var r rangeTracker
		data := ramp(101, 1)
		data[100] = 1e6 // an outlier above the 98th percentile
		r.update(data, scratch)
		lo, hi := r.bounds()
		if lo != 0.02 || math.Abs(float64(hi-0.98)) > 1e-6 {
			t.Fatalf("range [%v, %v], want [0.02, 0.98]", lo, hi)
		}
	})
	t.Run("widens fast, narrows slowly", func(t *testing.T) {
		var r rangeTracker
		r.update(ramp(101, 1), scratch)
		_, hi0 := r.bounds()
		r.update(ramp(101, 2), scratch)
		_, hi1 := r.bounds()
		wantUp := hi0 + rangeGrow*(2*hi0-hi0)
		if math.Abs(float64(hi1-wantUp)) > 1e-5 {
			t.Fatalf("widened to %v, want %v", hi1, wantUp)
		}
		r.update(ramp(101, 0.5), scratch)
		_, hi2 := r.bounds()
		wantDown := hi1 + rangeShrink*(0.5*hi0-hi1)
		if math.Abs(float64(hi2-wantDown)) > 1e-5 {
			t.Fatalf("narrowed to %v, want %v", hi2, wantDown)
		}
		for i := 0; i < 400; i++ {
			r.update(ramp(101, 0.5), scratch)
		}
		if _, hi := r.bounds(); math.Abs(float64(hi-0.5*hi0)) > 1e-4 {
			t.Fatalf("did not converge: %v, want %v", hi, 0.5*hi0)
		}
	})
	t.Run("constant field gets a positive span", func(t *testing.T) {
		var r rangeTracker
		r.update(make([]float32, 101), scratch)
		if lo, hi := r.bounds(); !(hi > lo) {
			t.Fatalf("range [%v, %v] is empty", lo, hi)
		}
	})
	t.Run("NaN field keeps the range", func(t *testing.T) {
		var r rangeTracker
		r.update(ramp(101, 1), scratch)
		nan := make([]float32, 101)
		for i := range nan {
			nan[i] = float32(math.NaN())
		}
		r.update(nan, scratch)
		if lo, hi := r.bounds(); lo != 0.02 || math.Abs(float64(hi-0.98)) > 1e-6 {
			t.Fatalf("range [%v, %v] changed on NaN data", lo, hi)
		}
	})
}

func TestColourMaps(t *testing.T) {
	t.Run("viridis ends and monotone lightness", func(t *testing.T) {
		lum := func(c [3]float32) float32 { return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2] }
		first, last := Viridis(0), Viridis(1)
		if first != [3]float32{0x44 / 255.0, 0x01 / 255.0, 0x54 / 255.0} || last != [3]float32{0xfd / 255.0, 0xe7 / 255.0, 0x25 / 255.0} {
			t.Fatalf("ends %v %v are not viridis's", first, last)
		}
		prev := float32(-1)
		for i := 0; i <= 100; i++ {
			l := lum(Viridis(float32(i) / 100))
			if l < prev {
				t.Fatalf("luminance falls at t = %v", float32(i)/100)
			}
			prev = l
		}
		if Viridis(-3) != first || Viridis(7) != last || Viridis(float32(math.NaN())) != first {
			t.Fatal("out-of-range inputs are not clamped")
		}
	})
	t.Run("deviation green to red", func(t *testing.T) {
		tests := []struct {
			angle float32
			check func(c [3]float32) bool
		}{
			{0, func(c [3]float32) bool { return c[1] > 0.8 && c[0] < 0.2 }},
			{DeviationFull / 2, func(c [3]float32) bool { return c[0] > 0.9 && c[1] > 0.8 }},
			{DeviationFull, func(c [3]float32) bool { return c[0] > 0.9 && c[1] < 0.2 }},
			{3 * DeviationFull, func(c [3]float32) bool { return c == DeviationColour(DeviationFull) }},
		}
		for _, tc := range tests {
			if c := DeviationColour(tc.angle); !tc.check(c) {
				t.Errorf("DeviationColour(%v rad) = %v", tc.angle, c)
			}
		}
	})
}

func TestNiceStep(t *testing.T) {
	tests := []struct {
		x    float64
		want float32
	}{{0.025, 0.02}, {0.04, 0.05}, {0.08, 0.1}, {1.4, 1}, {3.5, 5}, {0, 1}, {math.Inf(1), 1}}
	for _, tc := range tests {
		if got := niceStep(tc.x); math.Abs(float64(got-tc.want)) > 1e-7 {
			t.Errorf("niceStep(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}

// TestOverlayGeometry checks the contact overlay's vertices against the
// contact: arrows from the point along scale·force with heads at the tip,
// direction segments of the requested length along n⁰ and n, one point
// per contact.
func TestOverlayGeometry(t *testing.T) {
	c := frame.ContactView{
		Point:     [3]float32{0.1, 0.2, 0.3},
		Normal0:   [3]float32{0, 0, 2}, // not unit: the overlay normalises
		Normal:    [3]float32{0, 1, 1},
		Deviation: math.Pi / 4,
		ForceN:    [3]float32{0, 0, 4},
		ForceT:    [3]float32{1, 0, 0},
		State:     stateSlip,
	}
	var o contactOverlay
	p := overlayParams{points: true, forces: true, deviations: true, forceScale: 0.5, directionLength: 0.01, view: r3.Vec{Y: 1}}
	o.build([]frame.ContactView{c}, p)
	if o.lines != 2*3*2+2*2 || o.points != 1 {
		t.Fatalf("%d line and %d point vertices, want 16 and 1", o.lines, o.points)
	}
	vert := func(i int) (r3.Vec, [4]float32) {
		d := o.data[i*lineFloats:]
		return r3.Vec{X: float64(d[0]), Y: float64(d[1]), Z: float64(d[2])}, [4]float32{d[3], d[4], d[5], d[6]}
	}
	pt := vec3(c.Point)
	checks := []struct {
		name   string
		vertex int
		want   r3.Vec
		colour [4]float32
	}{
		{"normal arrow start", 0, pt, colourNormalForce},
		{"normal arrow tip", 1, r3.Add(pt, r3.Vec{Z: 2}), colourNormalForce},
		{"friction arrow tip", 7, r3.Add(pt, r3.Vec{X: 0.5}), colourFrictionForce},
		{"n⁰ segment end", 13, r3.Add(pt, r3.Vec{Z: 0.01}), dimmed(DeviationColour(c.Deviation))},
		{"n segment end", 15, r3.Add(pt, r3.Scale(0.01, r3.Unit(r3.Vec{Y: 1, Z: 1}))), bright(DeviationColour(c.Deviation))},
		{"point", 16, pt, colourSlip},
	}
	for _, ck := range checks {
		got, col := vert(ck.vertex)
		if r3.Norm(r3.Sub(got, ck.want)) > 1e-6 || col != ck.colour {
			t.Errorf("%s: vertex %v colour %v, want %v colour %v", ck.name, got, col, ck.want, ck.colour)
		}
	}
	// The head strokes start at the tip and end 22% back along the shaft.
	tip, _ := vert(1)
	for _, i := range []int{3, 5} {
		end, _ := vert(i)
		back := r3.Dot(r3.Sub(tip, end), r3.Vec{Z: 1})
		if math.Abs(back-0.22*2) > 1e-6 {
			t.Errorf("head stroke %d ends %v back from the tip, want %v", i, back, 0.44)
		}
	}

	// Zero forces and normals draw nothing but the point.
	o.build([]frame.ContactView{{Point: c.Point}}, p)
	if o.lines != 0 || o.points != 1 {
		t.Errorf("empty contact: %d line vertices, %d points", o.lines, o.points)
	}
}

func bright(c [3]float32) [4]float32 { return [4]float32{c[0], c[1], c[2], 1} }
func dimmed(c [3]float32) [4]float32 { return [4]float32{0.5 * c[0], 0.5 * c[1], 0.5 * c[2], 1} }

func BenchmarkVertexNormals(b *testing.B) {
	for _, n := range []int{600, 4056} {
		b.Run(fmt.Sprintf("surfverts=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			pos := make([]float32, 3*n)
			for i := range pos {
				pos[i] = rng.Float32()
			}
			tris := make([]uint32, 3*2*n) // a closed surface has ~2 triangles per vertex
			for i := range tris {
				tris[i] = uint32(rng.IntN(n))
			}
			normals := make([]float32, 3*n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				vertexNormals(normals, pos, tris)
			}
		})
	}
}
