package rigid

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// near reports |a − b| ≤ tol.
func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// nearVec reports |a − b| ≤ tol.
func nearVec(a, b r3.Vec, tol float64) bool { return r3.Norm(r3.Sub(a, b)) <= tol }

// randIn returns a uniform random point of the box.
func randIn(rng *rand.Rand, box r3.Box) r3.Vec {
	s := box.Size()
	return r3.Vec{
		X: box.Min.X + rng.Float64()*s.X,
		Y: box.Min.Y + rng.Float64()*s.Y,
		Z: box.Min.Z + rng.Float64()*s.Z,
	}
}

// randRotation returns a uniformly random rotation (normalised Gaussian
// quaternion).
func randRotation(rng *rand.Rand) r3.Rotation {
	q := r3.Rotation{Real: rng.NormFloat64(), Imag: rng.NormFloat64(), Jmag: rng.NormFloat64(), Kmag: rng.NormFloat64()}
	n := math.Sqrt(q.Real*q.Real + q.Imag*q.Imag + q.Jmag*q.Jmag + q.Kmag*q.Kmag)
	return r3.Rotation{Real: q.Real / n, Imag: q.Imag / n, Jmag: q.Jmag / n, Kmag: q.Kmag / n}
}

// randPose returns a random rigid transform with position in [−1, 1]³.
func randPose(rng *rand.Rand) Pose {
	return Pose{
		Position: randIn(rng, r3.Box{Min: r3.Vec{X: -1, Y: -1, Z: -1}, Max: r3.Vec{X: 1, Y: 1, Z: 1}}),
		Rotation: randRotation(rng),
	}
}

// weld merges vertices closer than tol and returns the re-indexed
// triangles, so that meshes drawn with split vertices (flat faces) can be
// checked for closure.
func weld(verts []r3.Vec, tris [][3]int, tol float64) ([]r3.Vec, [][3]int) {
	var out []r3.Vec
	remap := make([]int, len(verts))
	for i, v := range verts {
		remap[i] = -1
		for j, w := range out {
			if nearVec(v, w, tol) {
				remap[i] = j
				break
			}
		}
		if remap[i] < 0 {
			remap[i] = len(out)
			out = append(out, v)
		}
	}
	res := make([][3]int, len(tris))
	for t, tri := range tris {
		res[t] = [3]int{remap[tri[0]], remap[tri[1]], remap[tri[2]]}
	}
	return out, res
}

// checkClosedOutward fails unless the mesh (after welding) uses every
// directed edge exactly once and its reverse exactly once, and encloses
// a positive volume; it returns that volume.
func checkClosedOutward(t *testing.T, verts []r3.Vec, tris [][3]int) float64 {
	t.Helper()
	wv, wt := weld(verts, tris, 1e-12)
	edges := map[[2]int]int{}
	for _, tri := range wt {
		for k := 0; k < 3; k++ {
			edges[[2]int{tri[k], tri[(k+1)%3]}]++
		}
	}
	for e, n := range edges {
		if n != 1 || edges[[2]int{e[1], e[0]}] != 1 {
			t.Fatalf("edge %v used %d times, reverse %d times: mesh not closed/consistent", e, n, edges[[2]int{e[1], e[0]}])
		}
	}
	vol := signedVolume(wv, wt)
	if !(vol > 0) {
		t.Fatalf("enclosed volume %g: triangles not outward", vol)
	}
	return vol
}

// checkClosestConsistent checks what every exact signed distance must
// satisfy at x: a unit normal, n·(x − p) = d, |x − p| = |d|, the closest
// point on the surface (its own distance zero), and moving off the
// surface along n by a small ε gives distance +ε (outward normal). The last
// check holds for convex shapes only: off a concave edge the step along
// the bisecting normal comes closer to the neighbouring face.
func checkClosestConsistent(t *testing.T, s Shape, x r3.Vec, scale float64, convex bool) {
	t.Helper()
	p, n, d := s.Closest(x)
	tol := 1e-12 * scale
	if !near(r3.Norm(n), 1, 1e-12) {
		t.Fatalf("x=%v: normal %v is not unit", x, n)
	}
	if !near(r3.Norm(r3.Sub(x, p)), math.Abs(d), tol) {
		t.Fatalf("x=%v: |x−p| = %g but d = %g", x, r3.Norm(r3.Sub(x, p)), d)
	}
	if !near(r3.Dot(n, r3.Sub(x, p)), d, tol) {
		t.Fatalf("x=%v: n·(x−p) = %g but d = %g", x, r3.Dot(n, r3.Sub(x, p)), d)
	}
	if _, _, dp := s.Closest(p); !near(dp, 0, tol) {
		t.Fatalf("x=%v: closest point %v has distance %g, not on the surface", x, p, dp)
	}
	if !convex {
		return
	}
	eps := 1e-6 * scale
	if _, _, de := s.Closest(r3.Add(p, r3.Scale(eps, n))); !near(de, eps, 1e-3*eps) {
		t.Fatalf("x=%v: stepping ε=%g along n from p gives distance %g: normal not outward", x, eps, de)
	}
}

// bruteDistance returns the least distance from x to the samples.
func bruteDistance(x r3.Vec, samples []r3.Vec) float64 {
	best := math.Inf(1)
	for _, s := range samples {
		best = min(best, r3.Norm2(r3.Sub(x, s)))
	}
	return math.Sqrt(best)
}

// checkAgainstSamples checks |d(x)| against a dense sampling of the
// surface whose gap (largest distance from a surface point to its nearest
// sample) is at most gap, and the sign against an independent inside test.
func checkAgainstSamples(t *testing.T, s Shape, x r3.Vec, samples []r3.Vec, gap float64, inside bool) {
	t.Helper()
	_, _, d := s.Closest(x)
	b := bruteDistance(x, samples)
	if math.Abs(d) > b+1e-12 || math.Abs(d) < b-gap {
		t.Fatalf("x=%v: |d| = %g, brute-force distance %g (gap %g)", x, math.Abs(d), b, gap)
	}
	if b > 2*gap && (d < 0) != inside {
		t.Fatalf("x=%v: d = %g but inside = %v", x, d, inside)
	}
}

// sampleRect appends an (n+1)×(n+1) grid over the rectangle o + s·u + t·v,
// s, t ∈ [0, 1].
func sampleRect(out []r3.Vec, o, u, v r3.Vec, n int) []r3.Vec {
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			s, t := float64(i)/float64(n), float64(j)/float64(n)
			out = append(out, r3.Add(o, r3.Add(r3.Scale(s, u), r3.Scale(t, v))))
		}
	}
	return out
}

// sampleTriangle appends the barycentric grid of step 1/n over a triangle.
func sampleTriangle(out []r3.Vec, a, b, c r3.Vec, n int) []r3.Vec {
	for i := 0; i <= n; i++ {
		for j := 0; i+j <= n; j++ {
			u, v := float64(i)/float64(n), float64(j)/float64(n)
			out = append(out, r3.Add(a, r3.Add(r3.Scale(u, r3.Sub(b, a)), r3.Scale(v, r3.Sub(c, a)))))
		}
	}
	return out
}
