package physics

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/m3"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// pairKind is what the step's stages do with the pairs of one kind: one
// row of pairKinds per collide.Kind, beside the kind's traits in
// collide.KindInfo. A new kind of pair fills in a row of each table.
type pairKind struct {
	// reference sets pair a's reference points at the bodies' start and
	// end poses (ct.rT, ct.rEnd, ct.rN, and ct.other, the fixed part of a
	// pair without a soft side) and returns its normal for the first
	// linearisation (buildMapping). A bilateral kind's frame is the world
	// axes, set by buildMapping.
	reference func(c *step, a int, pr *collide.Pair) r3.Vec
	// relinearise returns the normal n and the reference point r of pair
	// a at the iterate's soft point pa (Algorithm 3's re-linearisation);
	// nil for a bilateral kind, whose frame does not turn.
	relinearise func(c *step, a int, pr *collide.Pair, pa r3.Vec) (n, r r3.Vec)
	// penetration, when set, raises the step's measure of this kind's
	// overlap with pair a at the end of the step (measure).
	penetration func(c *step, a int, pr *collide.Pair, st *StepStats)
	// record, when set, completes the contact record of pair a with what
	// only this kind has (Contacts).
	record func(s *Simulation, pr *collide.Pair, rec *ContactRecord)
}

// pairKinds holds a row per collide.Kind.
var pairKinds = [collide.NumKinds]pairKind{
	collide.SoftVertex: {
		reference: rigidReference,
		relinearise: func(c *step, _ int, pr *collide.Pair, pa r3.Vec) (n, r r3.Vec) {
			_, n, r = collide.SignedDistance(&c.bodies[pr.Body], pa)
			return n, r
		},
	},
	collide.RigidVertex: {
		reference: rigidReference,
		// The rigid vertex's normal of detection turned with its body,
		// against the vertex at its end pose.
		relinearise: func(c *step, a int, pr *collide.Pair, _ r3.Vec) (n, r r3.Vec) {
			body := &c.bodies[pr.Body]
			return body.End.Rotate(body.Start.InverseRotate(pr.Normal)), c.ws.ct.rEnd[a]
		},
	},
	collide.SoftSoft: {
		// Relative positions: no rigid side, the reference point is the
		// origin and the normal is the triangle's.
		reference: func(c *step, a int, pr *collide.Pair) r3.Vec {
			ct := &c.ws.ct
			ct.rT[a], ct.rEnd[a], ct.rN[a] = r3.Vec{}, r3.Vec{}, r3.Vec{}
			return pr.Normal
		},
		// The triangle's normal of detection is kept through the step
		// (both sides deform; neither is known in closed form), r the
		// origin.
		relinearise: func(c *step, a int, _ *collide.Pair, _ r3.Vec) (n, r r3.Vec) {
			return c.ws.ct.C[a].Row(0), r3.Vec{}
		},
		penetration: func(c *step, a int, _ *collide.Pair, st *StepStats) {
			ct := &c.ws.ct
			g := r3.Dot(ct.C[a].Row(0), point(ct.p, a))
			st.PartPenetration = math.Max(st.PartPenetration, -g)
		},
		record: func(s *Simulation, pr *collide.Pair, rec *ContactRecord) {
			rec.Point = s.model.surfacePoint(s.state.q, pr.Point)
			rec.Part = int(s.model.part[pr.Point])
		},
	},
	collide.RigidRigid: {
		// The dynamic body's point at its start and free end poses; the
		// other body's point fixed at its end pose. The normal turns with
		// the body whose surface it belongs to.
		reference: func(c *step, a int, pr *collide.Pair) r3.Vec {
			ct := &c.ws.ct
			D, S := &c.bodies[pr.Body], &c.bodies[pr.Other]
			ct.rT[a], ct.rEnd[a] = D.Start.Apply(pr.RigidLocal), D.End.Apply(pr.RigidLocal)
			ct.rN[a] = ct.rEnd[a]
			ct.other[a] = S.End.Apply(pr.OtherLocal)
			surf := D
			if pr.Vertex >= 0 {
				surf = S
			}
			return c.endPoseNormal(surf, pr.Normal)
		},
		// Two rigid surfaces: the first linearisation's normal and the
		// dynamic body's material point.
		relinearise: func(c *step, a int, _ *collide.Pair, _ r3.Vec) (n, r r3.Vec) {
			ct := &c.ws.ct
			return ct.C0[a].Row(0), ct.rEnd[a]
		},
		penetration: func(c *step, _ int, pr *collide.Pair, st *StepStats) {
			st.RigidRigidPenetration = math.Max(st.RigidRigidPenetration, -c.rigidGap(pr))
		},
		record: func(_ *Simulation, pr *collide.Pair, rec *ContactRecord) { rec.Other = pr.Other },
	},
	collide.Attached: {
		// The body's material point at both poses (a bilateral pair's
		// frame is the world axes: the normal goes unused).
		reference: rigidReference,
		// Against the body's pose at the end of the step (its start pose
		// now): ct.rN is its free pose's point, which the contact forces
		// then moved.
		record: func(s *Simulation, pr *collide.Pair, rec *ContactRecord) {
			b := &s.bodies[pr.Body]
			rec.Gap = r3.Norm(r3.Sub(rec.Point, b.Start.Apply(pr.RigidLocal)))
		},
	},
}

// kindOf returns the step's row for pair pr's kind.
func kindOf(pr *collide.Pair) *pairKind { return &pairKinds[pr.Kind] }

// rigidReference is the reference of a pair between the soft surface and
// a rigid body: the body's material point at both poses and the
// detection normal carried to the end pose.
func rigidReference(c *step, a int, pr *collide.Pair) r3.Vec {
	ct := &c.ws.ct
	body := &c.bodies[pr.Body]
	ct.rT[a] = body.Start.Apply(pr.RigidLocal)
	ct.rEnd[a] = body.End.Apply(pr.RigidLocal)
	ct.rN[a] = ct.rEnd[a]
	return c.endPoseNormal(body, pr.Normal)
}

// endPoseNormal is the detection normal n, found at body's start pose,
// carried to its end pose by the body's rotation over the step: the first
// linearisation is at the end pose, as every later one (docs/method.md,
// "First linearisation at the end pose").
func (c *step) endPoseNormal(body *rigid.Body, n r3.Vec) r3.Vec {
	if c.set.FirstLinearisation == settings.EndPose && body.Start.Rotation != body.End.Rotation {
		return body.End.Rotate(body.Start.InverseRotate(n))
	}
	return n
}

// worldAxes is the frame of a bilateral pair, held through the step.
var worldAxes = m3.Identity()
