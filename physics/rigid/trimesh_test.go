package rigid

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// prism extrudes a counter-clockwise polygon (z = 0) to height h, with the
// caps triangulated as a fan from corner fan (which must see the whole
// polygon).
func prism(poly [][2]float64, h float64, fan int) ([]r3.Vec, [][3]int) {
	n := len(poly)
	var verts []r3.Vec
	for _, z := range []float64{0, h} {
		for _, p := range poly {
			verts = append(verts, r3.Vec{X: p[0], Y: p[1], Z: z})
		}
	}
	var tris [][3]int
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		tris = append(tris, [3]int{i, j, n + j}, [3]int{i, n + j, n + i})
	}
	for k := 1; k < n-1; k++ {
		a, b := (fan+k)%n, (fan+k+1)%n
		tris = append(tris, [3]int{n + fan, n + a, n + b}, [3]int{fan, b, a})
	}
	return verts, tris
}

// lShape is the L-shaped polygon [0,2]×[0,1] ∪ [0,1]×[0,2]; its reflex
// corner (1, 1) is index 3.
var lShape = [][2]float64{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}

func insideL(x r3.Vec) bool {
	if x.Z < 0 || x.Z > 1 || x.X < 0 || x.Y < 0 {
		return false
	}
	return (x.X <= 2 && x.Y <= 1) || (x.X <= 1 && x.Y <= 2)
}

func TestTriangleMeshMatchesBox(t *testing.T) {
	// A welded box mesh is convex: its exact signed distance is the Box's.
	h := r3.Vec{X: 0.5, Y: 1, Z: 0.25}
	box, _ := NewBox(h, 0)
	bv, bt := box.Triangulate()
	verts, tris := weld(bv, bt, 1e-12)
	m, err := NewTriangleMesh(verts, tris)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	q := r3.Box{Min: r3.Scale(-1.5, h), Max: r3.Scale(1.5, h)}
	for i := 0; i < 500; i++ {
		x := randIn(rng, q)
		_, _, want := box.Closest(x)
		_, _, got := m.Closest(x)
		if !near(got, want, 1e-12) {
			t.Fatalf("x=%v: mesh distance %g, box %g", x, got, want)
		}
		checkClosestConsistent(t, m, x, 1, true)
	}
	// Points exactly on corners and edges take the sign of the
	// pseudo-normals; just off them they must be outside.
	for _, c := range box.Vertices() {
		off := r3.Add(c, r3.Scale(1e-9, r3.Unit(c)))
		if _, _, d := m.Closest(off); !(d > 0) {
			t.Fatalf("point just outside corner %v has distance %g", c, d)
		}
	}
}

func TestTriangleMeshSurfaceNormals(t *testing.T) {
	// On the surface the normal is the feature's pseudo-normal: the face
	// normal inside a face (and on the diagonals that split a face), the
	// bisector of the two faces on a box edge, and (±1, ±1, ±1)/√3 at a
	// corner, where each face contributes its normal weighted by its total
	// angle π/2 at the corner whatever the triangulation.
	h := r3.Vec{X: 0.5, Y: 1, Z: 0.25}
	box, _ := NewBox(h, 0)
	bv, bt := box.Triangulate()
	verts, tris := weld(bv, bt, 1e-12)
	m, err := NewTriangleMesh(verts, tris)
	if err != nil {
		t.Fatal(err)
	}
	sgn := func(v, hv float64) float64 {
		if v == hv {
			return 1
		}
		if v == -hv {
			return -1
		}
		return 0
	}
	for _, tri := range tris {
		for k := 0; k < 3; k++ {
			for _, s := range []float64{0, 0.5} {
				// s = 0: the corner; s = 0.5: the middle of edge k.
				a, b := verts[tri[k]], verts[tri[(k+1)%3]]
				x := r3.Add(a, r3.Scale(s, r3.Sub(b, a)))
				want := r3.Unit(r3.Vec{X: sgn(x.X, h.X), Y: sgn(x.Y, h.Y), Z: sgn(x.Z, h.Z)})
				p, n, d := m.Closest(x)
				if d != 0 || !nearVec(p, x, 0) || !nearVec(n, want, 1e-12) {
					t.Fatalf("surface point %v: (p, n, d) = (%v, %v, %g), want normal %v", x, p, n, d, want)
				}
			}
		}
	}
}

