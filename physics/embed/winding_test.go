package embed

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// TestSolidAngle checks the Van Oosterom–Strackee formula on triangles
// whose solid angles are known.
func TestSolidAngle(t *testing.T) {
	o := r3.Vec{}
	e1, e2, e3 := r3.Vec{X: 1}, r3.Vec{Y: 1}, r3.Vec{Z: 1}
	for _, c := range []struct {
		name       string
		q, a, b, c r3.Vec
		want       float64
	}{
		// The octant's triangle: an eighth of the sphere, seen from
		// behind (its normal (1, 1, 1) points away from the origin).
		{"octant from behind", o, e1, e2, e3, math.Pi / 2},
		{"octant from the front", o, e1, e3, e2, -math.Pi / 2},
		{"in its plane", r3.Vec{X: 2, Y: -1}, e1, e2, r3.Vec{X: 1, Y: 1}, 0},
		// A face of the cube [−1, 1]³ (two triangles) seen from the
		// centre: a sixth of the sphere; this is one of its halves.
		{"half a cube face", o, r3.Vec{X: -1, Y: -1, Z: 1}, r3.Vec{X: 1, Y: -1, Z: 1}, r3.Vec{X: 1, Y: 1, Z: 1}, 4 * math.Pi / 12},
		// Far away: the area times the cosine over the squared distance.
		{"far", r3.Vec{Z: -1000}, r3.Vec{}, r3.Vec{X: 1}, r3.Vec{Y: 1}, 0.5 / 1e6},
	} {
		got := SolidAngle(c.q, c.a, c.b, c.c)
		if math.Abs(got-c.want) > 1e-12+1e-5*math.Abs(c.want) {
			t.Errorf("%s: Ω = %.15g, want %.15g", c.name, got, c.want)
		}
	}
}

// TestWindingNumber: on a closed bumpy sphere the winding number is 1
// inside and 0 outside, and the tree agrees with the exact sum to 0.1
// everywhere (its second-order expansions at β = 2 err by up to 0.07 on
// this surface, most at the centre, where every far node's error adds up:
// far less than the margin of 1/2 that separates inside from outside);
// removing triangles leaves a value between 0 and 1 near the hole.
func TestWindingNumber(t *testing.T) {
	s := icosphere(4, 1, r3.Vec{}, 0.1)
	tree := newWindingTree(s)
	rng := rand.New(rand.NewPCG(1, 2))
	var worst float64
	var stack []int
	for range 2000 {
		d := r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
		q := r3.Scale(2*rng.Float64(), d)
		exact := tree.exact(q)
		var fast float64
		fast, stack = tree.at(q, stack)
		worst = math.Max(worst, math.Abs(fast-exact))
		// Points well inside or outside: near 0 or 1.
		if r := r3.Norm(q); r < 0.8 && math.Abs(exact-1) > 1e-9 || r > 1.2 && math.Abs(exact) > 1e-9 {
			t.Errorf("w(%v) = %g at radius %g", q, exact, r)
		}
	}
	t.Logf("%d triangles, %d tree nodes: largest |fast − exact| = %.2g", len(s.Tris), len(tree.tree), worst)
	if worst > 0.1 {
		t.Errorf("the tree's winding number differs from the exact one by %g", worst)
	}
	holed := withHoles(s, r3.Vec{}, r3.Vec{Z: 1})
	h := newWindingTree(holed)
	if w := h.exact(r3.Vec{}); math.Abs(w-1) > 0.01 {
		t.Errorf("a small hole: w at the centre is %g, want about 1", w)
	}
	if w := h.exact(r3.Vec{Z: 1.1}); w <= 0 || w >= 1 {
		t.Errorf("at the hole: w = %g, want between 0 and 1", w)
	}
}

