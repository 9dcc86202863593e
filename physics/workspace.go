package physics

import (
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/fem"
	"softgrasp/physics/linsolve"
	"softgrasp/physics/m3"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// workspace is the scratch of one soft body's step: every vector and
// buffer a step fills, kept from step to step only so that a warm step
// allocates nothing. A step reads nothing that the previous step left in
// it (what carries over is the State); after a step it holds that step's
// results for the caller to read (pairs, forces, directions, stats).
type workspace struct {
	// Per-step vectors of length 3N.
	b, dvFree, qFree, x []float64
	rhs                 []float64 // a solve's right-hand side
	dynamic             dynamicScratch
	elastic             elasticScratch
	contactResidual     float64   // the contact law's residual at the last relinearisation (NewtonRecord.ContactResidual)
	qNew, vNew          []float64 // end-of-step state, committed after the checks

	fem *fem.Workspace // the element passes' results

	detection detection
	depth     *collide.SurfaceDepth // the soft surface, for the rigid side's penetration
	// pSurf holds the surface positions G(q) of a mapped surface (3 per
	// point) at the start of the step for detection, then at its end for
	// the measures; pShow those of the state for the caller
	// (SurfacePositions). Both are empty for the mesh's boundary, whose
	// positions are q. pSurfOf holds the node positions pSurf was mapped
	// from (surfaceAt).
	pSurf, pShow, pSurfOf []float64

	// The contact state of the step and the scratch of the two schemes
	// that update it.
	ct       contactState
	fast     fastScheme
	standard standardScheme

	newtonLog []NewtonRecord
	stats     StepStats
}

// dynamicScratch is the dynamic bodies' part of a step (dynamic.go): the
// factors of the pairs' compliance blocks and each body's force and
// torque sums (two per body). Each step sizes and fills it anew.
type dynamicScratch struct {
	rigidLeft, rigidRight []m3.Mat3
	pairSides             [][2]pairSide   // the sides of each pair (addRigidBlocks)
	onDynamic             []pairSideCount // the pairs on dynamic bodies
	rigidSums             []r3.Vec
	dynFlags              []bool // which bodies are dynamic (dynamicFlags)
}

// elasticScratch is the Newton iterate on the whole residual (elastic.go):
// q_k, v_k, the residual R_k (first the forces F(q_k, v_k)) and its
// correction, and the step's gate by its turn (turn.go).
type elasticScratch struct {
	qK, vK, res, delta []float64
	deltaPrev          []float64    // the step's last correction made
	rotK               m3.Mat3      // the body's rotation to q_k from the factor's configuration
	off                bool         // the step backtracked: no more corrections
	turning            bool         // a part turns by more than ElasticTurn in the step (turn.go)
	turn               []partMotion // each part's moments, for its turn per step (turn.go)
	moved              bool         // the step made a correction
}

// newElasticScratch returns the scratch of a body of n DOFs and parts parts.
func newElasticScratch(n, parts int) elasticScratch {
	e := elasticScratch{turn: make([]partMotion, parts)}
	for _, vec := range []*[]float64{&e.qK, &e.vK, &e.res, &e.delta, &e.deltaPrev} {
		*vec = make([]float64, n)
	}
	return e
}

// reset starts a step: no correction made, none refused.
func (e *elasticScratch) reset() { e.off, e.moved = false, false }

// newWorkspace returns the workspace of a step of model m.
func newWorkspace(m *Model) *workspace {
	n := m.DOFs()
	ws := &workspace{
		fem:       m.fem.NewWorkspace(),
		detection: detection{det: m.newDetector()},
		newtonLog: make([]NewtonRecord, 0, settings.MaxNewton),
	}
	ws.elastic = newElasticScratch(n, m.nparts)
	ws.depth = ws.detection.det.SurfaceDepth()
	for _, vec := range []*[]float64{&ws.b, &ws.dvFree, &ws.qFree, &ws.x, &ws.rhs, &ws.qNew, &ws.vNew} {
		*vec = make([]float64, n)
	}
	if m.emb != nil {
		ws.pSurf = make([]float64, 3*m.SurfacePoints())
		ws.pShow = make([]float64, 3*m.SurfacePoints())
		ws.detection.thin = m.newThinning()
	}
	return ws
}

// step is what the stages of one step and the schemes work with: the
// settings, the body's model, its state (advanced by commit only), the
// kinematic rigid bodies, the linear solver of A, the fast scheme's
// backend and the workspace. It holds no data of its own.
type step struct {
	set     *settings.Settings
	model   *Model
	state   *State
	bodies  []rigid.Body
	solver  *linsolve.Solver
	backend Backend
	ws      *workspace
	// mu is the Coulomb coefficient of the step's contacts: the settings'
	// Friction, or a scene's override while one is on (override.go).
	mu float64
	// attach holds the attached nodes (attach.go), nil without any.
	attach *attachments
	// dyn holds the dynamic bodies (dynamic.go), indexed like bodies, nil
	// entries for kinematic ones; empty without any.
	dyn []*dynamicBody
	// freezeMapping is Simulation.freezeMapping.
	freezeMapping bool
}
