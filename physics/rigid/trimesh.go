package rigid

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// TriangleMesh is a closed, outward-oriented triangle mesh used as a rigid
// shape. Closest points are found over the triangles one by one, those
// whose bounding sphere is farther than the best so far passed over at the
// cost of one distance, which suits small meshes (tools, fixtures of up
// to a few thousand triangles).
//
// The sign of the distance comes from the angle-weighted pseudo-normal of
// the feature (face, edge or vertex) that holds the closest point: x is
// outside exactly when (x − p)·N > 0. For a closed manifold mesh this test
// is exact everywhere, including near edges and vertices where the
// closest face's normal can give the wrong sign.
//
// References: J. A. Bærentzen and H. Aanæs, "Signed distance computation
// using the angle weighted pseudonormal", IEEE TVCG 11(3), 2005.
//
// Build it with NewTriangleMesh: the zero value has no triangles and
// reports every point infinitely far away.
type TriangleMesh struct {
	verts []r3.Vec
	tris  [][3]int
	// faceN are the unit face normals; edgeN[t][e] is the pseudo-normal of
	// edge e of triangle t (edge e joins corners e and e+1 mod 3): the
	// normalised sum of its two faces' normals; vertN the angle-weighted
	// normal of each vertex, Σ α_t·n_t over the incident faces, normalised.
	faceN []r3.Vec
	edgeN [][3]r3.Vec
	vertN []r3.Vec
	box   r3.Box
	// centre and radius of each triangle's bounding sphere (the centroid
	// and its farthest corner), for Closest to pass over the triangles
	// that cannot hold the closest point.
	centre []r3.Vec
	radius []float64
	// samples are the vertices and the points DefaultEdgeSpacing apart
	// along the edges (Vertices).
	samples []r3.Vec
}

// NewTriangleMesh validates a closed mesh and precomputes its
// pseudo-normals. The mesh must be a closed 2-manifold: every directed
// edge used once and its reverse once, all triangles non-degenerate and
// counter-clockwise seen from outside (positive enclosed volume). The
// slices are copied.
func NewTriangleMesh(verts []r3.Vec, tris [][3]int) (*TriangleMesh, error) {
	if err := checkTriangleMesh(verts, tris); err != nil {
		return nil, err
	}
	m := &TriangleMesh{
		verts: append([]r3.Vec(nil), verts...),
		tris:  append([][3]int(nil), tris...),
	}
	m.computeNormals()
	if v := signedVolume(m.verts, m.tris); !(v > 0) {
		return nil, fmt.Errorf("triangle mesh encloses volume %g: triangles must be counter-clockwise seen from outside", v)
	}
	m.box = r3.Box{Min: verts[0], Max: verts[0]}
	for _, v := range verts {
		m.box = growBox(m.box, v)
	}
	m.centre, m.radius = make([]r3.Vec, len(tris)), make([]float64, len(tris))
	for t, tri := range m.tris {
		c := r3.Scale(1.0/3, r3.Add(m.verts[tri[0]], r3.Add(m.verts[tri[1]], m.verts[tri[2]])))
		r := 0.0
		for _, v := range tri {
			r = math.Max(r, r3.Norm(r3.Sub(m.verts[v], c)))
		}
		m.centre[t], m.radius[t] = c, r
	}
	m.samples = m.featureSamples()
	return m, nil
}

// featureAngle is the least angle between the faces of an edge that makes
// it a feature of the mesh, rad: the box's edges (90°) and a coarse
// sphere's (42° on an icosahedron) are, the flat and smoothly curved
// faces of a finely tessellated surface (a few degrees) are not.
const featureAngle = 20 * math.Pi / 180

// featureSamples returns the mesh's vertex samples: the vertices on its
// feature edges, in vertex order, then points along each feature edge no
// more than DefaultEdgeSpacing apart, as a box's corners and edge samples.
// A feature edge or corner pressed into a soft face can sink between the
// soft vertices, which the soft vertices' own pairs with the rigid
// surface cannot see; inside a flat or smooth region the soft vertices'
// pairs hold the surface, and samples there would only add rows to the
// contact problem (a finely tessellated face resting on the floor gave a
// pair per vertex).
func (m *TriangleMesh) featureSamples() []r3.Vec {
	first := make(map[[2]int]int, 3*len(m.tris)/2) // edge → its first face
	onFeature := make([]bool, len(m.verts))
	var edges [][2]int
	for t, tri := range m.tris {
		for k, v := range tri {
			w := tri[(k+1)%3]
			e := [2]int{min(v, w), max(v, w)}
			f, seen := first[e]
			if !seen {
				first[e] = t
				continue
			}
			if angleBetween(m.faceN[f], m.faceN[t]) > featureAngle {
				onFeature[v], onFeature[w] = true, true
				edges = append(edges, e)
			}
		}
	}
	var out []r3.Vec
	for v, on := range onFeature {
		if on {
			out = append(out, m.verts[v])
		}
	}
	for _, e := range edges {
		out = appendSegmentSamples(out, m.verts[e[0]], m.verts[e[1]], DefaultEdgeSpacing)
	}
	return out
}

