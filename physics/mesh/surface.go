package mesh

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"
)

// tetFaces lists the faces of a positively oriented tetrahedron (a, b, c, d)
// = (0, 1, 2, 3) with outward normals. For the reference tetrahedron
// (0, e1, e2, e3): (b, c, d) has normal (e2−e1)×(e3−e1) = (1, 1, 1), away
// from a; (a, c, b) has e2×e1 = −e3, below the face z = 0; likewise
// (a, b, d) has −e2 and (a, d, c) has −e1. Positive orientation is
// preserved by any orientation-preserving affine map, so these hold for
// every tetrahedron of a valid mesh.
var tetFaces = [4][3]int{{1, 2, 3}, {0, 2, 1}, {0, 1, 3}, {0, 3, 2}}

// faceRef is one face of one tetrahedron, keyed by its two larger node
// indices (the smallest is the bucket it sits in).
type faceRef struct {
	key  uint64 // mid·2³² + max of the sorted node indices
	face int32  // 4·tet + local face
}

// ExtractSurface returns the boundary of the mesh: the faces that belong
// to exactly one tetrahedron, oriented counter-clockwise seen from outside
// (the orientation the tetrahedron induces), with the per-vertex tables
// documented on Surface.
//
// Faces are matched by bucketing them on their smallest node index (a
// counting sort) and sorting each small bucket on the other two, which is
// linear in the mesh size up to the bucket sorts. It is an error if a face
// is shared by more than two tetrahedra (a non-manifold mesh) or if the
// two tetrahedra sharing a face induce the same orientation on it (one of
// them is inverted). The tetrahedra must be positively oriented (see
// Validate); the node indices are checked.
func ExtractSurface(m *TetMesh) (*Surface, error) {
	if m == nil || len(m.Tets) == 0 {
		return nil, fmt.Errorf("surface: mesh has no tetrahedra")
	}
	if len(m.Nodes) >= math.MaxUint32 || len(m.Tets) >= math.MaxInt32/4 {
		return nil, fmt.Errorf("surface: mesh of %d nodes and %d tetrahedra is too large", len(m.Nodes), len(m.Tets))
	}
	if err := m.checkConnectivity(); err != nil {
		return nil, fmt.Errorf("surface: %w", err)
	}
	start, refs := bucketFaces(m)
	s := &Surface{}
	for v := 0; v+1 < len(start); v++ {
		bucket := refs[start[v]:start[v+1]]
		slices.SortFunc(bucket, func(x, y faceRef) int { return cmp.Compare(x.key, y.key) })
		for i := 0; i < len(bucket); {
			j := i + 1
			for j < len(bucket) && bucket[j].key == bucket[i].key {
				j++
			}
			if err := s.classify(m, bucket[i:j]); err != nil {
				return nil, err
			}
			i = j
		}
	}
	s.buildVertexTables(len(m.Nodes))
	return s, nil
}

// outward returns the outward-oriented triangle of face ref.
func outward(m *TetMesh, face int32) [3]int {
	t, f := m.Tets[face/4], tetFaces[face%4]
	return [3]int{t[f[0]], t[f[1]], t[f[2]]}
}

// sortedFace returns the node indices of a triangle in increasing order.
func sortedFace(tri [3]int) [3]int {
	a, b, c := tri[0], tri[1], tri[2]
	if a > b {
		a, b = b, a
	}
	if b > c {
		b, c = c, b
	}
	if a > b {
		a, b = b, a
	}
	return [3]int{a, b, c}
}

// evenPermutation reports whether tri is a cyclic rotation of its sorted
// order, i.e. whether the two orderings describe the same orientation.
func evenPermutation(tri [3]int) bool {
	a, b, c := tri[0], tri[1], tri[2]
	return (a < b && b < c) || (b < c && c < a) || (c < a && a < b)
}

// bucketFaces sorts all faces by their smallest node (counting sort): the
// faces of bucket v are refs[start[v]:start[v+1]].
func bucketFaces(m *TetMesh) (start []int, refs []faceRef) {
	start = make([]int, len(m.Nodes)+1)
	for _, t := range m.Tets {
		for _, f := range tetFaces {
			start[min(t[f[0]], t[f[1]], t[f[2]])+1]++
		}
	}
	for v := 1; v < len(start); v++ {
		start[v] += start[v-1]
	}
	fill := slices.Clone(start[:len(start)-1])
	refs = make([]faceRef, 4*len(m.Tets))
	for ti := range m.Tets {
		for lf := range tetFaces {
			face := int32(4*ti + lf)
			s := sortedFace(outward(m, face))
			refs[fill[s[0]]] = faceRef{key: uint64(s[1])<<32 | uint64(s[2]), face: face}
			fill[s[0]]++
		}
	}
	return start, refs
}

