package physics

// This file holds the end-of-step measurements and the divergence they
// detect.

import (
	"errors"
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
	ct := &s.ct
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		ln := ct.lambda[3*a]
		if ln > 0 {
			st.Active++
		}
		f := ct.C[a].MulVecT(point(ct.lambda, a))
		st.BodyForce[pr.Body] = r3.Add(st.BodyForce[pr.Body], f)
		st.BodyNormalForce[pr.Body] += ln
		if pen := s.penetration(a); pen > st.Penetration {
			st.Penetration = pen
		}
	}
	if pen := s.vertexPenetration(); pen > st.Penetration {
		st.Penetration = pen
	}
	if len(ct.pairs) > 0 {
		ct.H.MulVec(ct.p, s.qNew)
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
		x := point(s.qNew, v)
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
	pr := &s.ct.pairs[a]
	if pr.Kind == collide.SoftVertex {
		d, _, _ := collide.SignedDistance(&s.bodies[pr.Body], point(s.qNew, pr.Nodes[0]))
		return math.Max(0, -d)
	}
	tri := s.surf.Tris[pr.Tri]
	r := s.ct.rEnd[a]
	p, _ := collide.ClosestOnTriangle(r, point(s.qNew, tri[0]), point(s.qNew, tri[1]), point(s.qNew, tri[2]))
	if r3.Norm(r3.Sub(r, p)) > s.detection.alarm {
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

// IsDivergence reports whether err is (or wraps) a *DivergenceError.
func IsDivergence(err error) bool {
	var d *DivergenceError
	return errors.As(err, &d)
}

// diverged builds the error of the current step.
func (s *Simulation) diverged(reason string) error {
	return &DivergenceError{Step: s.steps, Time: s.time, Reason: reason}
}
