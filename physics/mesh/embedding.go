package mesh

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// NodeWeights places one point in a tetrahedral mesh: the point is at
// Σ_k Weights[k]·x(Nodes[k]) for k < Count. A point of the mesh's own
// boundary has Count 1 and weight 1; a point inside a tetrahedron has its
// four barycentric weights.
type NodeWeights struct {
	Count   int
	Nodes   [4]int
	Weights [4]float64
}

// Embedding is the geometric mapping G of a fine surface onto a coarser
// tetrahedral mesh (the paper's p = G(q), whose Jacobian is H): the
// surface keeps its own points and triangles, and each point follows the
// mesh nodes through its NodeWeights. Collision detection and drawing use
// the surface; the finite elements use the mesh.
type Embedding struct {
	// Surface is the fine surface at rest (the mapping of the rest
	// positions).
	Surface TriSurface
	// Points[i] maps surface point i onto the mesh nodes.
	Points []NodeWeights
	// Fill[t], when set, is the fraction of tetrahedron t of the mesh that
	// lies inside the solid the surface bounds, in (0, 1]: the finite
	// elements scale their mass and stiffness by it, so that a mesh that
	// overhangs the surface weighs and resists as the solid does. nil:
	// every tetrahedron is full.
	Fill []float64
}

// Validate checks that every point is mapped onto existing nodes with
// finite weights that sum to one, and that the triangles use existing
// points.
func (e *Embedding) Validate(m *TetMesh) error {
	if len(e.Points) != len(e.Surface.Nodes) {
		return fmt.Errorf("embedding: %d surface points but %d mappings", len(e.Surface.Nodes), len(e.Points))
	}
	for i, p := range e.Points {
		if p.Count < 1 || p.Count > 4 {
			return fmt.Errorf("embedding: point %d uses %d nodes, want 1 to 4", i, p.Count)
		}
		sum := 0.0
		for k := 0; k < p.Count; k++ {
			if n := p.Nodes[k]; n < 0 || n >= len(m.Nodes) {
				return fmt.Errorf("embedding: point %d uses node %d, the mesh has %d", i, n, len(m.Nodes))
			}
			w := p.Weights[k]
			if math.IsNaN(w) || math.IsInf(w, 0) {
				return fmt.Errorf("embedding: point %d has a weight that is not a finite number", i)
			}
			sum += w
		}
		if math.Abs(sum-1) > 1e-9 {
			return fmt.Errorf("embedding: the weights of point %d sum to %g, not 1", i, sum)
		}
	}
	if e.Fill != nil && len(e.Fill) != len(m.Tets) {
		return fmt.Errorf("embedding: %d fill fractions for %d tetrahedra", len(e.Fill), len(m.Tets))
	}
	for t, f := range e.Fill {
		if !(f > 0 && f <= 1) {
			return fmt.Errorf("embedding: tetrahedron %d has a fill fraction %g, not in (0, 1]", t, f)
		}
	}
	for t, tri := range e.Surface.Tris {
		for _, v := range tri {
			if v < 0 || v >= len(e.Surface.Nodes) {
				return fmt.Errorf("embedding: triangle %d uses point %d, the surface has %d", t, v, len(e.Surface.Nodes))
			}
		}
	}
	return nil
}

// Map writes the surface points G(q) for node positions q (3 per node)
// into p (3 per point).
func (e *Embedding) Map(p, q []float64) {
	for i := range e.Points {
		x := e.Point(q, i)
		p[3*i], p[3*i+1], p[3*i+2] = x.X, x.Y, x.Z
	}
}

// Point returns surface point i, G_i(q), for node positions q (3 per
// node).
func (e *Embedding) Point(q []float64, i int) r3.Vec {
	pw := &e.Points[i]
	var x r3.Vec
	for k := 0; k < pw.Count; k++ {
		n, w := 3*pw.Nodes[k], pw.Weights[k]
		x.X += w * q[n]
		x.Y += w * q[n+1]
		x.Z += w * q[n+2]
	}
	return x
}

// Bound returns Σ_k |w_k|·b[n_k] over surface point i's nodes n_k and
// weights w_k: for any quantity affine in the node positions whose norm at
// each node n is at most b[n], a bound on its norm at point i (the weights
// sum to one).
func (e *Embedding) Bound(b []float64, i int) float64 {
	pw := &e.Points[i]
	s := 0.0
	for k := 0; k < pw.Count; k++ {
		s += math.Abs(pw.Weights[k]) * b[pw.Nodes[k]]
	}
	return s
}

// ProximitySurface returns the embedded surface with the per-vertex tables
// documented on Surface, its indices being the surface points (not mesh
// nodes): what collision detection and drawing use, at the points' mapped
// positions G(q). The triangles must face outwards, as on a Surface.
func (e *Embedding) ProximitySurface() *Surface {
	s := &Surface{Tris: e.Surface.Tris}
	s.buildVertexTables(len(e.Surface.Nodes))
	return s
}

// BoundaryEmbedding maps the boundary of m onto m itself: one surface point
// per boundary node, in the order of Surface.Vertices, each on its node
// with weight 1, and the boundary's triangles. A simulation given it
// moves and draws the boundary as without an embedding, and treats it as
// a mapped surface (the contact budget applies).
func BoundaryEmbedding(m *TetMesh) (*Embedding, error) {
	s, err := ExtractSurface(m)
	if err != nil {
		return nil, err
	}
	e := &Embedding{}
	for _, v := range s.Vertices {
		e.Surface.Nodes = append(e.Surface.Nodes, m.Nodes[v])
		e.Points = append(e.Points, NodeWeights{Count: 1, Nodes: [4]int{v}, Weights: [4]float64{1}})
	}
	for _, t := range s.Tris {
		e.Surface.Tris = append(e.Surface.Tris, [3]int{s.Local[t[0]], s.Local[t[1]], s.Local[t[2]]})
	}
	return e, nil
}