// classify handles the copies of one face: a single copy is a boundary
// triangle, two copies must have opposite orientations, more is an error.
func (s *Surface) classify(m *TetMesh, same []faceRef) error {
	tri := outward(m, same[0].face)
	switch len(same) {
	case 1:
		s.Tris = append(s.Tris, tri)
		return nil
	case 2:
		if evenPermutation(tri) == evenPermutation(outward(m, same[1].face)) {
			return fmt.Errorf("surface: tetrahedra %d and %d induce the same orientation on their common face %v (one is inverted or they overlap)",
				same[0].face/4, same[1].face/4, sortedFace(tri))
		}
		return nil
	}
	return fmt.Errorf("surface: face %v is shared by %d tetrahedra (non-manifold mesh)", sortedFace(tri), len(same))
}

// buildVertexTables fills Vertices, Local and VertexTris from Tris.
// VertexTris are windows of one shared backing array.
func (s *Surface) buildVertexTables(nodes int) {
	s.Local = make([]int, nodes)
	count := make([]int, nodes)
	for _, tri := range s.Tris {
		for _, v := range tri {
			count[v]++
		}
	}
	for v, c := range count {
		s.Local[v] = -1
		if c > 0 {
			s.Local[v] = len(s.Vertices)
			s.Vertices = append(s.Vertices, v)
		}
	}
	backing := make([]int, 3*len(s.Tris))
	s.VertexTris = make([][]int, len(s.Vertices))
	at := 0
	for i, v := range s.Vertices {
		s.VertexTris[i] = backing[at : at : at+count[v]]
		at += count[v]
	}
	for ti, tri := range s.Tris {
		for _, v := range tri {
			l := s.Local[v]
			s.VertexTris[l] = append(s.VertexTris[l], ti)
		}
	}
}

// VertexNormals writes the area-weighted unit normal of every surface
// vertex into out (indexed like Vertices), with node positions given by
// pos. The weight comes for free: |(b−a)×(c−a)| is twice the triangle's
// area, so summing the unnormalised cross products weights each triangle
// by its area. A vertex whose triangles cancel gets the zero vector. It
// allocates nothing.
func (s *Surface) VertexNormals(pos func(node int) r3.Vec, out []r3.Vec) error {
	if len(out) != len(s.Vertices) {
		return fmt.Errorf("surface: normals buffer has %d entries for %d vertices", len(out), len(s.Vertices))
	}
	clear(out)
	for _, tri := range s.Tris {
		a, b, c := pos(tri[0]), pos(tri[1]), pos(tri[2])
		n := r3.Cross(r3.Sub(b, a), r3.Sub(c, a))
		for _, v := range tri {
			l := s.Local[v]
			out[l] = r3.Add(out[l], n)
		}
	}
	for i, n := range out {
		if l := r3.Norm(n); l > 0 {
			out[i] = r3.Scale(1/l, n)
		}
	}
	return nil
}

// Area returns the total area of the surface triangles at the given
// positions.
func (s *Surface) Area(pos func(node int) r3.Vec) float64 {
	var area float64
	for _, tri := range s.Tris {
		a, b, c := pos(tri[0]), pos(tri[1]), pos(tri[2])
		area += r3.Norm(r3.Cross(r3.Sub(b, a), r3.Sub(c, a))) / 2
	}
	return area
}

// Boundary returns the mesh's boundary surface as a triangle surface of its
// own: the boundary nodes numbered 0…n−1 in the order of Vertices, and
// the triangles over them, facing outwards.
func (s *Surface) Boundary(m *TetMesh) *TriSurface {
	t := &TriSurface{Nodes: make([]r3.Vec, len(s.Vertices)), Tris: make([][3]int, len(s.Tris))}
	for i, v := range s.Vertices {
		t.Nodes[i] = m.Nodes[v]
	}
	for i, tr := range s.Tris {
		t.Tris[i] = [3]int{s.Local[tr[0]], s.Local[tr[1]], s.Local[tr[2]]}
	}
	return t
}
