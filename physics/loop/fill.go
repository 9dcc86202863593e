package loop

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/frame"
	"softgrasp/physics/m3"
	"softgrasp/physics/rigid"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
)

// newScene extracts the static drawing data of a scene.
func newScene(sc *scenario.Scene, version uint64) *frame.Scene {
	sim := sc.Sim
	surf := sim.Surface()
	s := &frame.Scene{Version: version, MeshName: sc.MeshName(), DOFs: sim.Mesh().DOFs()}
	s.SurfaceTris = make([]uint32, 0, 3*len(surf.Tris))
	for _, t := range surf.Tris {
		for _, n := range t {
			s.SurfaceTris = append(s.SurfaceTris, uint32(surf.Local[n]))
		}
	}
	rest := sim.SurfaceRest()
	s.SurfaceRest = make([]float32, 3*len(surf.Vertices))
	for i, n := range surf.Vertices {
		for d := 0; d < 3; d++ {
			s.SurfaceRest[3*i+d] = float32(rest[3*n+d])
		}
	}
	for _, b := range sim.Bodies() {
		verts, tris := b.Shape.Triangulate()
		bm := frame.BodyMesh{Name: b.Name, Vertices: make([]float32, 0, 3*len(verts)), Indices: make([]uint32, 0, 3*len(tris))}
		for _, v := range verts {
			bm.Vertices = append(bm.Vertices, float32(v.X), float32(v.Y), float32(v.Z))
		}
		for _, t := range tris {
			bm.Indices = append(bm.Indices, uint32(t[0]), uint32(t[1]), uint32(t[2]))
		}
		_, bm.Floor = b.Shape.(rigid.Plane)
		s.Bodies = append(s.Bodies, bm)
	}
	if d := sc.Driver; d != nil {
		s.JawWidth, s.JawHeight = d.Gripper.JawWidth, d.Gripper.JawHeight
		s.Reach, s.MinOpening = sc.Reach(), scenario.MinOpening
	}
	return s
}

// publish fills the back frame from the current scene and the step's
// stats (nil when no step ran, e.g. paused) and publishes it.
func (r *Runner) publish(st *physics.StepStats) {
	if st != nil {
		r.seq++
	}
	f := r.buf.Back()
	sim := r.sc.Sim
	f.Seq, f.SceneVersion, f.Time = r.seq, r.version, sim.Time()
	f.ConfigVersion = r.config.Load().Version
	f.Message = r.message
	r.fillSurface(f)
	r.fillBodies(f)
	r.fillContacts(f)
	r.fillStats(f, st)
	r.fillGripper(f)
	r.fillAB(f)
	f.Checksum = f.ComputeChecksum()
	r.buf.Publish()
}

// fillSurface copies the surface positions and displacements and, when
// asked for (frame.SetStressField), the von Mises stresses, as float32.
// A surface mapped onto the mesh is drawn at G(q), its stresses
// interpolated from the nodes with the mapping's weights.
func (r *Runner) fillSurface(f *frame.Frame) {
	sim := r.sc.Sim
	q, rest := sim.SurfacePositions(), sim.SurfaceRest()
	verts := sim.Surface().Vertices
	f.Surface = growF32(f.Surface, 3*len(verts))
	f.Displacement = growF32(f.Displacement, len(verts))
	for i, n := range verts {
		dx, dy, dz := q[3*n]-rest[3*n], q[3*n+1]-rest[3*n+1], q[3*n+2]-rest[3*n+2]
		f.Surface[3*i], f.Surface[3*i+1], f.Surface[3*i+2] = float32(q[3*n]), float32(q[3*n+1]), float32(q[3*n+2])
		f.Displacement[i] = float32(math.Sqrt(dx*dx + dy*dy + dz*dz))
	}
	if !r.stressField {
		f.VonMises = f.VonMises[:0]
		return
	}
	f.VonMises = growF32(f.VonMises, len(verts))
	nodes := len(sim.Positions()) / 3
	if cap(r.vm) < nodes {
		r.vm = make([]float64, nodes)
	}
	r.vm = r.vm[:nodes]
	_ = sim.VonMises(r.vm) // reads the state and leaves it as it is
	for i, n := range verts {
		f.VonMises[i] = float32(sim.SurfaceValue(r.vm, n))
	}
}

