package physics

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/m3"
)

// This file holds the constraint linearisation shared by both schemes:
// the mapping Jacobian H (one 3×3N row block per pair, Eq. isolate
// directions), the direction frames C = [n; t1; t2] and the gaps δ_free
// along them (Eq. gap function, METHOD.md "One time step").

// resizeContacts sizes every per-contact buffer for c pairs, reusing
// storage.
func (s *Simulation) resizeContacts(c int) {
	s.C = grow(s.C, c)
	s.Cn = grow(s.Cn, c)
	s.C0 = grow(s.C0, c)
	s.rT = grow(s.rT, c)
	s.rEnd = grow(s.rEnd, c)
	s.rN = grow(s.rN, c)
	s.rNn = grow(s.rNn, c)
	for _, b := range []*[]float64{&s.pT, &s.pFree, &s.p, &s.pPrev, &s.dFree, &s.lambda} {
		*b = grow(*b, 3*c)
	}
}

// buildMapping builds H from the pairs, the rigid material points at both
// poses, the detection directions C_0 and the warm-started λ, and
// evaluates p_t = H·q_t and p_free = H·q_free.
func (s *Simulation) buildMapping() {
	c := len(s.pairs)
	s.resizeContacts(c)
	s.buildH()
	for a := range s.pairs {
		pr := &s.pairs[a]
		body := &s.bodies[pr.Body]
		s.rT[a] = body.Start.Apply(pr.RigidLocal)
		s.rEnd[a] = body.End.Apply(pr.RigidLocal)
		s.rN[a] = s.rEnd[a]
		ws, ok := s.warm[pr.Key()]
		if ok {
			s.C0[a] = m3.FrameFromTangent(pr.Normal, ws.t1)
			copy(s.lambda[3*a:3*a+3], ws.lambda[:])
		} else {
			s.C0[a] = m3.Frame(pr.Normal)
			s.lambda[3*a], s.lambda[3*a+1], s.lambda[3*a+2] = 0, 0, 0
		}
		s.C[a] = s.C0[a]
	}
	s.H.MulVec(s.pT, s.q)
	s.H.MulVec(s.pFree, s.qFree)
}

// buildH writes H: rows 3a..3a+2 of pair a hold Weights[i] at columns
// 3·Nodes[i]+d, so that p_a = Σ_i Weights[i]·q_{Nodes[i]} (Eq. geometric
// mapping, linearised).
func (s *Simulation) buildH() {
	s.H.Reset(3*len(s.pairs), len(s.q))
	var cols [3]int
	for a := range s.pairs {
		pr := &s.pairs[a]
		for d := 0; d < 3; d++ {
			for i := 0; i < pr.Count; i++ {
				cols[i] = 3*pr.Nodes[i] + d
			}
			s.H.Append(cols[:pr.Count], pr.Weights[:pr.Count])
		}
	}
}

// relinearise computes the candidate directions Cn and normal reference
// points rNn from the proximity points p against the bodies' END poses
// (METHOD.md, Newton iterations k ≥ 1), and returns the largest angle by
// which a normal turned against the current directions C.
//
// A soft-vertex pair takes the outward normal of the rigid surface at the
// point closest to p_a and that point as the reference of its normal gap,
// so δn = n·(p_free − r) − d is the signed distance linearised at p_a.
//
// A rigid-vertex pair takes the reversed normal of its soft triangle and
// the rigid vertex itself as reference. The standard scheme reads the
// triangle's nodes from triPos = q_k. The fast scheme has no q_k (it only
// moves p), so it passes triPos = nil and the triangle's start-of-step
// normal is carried by the rigid body's rotation over the step,
// R_end·R_startᵀ: the soft surface under a pressing rigid vertex turns
// with the body that presses it. Tangents are carried over from C so that
// the warm-started friction forces keep their meaning.
func (s *Simulation) relinearise(triPos []float64) float64 {
	maxAngle := 0.0
	for a := range s.pairs {
		pr := &s.pairs[a]
		var n, r r3.Vec
		switch {
		case pr.Kind == collide.SoftVertex:
			pa := r3.Vec{X: s.p[3*a], Y: s.p[3*a+1], Z: s.p[3*a+2]}
			_, n, r = collide.SignedDistance(&s.bodies[pr.Body], pa)
		case triPos != nil:
			n = r3.Scale(-1, collide.TriangleNormal(triPos, s.surf.Tris[pr.Tri]))
			r = s.rEnd[a]
		default:
			body := &s.bodies[pr.Body]
			n = body.End.Rotate(body.Start.InverseRotate(pr.Normal))
			r = s.rEnd[a]
		}
		old := s.C[a].Row(0)
		s.Cn[a] = m3.FrameFromTangent(n, s.C[a].Row(1))
		s.rNn[a] = r
		if ang := angleBetween(old, n); ang > maxAngle {
			maxAngle = ang
		}
	}
	return maxAngle
}

