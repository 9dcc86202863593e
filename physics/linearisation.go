package physics

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/contact"
	"softgrasp/physics/m3"
	"softgrasp/physics/sparse"
)

// contactState is the constraint linearisation of the current step, c
// proximity pairs, in the paper's symbols (docs/method.md, "One time step"):
// the mapping Jacobian H (one 3×3N row block per pair, Eq. isolate
// directions), the direction frames C = [n; t1; t2], the gaps δ_free along
// them (Eq. gap function), and the matrices the schemes build from them.
// Both schemes share it; each fills the matrices it uses (fast: W_H;
// standard: J and W).
type contactState struct {
	pairs []collide.Pair
	H, J  sparse.CSR // H (3c×3N) and J = C·H
	// fix holds each pair's share on attached nodes (attach.go), which H
	// leaves out: the rows of Hfix in p = H·q + Hfix·q. Empty without
	// attachments.
	fix []fixedPart
	// other is the fixed world point of each rigid–rigid pair (the
	// kinematic body's material point at its end pose, added to p = H·q,
	// whose row is empty), zero for the other pairs; rigidPairs counts
	// those pairs.
	other      []r3.Vec
	rigidPairs int
	// C holds the directions of the current linearisation, Cnext the
	// candidate of the next Newton iteration and C0 those of collision
	// detection (start of step).
	C, Cnext, C0 []m3.Mat3
	rT, rEnd     []r3.Vec // rigid material points at the start and end poses
	// rN is the reference point of the normal gap of the current
	// linearisation, rNext that of the candidate.
	rN, rNext []r3.Vec
	pT        []float64 // p at the start of the step, 3c
	pFree     []float64 // p_free = G(q_free), 3c
	p, pPrev  []float64 // p_k and p_{k−1}, 3c
	dFree     []float64 // δ_free along C, 3c
	lambda    []float64 // λ, 3c
	force     []float64 // Cᵀ·λ, the pairs' forces in world axes (scratch), 3c
	WH, W     []float64 // W_H = H·A⁻¹·Hᵀ (fast) and W = J·A⁻¹·Jᵀ (standard), (3c)²
	states    []contact.State
	// bilateral marks the attachment pairs (collide.Attached), whose rows
	// PGS solves as equalities; empty when there are none.
	bilateral []bool
}

// resize sizes every per-contact buffer for c pairs, reusing storage.
func (ct *contactState) resize(c int) {
	for _, f := range []*[]m3.Mat3{&ct.C, &ct.Cnext, &ct.C0} {
		*f = grow(*f, c)
	}
	for _, r := range []*[]r3.Vec{&ct.rT, &ct.rEnd, &ct.rN, &ct.rNext, &ct.other} {
		*r = grow(*r, c)
	}
	for _, b := range []*[]float64{&ct.pT, &ct.pFree, &ct.p, &ct.pPrev, &ct.dFree, &ct.lambda, &ct.force} {
		*b = grow(*b, 3*c)
	}
}

// buildMapping builds H from the pairs, the rigid material points at both
// poses, the detection directions C_0 and the warm-started λ, and
// evaluates p_t = H·q_t and p_free = H·q_free.
func (c *step) buildMapping() {
	ct, state := &c.ws.ct, c.state
	ct.resize(len(ct.pairs))
	ct.buildH(len(state.q))
	ct.rigidPairs = 0
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		ct.other[a] = r3.Vec{}
		n := kindOf(pr).reference(c, a, pr)
		info := pr.Kind.Info()
		if info.BetweenRigid {
			ct.rigidPairs++
		}
		if info.Bilateral {
			// The world axes as the frame, held through the step.
			w := state.warm[pr.Key()]
			ct.C0[a], ct.C[a] = worldAxes, worldAxes
			copy(ct.lambda[3*a:3*a+3], w.lambda[:])
			continue
		}
		w, ok := state.warm[pr.Key()]
		if ok {
			ct.C0[a] = m3.FrameFromTangent(n, w.t1)
			copy(ct.lambda[3*a:3*a+3], w.lambda[:])
		} else {
			ct.C0[a] = m3.Frame(n)
			ct.lambda[3*a], ct.lambda[3*a+1], ct.lambda[3*a+2] = 0, 0, 0
		}
		ct.C[a] = ct.C0[a]
	}
	ct.positions(ct.pT, state.q)
	ct.positions(ct.pFree, c.ws.qFree)
}

