package mesh

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// SliverRepair says what RepairSlivers changed.
type SliverRepair struct {
	Found   int // tetrahedra at or below the degenerate volume at first
	Moved   int // interior nodes moved
	Removed int // tetrahedra removed at the boundary
	Left    int // degenerate tetrahedra left
}

// RepairSlivers works around the slivers of a tetrahedral mesh:
// tetrahedra whose four nodes lie almost in a plane, so that their
// volume is at or below DegenerateVolume. A sliver with a node inside
// the mesh (on no boundary face) is repaired by moving that node to the
// best of a few positions (towards the centroid of its neighbours, or off
// the sliver's plane on either side): the one that makes the smallest
// volume of the tetrahedra around it largest, kept only if every one of
// them is then above the degenerate volume. A sliver left with a face on
// the boundary is removed, which changes the boundary by less than the
// sliver's volume; a node left without a tetrahedron is left to the
// caller to drop. The tetrahedra are first oriented to positive volume. Left counts the
// slivers that neither repair removes; Validate still refuses them.
func (m *TetMesh) RepairSlivers() SliverRepair {
	var r SliverRepair
	for i, t := range m.Tets {
		if m.TetVolume(t) < 0 {
			m.Tets[i][2], m.Tets[i][3] = t[3], t[2]
		}
	}
	eps := m.DegenerateVolume()
	var slivers []int
	for i, t := range m.Tets {
		if m.TetVolume(t) <= eps {
			slivers = append(slivers, i)
		}
	}
	r.Found = len(slivers)
	if r.Found == 0 {
		return r
	}
	around := make([][]int32, len(m.Nodes))
	for i, t := range m.Tets {
		for _, v := range t {
			around[v] = append(around[v], int32(i))
		}
	}
	faces := make(map[[3]int]int, 2*len(m.Tets))
	for _, t := range m.Tets {
		for f := 0; f < 4; f++ {
			faces[tetFace(t, f)]++
		}
	}
	boundary := make([]bool, len(m.Nodes))
	for f, n := range faces {
		if n == 1 {
			boundary[f[0]], boundary[f[1]], boundary[f[2]] = true, true, true
		}
	}
	for _, s := range slivers {
		if m.TetVolume(m.Tets[s]) > eps {
			continue // repaired by an earlier move
		}
		for _, v := range m.Tets[s] {
			if !boundary[v] && m.moveNode(v, s, around[v], eps) {
				r.Moved++
				break
			}
		}
	}
	// Remove the slivers left at the boundary, outermost first: removing
	// one may expose another.
	removed := make([]bool, len(m.Tets))
	for changed := true; changed; {
		changed = false
		for _, s := range slivers {
			t := m.Tets[s]
			if removed[s] || m.TetVolume(t) > eps {
				continue
			}
			open := false
			for f := 0; f < 4; f++ {
				open = open || faces[tetFace(t, f)] == 1
			}
			if !open {
				continue
			}
			removed[s] = true
			for f := 0; f < 4; f++ {
				faces[tetFace(t, f)]--
			}
			r.Removed++
			changed = true
		}
	}
	if r.Removed > 0 {
		keep := m.Tets[:0]
		for i, t := range m.Tets {
			if !removed[i] {
				keep = append(keep, t)
			}
		}
		m.Tets = keep
	}
	for _, t := range m.Tets {
		if m.TetVolume(t) <= eps {
			r.Left++
		}
	}
	return r
}

// tetFace returns face f of t (the one without corner f), sorted.
func tetFace(t [4]int, f int) [3]int {
	return sortedFace([3]int{t[(f+1)%4], t[(f+2)%4], t[(f+3)%4]})
}

// moveNode moves node v, a corner of sliver s, to the candidate position
// that maximises the smallest volume of the tetrahedra around it (star),
// if that volume is above eps. It reports whether v moved.
func (m *TetMesh) moveNode(v, s int, star []int32, eps float64) bool {
	x := m.Nodes[v]
	var centroid r3.Vec
	n := 0
	var reach float64 // the longest edge from v
	for _, ti := range star {
		for _, w := range m.Tets[ti] {
			if w != v {
				centroid = r3.Add(centroid, m.Nodes[w])
				n++
				reach = math.Max(reach, r3.Norm(r3.Sub(m.Nodes[w], x)))
			}
		}
	}
	centroid = r3.Scale(1/float64(n), centroid)
	// The normal of the sliver's face opposite v.
	var face []r3.Vec
	for _, w := range m.Tets[s] {
		if w != v {
			face = append(face, m.Nodes[w])
		}
	}
	normal := r3.Unit(r3.Cross(r3.Sub(face[1], face[0]), r3.Sub(face[2], face[0])))
	cands := []r3.Vec{}
	for _, t := range []float64{1, 0.5, 0.25, 0.1} {
		cands = append(cands, r3.Add(x, r3.Scale(t, r3.Sub(centroid, x))))
	}
	for _, d := range []float64{0.02, 0.05, 0.1, 0.2} {
		cands = append(cands, r3.Add(x, r3.Scale(d*reach, normal)), r3.Sub(x, r3.Scale(d*reach, normal)))
	}
	best, bestVol := x, m.starMinVolume(star)
	for _, p := range cands {
		m.Nodes[v] = p
		if vol := m.starMinVolume(star); vol > bestVol {
			best, bestVol = p, vol
		}
	}
	if bestVol <= eps {
		m.Nodes[v] = x
		return false
	}
	m.Nodes[v] = best
	return best != x
}

// starMinVolume returns the smallest signed volume of the tetrahedra.
func (m *TetMesh) starMinVolume(star []int32) float64 {
	v := math.Inf(1)
	for _, ti := range star {
		v = math.Min(v, m.TetVolume(m.Tets[ti]))
	}
	return v
}
