package physics

import (
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/contact"
)

// ContactRecord is one contact of the last step as users read it out
// (softgrasp's -contacts CSV, the viewer's contact views): where it is,
// which rigid body it is against, its normal, the forces on the soft body
// and the gap.
type ContactRecord struct {
	Body int          // the rigid body (index into Simulation.Bodies); −1 between two parts of the soft body
	Kind collide.Kind // a soft surface point against the body, a body's sample against the soft surface, or soft against soft
	// Point is the soft proximity point p at the end of the step, m; for
	// a soft–soft contact, the soft vertex (Part its part), whose normal
	// points from the other part towards it and whose forces act on it
	// (the other part gets the opposite).
	//
	// A rigid–rigid contact (Kind collide.RigidRigid) is between the
	// dynamic body Body and the kinematic or static body Other: Point is
	// Other's point, the normal points from Body towards Other and the
	// forces act on Other (Body gets the opposite).
	Point r3.Vec
	Part  int
	Other int
	// Normal is the contact normal of the last Newton iteration, from the
	// rigid body towards the soft one; Normal0 the first linearisation's:
	// the one collision detection gave at the start of the step, carried
	// to the body's end pose by its rotation over the step (the viewer
	// draws the turn between them).
	Normal, Normal0 r3.Vec
	// NormalForce is λn ≥ 0, N; Friction the tangential force
	// λt1·t1 + λt2·t2, N; both act on the soft body (the rigid body
	// gets the opposite).
	NormalForce float64
	Friction    r3.Vec
	// Gap is the normal gap n·(p − r) at the end of the step against the
	// reference point r of the last linearisation on the rigid body at
	// its end pose, m: the contact law keeps it at least
	// Settings.ContactDistance, and exactly that while the contact pushes.
	//
	// A node held to a dynamic body (Kind collide.Attached) has the world
	// axes as its frame: Normal is x, NormalForce the force's x component
	// (of either sign), Friction its y and z components, and Gap the
	// distance left between the node and its point on the body.
	Gap   float64
	State contact.State
}

// AppendContacts appends the contacts of the last step to out and returns
// it; it allocates only to grow out.
func (s *Simulation) AppendContacts(out []ContactRecord) []ContactRecord {
	ct := &s.ws.ct
	c := len(ct.pairs)
	if len(ct.lambda) < 3*c || len(ct.C) < c || len(ct.C0) < c || len(ct.p) < 3*c || len(ct.rN) < c {
		return out
	}
	for a := range ct.pairs {
		C := &ct.C[a]
		n, p := C.Row(0), point(ct.p, a)
		rec := ContactRecord{
			Body: ct.pairs[a].Body, Kind: ct.pairs[a].Kind,
			Point: p, Normal: n, Normal0: ct.C0[a].Row(0),
			NormalForce: ct.lambda[3*a],
			Friction:    r3.Add(r3.Scale(ct.lambda[3*a+1], C.Row(1)), r3.Scale(ct.lambda[3*a+2], C.Row(2))),
			Gap:         r3.Dot(n, r3.Sub(p, ct.rN[a])),
		}
		if a < len(ct.states) {
			rec.State = ct.states[a]
		}
		pr := &ct.pairs[a]
		if f := kindOf(pr).record; f != nil {
			f(s, pr, &rec)
		}
		out = append(out, rec)
	}
	return out
}