// acceptLinearisation makes the candidate directions current.
func (s *Simulation) acceptLinearisation() {
	s.C, s.Cn = s.Cn, s.C
	s.rN, s.rNn = s.rNn, s.rN
}

// gaps evaluates δ_free along the current directions (METHOD.md):
//
//	δn = n·(p_free − r_N) − d_contact
//	δt = t·((p_free − p_t) − (r_end − r_t))
//
// the normal gap against the reference point of the linearisation and the
// tangential slip of the soft point relative to the rigid material point
// over the step.
func (s *Simulation) gaps() {
	dc := s.set.ContactDistance
	for a := range s.pairs {
		pf := r3.Vec{X: s.pFree[3*a], Y: s.pFree[3*a+1], Z: s.pFree[3*a+2]}
		pt := r3.Vec{X: s.pT[3*a], Y: s.pT[3*a+1], Z: s.pT[3*a+2]}
		rel := r3.Sub(r3.Sub(pf, pt), r3.Sub(s.rEnd[a], s.rT[a]))
		C := &s.C[a]
		s.dFree[3*a] = r3.Dot(C.Row(0), r3.Sub(pf, s.rN[a])) - dc
		s.dFree[3*a+1] = r3.Dot(C.Row(1), rel)
		s.dFree[3*a+2] = r3.Dot(C.Row(2), rel)
	}
}

// saveWarmStart remembers each pair's force and tangent for the next step.
func (s *Simulation) saveWarmStart() {
	clear(s.warm)
	for a := range s.pairs {
		var ws warmStart
		copy(ws.lambda[:], s.lambda[3*a:3*a+3])
		ws.t1 = s.C[a].Row(1)
		s.warm[s.pairs[a].Key()] = ws
	}
}

// applyCt computes y = Cᵀ·λ (3c): each pair's force in world axes.
func (s *Simulation) applyCt(y []float64) {
	for a := range s.pairs {
		f := s.C[a].MulVecT(r3.Vec{X: s.lambda[3*a], Y: s.lambda[3*a+1], Z: s.lambda[3*a+2]})
		y[3*a], y[3*a+1], y[3*a+2] = f.X, f.Y, f.Z
	}
}

// maxPointMove returns max_a ‖p_a − q_a‖ over 3-vectors.
func maxPointMove(p, q []float64) float64 {
	m := 0.0
	for i := 0; i+2 < len(p); i += 3 {
		dx, dy, dz := p[i]-q[i], p[i+1]-q[i+1], p[i+2]-q[i+2]
		if d := dx*dx + dy*dy + dz*dz; d > m {
			m = d
		}
	}
	return math.Sqrt(m)
}

// angleBetween returns the angle between two unit vectors, accurate for
// small angles.
func angleBetween(a, b r3.Vec) float64 {
	return math.Atan2(r3.Norm(r3.Cross(a, b)), r3.Dot(a, b))
}
