package physics

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/m3"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// detection finds the proximity pairs of each step (docs/method.md, "Collision detection"):
// within the step's alarm distance at the start of the step, and, for the
// linear solver to precompute their compliance, within a few alarm
// distances (nearAlarms).
type detection struct {
	det    *collide.Detector
	alarm  float64       // the step's alarm distance (stepAlarm)
	p      []float64     // the surface positions at q_t the step detected on
	near   nearJob       // the nodes for the solver's next factor (nearNodes)
	budget budgetScratch // the contact budget's selection
	// thin keeps pointsPerSupport soft-vertex pairs per body and support
	// on a mapped surface while the contact budget is on
	// (collide.Thinning); pushed
	// lists the positions whose Pushed bits it set.
	thin     collide.Thinning
	thinning bool
	pushed   []int32
	moves    []bodyMove // the bodies' motions over the step (stepAlarm)
	// nodeBound bounds each mesh node's relative motion over the step
	// (nodeMotionBounds).
	nodeBound []float64
}

// detect runs collision detection at the start of the step, within the
// step's alarm distance, on the surface positions at q_t (G(q_t) for a
// mapped surface, whose pairs are then held to the contact budget and
// spread onto the mesh nodes).
func (c *step) detect() {
	ws := c.ws
	p := c.surfaceAt(c.state.q)
	ws.detection.p = p
	ws.detection.alarm = c.stepAlarm(p)
	c.thinning()
	ws.ct.pairs = ws.detection.det.Detect(p, c.bodies, ws.detection.alarm, ws.ct.pairs[:0])
	c.applyBudget()
	for a := range ws.ct.pairs {
		c.model.mapPair(&ws.ct.pairs[a])
	}
	if c.anyDynamic() {
		// Rigid–rigid pairs of the dynamic bodies, kept whatever the
		// contact budget.
		ws.ct.pairs = collide.RigidPairs(c.bodies, c.dynamicFlags(), ws.detection.alarm, ws.ct.pairs)
	}
	c.splitPairs()
	c.heldPairs()
	ws.stats.Contacts = len(ws.ct.pairs)
}

// surfaceAt returns the surface positions at node positions q, in the
// workspace's pSurf for a mapped surface: the measures at the end of a
// step map q_{t+h}, and the next step detects on the same positions, so a
// map at the node positions pSurf already holds is not done again.
func (c *step) surfaceAt(q []float64) []float64 {
	ws := c.ws
	if c.model.emb == nil {
		return q
	}
	if slices.Equal(ws.pSurfOf, q) {
		return ws.pSurf
	}
	c.model.emb.Map(ws.pSurf, q)
	ws.pSurfOf = append(ws.pSurfOf[:0], q...)
	return ws.pSurf
}

// thinning turns the detector's thinning of soft-vertex pairs on for a
// surface mapped onto the mesh while the contact budget is on (the
// budget's first selection, pointsPerSupport pairs per body and support,
// done as the pairs are found: docs/method.md, "Contact budget"), and marks the
// surface points whose soft-vertex pair pushed in the previous step.
func (c *step) thinning() {
	d := &c.ws.detection
	on := c.model.emb != nil && c.set.ContactBudget > 0
	if on != d.thinning {
		if on {
			d.det.SetThinning(&d.thin)
		} else {
			d.det.SetThinning(nil)
		}
		d.thinning = on
	}
	if !on {
		return
	}
	for _, v := range d.pushed {
		d.thin.Pushed[v] = 0
	}
	d.pushed = d.pushed[:0]
	d.thin.Bonus = c.set.ContactDistance
	for key, w := range c.state.warm {
		body, v := key>>40, int(key&(1<<40-1))
		if key>>62 != 0 || w.lambda[0] <= 0 || body >= 64 || v >= len(d.thin.Pushed) {
			continue // not a pushing soft-vertex pair (collide.Pair.Key)
		}
		d.thin.Pushed[v] |= 1 << body
		d.pushed = append(d.pushed, int32(v))
	}
}

