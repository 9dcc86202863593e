package physics

// This file holds the end-of-step measurements and the divergence they
// detect.

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/m3"
	"softgrasp/physics/rigid"
)

// measure checks the end-of-step state for divergence and records the
// contact measurements: the true overlap of the two sides at the bodies'
// end poses (measureOverlap), the force each body applies,
// and the number of active contacts. It leaves p = G(q_{t+h}) for drawing.
func (c *step) measure() error {
	if err := c.checkState(); err != nil {
		return err
	}
	ws := c.ws
	st := &ws.stats
	if cap(st.BodyForce) < len(c.bodies) {
		st.BodyForce = make([]r3.Vec, len(c.bodies))
		st.BodyNormalForce = make([]float64, len(c.bodies))
		st.RigidNormalForce = make([]float64, len(c.bodies))
	}
	st.BodyForce = st.BodyForce[:len(c.bodies)]
	st.BodyNormalForce = st.BodyNormalForce[:len(c.bodies)]
	st.RigidNormalForce = st.RigidNormalForce[:len(c.bodies)]
	for i := range st.BodyForce {
		st.BodyForce[i], st.BodyNormalForce[i], st.RigidNormalForce[i] = r3.Vec{}, 0, 0
	}
	st.Active, st.PartNormalForce, st.PartPairs = 0, 0, 0
	ct := &ws.ct
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		info := pr.Kind.Info()
		if info.Bilateral {
			// A held node's force along the world axes: it counts in the
			// force the body applies, not as a contact.
			st.BodyForce[pr.Body] = r3.Add(st.BodyForce[pr.Body], point(ct.lambda, a))
			continue
		}
		ln := ct.lambda[3*a]
		if ln > 0 {
			st.Active++
		}
		if pr.Body < 0 {
			st.PartNormalForce += ln
			st.PartPairs++
			continue
		}
		if info.BetweenRigid {
			st.RigidNormalForce[pr.Other] += ln
			continue
		}
		f := ct.C[a].MulVecT(point(ct.lambda, a))
		st.BodyForce[pr.Body] = r3.Add(st.BodyForce[pr.Body], f)
		st.BodyNormalForce[pr.Body] += ln
	}
	if err := c.measureOverlap(); err != nil {
		return err
	}
	if len(ct.pairs) > 0 {
		ct.positions(ct.p, ws.qNew)
	}
	st.PartPenetration, st.RigidRigidPenetration = 0, 0
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		if f := kindOf(pr).penetration; f != nil {
			f(c, a, pr, st)
		}
	}
	st.Penetration = math.Max(st.Penetration, math.Max(st.PartPenetration, st.RigidRigidPenetration))
	return nil
}

// rigidGap is the signed distance of a rigid–rigid pair's vertex from the
// other body's surface at both bodies' end poses (the dynamic body's as
// the step moved it).
func (c *step) rigidGap(pr *collide.Pair) float64 {
	D, S := &c.bodies[pr.Body], &c.bodies[pr.Other]
	if pr.Vertex >= 0 {
		_, _, d := S.Shape.Closest(S.End.ApplyInverse(D.End.Apply(pr.RigidLocal)))
		return d
	}
	_, _, d := D.Shape.Closest(D.End.ApplyInverse(S.End.Apply(pr.OtherLocal)))
	return d
}

// measureOverlap records the true end-of-step overlap of the two sides at
// the bodies' end poses, over everything and not only the step's pairs:
//
//   - every soft surface vertex (at G(q_{t+h}) for a mapped surface)
//     against every rigid body (its signed distance to the body), and
//   - every rigid surface sample (corners and edge samples, Shape.Vertices)
//     against the closed soft surface at q_{t+h} (inside by ray parity,
//     depth to the nearest soft triangle: collide.SurfaceDepth).
//
// Penetration is the deepest overlap (≥ 0). Violation is the largest
// amount by which two points came closer than the contact distance d that
// the contact law keeps: the penetration plus d when the surfaces cross,
// and also surfaces touching closer than d without crossing.
func (c *step) measureOverlap() error {
	ws := c.ws
	st := &ws.stats
	dc := c.set.ContactDistance
	soft, viol := 0.0, 0.0
	p := c.surfaceAt(ws.qNew)
	if err := ws.depth.Refit(p); err != nil {
		return c.diverged(fmt.Sprintf("measuring the penetration: %v", err))
	}
	runs := ws.depth.VertexRuns()
	verts := c.model.surf.Vertices
	for i := range c.bodies {
		b := &c.bodies[i]
		// Only points closer than dc to the body change either maximum; a
		// point outside the body's bounds widened by dc is farther (the
		// bounds hold the body), and so is one higher than dc over a
		// plane: both are passed over, tested in the body frame, where the
		// bounds are tight however the body is turned, and so is a whole
		// run of the surface's vertices whose box lies so (nearBody.away).
		near := bodyNear(b, dc+1e-9)
		for k := 0; k < len(verts); k++ {
			if k%collide.VertexRun == 0 && k/collide.VertexRun < len(runs) && near.away(&runs[k/collide.VertexRun]) {
				k += collide.VertexRun - 1
				continue
			}
			x := point(p, verts[k])
			if !near.holds(x) {
				continue
			}
			d, _, _ := collide.SignedDistance(b, x)
			soft, viol = math.Max(soft, -d), math.Max(viol, dc-d)
		}
	}
	rigidPen := 0.0
	for i := range c.bodies {
		b := &c.bodies[i]
		for _, v := range b.Shape.Vertices() {
			d := ws.depth.SignedDistance(b.End.Apply(v), ws.detection.alarm, dc)
			rigidPen, viol = math.Max(rigidPen, -d), math.Max(viol, dc-d)
		}
	}
	st.SoftPenetration, st.RigidPenetration = soft, rigidPen
	st.Penetration = math.Max(soft, rigidPen)
	st.Violation = viol
	return nil
}