// MassProperties returns the volume enclosed by the mesh, its centroid
// and its inertia tensor about the centroid for a unit density (row-major
// 3×3, kg·m² per kg/m³), by the divergence theorem over the tetrahedra
// that join the origin to each triangle.
func (m *TriangleMesh) MassProperties() (volume float64, centroid r3.Vec, inertia [9]float64) {
	// Second moments Σ ∫x_i·x_j over the signed tetrahedra (0, a, b, c):
	// ∫_T x_i·x_j dV = V/20·(Σ_k a_k,i·a_k,j + (Σ_k a_k,i)(Σ_k a_k,j)), the
	// corners a_k the tetrahedron's four (the origin contributing nothing).
	var first r3.Vec
	var second [3][3]float64
	for _, tri := range m.tris {
		a, b, c := m.verts[tri[0]], m.verts[tri[1]], m.verts[tri[2]]
		v := r3.Dot(a, r3.Cross(b, c)) / 6
		volume += v
		first = r3.Add(first, r3.Scale(v/4, r3.Add(a, r3.Add(b, c))))
		sum := r3.Add(a, r3.Add(b, c))
		pa, pb, pc, ps := vecArr(a), vecArr(b), vecArr(c), vecArr(sum)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				second[i][j] += v / 20 * (pa[i]*pa[j] + pb[i]*pb[j] + pc[i]*pc[j] + ps[i]*ps[j])
			}
		}
	}
	if volume == 0 {
		return 0, r3.Vec{}, inertia
	}
	centroid = r3.Scale(1/volume, first)
	g := vecArr(centroid)
	// Second moments about the centroid, then I = tr(S)·1 − S.
	var S [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			S[i][j] = second[i][j] - volume*g[i]*g[j]
		}
	}
	tr := S[0][0] + S[1][1] + S[2][2]
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			inertia[3*i+j] = -S[i][j]
			if i == j {
				inertia[3*i+j] += tr
			}
		}
	}
	return volume, centroid, inertia
}

// vecArr returns v's components as an array.
func vecArr(v r3.Vec) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

// checkTriangleMesh reports out-of-range indices, non-finite or unused
// vertices, degenerate triangles and edges that do not close the surface.
func checkTriangleMesh(verts []r3.Vec, tris [][3]int) error {
	if len(verts) < 4 || len(tris) < 4 {
		return fmt.Errorf("triangle mesh has %d vertices and %d triangles: a closed mesh needs at least 4 of each", len(verts), len(tris))
	}
	for i, v := range verts {
		if math.IsNaN(v.X+v.Y+v.Z) || math.IsInf(v.X+v.Y+v.Z, 0) {
			return fmt.Errorf("triangle mesh vertex %d = %v is not finite", i, v)
		}
	}
	used := make([]bool, len(verts))
	edges := make(map[[2]int]int, 3*len(tris))
	for t, tri := range tris {
		for k, v := range tri {
			if v < 0 || v >= len(verts) {
				return fmt.Errorf("triangle %d corner %d = %d is out of range [0, %d)", t, k, v, len(verts))
			}
			used[v] = true
			edges[[2]int{v, tri[(k+1)%3]}]++
		}
		a, b, c := verts[tri[0]], verts[tri[1]], verts[tri[2]]
		if degenerateTriangle(r3.Sub(b, a), r3.Sub(c, a), r3.Sub(c, b)) {
			return fmt.Errorf("triangle %d %v is degenerate (zero area)", t, tri)
		}
	}
	for v, u := range used {
		if !u {
			return fmt.Errorf("triangle mesh vertex %d is used by no triangle", v)
		}
	}
	for e, n := range edges {
		if n != 1 || edges[[2]int{e[1], e[0]}] != 1 {
			return fmt.Errorf("edge %d→%d is used %d times and its reverse %d times: the mesh must be closed and consistently oriented", e[0], e[1], n, edges[[2]int{e[1], e[0]}])
		}
	}
	return nil
}

// computeNormals fills the face, edge and vertex pseudo-normals.
func (m *TriangleMesh) computeNormals() {
	m.faceN = make([]r3.Vec, len(m.tris))
	m.edgeN = make([][3]r3.Vec, len(m.tris))
	m.vertN = make([]r3.Vec, len(m.verts))
	edgeSum := make(map[[2]int]r3.Vec, 3*len(m.tris))
	for t, tri := range m.tris {
		a, b, c := m.verts[tri[0]], m.verts[tri[1]], m.verts[tri[2]]
		n := r3.Unit(r3.Cross(r3.Sub(b, a), r3.Sub(c, a)))
		m.faceN[t] = n
		for k := 0; k < 3; k++ {
			i, j := tri[k], tri[(k+1)%3]
			edgeSum[[2]int{min(i, j), max(i, j)}] = r3.Add(edgeSum[[2]int{min(i, j), max(i, j)}], n)
			// Angle at corner k between its two edges.
			p := m.verts[tri[k]]
			alpha := angleBetween(r3.Sub(m.verts[j], p), r3.Sub(m.verts[tri[(k+2)%3]], p))
			m.vertN[i] = r3.Add(m.vertN[i], r3.Scale(alpha, n))
		}
	}
	for t, tri := range m.tris {
		for k := 0; k < 3; k++ {
			i, j := tri[k], tri[(k+1)%3]
			m.edgeN[t][k] = r3.Unit(edgeSum[[2]int{min(i, j), max(i, j)}])
		}
	}
	for v := range m.vertN {
		m.vertN[v] = r3.Unit(m.vertN[v])
	}
}