// fillBodies writes each rigid body's model matrix.
func (r *Runner) fillBodies(f *frame.Frame) {
	bodies := r.sc.Sim.Bodies()
	if cap(f.BodyPoses) < len(bodies) {
		f.BodyPoses = make([][16]float32, len(bodies))
	}
	f.BodyPoses = f.BodyPoses[:len(bodies)]
	for i := range bodies {
		f.BodyPoses[i] = frame.ModelMatrix(bodies[i].End)
	}
}

// fillGripper copies the gripper driver's state and command.
func (r *Runner) fillGripper(f *frame.Frame) {
	d := r.sc.Driver
	if d == nil {
		f.Gripper = frame.GripperView{}
		return
	}
	g := &d.Gripper
	f.Gripper = frame.GripperView{
		Present: true, Scripted: r.sc.Scripted(), Path: r.sc.HasPath(),
		Position: g.Pose.Position, Rotation: g.Pose.Rotation, Opening: g.Opening,
		Target: d.Command.Target.Position, TargetOpening: d.Command.Opening,
	}
}

// fillContacts writes each contact's point, directions, deviation and
// forces.
func (r *Runner) fillContacts(f *frame.Frame) {
	sim := r.sc.Sim
	pairs := sim.Pairs()
	// The contact views follow the step's contacts; a buffer more than
	// twice as large as needed, and by more than 128 contacts (those of an
	// earlier, larger scene or phase), is let go, so that its memory is
	// not kept for good (with 4× and 1024 of slack, an 8-minute soak
	// through the stack and custom scenes kept 230 kB, +20 % of its heap).
	if c := cap(f.Contacts); c > 2*len(pairs)+128 {
		f.Contacts, r.contacts = nil, nil
	}
	f.Contacts = f.Contacts[:0]
	r.contacts = sim.AppendContacts(r.contacts[:0])
	for _, c := range r.contacts {
		f.Contacts = append(f.Contacts, frame.ContactView{
			Point:     vec32(c.Point),
			Normal0:   vec32(c.Normal0),
			Normal:    vec32(c.Normal),
			Deviation: float32(m3.AngleBetween(c.Normal0, c.Normal)),
			ForceN:    vec32(r3.Scale(c.NormalForce, c.Normal)),
			ForceT:    vec32(c.Friction),
			State:     uint8(c.State),
		})
	}
}

// fillStats copies the step's measurements (the previous frame's when no
// step ran).
func (r *Runner) fillStats(f *frame.Frame, st *physics.StepStats) {
	if st == nil {
		f.Stats = r.lastStats
		f.Stats.Paused, f.Stats.Backend = r.paused, r.backend
		return
	}
	s := &f.Stats
	*s = frame.Stats{Scheme: st.Scheme.String(), Paused: r.paused, Contacts: st.Contacts,
		NewtonIterations: len(st.Newton), Penetration: st.Penetration, UnconvergedSolves: st.UnconvergedSolves}
	for k, rec := range st.Newton {
		s.PGSIterations += rec.PGSIterations
		if k < settings.MaxNewton {
			s.DirectionChange[k], s.PositionChange[k] = rec.DirectionChange, rec.PositionChange
			s.ElasticResidual[k] = rec.ElasticResidual
			s.ContactResidual[k] = rec.ContactResidual
		}
	}
	s.MS = st.Times.Means(1, len(st.Newton))
	s.FrictionOverride, s.FrictionOverridden = r.sc.Sim.FrictionOverride()
	live := r.sc.Live()
	s.Slip, s.Held, s.GripForce, s.Phase = live.Slip, live.Held, live.GripForce, string(live.Phase)
	s.GripLeft, s.GripRight, s.GripTarget, s.Gripping = live.GripLeft, live.GripRight, live.GripTarget, live.Gripping
	s.ScriptStop = live.Stop
	s.StepRate, s.RealtimeFactor = r.rate.rates()
	s.Backend = r.backend
	r.fillDevice(s)
	r.lastStats = *s
}

func vec32(v r3.Vec) [3]float32 { return [3]float32{float32(v.X), float32(v.Y), float32(v.Z)} }

// growF32 returns s with length n, reusing its storage when it fits. A
// buffer more than twice as large as needed (a larger scene's, before
// this one) is replaced by one of this scene's size: the frames' memory
// follows the scene shown instead of the largest one ever loaded. Within
// a scene n does not change, so a warm step allocates nothing.
func growF32(s []float32, n int) []float32 {
	if cap(s) < n || cap(s) > 2*n+1024 {
		return make([]float32, n, n+n/4)
	}
	return s[:n]
}