// positions evaluates the proximity points p = H·q + Hfix·q at q into dst
// (3c), Hfix's rows being the pairs' fixed parts (fix).
func (ct *contactState) positions(dst, q []float64) {
	ct.H.MulVec(dst, q)
	if ct.rigidPairs > 0 {
		for a := range ct.pairs {
			o := ct.other[a]
			dst[3*a] += o.X
			dst[3*a+1] += o.Y
			dst[3*a+2] += o.Z
		}
	}
	if len(ct.fix) == 0 {
		return
	}
	for a := range ct.pairs {
		f := &ct.fix[a]
		for i := 0; i < f.count; i++ {
			w, n := f.weights[i], 3*f.nodes[i]
			dst[3*a] += w * q[n]
			dst[3*a+1] += w * q[n+1]
			dst[3*a+2] += w * q[n+2]
		}
	}
}

// buildH writes H for a body of dofs degrees of freedom: rows 3a..3a+2 of
// pair a hold Weights[i] at columns 3·Nodes[i]+d, so that
// p_a = Σ_i Weights[i]·q_{Nodes[i]} (Eq. geometric mapping, linearised).
func (ct *contactState) buildH(dofs int) { mappingRows(&ct.H, ct.pairs, dofs) }

// mappingRows writes into M the rows of H for pairs (buildH): three rows
// per pair, Weights[i] at the columns of node Nodes[i].
func mappingRows(M *sparse.CSR, pairs []collide.Pair, dofs int) {
	M.Reset(3*len(pairs), dofs)
	var cols [collide.MaxNodes]int
	for a := range pairs {
		pr := &pairs[a]
		for d := 0; d < 3; d++ {
			for i := 0; i < pr.Count; i++ {
				cols[i] = 3*pr.Nodes[i] + d
			}
			M.Append(cols[:pr.Count], pr.Weights[:pr.Count])
		}
	}
}

// relinearise computes the candidate directions Cnext and normal reference
// points rNext from the proximity points p against the bodies' END poses
// (docs/method.md, "Directions"), and returns the largest angle by
// which the normal of an engaged pair turned against the current
// directions C.
//
// A soft-vertex pair takes the outward normal of the rigid surface at the
// point closest to p_a and that point as the reference of its normal gap,
// so δn = n·(p_free − r) − d is the signed distance linearised at p_a.
//
// A rigid-vertex pair takes the reversed normal of its soft triangle at
// the start of the step, carried by the rigid body's rotation over the
// step, R_end·R_startᵀ (the soft surface under a pressing rigid vertex
// turns with the body that presses it), and the rigid vertex itself as
// reference, in both schemes (docs/method.md: the triangle's normal at q_k,
// dented by the pair's own force, let rigid vertices slide in). Tangents
// are carried over from C so that the warm-started friction forces keep
// their meaning.
//
// Only engaged pairs decide convergence: those pushing (λn > 0) or whose
// gap is within reach (the last correction's largest move of p) of the
// contact distance. A separated pair far from the surface may turn a lot,
// its closest rigid point jumping between features, without changing the
// solution, and it used to keep every step from converging.
func (c *step) relinearise(reach float64) float64 {
	ct := &c.ws.ct
	maxAngle := 0.0
	c.ws.contactResidual = 0
	engaged := c.set.ContactDistance + reach
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		pa := point(ct.p, a)
		if pr.Kind.Info().Bilateral {
			// An equality along fixed axes: nothing turns; its residual
			// is the distance left between the node and its point.
			ct.Cnext[a], ct.rNext[a] = ct.C[a], ct.rEnd[a]
			c.ws.contactResidual = math.Max(c.ws.contactResidual, r3.Norm(r3.Sub(pa, ct.rEnd[a])))
			continue
		}
		n, r := kindOf(pr).relinearise(c, a, pr, pa)
		old := ct.C[a].Row(0)
		ct.Cnext[a] = m3.FrameFromTangent(n, ct.C[a].Row(1))
		ct.rNext[a] = r
		g := r3.Dot(n, r3.Sub(pa, r)) - c.set.ContactDistance
		if ct.lambda[3*a] > 0 {
			c.ws.contactResidual = math.Max(c.ws.contactResidual, math.Abs(g))
			c.ws.contactResidual = math.Max(c.ws.contactResidual, ct.frictionResidual(a, n, c.mu))
		} else {
			c.ws.contactResidual = math.Max(c.ws.contactResidual, -g)
		}
		if ct.lambda[3*a] <= 0 && r3.Dot(n, r3.Sub(pa, r)) > engaged {
			continue
		}
		if ang := m3.AngleBetween(old, n); ang > maxAngle {
			maxAngle = ang
		}
	}
	return maxAngle
}

