package fem

import (
	"fmt"
	"math"
	"runtime"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
)

// Model is the finite-element model of one soft body: the rest geometry
// of its tetrahedra, its material, its lumped masses and the layout of its
// system matrix. It is built once per mesh by NewModel; the material can
// be changed in place by SetMaterial. What changes from step to step, the
// element rotations, lives in a State (NewState), and the per-element
// results of a pass in a Workspace (NewWorkspace); the kernels take both
// as parameters, read the current positions and velocities and write into
// caller-owned buffers.
//
// A Model is not safe for concurrent use: its kernels share its worker
// pool. Their element pass runs on GOMAXPROCS goroutines, the caller's and
// GOMAXPROCS−1 long-lived workers owned by the Model, which end when the
// Model is garbage collected.
type Model struct {
	nodes int
	elems []element
	mat   settings.Material
	// lambda and mu are the Lamé parameters of mat.
	lambda, mu float64

	mass    []float64 // lumped mass per node, ρ·Σ V_e/4
	nodeVol []float64 // Σ V_e/4 over the elements around each node
	// massVol is Σ d_e·V_e/4 with each element's density factor d_e
	// (NewModelMaterials): nodeVol itself without factors.
	massVol   []float64
	totalMass float64
	volume    float64
	fill      []float64 // each element's fill fraction (NewModelFilled); nil: 1

	// pattern is the template of A (its Val is dropped once the block
	// positions are known): Pattern hands out copies, and the block
	// positions in elems index into their Val, of length nnz.
	pattern *sparse.SymCSC
	nnz     int

	pool *workerPool
}

// NewModel precomputes the finite-element model of msh with material mat.
// It rejects an invalid material, an empty mesh, non-finite coordinates,
// out-of-range or repeated node indices, inverted or degenerate rest
// elements, and nodes that belong to no element (their mass would be
// zero and A singular).
func NewModel(msh *mesh.TetMesh, mat settings.Material) (*Model, error) {
	return NewModelFilled(msh, mat, nil)
}

// NewModelFilled is NewModel for elements of which only the fraction
// fill[e] (in (0, 1]; nil: all) belongs to the solid, as in a grid mesh
// around a user's surface (mesh.Embedding.Fill): each element's volume,
// and with it its mass and its stiffness, is scaled by its fraction.
func NewModelFilled(msh *mesh.TetMesh, mat settings.Material, fill []float64) (*Model, error) {
	return NewModelMaterials(msh, mat, fill, nil, nil)
}

// NewModelMaterials is NewModelFilled for elements of their own material:
// element e is stiff[e] times as stiff (Young's modulus) and dens[e] times
// as dense as mat (nil: 1 for all; Poisson's ratio and damping are
// shared), as the parts of a soft body made of several bodies. Factors
// must be finite and positive.
func NewModelMaterials(msh *mesh.TetMesh, mat settings.Material, fill, stiff, dens []float64) (*Model, error) {
	if msh == nil {
		return nil, fmt.Errorf("fem: nil mesh")
	}
	if err := mat.Validate(); err != nil {
		return nil, fmt.Errorf("fem: %w", err)
	}
	n := len(msh.Nodes)
	if len(msh.Tets) == 0 {
		return nil, fmt.Errorf("fem: mesh has %d nodes and no tetrahedron", n)
	}
	if err := checkNodes(msh.Nodes); err != nil {
		return nil, err
	}
	if fill != nil && len(fill) != len(msh.Tets) {
		return nil, fmt.Errorf("fem: %d fill fractions for %d tetrahedra", len(fill), len(msh.Tets))
	}
	for _, f := range []struct {
		name string
		x    []float64
	}{{"stiffness", stiff}, {"density", dens}} {
		if f.x == nil {
			continue
		}
		if len(f.x) != len(msh.Tets) {
			return nil, fmt.Errorf("fem: %d %s factors for %d tetrahedra", len(f.x), f.name, len(msh.Tets))
		}
		for e, v := range f.x {
			if !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("fem: tetrahedron %d: %s factor %g: must be finite and positive", e, f.name, v)
			}
		}
	}
	m := &Model{
		fill:    fill,
		nodes:   n,
		elems:   make([]element, len(msh.Tets)),
		mass:    make([]float64, n),
		nodeVol: make([]float64, n),
	}
	for e, tet := range msh.Tets {
		if err := m.elems[e].init(msh.Nodes, tet); err != nil {
			return nil, fmt.Errorf("fem: tetrahedron %d %v: %w", e, tet, err)
		}
		if fill != nil {
			m.elems[e].vol *= fill[e]
		}
		vol := m.elems[e].vol
		m.elems[e].kvol = vol
		if stiff != nil {
			m.elems[e].kvol = vol * stiff[e]
		}
		m.volume += vol
		for _, i := range tet {
			m.nodeVol[i] += vol / 4
		}
	}
	m.massVol = m.nodeVol
	if dens != nil {
		m.massVol = make([]float64, n)
		for e, tet := range msh.Tets {
			for _, i := range tet {
				m.massVol[i] += dens[e] * m.elems[e].vol / 4
			}
		}
	}
	for i, v := range m.nodeVol {
		if v == 0 {
			return nil, fmt.Errorf("fem: node %d belongs to no tetrahedron", i)
		}
	}
	if err := m.buildPattern(); err != nil {
		return nil, err
	}
	m.setMaterial(mat)
	m.pool = newWorkerPool(m, runtime.GOMAXPROCS(0))
	return m, nil
}