func TestTriangleMeshNonConvex(t *testing.T) {
	verts, tris := prism(lShape, 1, 3)
	m, err := NewTriangleMesh(verts, tris)
	if err != nil {
		t.Fatal(err)
	}
	var samples []r3.Vec
	const n = 80
	for _, tri := range tris {
		samples = sampleTriangle(samples, verts[tri[0]], verts[tri[1]], verts[tri[2]], n)
	}
	gap := 2 * math.Sqrt2 / n // longest edge (the diagonal of a 1×2 face) over n
	rng := rand.New(rand.NewPCG(9, 10))
	q := r3.Box{Min: r3.Vec{X: -0.5, Y: -0.5, Z: -0.5}, Max: r3.Vec{X: 2.5, Y: 2.5, Z: 1.5}}
	for i := 0; i < 300; i++ {
		x := randIn(rng, q)
		checkAgainstSamples(t, m, x, samples, gap, insideL(x))
		checkClosestConsistent(t, m, x, 1, false)
	}
	// Near the reflex edge x = y = 1: inside points whose closest point is
	// the edge itself, and outside points in the notch.
	tests := []struct {
		name   string
		x      r3.Vec
		wantD  float64
		inside bool
	}{
		{"inside behind reflex edge", r3.Vec{X: 0.9, Y: 0.9, Z: 0.5}, -0.1 * math.Sqrt2, true},
		{"outside in the notch", r3.Vec{X: 1.2, Y: 1.1, Z: 0.5}, 0.1, false},
		{"outside on the bisector", r3.Vec{X: 1.3, Y: 1.3, Z: 0.5}, 0.3, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, d := m.Closest(tc.x)
			if !near(d, tc.wantD, 1e-12) {
				t.Fatalf("d = %g, want %g", d, tc.wantD)
			}
		})
	}
}