// angleBetween returns the angle between u and v in [0, π], computed with
// atan2 so that it stays accurate for nearly parallel vectors.
func angleBetween(u, v r3.Vec) float64 {
	return math.Atan2(r3.Norm(r3.Cross(u, v)), r3.Dot(u, v))
}

// signedVolume returns the volume enclosed by a closed mesh by the
// divergence theorem: Σ a·(b×c)/6 over its triangles.
func signedVolume(verts []r3.Vec, tris [][3]int) float64 {
	v := 0.0
	for _, t := range tris {
		v += r3.Dot(verts[t[0]], r3.Cross(verts[t[1]], verts[t[2]]))
	}
	return v / 6
}

// Closest returns the closest point over all triangles, the outward
// normal and the signed distance. The normal is (x − p)/|x − p| outside
// and (p − x)/|x − p| inside (the gradient of the signed distance, pointing
// out of the solid), and the feature's pseudo-normal when x is on the
// surface.
func (m *TriangleMesh) Closest(x r3.Vec) (point, normal r3.Vec, dist float64) {
	if len(m.tris) == 0 {
		return x, r3.Vec{Z: 1}, math.Inf(1)
	}
	best, bestT := math.Inf(1), 0
	var bestW [3]float64
	for t, tri := range m.tris {
		// A triangle whose bounding sphere lies farther than the best so
		// far cannot hold the closest point (a relative margin of 1e-9
		// keeps rounding from passing over one that ties).
		if lo := r3.Norm(r3.Sub(x, m.centre[t])) - m.radius[t]; lo > 0 && lo*lo > best*(1+1e-9) {
			continue
		}
		p, w := ClosestOnTriangle(x, m.verts[tri[0]], m.verts[tri[1]], m.verts[tri[2]])
		if d2 := r3.Norm2(r3.Sub(x, p)); d2 < best {
			best, bestT, bestW, point = d2, t, w, p
		}
	}
	pseudo := m.featureNormal(bestT, bestW)
	diff := r3.Sub(x, point)
	d := math.Sqrt(best)
	if d == 0 {
		return point, pseudo, 0
	}
	if r3.Dot(diff, pseudo) < 0 {
		return point, r3.Scale(-1/d, diff), -d
	}
	return point, r3.Scale(1/d, diff), d
}

// featureNormal returns the pseudo-normal of the feature of triangle t
// that holds the point of barycentric weights w: a vertex when two weights
// are zero, an edge when one is, the face otherwise. ClosestOnTriangle
// returns exact zeros in the vertex and edge regions.
func (m *TriangleMesh) featureNormal(t int, w [3]float64) r3.Vec {
	zero := 0
	for _, wi := range w {
		if wi == 0 {
			zero++
		}
	}
	switch zero {
	case 2:
		for k, wi := range w {
			if wi != 0 {
				return m.vertN[m.tris[t][k]]
			}
		}
	case 1:
		// Edge k joins corners k and k+1; it is the edge whose opposite
		// corner (k+2) has zero weight.
		for k := 0; k < 3; k++ {
			if w[(k+2)%3] == 0 {
				return m.edgeN[t][k]
			}
		}
	}
	return m.faceN[t]
}

// Bounds returns the box of the vertices; a mesh without triangles has no
// bounds.
func (m *TriangleMesh) Bounds() (r3.Box, bool) { return m.box, len(m.tris) > 0 }

// Vertices returns the mesh's vertex samples (featureSamples): the
// vertices on its feature edges, then points along those edges no more
// than DefaultEdgeSpacing apart. The slice is shared: do not modify it.
func (m *TriangleMesh) Vertices() []r3.Vec { return m.samples }

// Triangulate returns the mesh itself. The slices are shared: do not
// modify them.
func (m *TriangleMesh) Triangulate() ([]r3.Vec, [][3]int) { return m.verts, m.tris }

// errEmptyMesh is returned by Validate for the zero value.
var errEmptyMesh = errors.New("triangle mesh is empty: build it with NewTriangleMesh")

// Validate reports a TriangleMesh that was not built by NewTriangleMesh.
func (m *TriangleMesh) Validate() error {
	if m == nil || len(m.tris) == 0 {
		return errEmptyMesh
	}
	return nil
}