// SetSerial runs the element passes on the calling goroutine alone (on) or
// shares them with the worker pool (off, the default). A caller that keeps
// the other cores busy itself, such as the asynchronous factorisation,
// turns it on: a pool worker that the OS deschedules in favour of that
// work holds up the whole pass (measured on 2 cores with the background
// factorisation running: assembly 3.1–3.5 ms shared, 3.2 ms serial, and
// the whole step 5–10 % faster serial).
func (m *Model) SetSerial(on bool) { m.pool.serial = on }

// State is what a body's elements carry from one assembly to the next:
// the element rotations R_e of the last assembly, the warm starts of the
// next polar decompositions (m3.PolarRotationNear). Assemble advances it;
// the other kernels read it and leave it as it is. A State belongs to the
// Model that made it (NewState).
type State struct {
	rot []m3.Mat3 // R_e, one per element
}

// NewState returns the state of the model's elements before the first
// assembly: every rotation the identity.
func (m *Model) NewState() *State {
	st := &State{rot: make([]m3.Mat3, len(m.elems))}
	st.Reset()
	return st
}

// Reset sets every element rotation back to the identity, as before the
// first assembly, so that a reset body replays exactly.
func (st *State) Reset() {
	for i := range st.rot {
		st.rot[i] = m3.Identity()
	}
}

// Rotations returns the element rotations R_e (read-only view).
func (st *State) Rotations() []m3.Mat3 { return st.rot }

// CopyFrom makes st a copy of src, reusing st's storage.
func (st *State) CopyFrom(src *State) { st.rot = append(st.rot[:0], src.rot...) }

// Workspace holds the per-element results of one element pass: the
// rotations R_e of a pass that leaves the State as it is (ElasticForces,
// StiffnessMul, VonMises), and P_e (see assemble.go) and det F_e of any
// pass. Every pass overwrites it; nothing in it carries from one pass to
// the next. A Workspace belongs to the Model that made it (NewWorkspace).
type Workspace struct {
	rot, stress []m3.Mat3
	detF        []float64
	scatter     scatterJob // the pass's scatter, kept here so that sharing it allocates nothing
}

// NewWorkspace returns a workspace for the model's element passes.
func (m *Model) NewWorkspace() *Workspace {
	n := len(m.elems)
	return &Workspace{rot: make([]m3.Mat3, n), stress: make([]m3.Mat3, n), detF: make([]float64, n)}
}

// checkState reports a state or a workspace that does not belong to a
// model of this model's element count.
func (m *Model) checkState(st *State, w *Workspace) error {
	if st == nil || len(st.rot) != len(m.elems) {
		n := 0
		if st != nil {
			n = len(st.rot)
		}
		return fmt.Errorf("fem: state of %d element rotations for %d elements", n, len(m.elems))
	}
	if w == nil || len(w.rot) != len(m.elems) {
		n := 0
		if w != nil {
			n = len(w.rot)
		}
		return fmt.Errorf("fem: workspace of %d elements for %d elements", n, len(m.elems))
	}
	return nil
}

// checkNodes rejects an empty or too large node list and non-finite
// coordinates.
func checkNodes(nodes []r3.Vec) error {
	if len(nodes) == 0 {
		return fmt.Errorf("fem: mesh has no node")
	}
	if 3*len(nodes) > math.MaxInt32 {
		return fmt.Errorf("fem: %d nodes exceed the supported %d", len(nodes), math.MaxInt32/3)
	}
	for i, p := range nodes {
		if !finite(p.X) || !finite(p.Y) || !finite(p.Z) {
			return fmt.Errorf("fem: node %d has a non-finite coordinate %v", i, p)
		}
	}
	return nil
}

