package collide

import (
	"testing"

	"softgrasp/physics/mesh"
)

// TestMapPoints checks the spread of a pair from surface points to mesh
// nodes: weight times weight, in the order of the points and of their
// nodes, a node met again summed at its first place, and the identity
// mapping changing nothing.
func TestMapPoints(t *testing.T) {
	identity := make([]mesh.NodeWeights, 8)
	for i := range identity {
		identity[i] = mesh.NodeWeights{Count: 1, Nodes: [4]int{i}, Weights: [4]float64{1}}
	}
	pr := Pair{Kind: RigidVertex, Count: 3, Nodes: [MaxNodes]int{5, 2, 7}, Weights: [MaxNodes]float64{0.2, 0.3, 0.5}, Point: -1}
	want := pr
	pr.MapPoints(identity)
	if pr != want {
		t.Fatalf("identity mapping changed the pair: %+v, want %+v", pr, want)
	}

	points := []mesh.NodeWeights{
		{Count: 4, Nodes: [4]int{10, 11, 12, 13}, Weights: [4]float64{0.1, 0.2, 0.3, 0.4}},
		{Count: 4, Nodes: [4]int{12, 13, 14, 15}, Weights: [4]float64{0.25, 0.25, 0.25, 0.25}},
		{Count: 1, Nodes: [4]int{20}, Weights: [4]float64{1}},
	}
	pr = Pair{Kind: RigidVertex, Count: 3, Nodes: [MaxNodes]int{0, 1, 2}, Weights: [MaxNodes]float64{0.5, 0.25, 0.25}, Point: -1}
	pr.MapPoints(points)
	wantNodes := []int{10, 11, 12, 13, 14, 15, 20}
	wantW := []float64{0.05, 0.1, 0.15 + 0.0625, 0.2 + 0.0625, 0.0625, 0.0625, 0.25}
	if pr.Count != len(wantNodes) {
		t.Fatalf("%d nodes %v, want %v", pr.Count, pr.Nodes[:pr.Count], wantNodes)
	}
	sum := 0.0
	for i := range wantNodes {
		if pr.Nodes[i] != wantNodes[i] || pr.Weights[i] != wantW[i] {
			t.Fatalf("entry %d: node %d weight %g, want node %d weight %g", i, pr.Nodes[i], pr.Weights[i], wantNodes[i], wantW[i])
		}
		sum += pr.Weights[i]
	}
	if sum < 1-1e-15 || sum > 1+1e-15 {
		t.Fatalf("weights sum to %g", sum)
	}

	soft := Pair{Kind: SoftVertex, Count: 1, Nodes: [MaxNodes]int{1}, Weights: [MaxNodes]float64{1}, Point: 1, Tri: -1, Vertex: -1}
	key := soft.Key()
	soft.MapPoints(points)
	if soft.Count != 4 || soft.Nodes[0] != 12 || soft.Weights[3] != 0.25 || soft.Key() != key {
		t.Fatalf("soft point spread to %d nodes %v weights %v, key %x (was %x)", soft.Count, soft.Nodes[:soft.Count], soft.Weights[:soft.Count], soft.Key(), key)
	}
}
