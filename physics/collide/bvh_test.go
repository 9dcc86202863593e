package collide

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// triangleSoup returns n small random triangles in the unit cube, each
// with its own three nodes.
func triangleSoup(rng *rand.Rand, n int) ([][3]int, []float64) {
	tris := make([][3]int, n)
	q := make([]float64, 0, 9*n)
	for t := range tris {
		c := r3.Vec{X: rng.Float64(), Y: rng.Float64(), Z: rng.Float64()}
		for k := 0; k < 3; k++ {
			q = append(q, c.X+0.05*rng.NormFloat64(), c.Y+0.05*rng.NormFloat64(), c.Z+0.05*rng.NormFloat64())
			tris[t][k] = 3*t + k
		}
	}
	return tris, q
}

// bruteQuery returns the triangles whose bounding boxes meet box.
func bruteQuery(tris [][3]int, q []float64, box r3.Box) []int {
	var out []int
	for t, tri := range tris {
		a, b, c := node(q, tri[0]), node(q, tri[1]), node(q, tri[2])
		tb := r3.Box{
			Min: r3.Vec{X: min(a.X, b.X, c.X), Y: min(a.Y, b.Y, c.Y), Z: min(a.Z, b.Z, c.Z)},
			Max: r3.Vec{X: max(a.X, b.X, c.X), Y: max(a.Y, b.Y, c.Y), Z: max(a.Z, b.Z, c.Z)},
		}
		// Closed intervals on all three axes.
		if tb.Min.X <= box.Max.X && box.Min.X <= tb.Max.X && tb.Min.Y <= box.Max.Y &&
			box.Min.Y <= tb.Max.Y && tb.Min.Z <= box.Max.Z && box.Min.Z <= tb.Max.Z {
			out = append(out, t)
		}
	}
	return out
}

func randomQueryBox(rng *rand.Rand) r3.Box {
	c := r3.Vec{X: rng.Float64(), Y: rng.Float64(), Z: rng.Float64()}
	h := r3.Scale(0.3*rng.Float64()*rng.Float64(), r3.Vec{X: 1 + rng.Float64(), Y: 1 + rng.Float64(), Z: 1 + rng.Float64()})
	return r3.Box{Min: r3.Sub(c, h), Max: r3.Add(c, h)}
}

func checkQueries(t *testing.T, rng *rand.Rand, b *BVH, tris [][3]int, q []float64) {
	t.Helper()
	found := 0
	for i := 0; i < 200; i++ {
		box := randomQueryBox(rng)
		got := b.AppendQuery(box, nil)
		var visited []int
		b.Query(box, func(tri int) { visited = append(visited, tri) })
		if !slices.Equal(got, visited) {
			t.Fatal("Query and AppendQuery disagree")
		}
		slices.Sort(got)
		want := bruteQuery(tris, q, box)
		if !slices.Equal(got, want) {
			t.Fatalf("query %v: BVH found %d triangles, brute force %d", box, len(got), len(want))
		}
		found += len(want)
	}
	if found == 0 {
		t.Fatal("no query hit any triangle: the test checks nothing")
	}
}

func TestBVHQueryMatchesBruteForce(t *testing.T) {
	for _, n := range []int{1, 3, 17, 500} {
		t.Run(fmt.Sprintf("tris=%d", n), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(n), 21))
			tris, q := triangleSoup(rng, n)
			b, err := NewBVH(tris, q)
			if err != nil {
				t.Fatal(err)
			}
			checkQueries(t, rng, b, tris, q)
			// Move every node (far enough to reorder the triangles) and
			// refit: queries must stay exact on the old tree.
			for i := range q {
				q[i] += 0.2 * rng.NormFloat64()
			}
			if err := b.Refit(q); err != nil {
				t.Fatal(err)
			}
			checkQueries(t, rng, b, tris, q)
		})
	}
}

func TestBVHBoundsAndEmpty(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 23))
	tris, q := triangleSoup(rng, 50)
	b, err := NewBVH(tris, q)
	if err != nil {
		t.Fatal(err)
	}
	box, ok := b.Bounds()
	if !ok {
		t.Fatal("non-empty BVH reports no bounds")
	}
	for i := 0; i < len(q)/3; i++ {
		if !box.Contains(node(q, i)) {
			t.Fatalf("node %v outside the root box %v", node(q, i), box)
		}
	}
	empty, err := NewBVH(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := empty.AppendQuery(r3.Box{Max: r3.Vec{X: 1, Y: 1, Z: 1}}, nil); len(got) != 0 {
		t.Fatalf("empty BVH found %v", got)
	}
	if _, ok := empty.Bounds(); ok {
		t.Fatal("empty BVH reports bounds")
	}
}

