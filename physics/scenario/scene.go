package scenario

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// Body indices of the scenes' rigid bodies.
const (
	FloorBody    = 0 // the floor (or the incline)
	LeftJawBody  = 1 // grasp-and-rotate only
	RightJawBody = 2
	CubeBody     = 1 // cube-drop only: the dynamic cube
)

// Scene is a built scenario: the simulation, the driver of its kinematic
// bodies and its metrics. Like the simulation it belongs to one goroutine.
type Scene struct {
	// cfg is the scene's own configuration. Its Physics field is left
	// zero: the simulation owns its settings (Config reads them back).
	cfg     settings.Scenario
	Sim     *physics.Simulation
	Driver  *GripperDriver // nil when the scene has no gripper
	script  *graspScript   // nil when not scripted
	metrics metrics
	release inclineRelease // the incline's hold and release (incline.go)

	meshInfo meshInfo
	mass     []float64
	total    float64
	partMass []float64 // mass of each part of the soft body (its mesh's connected components), kg
	height   float64   // object height at rest, m
	// width is the object's width along the closing axis, m: along x in
	// the squeeze scene, where the jaws meet it at the aim (AimAtObject)
	// in a grasp.
	width float64
	// open is the grasp's open opening (the aim's, or the jaws' reach
	// when refused), m.
	open float64
	// tris are the surface's triangles, three indices into
	// SurfacePositions each.
	tris []int32
	// lastAim is the last grasp search's result (aimAt).
	lastAim cachedAim
	// loopEnd is the end of a repeating script's first run (0: none yet),
	// the scene's Duration; cycles counts its repeats.
	loopEnd float64
	cycles  int
}

// Build creates the scene described by cfg.
func Build(cfg settings.Scenario) (*Scene, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	obj, info, err := objectMesh(cfg)
	if err != nil {
		return nil, err
	}
	return build(cfg, obj, info)
}

// BuildObject creates the scene described by cfg around the given soft
// object in place of the one cfg describes: the tetrahedral mesh m, bottom
// at z = 0 and centred in x and y as objectMesh leaves its objects, and
// the surface emb mapped onto it (nil: the mesh's boundary). The scene
// takes both over: it moves m's nodes and emb's rest surface.
func BuildObject(cfg settings.Scenario, m *mesh.TetMesh, emb *mesh.Embedding) (*Scene, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("scene: no mesh")
	}
	name := "given mesh"
	if emb != nil {
		name = fmt.Sprintf("given mesh with a mapped surface of %d triangles", len(emb.Surface.Tris))
	}
	return build(cfg, object{mesh: m, emb: emb}, meshInfo{name: name})
}

// object is a scene's soft body: its tetrahedral mesh and, when a finer
// surface is mapped onto it (the surface that collides and is drawn), the
// embedding; emb is nil when the surface is the mesh's boundary.
type object struct {
	mesh *mesh.TetMesh
	emb  *mesh.Embedding
	mats physics.ElementMaterials // the elements' own materials (a custom scene's soft bodies); zero: the scene's
}

// surface returns the object's surface points at the mesh's current node
// positions: the mesh nodes for its boundary, else the mapped surface's
// points, whose rest positions (emb.Surface.Nodes) it first brings to
// G(nodes), so that they follow whatever moved the mesh (a barycentric
// mapping commutes with the affine placements of the scene).
func (o object) surface() []r3.Vec {
	if o.emb == nil {
		return o.mesh.Nodes
	}
	e := o.emb
	q, p := coordinates(o.mesh.Nodes), make([]float64, 3*len(e.Points))
	e.Map(p, q)
	if len(e.Surface.Nodes) != len(e.Points) {
		e.Surface.Nodes = make([]r3.Vec, len(e.Points))
	}
	for i := range e.Surface.Nodes {
		e.Surface.Nodes[i] = r3.Vec{X: p[3*i], Y: p[3*i+1], Z: p[3*i+2]}
	}
	return e.Surface.Nodes
}

// surfaceTris returns the triangles of the object's surface, three
// indices into surface() each: the mapped surface's, or the mesh's
// boundary's (nil for a mesh without one).
func (o object) surfaceTris() []int32 {
	var tris [][3]int
	if o.emb != nil {
		tris = o.emb.Surface.Tris
	} else if b, err := mesh.ExtractSurface(o.mesh); err == nil {
		tris = b.Tris
	}
	return flatTris(tris)
}

// flatTris lists the triangles' corners, three per triangle.
func flatTris(tris [][3]int) []int32 {
	out := make([]int32, 0, 3*len(tris))
	for _, t := range tris {
		out = append(out, int32(t[0]), int32(t[1]), int32(t[2]))
	}
	return out
}

