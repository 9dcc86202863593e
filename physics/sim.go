package physics

import (
	"errors"
	"fmt"

	"softgrasp/physics/collide"
	"softgrasp/physics/linsolve"
	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// Simulation is one soft body in frictional contact with kinematic rigid
// bodies. It is not safe for concurrent use: one goroutine owns it.
//
// It holds the body's Model (unchanging), its State (what a step
// advances), the rigid bodies, the linear solver of A and the fast
// scheme's backend, the settings, and the workspace of a step (scratch).
//
// Before each Step the caller sets the rigid bodies' end-of-step poses
// (SetBodyEnd); their start poses are the previous end poses.
type Simulation struct {
	set      settings.Settings
	override frictionOverride // a scene's μ in place of set.Friction (override.go)
	model    *Model
	state    *State
	bodies   []rigid.Body
	solver   *linsolve.Solver // the linear solver of A
	backend  Backend          // the fast scheme's per-iteration work
	// hostBackend stands in for a backend that cannot solve bilateral
	// contacts (stepper), created when first needed.
	hostBackend *CPUBackend
	ws          *workspace
	attach      *attachments   // the attached nodes (attach.go), nil without any
	dyn         []*dynamicBody // the dynamic bodies (dynamic.go), empty without any
	// freezeMapping holds the standard scheme's geometric mapping G fixed
	// over each step, as the fast scheme assumes: a switch for the tests
	// that prove both schemes equal under that assumption (export_test.go),
	// not a setting.
	freezeMapping bool
	// run is the view of the fields above that a step's stages and the
	// schemes take (stepper). It is a field, not a value of Step's frame,
	// because the schemes receive it through an interface call, which
	// would move a frame's value to the heap at every step.
	run step
}

// New builds a simulation of the soft body msh (rest configuration, at
// rest) touching the given kinematic bodies. Bodies keep their Start and
// End poses as given. The mesh must be valid (mesh.TetMesh.Validate).
func New(msh *mesh.TetMesh, bodies []rigid.Body, set settings.Settings) (*Simulation, error) {
	return NewEmbedded(msh, nil, bodies, set)
}

// NewEmbedded is New with the surface emb mapped onto the mesh (the
// paper's geometric mapping p = G(q), Eq. geometric mapping): collision
// detection, the penetration measures and drawing then use emb's surface,
// whose points follow the nodes through emb.Points, and the mapping
// Jacobian H spreads each proximity point onto the nodes it follows. With
// emb nil the surface is the mesh's boundary, exactly as New. emb must be
// valid for the mesh (mesh.Embedding.Validate) with outward triangles; its
// Surface.Nodes are not read: the points at rest are G(q_rest). The
// simulation keeps emb: it must not change afterwards.
func NewEmbedded(msh *mesh.TetMesh, emb *mesh.Embedding, bodies []rigid.Body, set settings.Settings) (*Simulation, error) {
	return NewWithMaterials(msh, emb, bodies, set, ElementMaterials{})
}

// ElementMaterials gives the elements of a soft body made of several
// bodies their own material: element e is Stiffness[e] times as stiff
// (Young's modulus) and Density[e] times as dense as the settings'
// material (nil: 1 for every element). Poisson's ratio and the damping
// are shared. A change of the settings' material (SetSettings) scales
// every element alike.
type ElementMaterials struct {
	Stiffness, Density []float64
}

// NewWithMaterials is NewEmbedded with the elements' own materials.
func NewWithMaterials(msh *mesh.TetMesh, emb *mesh.Embedding, bodies []rigid.Body, set settings.Settings, mats ElementMaterials) (*Simulation, error) {
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
	model, err := newModel(msh, emb, set.Material, mats)
	if err != nil {
		return nil, err
	}
	solver, err := linsolve.New(model.fem.Pattern(), model.fem.Mass(), linsolve.OptionsFrom(set))
	if err != nil {
		return nil, err
	}
	return &Simulation{
		set: set, model: model, state: model.NewState(),
		bodies:  append([]rigid.Body(nil), bodies...),
		solver:  solver,
		backend: NewCPUBackend(),
		ws:      newWorkspace(model),
	}, nil
}

// stepper returns the view of the simulation that the stages of a step
// take, refreshed from its fields (a new backend, new settings).
//
// A backend that does not solve bilateral contacts (BilateralBackend)
// hands the steps of a simulation with nodes held to a dynamic body to a
// CPU backend of the simulation's own (hostBackend).
func (s *Simulation) stepper() *step {
	b := s.backend
	if _, ok := b.(BilateralBackend); !ok && s.attach != nil && len(s.attach.held) > 0 {
		if s.hostBackend == nil {
			s.hostBackend = NewCPUBackend()
		}
		b = s.hostBackend
	}
	s.run = step{set: &s.set, model: s.model, state: s.state, bodies: s.bodies,
		solver: s.solver, backend: b, ws: s.ws, mu: s.friction(), attach: s.attach, dyn: s.dyn,
		freezeMapping: s.freezeMapping}
	return &s.run
}

// Close releases the solver's native memory and the backend.
func (s *Simulation) Close() {
	if s.solver != nil {
		s.solver.Close()
	}
	if s.backend != nil {
		s.backend.Close()
	}
	if s.hostBackend != nil {
		s.hostBackend.Close()
	}
	s.solver, s.backend, s.hostBackend = nil, nil, nil
}

// SetBackend replaces the backend of the fast scheme's Newton iterations.
func (s *Simulation) SetBackend(b Backend) {
	if s.backend != nil {
		s.backend.Close()
	}
	s.backend = b
}

// Backend returns the backend in use.
func (s *Simulation) Backend() Backend { return s.backend }

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
		if err := s.model.fem.SetMaterial(set.Material); err != nil {
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
	s.set = set
	return nil
}

// Reset puts the soft body back at rest in its rest configuration and
// forgets the warm starts. Rigid body poses are left to the caller.
func (s *Simulation) Reset() {
	s.state.reset(s.model)
	s.solver.Invalidate()
	s.ws.ct.pairs = s.ws.ct.pairs[:0]
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

// Model returns the soft body's model and State its state (read-only
// views).
func (s *Simulation) Model() *Model { return s.model }
func (s *Simulation) State() *State { return s.state }

// Mesh returns the soft body's mesh and Surface the surface that collides
// and is drawn (Model.Surface), whose indices refer to SurfacePositions.
func (s *Simulation) Mesh() *mesh.TetMesh    { return s.model.mesh }
func (s *Simulation) Surface() *mesh.Surface { return s.model.surf }

// SurfacePositions returns the surface positions in the current state (3
// per surface index, read-only, valid until the next call or step): q
// itself when the surface is the mesh's boundary, G(q) for a mapped
// surface. SurfaceRest gives them at rest.
func (s *Simulation) SurfacePositions() []float64 {
	return s.model.mapSurface(s.ws.pShow, s.state.q)
}
func (s *Simulation) SurfaceRest() []float64 { return s.model.pRest }

// SurfaceValue interpolates a per-node field (one value per node: a
// stress, a displacement) at surface index i with the mapping's weights:
// perNode[i] itself when the surface is the mesh's boundary.
func (s *Simulation) SurfaceValue(perNode []float64, i int) float64 {
	emb := s.model.emb
	if emb == nil {
		return perNode[i]
	}
	pw := &emb.Points[i]
	v := 0.0
	for k := 0; k < pw.Count; k++ {
		v += pw.Weights[k] * perNode[pw.Nodes[k]]
	}
	return v
}

// Positions returns q (read-only view, length 3N); Velocities v; and
// RestPositions the rest configuration.
func (s *Simulation) Positions() []float64     { return s.state.q }
func (s *Simulation) Velocities() []float64    { return s.state.v }
func (s *Simulation) RestPositions() []float64 { return s.model.qRest }

// SetState replaces positions and velocities (length 3N each).
func (s *Simulation) SetState(q, v []float64) error {
	st := s.state
	if len(q) != len(st.q) || len(v) != len(st.v) {
		return fmt.Errorf("state has %d positions and %d velocities, want %d each", len(q), len(v), len(st.q))
	}
	copy(st.q, q)
	copy(st.v, v)
	st.dvLast = st.dvLast[:0]
	return nil
}

// VonMises writes into perNode (length N) the von Mises stress at every
// node in the current state (fem.Model.VonMises). It reads the state and
// leaves it as it is: what it shows never changes the next step.
func (s *Simulation) VonMises(perNode []float64) error {
	return s.model.fem.VonMises(&s.state.elem, s.ws.fem, s.state.q, perNode)
}

// Time returns the simulated time and Steps the number of steps taken.
func (s *Simulation) Time() float64 { return s.state.time }
func (s *Simulation) Steps() int    { return s.state.steps }

// Pairs returns the proximity pairs of the last step and Lambda their
// forces [λn, λt1, λt2] (3 per pair), read-only views valid until the
// next step; AppendContacts gives each contact's point, directions,
// forces, gap and state.
func (s *Simulation) Pairs() []collide.Pair { return s.ws.ct.pairs }
func (s *Simulation) Lambda() []float64     { return s.ws.ct.lambda }

// Stats returns the measurements of the last step.
func (s *Simulation) Stats() *StepStats { return &s.ws.stats }