func TestBVHErrors(t *testing.T) {
	tests := []struct {
		name string
		tris [][3]int
		q    []float64
		want string
	}{
		{"negative index", [][3]int{{0, -1, 2}}, make([]float64, 9), "negative"},
		{"short positions", [][3]int{{0, 1, 5}}, make([]float64, 9), "need 18"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewBVH(tc.tris, tc.q)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	b, err := NewBVH([][3]int{{0, 1, 2}}, make([]float64, 9))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Refit(make([]float64, 6)); err == nil {
		t.Fatal("Refit accepted positions too short for the triangles")
	}
}

func TestBVHNoAllocations(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 25))
	tris, q := triangleSoup(rng, 300)
	b, err := NewBVH(tris, q)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int, 0, len(tris))
	box := r3.Box{Min: r3.Vec{X: 0.2, Y: 0.2, Z: 0.2}, Max: r3.Vec{X: 0.6, Y: 0.6, Z: 0.6}}
	allocs := testing.AllocsPerRun(20, func() {
		if err := b.Refit(q); err != nil {
			t.Fatal(err)
		}
		out = b.AppendQuery(box, out[:0])
	})
	if allocs != 0 {
		t.Fatalf("Refit + AppendQuery allocate %g times per run, want 0", allocs)
	}
	if len(out) == 0 {
		t.Fatal("the query found nothing: the allocation check is vacuous")
	}
}

func TestBVHSplitsAlongLongestAxis(t *testing.T) {
	// A row of small triangles along y, listed in shuffled order: median
	// splits along y put neighbours in the same leaf, so no leaf box spans
	// much more than leafSize triangles' worth of y.
	rng := rand.New(rand.NewPCG(26, 27))
	const n = 256
	perm := rng.Perm(n)
	tris := make([][3]int, n)
	q := make([]float64, 0, 9*n)
	for t := range tris {
		y := float64(perm[t])
		q = append(q, 0, y, 0, 0.1, y, 0, 0, y+0.1, 0.1)
		tris[t] = [3]int{3 * t, 3*t + 1, 3*t + 2}
	}
	b, err := NewBVH(tris, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, nd := range b.nodes {
		if nd.count > 0 && nd.box.Max.Y-nd.box.Min.Y > leafSize {
			t.Fatalf("leaf of %d triangles spans %g in y: the split did not follow the longest axis", nd.count, nd.box.Max.Y-nd.box.Min.Y)
		}
	}
}

// TestNearestIsTheExhaustiveMinimum checks BVH.Nearest against testing
// every triangle, on a box's surface (many ties on shared edges and
// corners) and a soup of small triangles, from random points near, far
// and inside: the same triangle (ties to the lowest index), distance,
// point and weights, and none beyond the limit.
func TestNearestIsTheExhaustiveMinimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m, err := mesh.Box(r3.Vec{X: 1.6, Y: 1.2, Z: 1}, 9, 7, 6)
	if err != nil {
		t.Fatal(err)
	}
	surf, err := mesh.ExtractSurface(m)
	if err != nil {
		t.Fatal(err)
	}
	var boxQ []float64
	for _, x := range m.Nodes {
		boxQ = append(boxQ, x.X-0.8, x.Y-0.6, x.Z-0.5)
	}
	soupTris, soupQ := triangleSoup(rng, 3000)
	for _, c := range []struct {
		tris [][3]int
		q    []float64
	}{{surf.Tris, boxQ}, {soupTris, soupQ}} {
		checkNearest(t, rng, c.tris, c.q)
	}
}

func checkNearest(t *testing.T, rng *rand.Rand, tris [][3]int, q []float64) {
	t.Helper()
	b, err := NewBVH(tris, q)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		r := r3.Vec{X: 2.4*rng.Float64() - 1.2, Y: 2.4*rng.Float64() - 1.2, Z: 2.4*rng.Float64() - 1.2}
		maxD2 := 0.3 * rng.Float64()
		want, wantD2 := -1, maxD2
		var wantP r3.Vec
		var wantW [3]float64
		for k, tri := range tris {
			p, w := ClosestOnTriangle(r, node(q, tri[0]), node(q, tri[1]), node(q, tri[2]))
			if d2 := r3.Norm2(r3.Sub(r, p)); d2 < wantD2 || (d2 == wantD2 && k < want) {
				want, wantD2, wantP, wantW = k, d2, p, w
			}
		}
		got, gotD2, p, w := b.Nearest(q, r, maxD2)
		if got != want || gotD2 != wantD2 || p != wantP || w != wantW {
			t.Fatalf("point %v within %g: Nearest = %d at %g, want %d at %g", r, math.Sqrt(maxD2), got, gotD2, want, wantD2)
		}
	}
}
