package scenario

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/collide"
	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// A custom scene (settings.Custom): the soft and rigid bodies a version 2
// scene file lists, over the floor, with or without the gripper and its
// grasp-and-rotate script (aimed at the soft bodies). The soft bodies
// become the parts of one soft body (each its own connected mesh), so
// that they touch each other through soft–soft contact; the rigid ones are
// dynamic (with a mass) or kinematic, after the floor (body 0), in their
// order.

// customMesh builds the listed soft bodies, each placed with the centre
// of its bottom face at its position, as one mesh of as many parts. A body
// from a mesh file comes through the mesh pipeline (loadObjectMesh, fitted
// to its size); when there is one, every part carries a surface mapped
// onto its nodes (the procedural ones their boundary, as an identity
// mapping), and the parts' mappings are joined into one.
func customMesh(cfg settings.Scenario) (object, meshInfo, error) {
	all := &mesh.TetMesh{}
	var stiff, dens []float64
	own, mapped := false, false
	mat := cfg.Physics.Material
	for _, s := range cfg.Soft {
		own = own || s.Young > 0 || s.Density > 0
		mapped = mapped || s.Shape == settings.MeshShape
	}
	var emb *mesh.Embedding
	if mapped {
		emb = &mesh.Embedding{Fill: []float64{}}
	}
	info := meshInfo{name: fmt.Sprintf("%d listed soft bodies", len(cfg.Soft))}
	for i, s := range cfg.Soft {
		part, err := customPart(cfg, s, &info)
		if err != nil {
			return object{}, meshInfo{}, fmt.Errorf("soft[%d]: %w", i+1, err)
		}
		m := part.mesh
		if mapped && part.emb == nil {
			if part.emb, err = mesh.BoundaryEmbedding(m); err != nil {
				return object{}, meshInfo{}, fmt.Errorf("soft[%d]: %w", i+1, err)
			}
		}
		b := m.Bounds()
		if part.emb != nil {
			b = mesh.BoundsOf(part.surface())
		}
		shift := r3.Vec{
			X: s.Position[0] - (b.Min.X+b.Max.X)/2,
			Y: s.Position[1] - (b.Min.Y+b.Max.Y)/2,
			Z: s.Position[2] - b.Min.Z,
		}
		if mapped {
			appendMapping(emb, part.emb, len(all.Nodes), len(m.Tets), shift)
		}
		appendPart(all, m, shift)
		if own {
			k, d := 1.0, 1.0
			if s.Young > 0 {
				k = s.Young / mat.YoungModulus
			}
			if s.Density > 0 {
				d = s.Density / mat.Density
			}
			for range m.Tets {
				stiff, dens = append(stiff, k), append(dens, d)
			}
		}
	}
	if emb != nil {
		info.surfaceTris = len(emb.Surface.Tris)
	}
	return object{mesh: all, emb: emb, mats: physics.ElementMaterials{Stiffness: stiff, Density: dens}}, info, nil
}

// customPart builds one listed soft body at the origin: a procedural box
// or cylinder, or the mesh file fitted to its size (bottom at z = 0,
// centred), whose notes join info's.
func customPart(cfg settings.Scenario, s settings.SoftSpec, info *meshInfo) (object, error) {
	switch s.Shape {
	case settings.CylinderShape:
		m, err := mesh.CylinderForDOFs(s.Size[0]/2, s.Size[1], s.DOFs)
		return object{mesh: m}, err
	case settings.MeshShape:
		one := cfg
		one.MeshFile, one.ObjectSize, one.MeshScale = s.Mesh, s.Size[0], 0
		if s.Units != "" {
			scale, err := mesh.UnitScale(s.Units)
			if err != nil {
				return object{}, err
			}
			one.ObjectSize, one.MeshScale = cfg.ObjectSize, scale
		}
		one.MeshUp, _ = s.MeshUpOr(cfg.MeshUp) // Validate refused any other name
		part, pi, err := loadObjectMesh(one, s.DOFs)
		if err != nil {
			return object{}, err
		}
		for _, n := range pi.notes {
			info.notes = append(info.notes, s.Mesh+": "+n)
		}
		return part, nil
	}
	m, err := mesh.BoxForDOFs(r3.Vec{X: s.Size[0], Y: s.Size[1], Z: s.Size[2]}, s.DOFs)
	return object{mesh: m}, err
}