// centroid is the centre of the object's mass as the finite elements
// carry it: each tetrahedron's centroid weighted by its volume and, under
// a mapped surface, by the share of it inside the surface (Embedding.Fill).
func (o object) centroid() r3.Vec {
	if o.emb == nil || o.emb.Fill == nil {
		return o.mesh.Centroid()
	}
	var c r3.Vec
	var w float64
	for t, tet := range o.mesh.Tets {
		n := o.mesh.Nodes
		mid := r3.Scale(0.25, r3.Add(r3.Add(n[tet[0]], n[tet[1]]), r3.Add(n[tet[2]], n[tet[3]])))
		wt := o.mesh.TetVolume(tet) * o.emb.Fill[t]
		c, w = r3.Add(c, r3.Scale(wt, mid)), w+wt
	}
	if !(w > 0) {
		return o.mesh.Centroid()
	}
	return r3.Scale(1/w, c)
}

// build creates the scene of cfg around the object obj.
func build(cfg settings.Scenario, obj object, info meshInfo) (*Scene, error) {
	if obj.emb != nil {
		if err := obj.emb.Validate(obj.mesh); err != nil {
			return nil, err
		}
	}
	b := obj.mesh.Bounds()
	bottom := 0.0 // the surface's lowest point above the mesh's placement
	if obj.emb != nil {
		b = mesh.BoundsOf(obj.surface())
		bottom = b.Min.Z
	}
	sc := &Scene{cfg: cfg, meshInfo: info, height: b.Max.Z - b.Min.Z, width: b.Max.X - b.Min.X, tris: obj.surfaceTris()}
	var bodies []rigid.Body
	switch cfg.Kind {
	case settings.GraspRotate, settings.FastSpin, settings.Squeeze, settings.Stack:
		bodies = sc.graspBodies(obj)
		lift(obj.mesh, cfg.Physics.ContactDistance-bottom)
	case settings.Incline:
		if bottom != 0 {
			lift(obj.mesh, -bottom)
		}
		bodies = inclineBodies(cfg, obj.mesh)
	case settings.Drop:
		bodies = []rigid.Body{floorBody()}
		lift(obj.mesh, cfg.Physics.ContactDistance+cfg.DropHeight-bottom)
	case settings.CubeDrop:
		lift(obj.mesh, cfg.Physics.ContactDistance-bottom)
		bodies = []rigid.Body{floorBody(), sc.cubeBody(cfg)}
	case settings.SoftFingers:
		bodies = sc.fingersBodies(obj)
	case settings.Custom:
		first := []rigid.Body{floorBody()}
		if cfg.Gripper {
			first = sc.graspBodies(obj)
		}
		var err error
		if bodies, err = customBodies(cfg, first); err != nil {
			return nil, err
		}
	}
	if obj.emb != nil {
		obj.surface()
	}
	sim, err := physics.NewWithMaterials(obj.mesh, obj.emb, bodies, cfg.Physics, obj.mats)
	if err != nil {
		return nil, err
	}
	sc.Sim = sim
	sc.tris = flatTris(sim.Surface().Tris)
	if cfg.Kind == settings.CubeDrop {
		d := cubeDynamics(cfg)
		if err := sim.SetDynamic(CubeBody, &d); err != nil {
			sim.Close()
			return nil, err
		}
	}
	if cfg.Kind == settings.SoftFingers {
		d := fingersDynamics(cfg)
		if err := sim.SetDynamic(FingersCubeBody, &d); err != nil {
			sim.Close()
			return nil, err
		}
	}
	if cfg.Kind == settings.Custom {
		if err := customDynamics(sim, cfg); err != nil {
			sim.Close()
			return nil, err
		}
	}
	var own []physics.Attachment
	if cfg.Kind == settings.SoftFingers {
		own = fingersAttachments(obj.mesh, cubeSide(cfg))
	}
	if err := attach(sim, obj.mesh, bodies, own, cfg.Attach); err != nil {
		sim.Close()
		return nil, err
	}
	if cfg.Kind == settings.Incline {
		if err := sc.holdIncline(); err != nil {
			sim.Close()
			return nil, err
		}
	}
	sc.cfg.Physics = settings.Settings{}
	sc.mass = sim.Model().FEM().Mass()
	sc.total = sim.Model().FEM().TotalMass()
	sc.partMass = make([]float64, sim.Model().Parts())
	for i, m := range sc.mass {
		sc.partMass[sim.Model().NodePart(i)] += m
	}
	if sc.Driver != nil {
		sc.Driver.Grip.SetTarget(sc.gripTarget(), cfg.GripForce == settings.AutoGrip)
		sc.Driver.Grip.Least = sc.leastGrip()
	}
	sc.metrics.reset(sc)
	return sc, nil
}

// leastGrip is the least automatic grip's target, N: each jaw's share of
// the object's weight over μ, twice over (the friction of both jaws holds
// the weight twice).
func (sc *Scene) leastGrip() float64 {
	mu := math.Max(sc.Sim.Settings().Friction, 0.05)
	return 2 * sc.total * r3.Norm(sc.Sim.Settings().Gravity) / (2 * mu)
}

// gripTarget is the normal force each jaw grips with, N: the configured
// one, or for settings.AutoGrip settings.GripWeights times the object's
// weight.
func (sc *Scene) gripTarget() float64 {
	if f := sc.cfg.GripForce; f > 0 {
		return f
	}
	return settings.GripWeights * sc.total * r3.Norm(sc.Sim.Settings().Gravity)
}