// nearNodes is the linear solver's Near (linsolve.Near): the soft nodes
// whose compliance the next steps will likely need, for the solver to
// precompute with its next factor. They are the nodes of the proximity
// pairs within nearAlarms alarm distances of the rigid bodies that the
// steps to come could keep, the nodes of this step's pairs, and the held
// nodes. While the contact budget drops the pairs that cannot close
// within the step (applyBudget's reach rule: the pairs found exceed the
// budget), the pairs the next steps keep are those that can close within
// them, so a pair counts only when it can close within nearHorizon steps
// at its present relative motion (nearJob.nodes); otherwise every pair
// within reach counts. It runs in the step's refactorisation, after
// detect, and takes a copy of what detect saw: the positions q_t and
// velocities, the bodies at their start and end poses, the alarm
// distance, the step's pairs and the held nodes. The detection itself
// (nearJob.nodes) runs on the solver's worker, with a detector of its own
// over the same surface, so that the step does not wait for it.
func (c *step) nearNodes() func() []int {
	d := &c.ws.detection
	j := &d.near
	if j.det == nil {
		j.model, j.det = c.model, c.model.newDetector()
		if c.model.emb != nil {
			j.pSurf = make([]float64, 3*c.model.SurfacePoints())
			j.thin = c.model.newThinning()
		}
		j.run = j.nodes // a method value allocates: taken once
	}
	if j.thinning != d.thinning { // as detect's detector (SetThinning allocates)
		if d.thinning {
			j.det.SetThinning(&j.thin)
		} else {
			j.det.SetThinning(nil)
		}
		j.thinning = d.thinning
	}
	j.q = append(j.q[:0], c.state.q...)
	j.bodies = append(j.bodies[:0], c.bodies...)
	j.alarm = c.nearAlarms() * d.alarm
	j.byReach = c.budgetBinds(c.ws.stats.Found)
	if j.byReach {
		j.v = append(j.v[:0], c.state.v...)
		j.motion = pairMotion{h: c.set.TimeStep, gravity: c.set.Gravity, v: j.v, model: c.model, bodies: j.bodies}
		if c.hasLastStep() {
			j.dvLast = append(j.dvLast[:0], c.state.dvLast...)
			j.motion.dvLast = j.dvLast
		}
		j.contact = c.set.ContactDistance
	}
	j.stepNodes = j.stepNodes[:0]
	for a := range c.ws.ct.pairs {
		pr := &c.ws.ct.pairs[a]
		j.stepNodes = append(j.stepNodes, pr.Nodes[:pr.Count]...)
	}
	if at := c.attach; at != nil {
		for _, hn := range at.held {
			j.stepNodes = append(j.stepNodes, hn.node)
		}
	}
	return j.run
}

// nearHorizon is the number of steps over which nearNodes counts a pair
// that can close at its present relative motion: about the oldest a
// factor gets before the next replaces it (the factors in use are 5 to 8
// steps old on average with it; docs/method.md, "Asynchronous solver").
const nearHorizon = 10.0

// nearJob is the detection of nearNodes, run on the linear solver's
// worker from the copies nearNodes took. Only the worker touches it
// between a job's start and its end.
type nearJob struct {
	det      *collide.Detector // over the model's surface, its own BVH
	thin     collide.Thinning  // its thinning (no Pushed bits: no preference)
	thinning bool              // whether det holds thin
	model    *Model            // the step's, which never changes
	q        []float64
	pSurf    []float64 // the surface positions at q, for a mapped surface
	bodies   []rigid.Body
	alarm    float64
	// byReach: count only the pairs that can close within nearHorizon
	// steps, their motion predicted from the copies v and dvLast (motion)
	// and the contact distance.
	byReach   bool
	v, dvLast []float64
	motion    pairMotion
	contact   float64
	stepNodes []int          // the nodes of the step's pairs and the held nodes
	wide      []collide.Pair // the pairs found
	found     []int          // their soft nodes and stepNodes
	run       func() []int   // nodes, the function handed to the worker
}