// buildPattern builds the template of A (a 3×3 block for every pair of
// nodes sharing an element) and records in every element where its
// off-diagonal blocks live in A.Val.
func (m *Model) buildPattern() error {
	pairs := make([][2]int, 0, 6*len(m.elems))
	for e := range m.elems {
		nd := m.elems[e].nodes
		for _, p := range localPairs {
			pairs = append(pairs, [2]int{int(nd[p[0]]), int(nd[p[1]])})
		}
	}
	m.pattern = sparse.NewBlockPattern(m.nodes, pairs)
	if nnz := len(m.pattern.Val); nnz > math.MaxInt32 {
		return fmt.Errorf("fem: system matrix has %d stored entries, more than the supported %d", nnz, math.MaxInt32)
	}
	for e := range m.elems {
		if err := m.elems[e].locateBlocks(m.pattern); err != nil {
			return fmt.Errorf("fem: tetrahedron %d: %w", e, err)
		}
	}
	m.nnz = len(m.pattern.Val)
	m.pattern.Val = nil
	return nil
}

// Pattern returns a new zero matrix with the sparsity pattern of the
// system matrix A: a 3×3 block for every node and every pair of nodes
// sharing a tetrahedron (lower triangle stored). Assemble writes into it.
// Call it once per Model and keep the matrix: the solver's symbolic
// analysis depends on the pattern.
func (m *Model) Pattern() *sparse.SymCSC {
	p := m.pattern
	return &sparse.SymCSC{
		N:      p.N,
		ColPtr: append([]int(nil), p.ColPtr...),
		RowIdx: append([]int(nil), p.RowIdx...),
		Val:    make([]float64, m.nnz),
	}
}

// SetMaterial replaces the material in place: the Lamé parameters that
// scale every element stiffness and the lumped masses. The pattern of A
// does not change, so a solver's symbolic analysis stays valid.
func (m *Model) SetMaterial(mat settings.Material) error {
	if err := mat.Validate(); err != nil {
		return fmt.Errorf("fem: %w", err)
	}
	m.setMaterial(mat)
	return nil
}

// setMaterial applies an already validated material. The element
// stiffness matrices are never stored (see element.go), so only the
// Lamé parameters and the masses change.
func (m *Model) setMaterial(mat settings.Material) {
	m.mat = mat
	m.lambda, m.mu = mat.Lame()
	m.totalMass = 0
	for i, v := range m.massVol {
		m.mass[i] = mat.Density * v
		m.totalMass += m.mass[i]
	}
}

// Material returns the current material.
func (m *Model) Material() settings.Material { return m.mat }

// Nodes returns the number of nodes N; vectors have length 3N.
func (m *Model) Nodes() int { return m.nodes }

// Elements returns the number of tetrahedra.
func (m *Model) Elements() int { return len(m.elems) }

// Mass returns the lumped mass of every node (kg): ρ·V_e/4 summed over
// the elements around it. The slice is the Model's own; do not modify it.
func (m *Model) Mass() []float64 { return m.mass }

// TotalMass returns Σ m_i = ρ·V (kg).
func (m *Model) TotalMass() float64 { return m.totalMass }

// fillOf returns element e's fill fraction (1 without fill fractions).
func (m *Model) fillOf(e int) float64 {
	if m.fill == nil {
		return 1
	}
	return m.fill[e]
}

// Filled returns the sum of the elements' fill fractions: their number in
// a model without them.
func (m *Model) Filled() float64 {
	if m.fill == nil {
		return float64(len(m.elems))
	}
	sum := 0.0
	for _, f := range m.fill {
		sum += f
	}
	return sum
}

// Volume returns the rest volume V = Σ V_e (m³).
func (m *Model) Volume() float64 { return m.volume }

// checkLen reports a vector whose length is not 3N.
func (m *Model) checkLen(name string, x []float64) error {
	if len(x) != 3*m.nodes {
		return fmt.Errorf("fem: %s has length %d, want 3N = %d", name, len(x), 3*m.nodes)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// restGradients returns the gradients ∇N_i of the four linear shape
// functions and the volume of the tetrahedron with vertices X.
//
// With D_m = [X1−X0, X2−X0, X3−X0] (columns), the barycentric coordinates
// of a point X are (N1, N2, N3) = D_m⁻¹·(X − X0) and N0 = 1 − N1 − N2 − N3,
// so ∇N_j (j = 1…3) is row j−1 of D_m⁻¹ and ∇N_0 = −Σ ∇N_j. The volume
// is det D_m / 6, positive for the mesh's orientation convention.
func restGradients(X [4]r3.Vec) (g [4]r3.Vec, vol float64, err error) {
	Dm := m3.FromCols(r3.Sub(X[1], X[0]), r3.Sub(X[2], X[0]), r3.Sub(X[3], X[0]))
	det := Dm.Det()
	if det <= 0 {
		return g, 0, fmt.Errorf("rest volume %g is not positive (inverted or flat element)", det/6)
	}
	inv, ok := Dm.Inverse()
	if !ok {
		return g, 0, fmt.Errorf("rest element is degenerate (volume %g)", det/6)
	}
	g[1], g[2], g[3] = inv.Row(0), inv.Row(1), inv.Row(2)
	g[0] = r3.Scale(-1, r3.Add(g[1], r3.Add(g[2], g[3])))
	return g, det / 6, nil
}