// objectMesh builds or loads the soft object, bottom at z = 0, centred in
// x and y.
func objectMesh(cfg settings.Scenario) (object, meshInfo, error) {
	size := cfg.ObjectSize
	dofs := cfg.TargetDOFs
	if cfg.Kind == settings.SoftFingers {
		return fingersPads(cfg)
	}
	if cfg.Kind == settings.Stack {
		return stackCubes(cfg)
	}
	if cfg.Kind == settings.Custom {
		return customMesh(cfg)
	}
	if cfg.MeshFile != "" {
		return loadObjectMesh(cfg, dofs)
	}
	if cfg.Object == settings.CylinderObject {
		m, err := mesh.CylinderForDOFs(size/2, size, dofs)
		return object{mesh: m}, meshInfo{name: fmt.Sprintf("cylinder %.0f mm", size*1e3)}, err
	}
	m, err := mesh.BoxForDOFs(r3.Vec{X: size, Y: size, Z: size}, dofs)
	return object{mesh: m}, meshInfo{name: fmt.Sprintf("box %.0f mm", size*1e3)}, err
}

// lift raises every node by dz.
func lift(m *mesh.TetMesh, dz float64) {
	for i := range m.Nodes {
		m.Nodes[i].Z += dz
	}
}

func floorBody() rigid.Body {
	p := rigid.IdentityPose()
	return rigid.Body{Name: "floor", Shape: rigid.Plane{Size: 0.3}, Start: p, End: p}
}

// graspBodies creates the floor and the two jaws, the gripper driver and,
// when scripted, the script of the scene's kind (grasp-and-rotate,
// squeeze or soft fingers) for the object obj as it rests on the floor.
func (sc *Scene) graspBodies(obj object) []rigid.Body {
	cfg := sc.cfg
	g := rigid.DefaultGripper()
	g.Style = cfg.JawStyle
	switch cfg.Kind {
	case settings.Squeeze:
		g = squeezeGripper(cfg.ObjectSize)
	case settings.Stack:
		g = squeezeGripper(sc.height) // across both cubes
	case settings.SoftFingers:
		g.Style = rigid.FlatJaws // the pads are attached to the plates
		g.JawHeight = padHeight * cubeSide(cfg)
	}
	script := sc.newScript(g, coordinates(obj.surface()), obj.centroid(), cfg.Physics.Friction, 0)
	start := script.at(0)
	g.Pose, g.Opening = start.Target, start.Opening
	omegaLimit := math.Max(2*math.Pi, 1.05*math.Abs(cfg.Omega))
	sc.Driver = &GripperDriver{
		Gripper: g, Command: start,
		MaxSpeed: 0.15, MaxAngularSpeed: omegaLimit, MaxOpeningSpeed: 0.08,
		Grip: GripControl{Force: cfg.GripForce, CloseSpeed: closeSpeed}, // the target is set once the mass is known (gripTarget)
	}
	if len(script.path) > 0 {
		// The driver's limits keep commands from jumping; a path's own
		// speeds are the user's to choose.
		v, w, o := script.pathSpeeds()
		d := sc.Driver
		d.MaxSpeed, d.MaxAngularSpeed, d.MaxOpeningSpeed = math.Max(d.MaxSpeed, 1.05*v), math.Max(d.MaxAngularSpeed, 1.05*w), math.Max(d.MaxOpeningSpeed, 1.05*o)
	}
	if cfg.Scripted {
		sc.script = script
	}
	shapes, poses := g.JawShapes(), g.JawPoses()
	return []rigid.Body{
		floorBody(),
		{Name: "left jaw", Shape: shapes[0], Start: poses[0], End: poses[0]},
		{Name: "right jaw", Shape: shapes[1], Start: poses[1], End: poses[1]},
	}
}

// newScript lays out the script of the scene's kind for gripper g,
// heading yaw, the object's surface at positions (three coordinates each;
// its triangles sc.tris) with centre of mass com, and the friction μ. A
// grasp aims at the object (AimAtObject) and takes its openings
// (Openings) from the aim, or, when the object cannot be grasped, waits
// open above it (newRefusedScript); the squeeze scene closes along x at
// the origin, the scene's placement of its box.
func (sc *Scene) newScript(g rigid.Gripper, positions []float64, com r3.Vec, mu, yaw float64) *graspScript {
	if len(sc.cfg.GripperPath) > 0 {
		return newPathScript(sc.cfg)
	}
	if sc.squeezes() {
		open, closed := sc.Openings()
		if sc.cfg.Kind == settings.Stack {
			return newStackScript(sc.cfg, sc.height, open, closed)
		}
		return newSqueezeScript(sc.cfg, sc.height, open, closed)
	}
	if sc.cfg.Kind == settings.SoftFingers {
		open, closed := sc.Openings()
		cfg := sc.cfg // while building, it still holds the settings
		if sc.Sim != nil {
			cfg = sc.Config()
		}
		return newFingersScript(cfg, open, closed)
	}
	aim, err := sc.aimAt(g, positions, com, mu, yaw)
	if err != nil {
		sc.width, sc.open = 0, sc.reach()
		b := boxOf(positions)
		above := r3.Vec{X: com.X, Y: com.Y, Z: b.Max.Z + g.JawHeight/2 + 5e-3}
		return newRefusedScript(above, yaw, sc.open, err.Error())
	}
	sc.width, sc.open = aim.Width, aim.Opening
	s := newGraspScript(sc.cfg, g, aim)
	s.follow = sc.cfg.GraspAim == settings.AimFollow
	return s
}

