package mesh

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// checkHull verifies that h is a closed convex triangulation holding every
// point: each triangle's neighbours point back at it across the same edge,
// every point lies on or below every face's plane, V − E + F = 2, and the
// hull's volume is want (when want > 0).
func checkHull(t *testing.T, h *Hull, want float64) {
	t.Helper()
	used := map[int]bool{}
	for i, tri := range h.Tris {
		for k := 0; k < 3; k++ {
			used[tri[k]] = true
			j := h.Adj[i][k]
			if j < 0 {
				t.Fatalf("triangle %d has no neighbour across edge %d", i, k)
			}
			a, b := tri[k], tri[(k+1)%3]
			back := false
			for m := 0; m < 3; m++ {
				if h.Tris[j][m] == b && h.Tris[j][(m+1)%3] == a && h.Adj[j][m] == i {
					back = true
				}
			}
			if !back {
				t.Fatalf("triangle %d's neighbour %d does not share edge %d→%d back", i, j, a, b)
			}
		}
	}
	scale := 0.0
	for _, p := range h.Points {
		scale = math.Max(scale, r3.Norm(p))
	}
	for i := range h.Tris {
		n := h.normal(i)
		d := r3.Dot(n, h.Points[h.Tris[i][0]])
		for j, p := range h.Points {
			if r3.Dot(n, p)-d > 1e-8*scale {
				t.Fatalf("point %d lies %.3g above hull triangle %d", j, r3.Dot(n, p)-d, i)
			}
		}
	}
	if v, e, f := len(used), 3*len(h.Tris)/2, len(h.Tris); v-e+f != 2 {
		t.Errorf("V − E + F = %d − %d + %d ≠ 2", v, e, f)
	}
	if want > 0 {
		vol := 0.0
		for _, tri := range h.Tris {
			vol += SignedVolume(r3.Vec{}, h.Points[tri[0]], h.Points[tri[1]], h.Points[tri[2]])
		}
		if math.Abs(vol-want) > 1e-9*want {
			t.Errorf("hull volume %.12g, want %.12g", vol, want)
		}
	}
}

// gridBox returns the points of an a × b × c box's surface on a grid of n
// cells an edge (coplanar points by the hundred) and its interior centre.
func gridBox(a, b, c float64, n int) []r3.Vec {
	var p []r3.Vec
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			for k := 0; k <= n; k++ {
				if i == 0 || j == 0 || k == 0 || i == n || j == n || k == n {
					p = append(p, r3.Vec{X: a * (float64(i)/float64(n) - 0.5), Y: b * (float64(j)/float64(n) - 0.5), Z: c * float64(k) / float64(n)})
				}
			}
		}
	}
	return p
}

func TestConvexHull(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ball := make([]r3.Vec, 2000)
	for i := range ball {
		v := r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		ball[i] = r3.Scale(math.Cbrt(rng.Float64()), r3.Unit(v))
	}
	sphere := make([]r3.Vec, 500)
	for i := range sphere {
		sphere[i] = r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
	}
	tests := []struct {
		name   string
		points []r3.Vec
		volume float64 // 0: not checked
	}{
		{"grid box", gridBox(2, 3, 4, 8), 24},
		{"random ball", ball, 0},
		{"points on a sphere", sphere, 0},
		{"tetrahedron and inner points", []r3.Vec{{}, {X: 1}, {Y: 1}, {Z: 1}, {X: 0.1, Y: 0.1, Z: 0.1}, {X: 0.2, Y: 0.2, Z: 0.1}}, 1.0 / 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := ConvexHull(tc.points)
			if err != nil {
				t.Fatal(err)
			}
			checkHull(t, h, tc.volume)
		})
	}
}

func TestConvexHullFlat(t *testing.T) {
	for _, p := range [][]r3.Vec{
		{{}, {X: 1}, {Y: 1}},
		{{}, {X: 1}, {X: 2}, {X: 3}, {X: 4}},
		{{}, {X: 1}, {Y: 1}, {X: 1, Y: 1}, {X: 0.5, Y: 0.3}},
	} {
		if _, err := ConvexHull(p); err != ErrFlatHull {
			t.Errorf("%d points: err %v, want ErrFlatHull", len(p), err)
		}
	}
}

