package mesh

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// checkClosed fails unless the surface is a closed, consistently oriented
// 2-manifold: every directed edge (a, b) of a triangle appears exactly once
// and its reverse (b, a) appears exactly once, in another triangle.
func checkClosed(t *testing.T, s *Surface) {
	t.Helper()
	directed := make(map[[2]int]int, 3*len(s.Tris))
	for _, tri := range s.Tris {
		for k := 0; k < 3; k++ {
			directed[[2]int{tri[k], tri[(k+1)%3]}]++
		}
	}
	for e, n := range directed {
		if n != 1 {
			t.Fatalf("directed edge %v appears %d times", e, n)
		}
		if directed[[2]int{e[1], e[0]}] != 1 {
			t.Fatalf("edge %v has no opposite edge: the surface is open or inconsistently oriented", e)
		}
	}
}

// eulerCharacteristic returns V − E + F of the surface.
func eulerCharacteristic(s *Surface) int {
	edges := make(map[[2]int]bool, 3*len(s.Tris)/2)
	for _, tri := range s.Tris {
		for k := 0; k < 3; k++ {
			a, b := tri[k], tri[(k+1)%3]
			edges[[2]int{min(a, b), max(a, b)}] = true
		}
	}
	return len(s.Vertices) - len(edges) + len(s.Tris)
}

// quality returns the shape quality 12·(3V)^(2/3)/Σℓ² of a tetrahedron:
// 1 for the regular tetrahedron, 0 for a flat one.
func quality(a, b, c, d r3.Vec) float64 {
	var sum float64
	p := [4]r3.Vec{a, b, c, d}
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			sum += r3.Norm2(r3.Sub(p[i], p[j]))
		}
	}
	v := SignedVolume(a, b, c, d)
	return 12 * math.Cbrt(9*v*v) / sum
}

func minQuality(m *TetMesh) float64 {
	q := math.Inf(1)
	for _, t := range m.Tets {
		q = math.Min(q, quality(m.Nodes[t[0]], m.Nodes[t[1]], m.Nodes[t[2]], m.Nodes[t[3]]))
	}
	return q
}

// surfaceOf extracts the surface or fails the test.
func surfaceOf(t testing.TB, m *TetMesh) *Surface {
	t.Helper()
	s, err := ExtractSurface(m)
	if err != nil {
		t.Fatalf("ExtractSurface: %v", err)
	}
	return s
}

func nodePos(m *TetMesh) func(int) r3.Vec { return func(i int) r3.Vec { return m.Nodes[i] } }

// sameFloat reports whether two volumes agree to a relative tolerance.
func sameFloat(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}