// aimAt aims gripper g, heading yaw, at the object's surface at positions
// with centre of mass com (AimAtObject), the jaws' reach following the
// object size and μ the jaws' friction.
// The last aim is kept with a hash of what it was aimed from: the script
// run again on an object that has not moved since (commands between two
// steps, a paused scene) takes it without a new search.
func (sc *Scene) aimAt(g rigid.Gripper, positions []float64, com r3.Vec, mu, yaw float64) (Aim, error) {
	jaws := JawsOf(g, sc.reach(), mu)
	h := fnv.New64a()
	var b [8]byte
	for _, x := range append([]float64{com.X, com.Y, com.Z, mu, yaw, jaws.Width, jaws.Height, jaws.Reach}, positions...) {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
	if key := h.Sum64(); !sc.lastAim.ok || sc.lastAim.key != key {
		a, err := AimAtObject(Surface[float64, int32]{Positions: positions, Tris: sc.tris}, com, jaws, yaw, GraspFloor(g.JawHeight))
		sc.lastAim = cachedAim{key: key, aim: a, err: err, ok: true}
	}
	return sc.lastAim.aim, sc.lastAim.err
}

// cachedAim is an aim and the hash of what it was aimed from.
type cachedAim struct {
	key uint64
	aim Aim
	err error
	ok  bool
}

// reach is the widest opening of the grasp's jaws: reachShare of the
// object size (60 mm for the default 40 mm), which a fitted mesh's
// largest extent is.
func (sc *Scene) reach() float64 { return reachShare * sc.cfg.ObjectSize }

// Reach is the widest opening of the grasp's jaws, m.
func (sc *Scene) Reach() float64 { return sc.reach() }

// reachShare is the jaws' reach over the object size.
const reachShare = 1.5

// closeSpeed is the speed the grip closes the opening at, m/s.
const closeSpeed = 0.04

// followObject keeps the grasp aimed at the object while the jaws are
// still open above it (the settle and approach phases). Once the
// object's nodes' bounding box has moved by more than aimFollowTolerance
// from where it was aimed (a corner of it: boxMoved; an object that
// rolls, or tips over, before the jaws arrive), the script's clock holds
// while a corner of that box moves faster than restSpeed (the gripper waits where it is), for at most
// maxWait in all; when the object has come to rest (or the wait is
// spent), the grasp centre, heading, height and openings are aimed again
// where it is, and the driver's speed limits move the jaws there
// smoothly. An object that never moves by the tolerance (the procedural
// box and cylinder) is grasped as first aimed, on the script's own
// timeline.
func (sc *Scene) followObject(h float64) {
	s := sc.script
	b := boxOf(sc.Sim.Positions())
	if s.aimedAt == nil {
		s.aimedAt, s.lastBox = &b, b
		return
	}
	moving := boxMoved(b, s.lastBox, restSpeed*h)
	s.lastBox = b
	if !boxMoved(b, *s.aimedAt, aimFollowTolerance) {
		return
	}
	if moving && s.waited < maxWait {
		s.delay(h)
		s.waited += h
		return
	}
	*s.aimedAt = b
	aim, err := sc.aimAt(sc.Driver.Gripper, sc.Sim.SurfacePositions(), sc.CentreOfMass(), sc.Sim.Settings().Friction, s.yaw0)
	if err != nil {
		s.stop(sc.Sim.Time()+h, err.Error())
		return
	}
	sc.width, sc.open = aim.Width, aim.Opening
	s.base, s.yaw0, s.zGrasp = aim.Pose.Position, aim.Yaw, aim.Pose.Position.Z
	s.openWide, s.openGrip = aim.Opening, aim.Opening
}

// aimFollowTolerance is how far the object's bounding box may move (a
// corner of it) before the grasp is aimed again, m.
const aimFollowTolerance = 1e-3

// Waiting for a moved object to come to rest: it counts as moving while
// a corner of its nodes' bounding box moves faster than restSpeed (m/s);
// the script waits at most maxWait (s) in all.
const (
	restSpeed = 0.01
	maxWait   = 1.5
)

// boxOf returns the bounding box of the points x (three coordinates each).
func boxOf(x []float64) r3.Box {
	b := r3.Box{Min: r3.Vec{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}, Max: r3.Vec{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)}}
	for i := 0; i+2 < len(x); i += 3 {
		b.Min = r3.Vec{X: math.Min(b.Min.X, x[i]), Y: math.Min(b.Min.Y, x[i+1]), Z: math.Min(b.Min.Z, x[i+2])}
		b.Max = r3.Vec{X: math.Max(b.Max.X, x[i]), Y: math.Max(b.Max.Y, x[i+1]), Z: math.Max(b.Max.Z, x[i+2])}
	}
	return b
}