// checkState rejects NaN or infinite values and nodes faster than
// MaxSpeed in the end-of-step state.
func (c *step) checkState() error {
	ws := c.ws
	maxV2 := 0.0
	worst := 0
	for i := 0; i+2 < len(ws.vNew); i += 3 {
		vx, vy, vz := ws.vNew[i], ws.vNew[i+1], ws.vNew[i+2]
		v2 := vx*vx + vy*vy + vz*vz
		if math.IsNaN(v2) || math.IsInf(v2, 0) || math.IsNaN(ws.qNew[i]+ws.qNew[i+1]+ws.qNew[i+2]) {
			return c.diverged(fmt.Sprintf("node %d has a non-finite position or velocity", i/3))
		}
		if v2 > maxV2 {
			maxV2, worst = v2, i/3
		}
	}
	ws.stats.MaxSpeed = math.Sqrt(maxV2)
	if ws.stats.MaxSpeed > c.set.MaxSpeed {
		return c.diverged(fmt.Sprintf("node %d moves at %.3g m/s, above the %.3g m/s limit (MaxSpeed)",
			worst, ws.stats.MaxSpeed, c.set.MaxSpeed))
	}
	return nil
}

// DivergenceError reports a step that could not produce a sane state: a
// NaN, a node faster than Settings.MaxSpeed, too many inverted elements, a
// system matrix that lost positive definiteness, or a failed solve. The
// simulation keeps the state of the start of that step.
type DivergenceError struct {
	Step   int     // index of the failed step
	Time   float64 // simulated time at its start, s
	Reason string
}

func (e *DivergenceError) Error() string {
	return fmt.Sprintf("simulation diverged at step %d (t = %.3f s): %s", e.Step, e.Time, e.Reason)
}

// diverged builds the error of the current step.
func (c *step) diverged(reason string) error {
	return &DivergenceError{Step: c.state.steps, Time: c.state.time, Reason: reason}
}

// nearBody tells the points within a margin of one body at its end pose:
// those in its world box widened by the margin and in its bounds widened
// by the margin in the body frame (tight however the body is turned; the
// world box is the cheaper first test), or below the margin over a plane;
// every point for another unbounded shape.
type nearBody struct {
	R       m3.Mat3 // the end pose's rotation
	t       r3.Vec  // and position
	world   r3.Box  // the widened world box
	local   r3.Box  // the widened bounds, body frame
	bounded bool
	plane   bool
	n       r3.Vec  // the plane's world normal
	top     float64 // and the height of the margin over it
}

// bodyNear returns the nearBody of b with the margin.
func bodyNear(b *rigid.Body, margin float64) nearBody {
	nb := nearBody{R: b.End.RotationMatrix(), t: b.End.Position}
	if b.Shape == nil {
		return nb
	}
	if _, ok := b.Shape.(rigid.Plane); ok {
		nb.plane = true
		nb.n = b.End.Rotate(r3.Vec{Z: 1})
		nb.top = r3.Dot(nb.n, b.End.Position) + margin
		return nb
	}
	bounds, ok := b.Shape.Bounds()
	if !ok {
		return nb
	}
	m := r3.Vec{X: margin, Y: margin, Z: margin}
	nb.local = r3.Box{Min: r3.Sub(bounds.Min, m), Max: r3.Add(bounds.Max, m)}
	w := rigid.TransformBox(b.End, bounds)
	nb.world = r3.Box{Min: r3.Sub(w.Min, m), Max: r3.Add(w.Max, m)}
	nb.bounded = true
	return nb
}

// away reports whether no point of the world box lies where holds does:
// the box misses the world bounds, or lies above the plane's margin by a
// picometre more, against the rounding of the dot products.
func (nb *nearBody) away(box *r3.Box) bool {
	switch {
	case nb.plane:
		return rigid.LowestAlong(nb.n, box) > nb.top+1e-12
	case !nb.bounded:
		return false
	}
	return !rigid.BoxesMeet(box, &nb.world)
}

// holds reports whether world point x may lie within the margin.
func (nb *nearBody) holds(x r3.Vec) bool {
	switch {
	case nb.plane:
		return r3.Dot(nb.n, x) <= nb.top
	case !nb.bounded:
		return true
	}
	return rigid.InBox(&nb.world, x) && rigid.InBox(&nb.local, nb.R.MulVecT(r3.Sub(x, nb.t)))
}
