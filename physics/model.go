package physics

import (
	"fmt"

	"softgrasp/physics/fem"
	"softgrasp/physics/mesh"
	"softgrasp/physics/settings"
)

// Model is what a simulation knows of one soft body before its first step
// and never changes while it runs: the tetrahedral mesh and its boundary
// surface, the rest positions q_rest, and the finite-element model (the
// elements' rest data, the lumped masses, the pattern of A and the
// constants derived from the material; a new material replaces the last
// two in place, Simulation.SetSettings). What a step advances is in a
// State; several bodies would be a slice of models and one of states.
type Model struct {
	mesh  *mesh.TetMesh
	surf  *mesh.Surface
	fem   *fem.Model
	qRest []float64 // rest positions, 3N
}

// newModel builds the model of the soft body msh (valid: mesh.TetMesh.
// Validate) of material mat.
func newModel(msh *mesh.TetMesh, mat settings.Material) (*Model, error) {
	fm, err := fem.NewModel(msh, mat)
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
	return m, nil
}

// Mesh returns the soft body's mesh and Surface its boundary.
func (m *Model) Mesh() *mesh.TetMesh    { return m.mesh }
func (m *Model) Surface() *mesh.Surface { return m.surf }

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