// boxMoved reports whether a corner of b (its lowest or its highest) lies
// more than tol from the same corner of a.
func boxMoved(b, a r3.Box, tol float64) bool {
	return math.Max(r3.Norm(r3.Sub(b.Min, a.Min)), r3.Norm(r3.Sub(b.Max, a.Max))) > tol
}

// coordinates lists the points' coordinates, three per point.
func coordinates(points []r3.Vec) []float64 {
	x := make([]float64, 0, 3*len(points))
	for _, p := range points {
		x = append(x, p.X, p.Y, p.Z)
	}
	return x
}

// inclineBodies tilts the floor by the incline angle about the x axis and
// lays the object on it.
func inclineBodies(cfg settings.Scenario, obj *mesh.TetMesh) []rigid.Body {
	rot := r3.NewRotation(cfg.InclineAngle, r3.Vec{X: 1})
	n := rot.Rotate(r3.Vec{Z: 1})
	off := r3.Scale(cfg.Physics.ContactDistance, n)
	for i, x := range obj.Nodes {
		obj.Nodes[i] = r3.Add(rot.Rotate(x), off)
	}
	pose := rigid.Pose{Rotation: rot}
	return []rigid.Body{{Name: "incline", Shape: rigid.Plane{Size: 0.3}, Start: pose, End: pose}}
}

// Close releases the simulation.
func (sc *Scene) Close() { sc.Sim.Close() }

// MeshName describes the soft object's mesh.
func (sc *Scene) MeshName() string { return sc.meshInfo.name }

// Duration is the scripted length of the scene, s.
func (sc *Scene) Duration() float64 {
	switch {
	case sc.loopEnd > 0:
		return sc.loopEnd
	case sc.script != nil:
		return sc.script.duration()
	case sc.cfg.Kind == settings.Incline:
		return inclineSettle + inclineRamp + 1.2
	case sc.cfg.Kind == settings.Drop, sc.cfg.Kind == settings.CubeDrop:
		return 1.5
	case sc.cfg.Kind == settings.Custom:
		return sc.cfg.Duration
	}
	return 3
}

// DefaultSteps is the number of steps of Duration at the scene's h.
func (sc *Scene) DefaultSteps() int {
	return int(math.Ceil(sc.Duration()/sc.Sim.Settings().TimeStep - 1e-9))
}

// Phase returns the current phase of the script.
func (sc *Scene) Phase() Phase {
	if sc.script == nil {
		if sc.Driver != nil {
			return PhaseManual
		}
		return PhaseSettle
	}
	return sc.script.phaseAt(sc.Sim.Time())
}

// Scripted reports whether the script drives the gripper.
func (sc *Scene) Scripted() bool { return sc.script != nil }

// HasPath reports whether the scene's script is a gripper path of its own
// (settings.Scenario.GripperPath) rather than the grasp-and-rotate one.
func (sc *Scene) HasPath() bool { return len(sc.cfg.GripperPath) > 0 }

// SetScripted turns the grasp-and-rotate script on (restarting it from the
// current time, aimed at the object where it is now, with the least turn
// from the gripper's heading) or off (commands drive the gripper). The
// squeeze scene's script starts above the object's centre of mass.
func (sc *Scene) SetScripted(on bool) {
	if sc.Driver == nil {
		return
	}
	sc.loopEnd, sc.cycles = 0, 0
	if !on {
		sc.script = nil
		return
	}
	sc.Driver.Via = nil
	r := sc.Driver.Gripper.Pose.Rotation
	yaw := 2 * math.Atan2(r.Kmag, r.Real)
	sc.script = sc.newScript(sc.Driver.Gripper, sc.Sim.SurfacePositions(), sc.CentreOfMass(), sc.Sim.Settings().Friction, yaw)
	if sc.squeezes() {
		sc.script.base, sc.script.yaw0 = sc.CentreOfMass(), yaw
	}
	sc.script.delay(sc.Sim.Time())
	sc.metrics.newCycle()
}

// Command sets the gripper's target (manual driving).
func (sc *Scene) Command(c GripperCommand) {
	if sc.Driver != nil {
		sc.Driver.Command = c
	}
}

// Step drives the kinematic bodies to their end-of-step poses, advances
// the simulation and updates the metrics.
func (sc *Scene) Step() (*physics.StepStats, error) {
	sc.DriveBodies()
	return sc.advance()
}

// advance steps the simulation with the bodies as driven and updates the
// metrics and the incline's release.
func (sc *Scene) advance() (*physics.StepStats, error) {
	st, err := sc.Sim.Step()
	if err != nil {
		return st, err
	}
	sc.metrics.observe(sc, st)
	if sc.holding() {
		if err := sc.releaseIncline(); err != nil {
			return st, err
		}
	}
	return st, nil
}