func TestTriangleMeshValidation(t *testing.T) {
	verts, tris := prism(lShape, 1, 3)
	flipped := make([][3]int, len(tris))
	for i, tri := range tris {
		flipped[i] = [3]int{tri[0], tri[2], tri[1]}
	}
	tests := []struct {
		name  string
		verts []r3.Vec
		tris  [][3]int
		want  string
	}{
		{"open", verts, tris[1:], "edge"},
		{"index out of range", verts, append([][3]int{{0, 1, 99}}, tris[1:]...), "out of range"},
		{"inward", verts, flipped, "counter-clockwise"},
		{"degenerate", append(append([]r3.Vec(nil), verts...), r3.Vec{X: 3}), append(append([][3]int(nil), tris...), [3]int{0, 1, 12}), "degenerate"},
		{"too small", verts[:3], [][3]int{{0, 1, 2}}, "at least 4"},
		{"NaN vertex", append([]r3.Vec{{X: math.NaN()}}, verts[1:]...), tris, "not finite"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewTriangleMesh(tc.verts, tc.tris)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	var zero TriangleMesh
	if _, _, d := zero.Closest(r3.Vec{}); !math.IsInf(d, 1) {
		t.Errorf("the zero TriangleMesh reports distance %g, want +Inf", d)
	}
	if zero.Validate() == nil {
		t.Error("the zero TriangleMesh validates")
	}
}

func TestTriangleMeshTriangulate(t *testing.T) {
	verts, tris := prism(lShape, 1, 3)
	m, err := NewTriangleMesh(verts, tris)
	if err != nil {
		t.Fatal(err)
	}
	v, tr := m.Triangulate()
	if vol := checkClosedOutward(t, v, tr); !near(vol, 3, 1e-12) {
		t.Fatalf("L-prism volume %g, want 3", vol)
	}
	// The samples: the 12 corners (each on a feature edge), then the
	// points along the 18 feature edges (the prism's: its faces meet at a
	// right angle there; the caps' diagonals join coplanar triangles) that
	// split them into pieces no longer than DefaultEdgeSpacing, all on the
	// surface.
	samples := m.Vertices()
	want, features := len(verts), 0
	faces := map[[2]int][]int{}
	for t, tri := range tris {
		for k := 0; k < 3; k++ {
			a, b := tri[k], tri[(k+1)%3]
			faces[[2]int{min(a, b), max(a, b)}] = append(faces[[2]int{min(a, b), max(a, b)}], t)
		}
	}
	normal := func(t int) r3.Vec {
		a, b, c := verts[tris[t][0]], verts[tris[t][1]], verts[tris[t][2]]
		return r3.Unit(r3.Cross(r3.Sub(b, a), r3.Sub(c, a)))
	}
	for e, f := range faces {
		if r3.Dot(normal(f[0]), normal(f[1])) < 0.5 { // 90° here, 0° on a cap
			features++
			want += segmentCount(r3.Norm(r3.Sub(verts[e[0]], verts[e[1]])), DefaultEdgeSpacing) - 1
		}
	}
	if features != 18 || len(samples) != want {
		t.Fatalf("%d samples over %d feature edges, want %d over 18", len(samples), features, want)
	}
	for i, v := range verts {
		if samples[i] != v {
			t.Fatalf("sample %d = %v, want the corner %v", i, samples[i], v)
		}
	}
	for i, x := range samples {
		if _, _, d := m.Closest(x); math.Abs(d) > 1e-12 {
			t.Fatalf("sample %d = %v lies %g off the surface", i, x, d)
		}
	}
}

// TestTriangleMeshSamplesFeaturesOnly: a box face tessellated on a grid
// (the rigid meshes users bring) adds no samples inside its flat faces.
func TestTriangleMeshSamplesFeaturesOnly(t *testing.T) {
	verts, tris := gridBoxMesh(4)
	m, err := NewTriangleMesh(verts, tris)
	if err != nil {
		t.Fatal(err)
	}
	box, _ := NewBox(r3.Vec{X: 0.5, Y: 0.5, Z: 0.5}, 0)
	// The same corners and edge points as the analytic box of the same
	// size (in some order), none from the faces' inner vertices.
	got, want := len(m.Vertices()), len(box.Vertices())
	for _, x := range m.Vertices() {
		onEdge := 0
		for _, c := range []float64{x.X, x.Y, x.Z} {
			if math.Abs(math.Abs(c)-0.5) < 1e-12 {
				onEdge++
			}
		}
		if onEdge < 2 {
			t.Fatalf("sample %v lies inside a face", x)
		}
	}
	if got != want {
		t.Fatalf("%d samples, the analytic box has %d", got, want)
	}
}

// TestTriangleMeshMassProperties: the L-prism's volume, centroid and
// inertia about the centroid against those of its two boxes combined
// (parallel-axis theorem).
func TestTriangleMeshMassProperties(t *testing.T) {
	verts, tris := prism(lShape, 1, 3)
	m, err := NewTriangleMesh(verts, tris)
	if err != nil {
		t.Fatal(err)
	}
	vol, c, I := m.MassProperties()
	// lShape: the boxes [0,2]×[0,1] and [0,1]×[1,2] (area 3), extruded by
	// the prism's height; their centroids and inertias combined.
	x0, y0, z0, h := lShapeBoxes()
	var wantI [9]float64
	wantC := r3.Vec{}
	total := 0.0
	for i := range x0 {
		v := x0[i][1] * y0[i][1] * h
		total += v
		cc := r3.Vec{X: x0[i][0] + x0[i][1]/2, Y: y0[i][0] + y0[i][1]/2, Z: z0 + h/2}
		wantC = r3.Add(wantC, r3.Scale(v, cc))
	}
	wantC = r3.Scale(1/total, wantC)
	for i := range x0 {
		a, b := x0[i][1], y0[i][1]
		v := a * b * h
		cc := r3.Vec{X: x0[i][0] + a/2, Y: y0[i][0] + b/2, Z: z0 + h/2}
		d := r3.Sub(cc, wantC)
		own := [3]float64{v * (b*b + h*h) / 12, v * (a*a + h*h) / 12, v * (a*a + b*b) / 12}
		dd := [3]float64{d.X, d.Y, d.Z}
		for r := 0; r < 3; r++ {
			for q := 0; q < 3; q++ {
				shift := -v * dd[r] * dd[q]
				if r == q {
					shift += v*r3.Norm2(d) + own[r]
				}
				wantI[3*r+q] += shift
			}
		}
	}
	if !near(vol, total, 1e-12) || r3.Norm(r3.Sub(c, wantC)) > 1e-12 {
		t.Fatalf("volume %g centroid %v, want %g %v", vol, c, total, wantC)
	}
	for k := range I {
		if math.Abs(I[k]-wantI[k]) > 1e-12 {
			t.Fatalf("inertia %v, want %v", I, wantI)
		}
	}
}

// lShapeBoxes splits prism(lShape, 1, ·) into two boxes: each one's x and
// y start and width, and their common z start and height.
func lShapeBoxes() (x, y [2][2]float64, z0, h float64) {
	return [2][2]float64{{0, 2}, {0, 1}}, [2][2]float64{{0, 1}, {1, 1}}, 0, 1
}

// gridBoxMesh is the unit cube centred at the origin with each face split
// into n × n squares of two triangles, welded, outward.
func gridBoxMesh(n int) ([]r3.Vec, [][3]int) {
	var verts []r3.Vec
	var tris [][3]int
	at := func(a int, c [3]float64) r3.Vec { return r3.Vec{X: c[0], Y: c[1], Z: c[2]} }
	for a := 0; a < 3; a++ {
		u, v := (a+1)%3, (a+2)%3 // e_u × e_v = e_a
		for _, s := range []float64{-0.5, 0.5} {
			base := len(verts)
			for i := 0; i <= n; i++ {
				for j := 0; j <= n; j++ {
					var c [3]float64
					c[a], c[u], c[v] = s, -0.5+float64(i)/float64(n), -0.5+float64(j)/float64(n)
					verts = append(verts, at(a, c))
				}
			}
			id := func(i, j int) int { return base + i*(n+1) + j }
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					t1 := [3]int{id(i, j), id(i+1, j), id(i+1, j+1)}
					t2 := [3]int{id(i, j), id(i+1, j+1), id(i, j+1)}
					if s < 0 {
						t1[1], t1[2] = t1[2], t1[1]
						t2[1], t2[2] = t2[2], t2[1]
					}
					tris = append(tris, t1, t2)
				}
			}
		}
	}
	return weld(verts, tris, 1e-12)
}
