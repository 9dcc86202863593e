package physics

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/rigid"
)

// detection finds the proximity pairs of each step (METHOD.md step 1):
// within the step's alarm distance at the start of the step, and, for the
// linear solver to precompute their compliance, within three alarm
// distances.
type detection struct {
	det       *collide.Detector
	alarm     float64        // the step's alarm distance (stepAlarm)
	wide      []collide.Pair // pairs within 3 alarm distances
	wideNodes []int          // their soft nodes
}

// detect runs collision detection at the start of the step, within the
// step's alarm distance.
func (s *Simulation) detect() {
	s.detection.alarm = s.stepAlarm()
	s.ct.pairs = s.detection.det.Detect(s.q, s.bodies, s.detection.alarm, s.ct.pairs[:0])
	s.stats.Contacts = len(s.ct.pairs)
}

// nearNodes returns the soft nodes of the proximity pairs within three
// alarm distances of the rigid bodies: the nodes whose compliance the
// next steps will likely need, for the linear solver to precompute with
// its next factor.
func (s *Simulation) nearNodes() []int {
	d := &s.detection
	d.wide = d.det.Detect(s.q, s.bodies, 3*d.alarm, d.wide[:0])
	d.wideNodes = d.wideNodes[:0]
	for a := range d.wide {
		pr := &d.wide[a]
		d.wideNodes = append(d.wideNodes, pr.Nodes[:pr.Count]...)
	}
	return d.wideNodes
}

// alarmMargin is how much of the predicted relative motion of a step the
// alarm distance covers beyond that motion itself.
const alarmMargin = 1.5

// stepAlarm returns the alarm distance of the step about to run:
// AlarmDistance, widened when the bodies move fast enough to close a wider
// gap within one step. Discrete detection only sees pairs within the alarm
// distance at the start of the step; a soft vertex that crosses it in one
// step (a dropped object at impact, a quick swipe of the gripper) would
// sink into the rigid body unseen. The prediction is the larger of the
// soft surface's largest motion at its current speed plus one step of
// gravity, h·max‖v‖ + h²·‖g‖, and the largest displacement of any rigid
// body's bounding-box corner between its start and end poses, times
// alarmMargin. The larger, not the sum: a grasped object moves with the
// jaws, and the sum would double the alarm of every fast grasp; the cost
// is that a soft body and a rigid one rushing at each other are covered
// only for the faster of the two motions.
func (s *Simulation) stepAlarm() float64 {
	h := s.set.TimeStep
	v2 := 0.0
	for _, n := range s.surf.Vertices {
		vx, vy, vz := s.v[3*n], s.v[3*n+1], s.v[3*n+2]
		v2 = math.Max(v2, vx*vx+vy*vy+vz*vz)
	}
	soft := h*math.Sqrt(v2) + h*h*r3.Norm(s.set.Gravity)
	rigidMove := 0.0
	for i := range s.bodies {
		rigidMove = math.Max(rigidMove, bodyMotion(&s.bodies[i]))
	}
	return math.Max(s.set.AlarmDistance, alarmMargin*math.Max(soft, rigidMove))
}

// bodyMotion returns the largest displacement between b's start and end
// poses of a corner of its bounding box (of its origin, for an unbounded
// shape such as the floor).
func bodyMotion(b *rigid.Body) float64 {
	moved := func(x r3.Vec) float64 { return r3.Norm(r3.Sub(b.End.Apply(x), b.Start.Apply(x))) }
	box, ok := b.Shape.Bounds()
	if !ok {
		return moved(r3.Vec{})
	}
	worst := 0.0
	for i := 0; i < 8; i++ {
		worst = math.Max(worst, moved(rigid.BoxCorner(box, i)))
	}
	return worst
}