// TestRestOn puts boxes down and checks the face they end on: a box put
// down on any side rests there, with the margin the half side and the
// height the centre's; put down with the down direction 30° and 70° off
// its bottom it lands on the face the ray from its centre leaves through;
// a prism put down on a side its centre of mass does not project onto
// rolls onto the next.
func TestRestOn(t *testing.T) {
	box := gridBox(2, 3, 4, 4) // bottom at z = 0
	c := r3.Vec{Z: 2}
	h, err := ConvexHull(box)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := h.RestOn(c, r3.Vec{Z: -1})
	if !ok || r.Rolls != 0 || math.Abs(r.Normal.Z+1) > 1e-12 || math.Abs(r.Margin-1) > 1e-12 || math.Abs(r.Height-2) > 1e-12 {
		t.Errorf("down −z: %+v, %v; want normal −z, margin 1, height 2, no roll", r, ok)
	}
	if r, _ := h.RestOn(c, r3.Vec{X: 1}); math.Abs(r.Normal.X-1) > 1e-12 || math.Abs(r.Margin-1.5) > 1e-12 {
		t.Errorf("down +x: %+v; want normal +x and margin 1.5 (the smaller half side of the 3 × 4 face)", r)
	}
	// Down tilted 30° from −z towards −y: the ray leaves through the
	// bottom, where c projects inside: no roll.
	tilt := 30 * math.Pi / 180
	if r, _ := h.RestOn(c, r3.Vec{Y: -math.Sin(tilt), Z: -math.Cos(tilt)}); r.Rolls != 0 || math.Abs(r.Normal.Z+1) > 1e-12 {
		t.Errorf("down 30° off −z: %+v; want the bottom", r)
	}
	// Down 70° off −z: the ray leaves through the −y side (3 wide, 4
	// tall, centre 1.5 above it), where c projects inside.
	tilt = 70 * math.Pi / 180
	if r, _ := h.RestOn(c, r3.Vec{Y: -math.Sin(tilt), Z: -math.Cos(tilt)}); math.Abs(r.Normal.Y+1) > 1e-12 {
		t.Errorf("down 70° off −z: %+v; want the −y side", r)
	}
	// A prism over the obtuse triangle (0, 0), (10, 0), (11, 1) in x–z,
	// 2 deep in y, its centre of mass at the triangle's centroid (7, 1/3):
	// put down on its short side (the ray from the centre leaves through
	// it), the centre projects beyond the side's lower edge, and it rolls
	// over that edge onto its bottom, where the centre's margin is the
	// half depth.
	var prism []r3.Vec
	for _, y := range []float64{-1, 1} {
		for _, xz := range [][2]float64{{0, 0}, {10, 0}, {11, 1}} {
			prism = append(prism, r3.Vec{X: xz[0], Y: y, Z: xz[1]})
		}
	}
	hp, err := ConvexHull(prism)
	if err != nil {
		t.Fatal(err)
	}
	r, ok = hp.RestOn(r3.Vec{X: 7, Z: 1.0 / 3}, r3.Unit(r3.Vec{X: 1, Z: 0.05}))
	if !ok || r.Rolls != 1 || math.Abs(r.Normal.Z+1) > 1e-12 || math.Abs(r.Margin-1) > 1e-12 {
		t.Errorf("the prism put down on its short side: %+v, %v; want one roll onto the bottom, margin 1", r, ok)
	}
	if n := len(h.Rests(c)); n != 6 {
		t.Errorf("a box rests on %d faces, want 6", n)
	}
}

// TestRestsOfEllipsoid checks the basins of a curved body: an ellipsoid of
// semi-axes 3, 2 and 1 rests on its flat sides (±z), from which it must be
// tilted until its centre is over the middle axis's end, acos(1/2) = 60°,
// before it rolls onto another rest; put down on its long end it rolls
// onto a flat side. 4000 points on its surface give the hull's faces.
func TestRestsOfEllipsoid(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := make([]r3.Vec, 4000)
	for i := range p {
		u := r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
		p[i] = r3.Vec{X: 3 * u.X, Y: 2 * u.Y, Z: u.Z}
	}
	h, err := ConvexHull(p)
	if err != nil {
		t.Fatal(err)
	}
	best := 0.0
	for _, r := range h.Rests(r3.Vec{}) {
		best = math.Max(best, r.TipAngle())
	}
	if deg := best * 180 / math.Pi; math.Abs(deg-60) > 2 {
		t.Errorf("largest tip angle %.2f°, want 60° ± 2°", deg)
	}
	r, ok := h.RestOn(r3.Vec{}, r3.Vec{X: 1})
	if !ok || r.Rolls == 0 || math.Abs(r.Normal.Z) < 0.99 {
		t.Errorf("put down on its long end: %+v, %v; want a roll onto a flat side", r, ok)
	}
	if deg := r.TipAngle() * 180 / math.Pi; math.Abs(deg-60) > 2 {
		t.Errorf("the flat side it rolled onto has a tip angle of %.2f°, want 60° ± 2°", deg)
	}
}
