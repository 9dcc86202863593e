package physics

import (
	"errors"
	"fmt"

	"softgrasp/physics/collide"
	"softgrasp/physics/contact"
	"softgrasp/physics/fem"
	"softgrasp/physics/linsolve"
	"softgrasp/physics/m3"
	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// Simulation is one soft body in frictional contact with kinematic rigid
// bodies. It is not safe for concurrent use: one goroutine owns it.
//
// Before each Step the caller sets the rigid bodies' end-of-step poses
// (SetBodyEnd); their start poses are the previous end poses.
type Simulation struct {
	set settings.Settings

	mesh      *mesh.TetMesh
	surf      *mesh.Surface
	model     *fem.Model
	elem      *fem.State       // the element rotations
	solver    *linsolve.Solver // the linear solver of A
	detection detection
	depth     *collide.SurfaceDepth // the soft surface, for the rigid side's penetration
	bodies    []rigid.Body

	// Mechanical state and per-step vectors of length 3N.
	q, v, qRest         []float64
	b, dvFree, qFree, x []float64
	rhs                 []float64 // a solve's right-hand side
	qNew, vNew          []float64 // end-of-step state, committed after the checks

	// The contact state of the step and the two schemes that update it.
	ct       contactState
	fast     fastScheme
	standard standardScheme

	warm      map[uint64]warmStart
	newtonLog []NewtonRecord
	stats     StepStats

	steps int
	time  float64
}

// New builds a simulation of the soft body msh (rest configuration, at
// rest) touching the given kinematic bodies. Bodies keep their Start and
// End poses as given. The mesh must be valid (mesh.TetMesh.Validate).
func New(msh *mesh.TetMesh, bodies []rigid.Body, set settings.Settings) (*Simulation, error) {
	if err := set.Validate(); err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	if msh == nil {
		return nil, errors.New("simulation: no mesh")
	}
	if err := msh.Validate(); err != nil {
		return nil, fmt.Errorf("mesh: %w", err)
	}
	for i, b := range bodies {
		if b.Shape == nil {
			return nil, fmt.Errorf("rigid body %d (%q) has no shape", i, b.Name)
		}
	}
	model, err := fem.NewModel(msh, set.Material)
	if err != nil {
		return nil, fmt.Errorf("finite elements: %w", err)
	}
	surf, err := mesh.ExtractSurface(msh)
	if err != nil {
		return nil, fmt.Errorf("surface: %w", err)
	}
	solver, err := linsolve.New(model.Pattern(), model.Mass(), linsolve.OptionsFrom(set))
	if err != nil {
		return nil, err
	}
	model.SetSerial(solver.Async())
	n := msh.DOFs()
	s := &Simulation{
		set: set, mesh: msh, surf: surf, model: model, elem: model.NewState(), solver: solver,
		detection: detection{det: collide.NewDetector(surf)},
		depth:     collide.NewSurfaceDepth(surf),
		bodies:    append([]rigid.Body(nil), bodies...),
		warm:      make(map[uint64]warmStart),
		newtonLog: make([]NewtonRecord, 0, settings.MaxNewton),
	}
	s.fast = fastScheme{sim: s, backend: NewCPUBackend()}
	s.standard = standardScheme{sim: s}
	for _, vec := range []*[]float64{&s.q, &s.v, &s.qRest, &s.b, &s.dvFree, &s.qFree, &s.x, &s.rhs, &s.qNew, &s.vNew} {
		*vec = make([]float64, n)
	}
	for i, x := range msh.Nodes {
		s.qRest[3*i], s.qRest[3*i+1], s.qRest[3*i+2] = x.X, x.Y, x.Z
	}
	copy(s.q, s.qRest)
	return s, nil
}

// Close releases the solver's native memory and the backend.
func (s *Simulation) Close() {
	if s.solver != nil {
		s.solver.Close()
		s.solver = nil
	}
	if s.fast.backend != nil {
		s.fast.backend.Close()
		s.fast.backend = nil
	}
}

// SetBackend replaces the backend of the fast scheme's Newton iterations.
func (s *Simulation) SetBackend(b Backend) {
	if s.fast.backend != nil {
		s.fast.backend.Close()
	}
	s.fast.backend = b
}

// Backend returns the backend in use.
func (s *Simulation) Backend() Backend { return s.fast.backend }

// Settings returns the current settings.
func (s *Simulation) Settings() settings.Settings { return s.set }

// SetSettings validates and applies new settings from the next step on,
// the scheme and the solver of A included (a switch to the asynchronous
// solver starts its background factorisation, a switch back stops it).
func (s *Simulation) SetSettings(set settings.Settings) error {
	if err := set.Validate(); err != nil {
		return err
	}
	if set.Material != s.set.Material {
		if err := s.model.SetMaterial(set.Material); err != nil {
			return fmt.Errorf("Material: %w", err)
		}
	}
	if err := s.solver.SetOptions(linsolve.OptionsFrom(set)); err != nil {
		return fmt.Errorf("Solver: %w", err)
	}
	if set.TimeStep != s.set.TimeStep || set.Material != s.set.Material {
		// A = M + h·B + h²·K changed: a factor of the old one would go on
		// building W_H and the final correction (asynchronous solver).
		s.solver.Invalidate()
	}
	// The asynchronous worker takes one core and the step the other: the
	// element passes run on the step's goroutine alone.
	s.model.SetSerial(s.solver.Async())
	s.set = set
	return nil
}

// Reset puts the soft body back at rest in its rest configuration and
// forgets the warm starts. Rigid body poses are left to the caller.
func (s *Simulation) Reset() {
	copy(s.q, s.qRest)
	for i := range s.v {
		s.v[i] = 0
	}
	clear(s.warm)
	s.elem.Reset()
	s.solver.Invalidate()
	s.steps, s.time = 0, 0
	s.ct.pairs = s.ct.pairs[:0]
}

// SetBodyEnd sets body i's pose at the end of the next step.
func (s *Simulation) SetBodyEnd(i int, end rigid.Pose) { s.bodies[i].End = end }

// SetBodyPose places body i at pose for both the start and the end of the
// next step (a teleport, no motion over the step).
func (s *Simulation) SetBodyPose(i int, pose rigid.Pose) {
	s.bodies[i].Start, s.bodies[i].End = pose, pose
}

// Bodies returns the rigid bodies (read-only view).
func (s *Simulation) Bodies() []rigid.Body { return s.bodies }

// Mesh returns the soft body's mesh and Surface its boundary.
func (s *Simulation) Mesh() *mesh.TetMesh    { return s.mesh }
func (s *Simulation) Surface() *mesh.Surface { return s.surf }

// Model returns the finite-element model (masses, stresses) and
// ElementState the state of its elements (read-only view).
func (s *Simulation) Model() *fem.Model        { return s.model }
func (s *Simulation) ElementState() *fem.State { return s.elem }

// Positions returns q (read-only view, length 3N); Velocities v; and
// RestPositions the rest configuration.
func (s *Simulation) Positions() []float64     { return s.q }
func (s *Simulation) Velocities() []float64    { return s.v }
func (s *Simulation) RestPositions() []float64 { return s.qRest }

// SetState replaces positions and velocities (length 3N each).
func (s *Simulation) SetState(q, v []float64) error {
	if len(q) != len(s.q) || len(v) != len(s.v) {
		return fmt.Errorf("state has %d positions and %d velocities, want %d each", len(q), len(v), len(s.q))
	}
	copy(s.q, q)
	copy(s.v, v)
	return nil
}

// Time returns the simulated time and Steps the number of steps taken.
func (s *Simulation) Time() float64 { return s.time }
func (s *Simulation) Steps() int    { return s.steps }

// Pairs returns the proximity pairs of the last step; Lambda their forces
// [λn, λt1, λt2] (3 per pair); Directions the frames of the last Newton
// iteration and InitialDirections those from collision detection;
// ProximityPoints p at the end of the last step (3 per pair); States the
// contact states. All are read-only views valid until the next step.
func (s *Simulation) Pairs() []collide.Pair          { return s.ct.pairs }
func (s *Simulation) Lambda() []float64              { return s.ct.lambda }
func (s *Simulation) Directions() []m3.Mat3          { return s.ct.C }
func (s *Simulation) InitialDirections() []m3.Mat3   { return s.ct.C0 }
func (s *Simulation) ProximityPoints() []float64     { return s.ct.p }
func (s *Simulation) ContactStates() []contact.State { return s.ct.states }

// Stats returns the measurements of the last step.
func (s *Simulation) Stats() *StepStats { return &s.stats }
