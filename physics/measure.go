package physics

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
)

// measure checks the end-of-step state for divergence and records the
// contact measurements: the true penetration against the rigid bodies at
// their end poses (every soft surface vertex, and the rigid vertices of the
// step's pairs against their soft triangles), the force each body applies,
// and the number of active contacts. It leaves p = G(q_{t+h}) for drawing.
func (s *Simulation) measure() error {
	if err := s.checkState(); err != nil {
		return err
	}
	st := &s.stats
	if cap(st.BodyForce) < len(s.bodies) {
		st.BodyForce = make([]r3.Vec, len(s.bodies))
		st.BodyNormalForce = make([]float64, len(s.bodies))
	}
	st.BodyForce = st.BodyForce[:len(s.bodies)]
	st.BodyNormalForce = st.BodyNormalForce[:len(s.bodies)]
	for i := range st.BodyForce {
		st.BodyForce[i], st.BodyNormalForce[i] = r3.Vec{}, 0
	}
	st.Penetration, st.Active = 0, 0
	for a := range s.pairs {
		pr := &s.pairs[a]
		ln := s.lambda[3*a]
		if ln > 0 {
			st.Active++
		}
		f := s.C[a].MulVecT(r3.Vec{X: ln, Y: s.lambda[3*a+1], Z: s.lambda[3*a+2]})
		st.BodyForce[pr.Body] = r3.Add(st.BodyForce[pr.Body], f)
		st.BodyNormalForce[pr.Body] += ln
		if pen := s.penetration(a); pen > st.Penetration {
			st.Penetration = pen
		}
	}
	if pen := s.vertexPenetration(); pen > st.Penetration {
		st.Penetration = pen
	}
	if len(s.pairs) > 0 {
		s.H.MulVec(s.p, s.qNew)
	}
	return nil
}

// vertexPenetration returns the deepest signed distance below a rigid
// body, at its end pose, of any soft surface vertex at q_{t+h} (0 when none
// is inside): also the vertices that no pair watched, such as one that
// crossed the whole alarm distance in one step, so that the measured
// penetration is the true one and not only the solved pairs' residual.
func (s *Simulation) vertexPenetration() float64 {
	worst := 0.0
	for _, v := range s.surf.Vertices {
		x := node(s.qNew, v)
		for i := range s.bodies {
			if d, _, _ := collide.SignedDistance(&s.bodies[i], x); -d > worst {
				worst = -d
			}
		}
	}
	return worst
}

// penetration returns how deep pair a's soft and rigid sides overlap at
// the end of the step (0 when apart): for a soft vertex its signed distance
// to the body at its end pose; for a rigid vertex its depth below the soft
// triangle's plane at q_{t+h}, counted when it lies within the alarm
// distance of the triangle.
func (s *Simulation) penetration(a int) float64 {
	pr := &s.pairs[a]
	if pr.Kind == collide.SoftVertex {
		d, _, _ := collide.SignedDistance(&s.bodies[pr.Body], node(s.qNew, pr.Nodes[0]))
		return math.Max(0, -d)
	}
	tri := s.surf.Tris[pr.Tri]
	r := s.rEnd[a]
	p, _ := collide.ClosestOnTriangle(r, node(s.qNew, tri[0]), node(s.qNew, tri[1]), node(s.qNew, tri[2]))
	if r3.Norm(r3.Sub(r, p)) > s.alarm {
		return 0
	}
	n := collide.TriangleNormal(s.qNew, tri)
	return math.Max(0, -r3.Dot(n, r3.Sub(r, p)))
}

// checkState rejects NaN or infinite values and nodes faster than
// MaxSpeed in the end-of-step state.
func (s *Simulation) checkState() error {
	maxV2 := 0.0
	worst := 0
	for i := 0; i+2 < len(s.vNew); i += 3 {
		vx, vy, vz := s.vNew[i], s.vNew[i+1], s.vNew[i+2]
		v2 := vx*vx + vy*vy + vz*vz
		if math.IsNaN(v2) || math.IsInf(v2, 0) || math.IsNaN(s.qNew[i]+s.qNew[i+1]+s.qNew[i+2]) {
			return s.diverged(fmt.Sprintf("node %d has a non-finite position or velocity", i/3))
		}
		if v2 > maxV2 {
			maxV2, worst = v2, i/3
		}
	}
	s.stats.MaxSpeed = math.Sqrt(maxV2)
	if s.stats.MaxSpeed > s.set.MaxSpeed {
		return s.diverged(fmt.Sprintf("node %d moves at %.3g m/s, above the %.3g m/s limit (MaxSpeed)",
			worst, s.stats.MaxSpeed, s.set.MaxSpeed))
	}
	return nil
}