// frictionResidual is Coulomb's residual of pushing pair a at the
// iterate p_k, with n its normal there and μ the step's friction
// coefficient (the override's where one is on, Simulation.friction): the
// slip over the step d = (p_k − p_t) − (r_end − r_t) in the plane of n,
// against the tangential force f of λ_k (in the frame it was solved in).
// A sticking pair (|f| < μλn) should not slip: the residual is |d|. A
// sliding one should slip against its force: the residual is the part of
// d not opposite f, |d + |d|·f/|f||. Both are lengths (m), zero when the
// law holds, and PGS's own iterate meets them to its tolerance.
func (ct *contactState) frictionResidual(a int, n r3.Vec, mu float64) float64 {
	if mu == 0 {
		return 0 // frictionless: any slip is lawful
	}
	rel := r3.Sub(r3.Sub(point(ct.p, a), point(ct.pT, a)), r3.Sub(ct.rEnd[a], ct.rT[a]))
	d := r3.Sub(rel, r3.Scale(r3.Dot(n, rel), n))
	C := &ct.C[a]
	f := r3.Add(r3.Scale(ct.lambda[3*a+1], C.Row(1)), r3.Scale(ct.lambda[3*a+2], C.Row(2)))
	fn, dn := r3.Norm(f), r3.Norm(d)
	if fn < mu*ct.lambda[3*a]*(1-1e-6) || fn == 0 {
		return dn
	}
	return r3.Norm(r3.Add(d, r3.Scale(dn/fn, f)))
}

// accept makes the candidate directions current.
func (ct *contactState) accept() {
	ct.C, ct.Cnext = ct.Cnext, ct.C
	ct.rN, ct.rNext = ct.rNext, ct.rN
}

// gaps evaluates δ_free along the current directions (docs/method.md, "Gaps"), with
// d_contact the contact distance:
//
//	δn = n·(p_free − r_N) − d_contact
//	δt = t·((p_free − p_t) − (r_end − r_t))
//
// the normal gap against the reference point of the linearisation and the
// tangential slip of the soft point relative to the rigid material point
// over the step.
func (ct *contactState) gaps(dContact float64) {
	for a := range ct.pairs {
		pf, pt := point(ct.pFree, a), point(ct.pT, a)
		rel := r3.Sub(r3.Sub(pf, pt), r3.Sub(ct.rEnd[a], ct.rT[a]))
		C := &ct.C[a]
		if ct.pairs[a].Kind.Info().Bilateral {
			// δ = p_free − r_end along the world axes: no contact
			// distance, no slip history.
			d := r3.Sub(pf, ct.rEnd[a])
			ct.dFree[3*a], ct.dFree[3*a+1], ct.dFree[3*a+2] = d.X, d.Y, d.Z
			continue
		}
		ct.dFree[3*a] = r3.Dot(C.Row(0), r3.Sub(pf, ct.rN[a])) - dContact
		ct.dFree[3*a+1] = r3.Dot(C.Row(1), rel)
		ct.dFree[3*a+2] = r3.Dot(C.Row(2), rel)
	}
}

// saveWarmStart remembers each pair's force and tangent for the next step.
func (c *step) saveWarmStart() {
	ct, warm := &c.ws.ct, c.state.warm
	clear(warm)
	for a := range ct.pairs {
		var w warmStart
		copy(w.lambda[:], ct.lambda[3*a:3*a+3])
		w.t1 = ct.C[a].Row(1)
		warm[ct.pairs[a].Key()] = w
	}
}

// applyCt computes y = Cᵀ·λ (3c): each pair's force in world axes.
func (ct *contactState) applyCt(y []float64) {
	for a := range ct.pairs {
		f := ct.C[a].MulVecT(point(ct.lambda, a))
		y[3*a], y[3*a+1], y[3*a+2] = f.X, f.Y, f.Z
	}
}

// point returns the a-th 3-vector of a flat slice (a pair's p or λ, a
// node of q).
func point(x []float64, a int) r3.Vec {
	return r3.Vec{X: x[3*a], Y: x[3*a+1], Z: x[3*a+2]}
}