// DriveBodies moves the gripper one step along its script (or towards its
// command) and sets the jaws' end-of-step poses in the simulation, without
// stepping it. Step calls it; the benchmark calls it once and then steps
// the simulation twice from the same snapshot, once per scheme.
func (sc *Scene) DriveBodies() {
	if sc.Driver == nil {
		return
	}
	h := sc.Sim.Settings().TimeStep
	sc.Driver.Grip.Sense(sc.metrics.leftLast, sc.metrics.rightLast)
	if s := sc.script; s != nil {
		t := sc.Sim.Time() + h
		if s.follow && s.stopped == "" && t < s.timeOf(PhaseClose, true) {
			sc.followObject(h)
		}
		if s.grip && s.stopped == "" {
			sc.holdForGrip(t, h)
		}
		if s.loop && s.stopped == "" && t > s.duration() {
			sc.repeat()
			s = sc.script
		}
		sc.Driver.Command = s.at(t)
	}
	poses := sc.Driver.Advance(h)
	sc.Sim.SetBodyEnd(LeftJawBody, poses[0])
	sc.Sim.SetBodyEnd(RightJawBody, poses[1])
}

// repeat starts a repeating grasp script again, aimed at the object where
// the last one set it down. The scene's Duration stays the first run's.
func (sc *Scene) repeat() {
	if sc.loopEnd == 0 {
		sc.loopEnd = sc.script.duration()
	}
	end, cycles := sc.loopEnd, sc.cycles
	sc.SetScripted(true)
	sc.loopEnd, sc.cycles = end, cycles+1
}

// Cycles counts the repeats of a repeating grasp script since it was
// started.
func (sc *Scene) Cycles() int { return sc.cycles }

// holdForGrip keeps a gripping script's clock at the end of its close
// phase until the grip has settled (the lift starts only when both jaws
// carry the target), and stops the script, saying why, when the grip does
// not settle within gripTimeout of the close's start or a settled grip is
// lost (the object slipped out). t is the time at the end of the step.
func (sc *Scene) holdForGrip(t, h float64) {
	s, c := sc.script, &sc.Driver.Grip
	if t < s.timeOf(PhaseClose, true) {
		return
	}
	if s.gripped {
		m := &sc.metrics
		weight := sc.total * r3.Norm(sc.Config().Physics.Gravity)
		if s.loop && s.setDownAt == 0 && s.phaseAt(t) == PhaseLower && m.floorLast >= setDownShare*weight {
			s.setDownAt = t // the floor has taken it: the jaws stop going down
		}
		if s.loop && s.releaseOpening == 0 && t >= s.timeOf(PhaseRelease, true) {
			s.releaseOpening = sc.Driver.Gripper.Opening + 2*approachGap
		}
		switch {
		case c.Lost():
			s.stop(t, fmt.Sprintf("the object slipped out of the jaws at t = %.2f s during the %s: the jaws carry %.2g N and %.2g N for its %.2g N of weight",
				t, s.phaseAt(t), m.leftLast, m.rightLast, weight))
		case m.gripSlip > slidOut && s.carries(t) && len(sc.Config().Attach) == 0:
			// Only while the jaws carry the object: setting it down slides
			// it along them as it meets the floor, and an object held to
			// the world cannot be lifted, its material sliding by design.
			s.stop(t, sc.slidOut(t, weight))
		}
		return
	}
	s.closing += h
	switch {
	case c.Settled():
		s.gripped = true
	case s.closing >= gripTimeout:
		s.stop(t, c.failure(s.closing))
	case t >= s.timeOf(PhaseClose, false):
		s.delay(h)
	}
}

// setDownShare is the share of the object's weight the floor must carry
// for a repeating script's set-down to stop lowering it: an object that
// slid up in the jaws meets the floor before they reach the grasp's
// height, and lowering them further pressed it into the floor (the flat
// star of the mesh set inverted its elements so, at its release).
const setDownShare = 0.5

// slidOut is how far the held material may slide along the jaws while
// they carry it (graspScript.carries) before the script stops, m: twice
// what still counts as held.
const slidOut = 2 * heldMargin

// slidOut says why a lifted object slid out of the grip at t: the jaws'
// friction against its weight.
func (sc *Scene) slidOut(t, weight float64) string {
	m, mu := &sc.metrics, sc.Config().Physics.Friction
	friction := mu * (m.leftLast + m.rightLast)
	why := fmt.Sprintf("their friction, μ·(%.2g N + %.2g N) = %.2g N, for its %.2g N of weight", m.leftLast, m.rightLast, friction, weight)
	if friction < weight {
		why = fmt.Sprintf("their friction, μ·(%.2g N + %.2g N) = %.2g N, is less than its %.2g N of weight: a larger grip force or friction holds it",
			m.leftLast, m.rightLast, friction, weight)
	}
	return fmt.Sprintf("the object slid %.0f mm along the jaws by t = %.2f s during the %s: %s", 1e3*m.gripSlip, t, sc.script.phaseAt(t), why)
}