// appendMapping adds part's mapping to all: its points follow its nodes
// after the nodes already there (nodes), its rest surface is moved by
// shift, and its tets' fill fractions (1 without) follow.
func appendMapping(all, part *mesh.Embedding, nodes, tets int, shift r3.Vec) {
	points := len(all.Points)
	for _, p := range part.Points {
		for k := 0; k < p.Count; k++ {
			p.Nodes[k] += nodes
		}
		all.Points = append(all.Points, p)
	}
	for _, x := range part.Surface.Nodes {
		all.Surface.Nodes = append(all.Surface.Nodes, r3.Add(x, shift))
	}
	for _, t := range part.Surface.Tris {
		all.Surface.Tris = append(all.Surface.Tris, [3]int{t[0] + points, t[1] + points, t[2] + points})
	}
	if part.Fill != nil {
		all.Fill = append(all.Fill, part.Fill...)
		return
	}
	for range tets {
		all.Fill = append(all.Fill, 1)
	}
}

// customFirst is the index of the first listed rigid body: after the
// floor, and the two jaws when the scene has a gripper.
func customFirst(cfg settings.Scenario) int {
	if cfg.Gripper {
		return RightJawBody + 1
	}
	return FloorBody + 1
}

// customBodies returns the listed rigid bodies at their poses after the
// scene's first bodies (the floor, or the floor and the jaws).
func customBodies(cfg settings.Scenario, first []rigid.Body) ([]rigid.Body, error) {
	bodies := first
	for i, r := range cfg.Rigid {
		var shape rigid.Shape
		var err error
		rot := customRotation(r.Rotation)
		switch r.Shape {
		case settings.CylinderShape:
			shape, err = rigid.NewCylinder(r.Size[0]/2, r.Size[1]/2, 0, 0)
		case settings.MeshShape:
			var m *rigidMesh
			if m, err = loadRigidMesh(r.Mesh, r.Size[0]); err == nil {
				// The body frame is the mesh's principal frame, turned
				// onto the file's axes, then by the scene's rotation.
				shape, rot = m.shape, rigid.Pose{Rotation: rot}.Compose(rigid.Pose{Rotation: m.axes}).Rotation
			}
		default:
			shape, err = rigid.NewBox(r3.Vec{X: r.Size[0] / 2, Y: r.Size[1] / 2, Z: r.Size[2] / 2}, 0)
		}
		if err != nil {
			return nil, fmt.Errorf("rigid[%d]: %w", i+1, err)
		}
		pose := rigid.Pose{Position: r3.Vec{X: r.Position[0], Y: r.Position[1], Z: r.Position[2]}, Rotation: rot}
		bodies = append(bodies, rigid.Body{Name: r.BodyName(i), Shape: shape, Start: pose, End: pose})
	}
	return bodies, nil
}

// customRotation turns by the angles (degrees) about x, then y, then z.
func customRotation(deg [3]float64) r3.Rotation {
	rad := func(d float64) float64 { return d * math.Pi / 180 }
	rx := r3.NewRotation(rad(deg[0]), r3.Vec{X: 1})
	ry := r3.NewRotation(rad(deg[1]), r3.Vec{Y: 1})
	rz := r3.NewRotation(rad(deg[2]), r3.Vec{Z: 1})
	return rigid.Pose{Rotation: rz}.Compose(rigid.Pose{Rotation: ry}).Compose(rigid.Pose{Rotation: rx}).Rotation
}