// nodes detects the pairs within the job's alarm distance and returns
// their soft nodes, those of the pairs that can close within nearHorizon
// steps when byReach, with the step's nodes. Without byReach the first
// pair per support reaches the nodes of every pair
// (Detector.DetectSupports); with it, each pair's own motion decides, so
// the detector's thinning keeps the deepest of each support.
func (j *nearJob) nodes() []int {
	p := j.model.mapSurface(j.pSurf, j.q)
	if j.byReach {
		j.wide = j.det.Detect(p, j.bodies, j.alarm, j.wide[:0])
	} else {
		j.wide = j.det.DetectSupports(p, j.bodies, j.alarm, j.wide[:0])
	}
	j.found = j.found[:0]
	for a := range j.wide {
		pr := &j.wide[a]
		if j.byReach {
			if _, reach := j.motion.closing(pr); pr.Distance > nearHorizon*alarmMargin*reach+j.contact {
				continue
			}
		}
		j.model.mapPair(pr)
		j.found = append(j.found, pr.Nodes[:pr.Count]...)
	}
	j.found = append(j.found, j.stepNodes...)
	return j.found
}

// newDetector returns a detector over the model's surface that knows its
// parts (SoftSoft pairs between them).
func (m *Model) newDetector() *collide.Detector {
	det := collide.NewDetector(m.surf)
	if m.nparts > 1 {
		det.SetParts(m.part)
	}
	return det
}

// newThinning returns the thinning of a mapped surface's soft-vertex
// pairs: pointsPerSupport per body and support (detection.thin).
func (m *Model) newThinning() collide.Thinning {
	return collide.Thinning{Support: m.support, Pushed: make([]uint64, m.SurfacePoints()), PerSupport: pointsPerSupport}
}

// nearAlarms is how many alarm distances nearNodes reaches: three, and
// one and a half on a surface mapped onto the mesh, whose points each
// bring the four nodes of their grid element: at three, the 20k-triangle
// blob's set held 541 of its 1000 nodes (the box's boundary 277), the
// background's node compliance took so long that its factors were 11
// steps old (7 on the box) and the free motion's conjugate gradient
// needed 2.55 iterations a step. At one and a half: factors 5 steps old,
// 2.15 iterations, real-time factor +4 % (blob) and +5 % (standing long
// body) in three alternating runs each, and no more steps whose pairs
// fall outside the set (14 against 15 and 7 against 10 in a run; the
// budget's reach keeps the pairs of a mapped surface within a fraction
// of a millimetre of the bodies). The procedural objects, whose surface
// is their mesh's boundary, keep three (docs/method.md, "Asynchronous
// solver").
func (c *step) nearAlarms() float64 {
	if c.model.emb != nil {
		return 1.5
	}
	return 3
}

// alarmMargin is how much of the predicted relative motion of a step the
// alarm distance covers beyond that motion itself.
const alarmMargin = 1.5

// stepAlarm returns the alarm distance of the step about to run:
// AlarmDistance, widened when the two sides move relative to each other
// fast enough to close a wider gap within one step. Discrete detection
// only sees pairs within the alarm distance at the start of the step; a
// soft vertex that crosses it in one step (a dropped object at impact, a
// quick swipe of the gripper) would sink into the rigid body unseen.
//
// The prediction is relative, per soft surface vertex x and rigid body:
// the vertex's own predicted motion h·v + h²·g against the motion of the
// body's material point at x over the step, End·Start⁻¹·x − x. A grasped
// object spinning with the jaws moves with them, so its relative motion
// is small however fast the spin, and the alarm stays narrow instead of
// pairing every soft point within the jaws' whole sweep (docs/method.md).
// Only vertices that could reach the body within the step count: those
// closer than AlarmDistance plus alarmMargin times their relative motion.
// The alarm is alarmMargin times the largest such motion. With
// AlarmFallMargin below alarmMargin, gravity's fall h²·g enters the motion
// only by its part towards the body (towardBody: none for a vertex that
// would slide down a jaw's side), and that part with AlarmFallMargin
// instead of alarmMargin: it is known, not predicted. p holds the surface
// positions at q_t (mapSurface).
func (c *step) stepAlarm(p []float64) float64 {
	return c.alarmOver(p, c.model.emb != nil)
}