// ScriptStop says why the grasp script stopped or was refused, "" while
// it runs (or without a script).
func (sc *Scene) ScriptStop() string {
	if sc.script == nil {
		return ""
	}
	return sc.script.stopped
}

// SetGripForce sets the normal force each jaw closes to and holds
// (settings.AutoGrip: from the object's weight), from the next step on. f
// must be valid (frame.SetGripForce.Validate).
func (sc *Scene) SetGripForce(f float64) {
	sc.cfg.GripForce = f
	if sc.Driver != nil {
		sc.Driver.Grip.SetTarget(sc.gripTarget(), f == settings.AutoGrip)
	}
}

// Approach sends the gripper to the command c the way a grasp comes down
// on an object: when it must turn or move sideways while its jaws' lower
// edge is below the object's top (with a clearance), it first rises to
// that height where it is, then moves and turns up there, then comes
// down; otherwise it goes straight. Open jaws that swept through the
// object at its height would land on it and crush it.
func (sc *Scene) Approach(c GripperCommand) {
	d := sc.Driver
	if d == nil {
		return
	}
	d.Command, d.Via = c, nil
	g := d.Gripper
	safe := boxOf(sc.Sim.SurfacePositions()).Max.Z + g.JawHeight/2 + approachClearance
	from, to := g.Pose.Position, c.Target.Position
	sideways := math.Hypot(to.X-from.X, to.Y-from.Y) > 1e-3 || !sameRotation(g.Pose.Rotation, c.Target.Rotation)
	if !sideways || math.Min(from.Z, to.Z) >= safe {
		return
	}
	up := math.Max(safe, from.Z)
	d.Via = []rigid.Pose{
		{Position: r3.Vec{X: from.X, Y: from.Y, Z: up}, Rotation: g.Pose.Rotation},
		{Position: r3.Vec{X: to.X, Y: to.Y, Z: up}, Rotation: c.Target.Rotation},
	}
}

// approachClearance is how far above the object's top the jaws' lower
// edge passes on an approach, m.
const approachClearance = 5e-3

// ToggleJaws edits the manual command cmd: jaws that are closing or
// closed open to the grasp's opening; open ones close until they grip.
func (sc *Scene) ToggleJaws(cmd *GripperCommand) {
	open, _ := sc.Openings()
	if cmd.Grip || cmd.Opening < open-1e-6 {
		cmd.Grip, cmd.Opening = false, math.Max(open, sc.Driver.Gripper.Opening)
		return
	}
	cmd.Grip = true
}

// Config returns the scene's configuration with the simulation's current
// settings: the configured friction μ, also while the incline's hold
// overrides it in the steps (physics.Simulation.FrictionOverride).
func (sc *Scene) Config() settings.Scenario {
	cfg := sc.cfg
	cfg.Physics = sc.Sim.Settings()
	return cfg
}

// SetSettings applies new physics settings from the next step on (see
// physics.Simulation.SetSettings). set must be valid: it was checked
// where it entered (settings.Settings.Validate through
// frame.Command.Validate at the loop's command intake, or settings.ApplyAB).
// A scene's own friction (the incline's hold and ramp) is an override
// beside the settings (physics.Simulation.SetFrictionOverride), so the
// user's μ is kept as given.
func (sc *Scene) SetSettings(set settings.Settings) error {
	return sc.Sim.SetSettings(set)
}

// SetOmega sets the spin speed used by the next run of the script. omega
// must be valid (settings.CheckOmega, which frame.SetOmega.Validate runs
// at the loop's command intake).
func (sc *Scene) SetOmega(omega float64) {
	sc.cfg.Omega = omega
}

// SetGraspAim sets how the next run of the grasp-and-rotate script aims
// (settings.GraspAim).
func (sc *Scene) SetGraspAim(aim settings.GraspAim) {
	sc.cfg.GraspAim = aim
}

// Openings returns the gripper openings of the script: wide open around
// the object and closed to squeeze it. A grasp opens to its aim's opening
// and closes by force, to no less than MinOpening.
func (sc *Scene) Openings() (open, closed float64) {
	if sc.cfg.Kind == settings.Squeeze {
		return sc.width + 2*squeezeGap, sc.width - 2*sc.cfg.Squeeze
	}
	if sc.cfg.Kind == settings.Stack {
		return sc.width + 2*squeezeGap, sc.width - 2*math.Min(sc.cfg.Squeeze, stackSqueezeShare*sc.width)
	}
	if sc.cfg.Kind == settings.SoftFingers {
		return fingersOpenings(cubeSide(sc.cfg))
	}
	return sc.open, MinOpening
}

// CentreOfMass returns the soft body's centre of mass.
func (sc *Scene) CentreOfMass() r3.Vec { return sc.massMean(sc.Sim.Positions()) }

// meanVelocity returns the mass-weighted mean velocity of the soft body.
func (sc *Scene) meanVelocity() r3.Vec { return sc.massMean(sc.Sim.Velocities()) }