// customDynamics makes the rigid bodies with a mass dynamic: uniform
// solids, inertia about their own axes (a mesh body's principal axes,
// loadRigidMesh).
func customDynamics(sim *physics.Simulation, cfg settings.Scenario) error {
	for i, r := range cfg.Rigid {
		if r.Mass == 0 {
			continue
		}
		m := r.Mass
		var I r3.Vec
		if tm, ok := sim.Bodies()[customFirst(cfg)+i].Shape.(*rigid.TriangleMesh); ok {
			// Its frame is its principal frame: the tensor is diagonal
			// there (off the diagonal, round-off).
			vol, _, J := tm.MassProperties()
			I = r3.Scale(m/vol, r3.Vec{X: J[0], Y: J[4], Z: J[8]})
		} else if r.Shape == settings.CylinderShape {
			rad, h := r.Size[0]/2, r.Size[1]
			side := m * (3*rad*rad + h*h) / 12
			I = r3.Vec{X: side, Y: side, Z: m * rad * rad / 2}
		} else {
			a, b, c := r.Size[0], r.Size[1], r.Size[2]
			I = r3.Vec{X: m * (b*b + c*c) / 12, Y: m * (a*a + c*c) / 12, Z: m * (a*a + b*b) / 12}
		}
		d := physics.RigidDynamics{Mass: m, Inertia: I,
			Velocity:        r3.Vec{X: r.Velocity[0], Y: r.Velocity[1], Z: r.Velocity[2]},
			AngularVelocity: r3.Vec{X: r.AngularVelocity[0], Y: r.AngularVelocity[1], Z: r.AngularVelocity[2]}}
		if err := sim.SetDynamic(customFirst(cfg)+i, &d); err != nil {
			return fmt.Errorf("rigid[%d]: %w", i+1, err)
		}
	}
	return nil
}

// BodyResult is a listed rigid body at the end of a custom scene.
type BodyResult struct {
	Name     string     `json:"name"`
	Dynamic  bool       `json:"dynamic"`
	Position [3]float64 `json:"position"` // its centre, m
	Speed    float64    `json:"speed"`    // m/s (0 for a kinematic body)
	// FloorForce is the floor's push on it at the last step (rigid–rigid
	// contact), N; SoftForce the soft bodies' (Σλn of their pairs), N.
	FloorForce float64 `json:"floor_force"`
	SoftForce  float64 `json:"soft_force"`
	// AttachForce is the pull of the soft nodes attached to a dynamic body
	// on it at the last step (world axes), N; absent without any.
	AttachForce *[3]float64 `json:"attach_force,omitempty"`
}

// customResult lists the rigid bodies at the end: each one's pose and
// speed, the soft bodies' push on it, and, for a dynamic body, the floor's
// (the λn of its rigid–rigid pairs with the floor at the last step).
func (sc *Scene) customResult() []BodyResult {
	st := sc.Sim.Stats()
	bodies := sc.Sim.Bodies()
	floor := make([]float64, len(bodies))
	held := make([]*[3]float64, len(bodies))
	for _, c := range sc.Sim.AppendContacts(nil) {
		switch {
		case c.Kind == collide.RigidRigid && c.Other == FloorBody:
			floor[c.Body] += c.NormalForce
		case c.Kind == collide.Attached:
			// The force on the soft node, C·λ in world axes; the body
			// gets the opposite.
			if held[c.Body] == nil {
				held[c.Body] = new([3]float64)
			}
			f := r3.Add(r3.Scale(c.NormalForce, c.Normal), c.Friction)
			h := held[c.Body]
			h[0], h[1], h[2] = h[0]-f.X, h[1]-f.Y, h[2]-f.Z
		}
	}
	out := []BodyResult{}
	for k := customFirst(sc.cfg); k < len(bodies); k++ {
		p := bodies[k].Start.Position
		r := BodyResult{Name: bodies[k].Name, Position: [3]float64{p.X, p.Y, p.Z}}
		if d, ok := sc.Sim.Dynamics(k); ok {
			r.Dynamic, r.Speed, r.FloorForce = true, r3.Norm(d.Velocity), floor[k]
		}
		if k < len(st.BodyNormalForce) {
			r.SoftForce = st.BodyNormalForce[k]
		}
		r.AttachForce = held[k]
		out = append(out, r)
	}
	return out
}
