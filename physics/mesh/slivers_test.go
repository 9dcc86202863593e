package mesh

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// boundaryNodes marks the nodes on a face of only one tetrahedron.
func boundaryNodes(m *TetMesh) []bool {
	faces := map[[3]int]int{}
	for _, t := range m.Tets {
		for f := 0; f < 4; f++ {
			faces[tetFace(t, f)]++
		}
	}
	on := make([]bool, len(m.Nodes))
	for f, n := range faces {
		if n == 1 {
			on[f[0]], on[f[1]], on[f[2]] = true, true, true
		}
	}
	return on
}

// TestRepairSliversMoves flattens a tetrahedron of a box (its interior
// nodes jittered, so that no two faces are in one plane) by moving an
// interior node almost onto the plane of its opposite face; the repair
// moves the node off again.
func TestRepairSliversMoves(t *testing.T) {
	m, err := Box(r3.Vec{X: 1, Y: 1, Z: 1}, 4, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	on := boundaryNodes(m)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range m.Nodes {
		if !on[i] {
			m.Nodes[i] = r3.Add(m.Nodes[i], r3.Vec{X: 0.05 * (rng.Float64() - 0.5), Y: 0.05 * (rng.Float64() - 0.5), Z: 0.05 * (rng.Float64() - 0.5)})
		}
	}
	eps := m.DegenerateVolume()
	flattened := false
	for ti, tet := range m.Tets {
		for k, v := range tet {
			if on[v] {
				continue
			}
			a, b, c := m.Nodes[tet[(k+1)%4]], m.Nodes[tet[(k+2)%4]], m.Nodes[tet[(k+3)%4]]
			n := r3.Unit(r3.Cross(r3.Sub(b, a), r3.Sub(c, a)))
			x := m.Nodes[v]
			m.Nodes[v] = r3.Sub(x, r3.Scale((1-1e-14)*r3.Dot(r3.Sub(x, a), n), n))
			ok := true
			for tj, other := range m.Tets {
				if tj != ti && m.TetVolume(other) <= eps {
					ok = false
				}
			}
			if ok && m.TetVolume(m.Tets[ti]) <= eps && m.TetVolume(m.Tets[ti]) > -eps {
				flattened = true
				break
			}
			m.Nodes[v] = x
		}
		if flattened {
			break
		}
	}
	if !flattened {
		t.Fatal("no interior node could be moved to flatten a tetrahedron")
	}
	if m.Validate() == nil {
		t.Fatal("the flattened mesh validates")
	}
	r := m.RepairSlivers()
	if r != (SliverRepair{Found: 1, Moved: 1}) {
		t.Errorf("repair %+v; want 1 found and 1 node moved", r)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
}

// TestRepairSliversRemoves glues a flat tetrahedron onto a face of a box;
// the repair removes it.
func TestRepairSliversRemoves(t *testing.T) {
	m, err := Box(r3.Vec{X: 1, Y: 1, Z: 1}, 2, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := m.Volume()
	tets := len(m.Tets)
	on := boundaryNodes(m)
	// A face of the box: three boundary nodes of a tetrahedron with x = 0.
	var face []int
	for _, tet := range m.Tets {
		face = face[:0]
		for _, v := range tet {
			if on[v] && m.Nodes[v].X == -0.5 {
				face = append(face, v)
			}
		}
		if len(face) == 3 {
			break
		}
	}
	if len(face) != 3 {
		t.Fatal("no face at x = -0.5")
	}
	var c r3.Vec
	for _, v := range face {
		c = r3.Add(c, r3.Scale(1.0/3, m.Nodes[v]))
	}
	m.Nodes = append(m.Nodes, r3.Add(c, r3.Vec{X: -1e-14}))
	m.Tets = append(m.Tets, [4]int{face[0], face[1], face[2], len(m.Nodes) - 1})
	r := m.RepairSlivers()
	if r != (SliverRepair{Found: 1, Removed: 1}) {
		t.Errorf("repair %+v; want 1 found and 1 removed", r)
	}
	if len(m.Tets) != tets || !sameFloat(m.Volume(), want, 1e-12) {
		t.Errorf("%d tetrahedra, volume %g; want %d, %g", len(m.Tets), m.Volume(), tets, want)
	}
}