// alarmOver is stepAlarm, passing over the surface points that the mesh
// nodes' motion bounds show cannot widen it when bounded (on a mapped
// surface: nodeMotionBounds); the alarm is the same either way.
func (c *step) alarmOver(p []float64, bounded bool) float64 {
	h := c.set.TimeStep
	base := c.set.AlarmDistance
	gh2 := r3.Scale(h*h, c.set.Gravity)
	// Each body's material point at x moves by T·x − x = (R_T − I)·x + t_T
	// over the step, T = End·Start⁻¹, formed once per body.
	if cap(c.ws.detection.moves) < len(c.bodies) {
		c.ws.detection.moves = make([]bodyMove, len(c.bodies))
	}
	moves := c.ws.detection.moves[:len(c.bodies)]
	for i := range c.bodies {
		b := &c.bodies[i]
		T := b.End.Compose(b.Start.Inverse())
		moves[i] = bodyMove{start: b.Start.RotationMatrix(), move: m3.Sub(T.RotationMatrix(), m3.Identity()), t: T.Position}
	}
	state := c.state
	// The fall each point counts (Settings.AlarmFall): gravity's, or its
	// last velocity change times h and unforeseenFall of gravity's
	// (fallAt).
	lastStep := c.fallsByLastStep(c.set.AlarmFall)
	// Below its default (1.5, alarmMargin), AlarmFallMargin counts the
	// fall only by its part towards the body, and with that margin.
	fallCut := alarmMargin - c.set.AlarmFallMargin
	worst := 0.0 // the largest alarm the vertices ask for so far
	// A motion d with |d|² ≤ skip2 is passed over by the test below
	// whatever its rounding (skip2 is (max(base, worst)/alarmMargin)²
	// less a relative 1e-9): the test's square root is spared for most
	// vertices. With fallCut > 0 the bound is another norm: no shortcut.
	skip2 := -1.0
	setSkip := func() {
		if fallCut <= 0 {
			l := max(base, worst) / alarmMargin
			skip2 = l * l * (1 - 1e-9)
		}
	}
	setSkip()
	var bound []float64
	if bounded && c.model.emb != nil && fallCut <= 0 {
		bound = c.nodeMotionBounds(moves, gh2, lastStep)
	}
	for _, n := range c.model.surf.Vertices {
		if bound != nil && alarmMargin*c.model.emb.Bound(bound, n) <= base {
			continue
		}
		x := point(p, n)
		fv := gh2
		if lastStep {
			fv = capFall(fallAt(h, c.model.surfacePoint(state.dvLast, n), gh2), gh2)
		}
		var fall float64 // ‖fv‖, read by the margin's cut alone
		if fallCut > 0 {
			fall = r3.Norm(fv)
		}
		soft := r3.Add(r3.Scale(h, c.model.surfacePoint(state.v, n)), fv)
		for i := range c.bodies {
			mv := &moves[i]
			d := r3.Sub(soft, r3.Add(mv.move.MulVec(x), mv.t))
			dd := r3.Dot(d, d)
			if dd <= skip2 {
				continue
			}
			rel := math.Sqrt(dd)
			bound := rel
			if fallCut > 0 {
				bound = r3.Norm(r3.Sub(d, fv)) + fall // ≥ ‖d − fv + g_n‖
			}
			if alarmMargin*bound <= max(base, worst) {
				continue
			}
			b := &c.bodies[i]
			local := mv.start.MulVecT(r3.Sub(x, b.Start.Position))
			_, normal, dist := b.Shape.Closest(local)
			need := alarmMargin * rel
			if fallCut > 0 {
				gn := towardBody(mv.start.MulVec(normal), fv)
				need = alarmMargin*r3.Norm(r3.Add(r3.Sub(d, fv), gn)) - fallCut*r3.Norm(gn)
			}
			if dist > base+need || need <= worst {
				continue
			}
			worst = need
			setSkip()
		}
	}
	return max(base, worst)
}

