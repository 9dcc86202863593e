package physics

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/fem"
	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

// Model is what a simulation knows of one soft body before its first step
// and never changes while it runs: the tetrahedral mesh, the surface that
// collides and is drawn, the rest positions q_rest, and the
// finite-element model (the elements' rest data, the lumped masses, the
// pattern of A and the constants derived from the material; a new
// material replaces the last two in place, Simulation.SetSettings). What
// a step advances is in a State; several bodies would be a slice of
// models and one of states.
//
// The surface is the mesh's boundary, whose vertices are mesh nodes, or a
// finer surface mapped onto the mesh (mesh.Embedding: the paper's geometric
// mapping p = G(q), Eq. geometric mapping), whose vertices are its own
// points at G(q). Either way the surface's indices refer to the surface
// positions (mapSurface): q itself for the boundary, G(q) for a mapped
// surface.
type Model struct {
	mesh  *mesh.TetMesh
	surf  *mesh.Surface
	emb   *mesh.Embedding // nil when the surface is the mesh's boundary
	fem   *fem.Model
	qRest []float64 // rest positions, 3N
	pRest []float64 // the surface positions at rest: qRest, or G(q_rest)
	// support numbers the groups of surface points mapped onto the same
	// mesh nodes (the contact budget's groups, budget.go); set for a
	// mapped surface only.
	support []int32
	// filled is the sum of the elements' fill fractions when the mapped
	// surface's mesh has them (mesh.Embedding.Fill), else 0.
	filled float64
	// part numbers, for each surface position, the part of the soft body
	// it belongs to: the connected components of the mesh (tetrahedra
	// sharing a node), in the order of their first node. Parts touching
	// each other make soft–soft pairs (collide.SoftSoft); nparts counts
	// them.
	part     []int32
	nodePart []int32
	nparts   int
}

// newModel builds the model of the soft body msh (valid: mesh.TetMesh.
// Validate) of material mat, with the surface emb mapped onto it (nil:
// the mesh's boundary).
func newModel(msh *mesh.TetMesh, emb *mesh.Embedding, mat settings.Material, mats ElementMaterials) (*Model, error) {
	var fill []float64
	if emb != nil {
		if err := emb.Validate(msh); err != nil {
			return nil, err
		}
		fill = emb.Fill
	}
	fm, err := fem.NewModelMaterials(msh, mat, fill, mats.Stiffness, mats.Density)
	if err != nil {
		return nil, fmt.Errorf("finite elements: %w", err)
	}
	surf, err := mesh.ExtractSurface(msh)
	if err != nil {
		return nil, fmt.Errorf("surface: %w", err)
	}
	m := &Model{mesh: msh, surf: surf, fem: fm, qRest: make([]float64, msh.DOFs())}
	for i, x := range msh.Nodes {
		m.qRest[3*i], m.qRest[3*i+1], m.qRest[3*i+2] = x.X, x.Y, x.Z
	}
	m.pRest = m.qRest
	if emb != nil {
		if len(emb.Surface.Tris) == 0 {
			return nil, fmt.Errorf("embedding: the surface has no triangles")
		}
		m.emb, m.surf = emb, emb.ProximitySurface()
		m.pRest = make([]float64, 3*len(emb.Points))
		emb.Map(m.pRest, m.qRest)
		m.support = supports(emb.Points)
		if emb.Fill != nil {
			m.filled = fm.Filled()
		}
	}
	nodePart, nparts := msh.Components()
	m.nparts, m.part, m.nodePart = nparts, nodePart, nodePart
	if emb != nil {
		m.part = make([]int32, len(emb.Points))
		for i := range emb.Points {
			m.part[i] = nodePart[emb.Points[i].Nodes[0]]
		}
	}
	return m, nil
}

// Parts returns the number of parts of the soft body: the connected
// components of its mesh, each a soft body of its own that may touch the
// others (soft–soft contact).
func (m *Model) Parts() int { return m.nparts }

// NodePart returns the part of mesh node i (0 … Parts()−1).
func (m *Model) NodePart(i int) int { return int(m.nodePart[i]) }

// supports returns, for each mapped point, the number of its support:
// the set of mesh nodes it is mapped onto, numbered in the order first met.
// Points with one support move together, affinely, with those nodes.
func supports(points []mesh.NodeWeights) []int32 {
	ids := make(map[[4]int]int32)
	out := make([]int32, len(points))
	for i := range points {
		key := [4]int{-1, -1, -1, -1}
		copy(key[:], points[i].Nodes[:points[i].Count])
		slices.Sort(key[:points[i].Count])
		id, ok := ids[key]
		if !ok {
			id = int32(len(ids))
			ids[key] = id
		}
		out[i] = id
	}
	return out
}

// Mesh returns the soft body's mesh and Surface the surface that collides
// and is drawn: the mesh's boundary, or the surface mapped onto the mesh
// (Embedding). Surface's indices refer to the surface positions:
// SurfaceRest at rest, Simulation.SurfacePositions in the current state.
func (m *Model) Mesh() *mesh.TetMesh    { return m.mesh }
func (m *Model) Surface() *mesh.Surface { return m.surf }

// Embedding returns the mapping of the surface onto the mesh, nil when the
// surface is the mesh's boundary.
func (m *Model) Embedding() *mesh.Embedding { return m.emb }

// SurfaceRest returns the surface positions at rest (read-only view, 3
// per surface index): q_rest for the mesh's boundary, G(q_rest) for a
// mapped surface.
func (m *Model) SurfaceRest() []float64 { return m.pRest }

// SurfacePoints returns the number of surface positions: the mesh nodes
// for the boundary, the mapped surface's points otherwise.
func (m *Model) SurfacePoints() int { return len(m.pRest) / 3 }

// mapSurface returns the surface positions for node values x (3 per node:
// positions or velocities, G being linear): x itself for the mesh's
// boundary, else G(x) written into p (3 per surface point).
func (m *Model) mapSurface(p, x []float64) []float64 {
	if m.emb == nil {
		return x
	}
	m.emb.Map(p, x)
	return p
}

// surfacePoint returns surface position i for node values x (3 per
// node): node i of x for the mesh's boundary, G's weighted sum otherwise.
func (m *Model) surfacePoint(x []float64, i int) r3.Vec {
	if m.emb == nil {
		return point(x, i)
	}
	return m.emb.Point(x, i)
}

// mapPair rewrites a pair found on the surface positions to mesh nodes
// (collide.Pair.MapPoints); the boundary's pairs already name nodes.
func (m *Model) mapPair(pr *collide.Pair) {
	if m.emb != nil {
		pr.MapPoints(m.emb.Points)
	}
}

// FEM returns the finite-element model (masses, stresses, the pattern of A).
func (m *Model) FEM() *fem.Model { return m.fem }

// RestPositions returns q_rest (read-only view, length 3N).
func (m *Model) RestPositions() []float64 { return m.qRest }

// DOFs returns 3N, the length of q and v.
func (m *Model) DOFs() int { return len(m.qRest) }

// NewState returns the state of the body at rest in its rest
// configuration, before the first step.
func (m *Model) NewState() *State {
	st := &State{
		q:    make([]float64, m.DOFs()),
		v:    make([]float64, m.DOFs()),
		elem: *m.fem.NewState(),
		warm: make(map[uint64]warmStart),
	}
	st.reset(m)
	return st
}