// TestTriBoxOverlap: the separating axis test against the box of centre 0
// and half size 1/2.
func TestTriBoxOverlap(t *testing.T) {
	c, e := [3]float64{}, [3]float64{0.5, 0.5, 0.5}
	for _, k := range []struct {
		name string
		v    [3][3]float64
		want bool
	}{
		{"inside", [3][3]float64{{0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0}}, true},
		{"far", [3][3]float64{{3, 3, 3}, {4, 3, 3}, {3, 4, 3}}, false},
		{"through, corners outside", [3][3]float64{{-5, -5, 0.2}, {5, -5, 0.2}, {0, 5, 0.2}}, true},
		{"touching a face", [3][3]float64{{-1, -1, 0.5}, {1, -1, 0.5}, {0, 1, 0.5}}, true},
		{"just above a face", [3][3]float64{{-1, -1, 0.5001}, {1, -1, 0.5001}, {0, 1, 0.5001}}, false},
		// The plane x + y = 1.6 misses the box (x + y ≤ 1 in it), though
		// the triangle's bounding box overlaps it.
		{"beyond an edge, by the normal", [3][3]float64{{1.6, 0, -0.3}, {0, 1.6, -0.3}, {0.8, 0.8, 0.3}}, false},
		// A sliver along the line x = y, z = 0.9 + ... crossing above
		// the box's edge: separated by an edge × axis direction.
		{"beyond an edge, by an edge axis", [3][3]float64{{0.6, -0.6, 0.7}, {-0.6, 0.6, 0.7}, {0.7, 0.7, 2}}, false},
	} {
		if got := triBoxOverlap(c, e, k.v); got != k.want {
			t.Errorf("%s: overlap %v, want %v", k.name, got, k.want)
		}
	}
	// Random triangles: when a sample of the triangle lies in the box, the
	// test must say they overlap.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var v [3][3]float64
		for i := range 3 {
			for a := range 3 {
				v[i][a] = 2 * (rng.Float64() - 0.5) * 1.5
			}
		}
		in := false
		for s := 0; s <= 10 && !in; s++ {
			for r := 0; r <= 10-s && !in; r++ {
				u, w := float64(s)/10, float64(r)/10
				ok := true
				for a := range 3 {
					x := (1-u-w)*v[0][a] + u*v[1][a] + w*v[2][a]
					ok = ok && math.Abs(x) <= 0.5
				}
				in = ok
			}
		}
		if in && !triBoxOverlap(c, e, v) {
			t.Fatalf("triangle %v has a point in the box but the test says no overlap", v)
		}
	}
}

// TestSolidByWinding: the cells whose centre has |w| ≥ 1/2 fill the solid
// of dirty surfaces to within a few per cent of its volume on a fine grid
// (a hole, two overlapping balls where w = 2, a ball inside out), and the
// block-by-block evaluation classifies every cell as the cell-by-cell one.
func TestSolidByWinding(t *testing.T) {
	const r = 1.0
	ball := icosphere(4, r, r3.Vec{}, 0)
	lens := math.Pi * (4*r + r) * (2*r - r) * (2*r - r) / 12
	for _, c := range []struct {
		name   string
		surf   *mesh.TriSurface
		volume float64
	}{
		{"ball", ball, ball.Volume()},
		{"ball with three holes", withHoles(ball, r3.Vec{}, r3.Vec{X: 1}, r3.Vec{Y: 1}, r3.Vec{Z: -1}), ball.Volume()},
		{"two overlapping balls", union(ball, icosphere(4, r, r3.Vec{X: r}, 0)), 2*sphereVolume(r) - lens},
		{"ball inside out", turned(ball), ball.Volume()},
	} {
		t.Run(c.name, func(t *testing.T) {
			tree := newWindingTree(c.surf)
			g := newGrid(c.surf.Bounds(), r/12)
			crossed := g.crossedCells(c.surf)
			all := make([]bool, g.cells())
			for i := range all {
				all[i] = true
			}
			w := g.windings(tree, all)
			blocks := g.windingsAway(tree, crossed, 0.5)
			var vol float64
			cell := g.h[0] * g.h[1] * g.h[2]
			for i, wi := range w {
				if math.Abs(wi) >= 0.5 {
					vol += cell
				}
				if crossed[i] || math.Abs(math.Abs(wi)-0.5) < 0.1 {
					continue
				}
				if (math.Abs(wi) >= 0.5) != (math.Abs(blocks[i]) >= 0.5) {
					t.Fatalf("cell %d: w = %g cell by cell, %g by blocks", i, wi, blocks[i])
				}
			}
			t.Logf("%d cells: solid of %.4f, want %.4f", g.cells(), vol, c.volume)
			if math.Abs(vol/c.volume-1) > 0.03 {
				t.Errorf("the cells inside hold %.4f, the solid %.4f", vol, c.volume)
			}
		})
	}
}