// massMean returns the mass-weighted mean Σ mᵢ·xᵢ / Σ mᵢ of a per-node
// vector x (three entries per node).
func (sc *Scene) massMean(x []float64) r3.Vec {
	var c r3.Vec
	for i, m := range sc.mass {
		c.X += m * x[3*i]
		c.Y += m * x[3*i+1]
		c.Z += m * x[3*i+2]
	}
	return r3.Scale(1/sc.total, c)
}

// TotalMass returns the soft body's mass, kg.
func (sc *Scene) TotalMass() float64 { return sc.total }

// ClosedAt is the time the scripted grasp closed (closedAt; +Inf
// without a script).
func (sc *Scene) ClosedAt() float64 {
	if sc.script == nil {
		return math.Inf(1)
	}
	return sc.script.closedAt()
}

// ObjectInGripper returns the grasped object's centre in the gripper
// frame (zero without a gripper).
func (sc *Scene) ObjectInGripper() r3.Vec {
	if sc.Driver == nil {
		return r3.Vec{}
	}
	return sc.Driver.Gripper.Pose.ApplyInverse(sc.graspedCentre())
}

// graspedCentre is the centre of what the gripper grasps: the soft body's
// centre of mass, or the soft-fingers scene's cube.
func (sc *Scene) graspedCentre() r3.Vec {
	if sc.cfg.Kind == settings.SoftFingers {
		return sc.cubeCentre()
	}
	return sc.CentreOfMass()
}

// attach resolves the scene's attachment specs against the mesh's nodes
// where they stand at rest in the scene and the bodies' names, and holds
// the nodes (physics.Simulation.SetAttachments). A spec that selects no
// node, or names no body of the scene, is an error naming it.
func attach(sim *physics.Simulation, m *mesh.TetMesh, bodies []rigid.Body, own []physics.Attachment, specs []settings.AttachSpec) error {
	if len(own)+len(specs) == 0 {
		return nil
	}
	list := append(make([]physics.Attachment, 0, len(own)+len(specs)), own...)
	for i, a := range specs {
		at := physics.Attachment{Body: -1}
		if a.Body != "" {
			at.Body = slices.IndexFunc(bodies, func(b rigid.Body) bool { return b.Name == a.Body })
			if at.Body < 0 {
				names := make([]string, len(bodies))
				for b := range bodies {
					names[b] = strconv.Quote(bodies[b].Name)
				}
				return fmt.Errorf("attachment %d (%s): the scene has no body %q (it has %s)", i, a, a.Body, strings.Join(names, ", "))
			}
		}
		if a.Nodes != nil {
			at.Nodes = a.Nodes
		} else {
			for n, x := range m.Nodes {
				if a.Selects(x) {
					at.Nodes = append(at.Nodes, n)
				}
			}
		}
		if len(at.Nodes) == 0 {
			b := m.Bounds()
			return fmt.Errorf("attachment %d (%s) selects no node of the object, which spans %.4g…%.4g m in x, %.4g…%.4g in y, %.4g…%.4g in z",
				i, a, b.Min.X, b.Max.X, b.Min.Y, b.Max.Y, b.Min.Z, b.Max.Z)
		}
		list = append(list, at)
	}
	if err := sim.SetAttachments(list); err != nil {
		return fmt.Errorf("attachments: %w", err)
	}
	return nil
}

// The cube-drop scene's rigid cube: half the object's size on a side, of
// density cubeDensity, released at rest DropHeight above the object's top,
// centred over it.
const cubeDensity = 2000 // kg/m³

// cubeSide is the cube's edge, m.
func cubeSide(cfg settings.Scenario) float64 { return cfg.ObjectSize / 2 }

// cubeBody returns the cube at its release pose over the object (whose
// height the scene has measured).
func (sc *Scene) cubeBody(cfg settings.Scenario) rigid.Body {
	a := cubeSide(cfg)
	return cubeShaped(a, rigid.Translation(r3.Vec{Z: cfg.Physics.ContactDistance + sc.height + cfg.DropHeight + a/2}))
}

// cubeShaped is a body named "cube" of edge a at pose, at rest.
func cubeShaped(a float64, pose rigid.Pose) rigid.Body {
	// NewBox keeps the vertex samples, which detection asks for every
	// step; a is the validated object size's, finite and positive.
	box, err := rigid.NewBox(r3.Vec{X: a / 2, Y: a / 2, Z: a / 2}, 0)
	if err != nil {
		box = rigid.Box{HalfExtents: r3.Vec{X: a / 2, Y: a / 2, Z: a / 2}}
	}
	return rigid.Body{Name: "cube", Shape: box, Start: pose, End: pose}
}

// cubeDynamics is the cube's mass and inertia, at rest.
func cubeDynamics(cfg settings.Scenario) physics.RigidDynamics {
	return solidCube(cubeSide(cfg), cubeDensity)
}

// solidCube is the mass and inertia of a uniform cube of edge a and the
// given density, kg/m³.
func solidCube(a, density float64) physics.RigidDynamics {
	m := density * a * a * a
	i := m * a * a / 6
	return physics.RigidDynamics{Mass: m, Inertia: r3.Vec{X: i, Y: i, Z: i}}
}