// nodeMotionBounds returns, for each mesh node, a bound on the relative
// motion over the step, ‖h·v + f − (move·x + t)‖, of the node against
// every body, f its fall (h²·g, or fallAt of its last velocity change
// with lastStep), for stepAlarm on a surface mapped onto the mesh: that
// motion is affine in a point's position, velocity and velocity change,
// so a surface point's is its weights' combination of its nodes', and
// the weighted sum of the nodes' bounds (mesh.Embedding.Bound) bounds it. A point whose bound
// keeps alarmMargin times its motion within AlarmDistance cannot widen
// the alarm, whatever the order the points come in, and stepAlarm passes
// over it without mapping its velocity: the alarm is the same to the last
// bit. Each node's bound carries a relative 1e-9 of the magnitudes it was
// formed from and of the bodies' translations, far above the rounding of
// either computation and above the weights' sum's 1e-9 departure from one
// (mesh.Embedding.Validate). In the default grasp of the 20k-triangle
// blob it passes over 98 % of the points.
func (c *step) nodeMotionBounds(moves []bodyMove, gh2 r3.Vec, lastStep bool) []float64 {
	q, v := c.state.q, c.state.v
	h := c.set.TimeStep
	n := len(q) / 3
	d := &c.ws.detection
	if cap(d.nodeBound) < n {
		d.nodeBound = make([]float64, n)
	}
	bound := d.nodeBound[:n]
	far := r3.Norm(gh2)
	for i := range moves {
		far = max(far, r3.Norm(gh2)+r3.Norm(moves[i].t))
	}
	for k := range bound {
		x := point(q, k)
		fv := gh2
		if lastStep {
			fv = fallAt(h, point(c.state.dvLast, k), gh2)
		}
		soft := r3.Add(r3.Scale(h, point(v, k)), fv)
		worst, scale := 0.0, r3.Norm(soft)
		for i := range moves {
			mv := &moves[i]
			rigid := r3.Add(mv.move.MulVec(x), mv.t)
			worst = max(worst, r3.Norm(r3.Sub(soft, rigid)))
			scale = max(scale, r3.Norm(soft)+r3.Norm(rigid))
		}
		bound[k] = worst + 1e-9*(scale+far)
	}
	return bound
}

// fallsByLastStep reports whether a prediction under the setting f counts
// the fall by the points' last velocity change (fallAt): f is
// FallLastStep and the state has a last step (not the first, nor one set
// by SetState, where the whole fall counts).
func (c *step) fallsByLastStep(f settings.Fall) bool {
	return f == settings.FallLastStep && c.hasLastStep()
}

// hasLastStep reports whether the state has a last step's velocity change
// (not the first step, nor one set by SetState).
func (c *step) hasLastStep() bool { return len(c.state.dvLast) == len(c.state.v) }

// fallAt is the fall over a step that Settings.FallLastStep predicts for
// a point whose velocity changed by dv in the last step: h·dv and
// unforeseenFall of gravity's one-step fall gh2. It is affine in dv, so a
// surface point's is its weights' combination of its nodes' (the weights
// sum to one).
func fallAt(h float64, dv, gh2 r3.Vec) r3.Vec {
	return r3.Add(r3.Scale(h, dv), r3.Scale(unforeseenFall, gh2))
}

// capFall bounds a point's predicted fall fv by gravity's one-step fall
// gh2 in length: the alarm of a point whose velocity changed sharply in
// the last step (a thin part squeezed, buckling) never widens beyond what
// gravity's whole fall would ask, which would take every point of a body
// resting on the floor within it and swamp the contact budget (the flat
// star of the mesh set diverged so). A body in free fall counts one fall
// where fallAt gives 1.1.
func capFall(fv, gh2 r3.Vec) r3.Vec {
	if n, g := r3.Norm(fv), r3.Norm(gh2); n > g && n > 0 {
		return r3.Scale(g/n, fv)
	}
	return fv
}

// bodyMove is one rigid body's motion over a step for stepAlarm: the
// material point at world x (at the start pose) moves by move·x + t, and
// start is the rotation of the start pose.
type bodyMove struct {
	start, move m3.Mat3
	t           r3.Vec
}

// pointsPerSupport is how many soft-vertex pairs detection keeps of each
// support and body (collide.Thinning.PerSupport): with one, a support
// pressed at one point can pivot about it and push its other points into
// the body (docs/method.md, "Contact budget").
const pointsPerSupport = 2
