package rigid

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// region names the Voronoi region of a closest point from its weights:
// 0–2 the vertices, 3–5 the edges opposite vertices 0–2, 6 the face.
func region(w [3]float64) int {
	var zeros []int
	for k, wk := range w {
		if wk == 0 {
			zeros = append(zeros, k)
		}
	}
	switch len(zeros) {
	case 2:
		return 3 - zeros[0] - zeros[1]
	case 1:
		return 3 + zeros[0]
	}
	return 6
}

func TestClosestOnTriangleBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	unit := r3.Box{Min: r3.Vec{X: -1, Y: -1, Z: -1}, Max: r3.Vec{X: 1, Y: 1, Z: 1}}
	const n = 300 // barycentric grid resolution of the brute force
	var hits [7]int
	for tri := 0; tri < 20; tri++ {
		a, b, c := randIn(rng, unit), randIn(rng, unit), randIn(rng, unit)
		grid := sampleTriangle(nil, a, b, c, n)
		// Largest grid cell edge / √3 bounds the distance from any point of
		// the triangle to the grid.
		gap := max(r3.Norm(r3.Sub(b, a)), r3.Norm(r3.Sub(c, a)), r3.Norm(r3.Sub(c, b))) / n
		for i := 0; i < 40; i++ {
			x := randIn(rng, r3.Box{Min: r3.Scale(2, unit.Min), Max: r3.Scale(2, unit.Max)})
			p, w := ClosestOnTriangle(x, a, b, c)
			hits[region(w)]++
			if !near(w[0]+w[1]+w[2], 1, 1e-14) || w[0] < 0 || w[1] < 0 || w[2] < 0 {
				t.Fatalf("weights %v are not barycentric", w)
			}
			recon := r3.Add(r3.Scale(w[0], a), r3.Add(r3.Scale(w[1], b), r3.Scale(w[2], c)))
			if !nearVec(recon, p, 1e-12) {
				t.Fatalf("weights %v give %v, point is %v", w, recon, p)
			}
			d, brute := r3.Norm(r3.Sub(x, p)), bruteDistance(x, grid)
			if d > brute+1e-12 || d < brute-gap {
				t.Fatalf("distance %g, brute force %g (gap %g)", d, brute, gap)
			}
		}
	}
	for r, h := range hits {
		if h == 0 {
			t.Errorf("no random point fell in region %d: the test does not cover it", r)
		}
	}
}

func TestClosestOnTriangleRegions(t *testing.T) {
	a, b, c := r3.Vec{}, r3.Vec{X: 2}, r3.Vec{Y: 2}
	tests := []struct {
		name  string
		x     r3.Vec
		wantP r3.Vec
		wantW [3]float64
	}{
		{"vertex a", r3.Vec{X: -1, Y: -1, Z: 1}, a, [3]float64{1, 0, 0}},
		{"vertex b", r3.Vec{X: 3, Y: -0.5}, b, [3]float64{0, 1, 0}},
		{"vertex c", r3.Vec{X: -0.2, Y: 3, Z: -2}, c, [3]float64{0, 0, 1}},
		{"edge ab", r3.Vec{X: 0.5, Y: -1, Z: 0.3}, r3.Vec{X: 0.5}, [3]float64{0.75, 0.25, 0}},
		{"edge ac", r3.Vec{X: -3, Y: 1.5}, r3.Vec{Y: 1.5}, [3]float64{0.25, 0, 0.75}},
		{"edge bc", r3.Vec{X: 2, Y: 2, Z: 1}, r3.Vec{X: 1, Y: 1}, [3]float64{0, 0.5, 0.5}},
		{"face", r3.Vec{X: 0.5, Y: 0.25, Z: -4}, r3.Vec{X: 0.5, Y: 0.25}, [3]float64{0.625, 0.25, 0.125}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, w := ClosestOnTriangle(tc.x, a, b, c)
			if !nearVec(p, tc.wantP, 1e-14) {
				t.Fatalf("point %v, want %v", p, tc.wantP)
			}
			for k := range w {
				if !near(w[k], tc.wantW[k], 1e-14) {
					t.Fatalf("weights %v, want %v", w, tc.wantW)
				}
			}
		})
	}
}

func TestClosestOnDegenerateTriangle(t *testing.T) {
	tests := []struct {
		name    string
		a, b, c r3.Vec
		x       r3.Vec
		wantP   r3.Vec
	}{
		{"collinear", r3.Vec{}, r3.Vec{X: 1}, r3.Vec{X: 3}, r3.Vec{X: 2, Y: 1}, r3.Vec{X: 2}},
		{"coincident pair", r3.Vec{}, r3.Vec{}, r3.Vec{Y: 2}, r3.Vec{X: 1, Y: 1}, r3.Vec{Y: 1}},
		{"all coincident", r3.Vec{Z: 1}, r3.Vec{Z: 1}, r3.Vec{Z: 1}, r3.Vec{X: 1}, r3.Vec{Z: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, w := ClosestOnTriangle(tc.x, tc.a, tc.b, tc.c)
			if !nearVec(p, tc.wantP, 1e-14) {
				t.Fatalf("point %v, want %v", p, tc.wantP)
			}
			if s := w[0] + w[1] + w[2]; !near(s, 1, 1e-14) || math.IsNaN(s) {
				t.Fatalf("weights %v do not sum to 1", w)
			}
			recon := r3.Add(r3.Scale(w[0], tc.a), r3.Add(r3.Scale(w[1], tc.b), r3.Scale(w[2], tc.c)))
			if !nearVec(recon, p, 1e-14) {
				t.Fatalf("weights %v give %v, point is %v", w, recon, p)
			}
		})
	}
}
