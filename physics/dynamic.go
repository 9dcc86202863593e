package physics

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/rigid"
)

// Dynamic rigid bodies (docs/method.md, "Dynamic rigid bodies"): a body
// with a mass and an inertia, moved by gravity and by the contact forces,
// integrated by backward Euler as the paper's eq. (3), M·Δv = h·p + h·c.
//
// A step first moves each dynamic body freely, v_free = v + h·g,
// ω_free = ω, to its free end pose; detection, the alarm and the
// linearisation take that pose as the body's end pose. The contact forces
// F_a = −C_aᵀ·λ_a on the body (the soft body gets +C_aᵀ·λ_a) then move a
// material point ρ_a (from the body's free position) by
//
//	Δr_a = h²·Σ_b K_ab·F_b,   K_ab = I/m − [ρ_a]×·I_w⁻¹·[ρ_b]×,
//
// with I_w the inertia in world axes, so the pairs' relative compliance is
// the soft body's plus the body's: W_H + K (fast scheme, eq. 16's sum over
// both bodies, in the factor's frame) or W + C·K·Cᵀ (standard). The
// proximity points the Newton iterations track are relative to the body's
// free pose: p − (r − r_free). After the last iteration the body's
// velocity becomes v_free + h·F/m, ω_free + h·I_w⁻¹·τ, and its end pose
// follows from it. Gyroscopic torque is left out (a body spinning about a
// non-principal axis is integrated without it).

// RigidDynamics makes a rigid body dynamic: its mass (kg), its principal
// moments of inertia about its frame's axes (kg·m², the frame's origin at
// the centre of mass), and its velocity and angular velocity (world axes,
// m/s and rad/s).
type RigidDynamics struct {
	Mass            float64
	Inertia         r3.Vec
	Velocity        r3.Vec
	AngularVelocity r3.Vec
}

// Validate names a mass or an inertia that is not finite and positive, or
// a velocity that is not finite.
func (d RigidDynamics) Validate() error {
	ok := func(x float64) bool { return x > 0 && !math.IsInf(x, 0) }
	if !ok(d.Mass) {
		return fmt.Errorf("mass %g kg: must be finite and positive", d.Mass)
	}
	if !ok(d.Inertia.X) || !ok(d.Inertia.Y) || !ok(d.Inertia.Z) {
		return fmt.Errorf("inertia %v kg·m²: each principal moment must be finite and positive", d.Inertia)
	}
	for _, v := range []float64{d.Velocity.X, d.Velocity.Y, d.Velocity.Z, d.AngularVelocity.X, d.AngularVelocity.Y, d.AngularVelocity.Z} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("velocity %v, angular velocity %v: must be finite", d.Velocity, d.AngularVelocity)
		}
	}
	return nil
}

// dynamicBody is a dynamic body's state and its step's scratch.
type dynamicBody struct {
	RigidDynamics
	free       rigid.Pose // the end pose of the free motion
	vNew, wNew r3.Vec     // the velocities at the end of the step, committed with it
	invI       m3.Mat3    // I_w⁻¹ at the free pose
}

// SetDynamic makes body i dynamic with d (or kinematic again with nil): from
// the next step its end pose follows from its velocity, gravity and the
// contact forces, and SetBodyEnd no longer moves it. Attachments to the
// body are set again (SetAttachments), each node where it is now.
func (s *Simulation) SetDynamic(i int, d *RigidDynamics) error {
	if i < 0 || i >= len(s.bodies) {
		return fmt.Errorf("body %d does not exist (%d bodies)", i, len(s.bodies))
	}
	if len(s.dyn) != len(s.bodies) {
		s.dyn = make([]*dynamicBody, len(s.bodies))
	}
	if d == nil {
		s.dyn[i] = nil
	} else {
		if err := d.Validate(); err != nil {
			return fmt.Errorf("body %d (%q): %w", i, s.bodies[i].Name, err)
		}
		s.dyn[i] = &dynamicBody{RigidDynamics: *d}
	}
	// Nodes attached to the body are prescribed while it is kinematic and
	// held by bilateral pairs while it is dynamic (attach.go): sorted
	// again, each where it is now.
	if s.attach != nil {
		return s.SetAttachments(s.attach.list)
	}
	return nil
}

// Dynamics returns body i's mass, inertia and velocities, ok false for a
// kinematic body.
func (s *Simulation) Dynamics(i int) (d RigidDynamics, ok bool) {
	if i < 0 || i >= len(s.dyn) || s.dyn[i] == nil {
		return d, false
	}
	return s.dyn[i].RigidDynamics, true
}

// predictDynamic moves each dynamic body freely over the step and takes
// that pose as its end pose.
func (c *step) predictDynamic() {
	h, g := c.set.TimeStep, c.set.Gravity
	for i, d := range c.dyn {
		if d == nil {
			continue
		}
		b := &c.bodies[i]
		v := r3.Add(d.Velocity, r3.Scale(h, g))
		d.free = advancePose(b.Start, v, d.AngularVelocity, h)
		b.End = d.free
		R := d.free.RotationMatrix()
		inv := m3.Mat3{1 / d.Inertia.X, 0, 0, 0, 1 / d.Inertia.Y, 0, 0, 0, 1 / d.Inertia.Z}
		d.invI = m3.Mul(m3.Mul(R, inv), R.T())
		d.vNew, d.wNew = v, d.AngularVelocity
	}
}

// advancePose moves pose p by velocity v and angular velocity w over h.
func advancePose(p rigid.Pose, v, w r3.Vec, h float64) rigid.Pose {
	out := p
	out.Position = r3.Add(p.Position, r3.Scale(h, v))
	if a := h * r3.Norm(w); a > 0 {
		out.Rotation = rigid.Pose{Rotation: r3.NewRotation(a, w)}.Compose(rigid.Pose{Rotation: p.Rotation}).Rotation
	}
	return out
}

// anyDynamic reports whether a body is dynamic.
func (c *step) anyDynamic() bool {
	for _, d := range c.dyn {
		if d != nil {
			return true
		}
	}
	return false
}

// dynamicFlags returns which bodies are dynamic (a workspace slice).
func (c *step) dynamicFlags() []bool {
	ws := c.ws
	ws.dynamic.dynFlags = grow(ws.dynamic.dynFlags, len(c.bodies))
	for i := range ws.dynamic.dynFlags {
		ws.dynamic.dynFlags[i] = i < len(c.dyn) && c.dyn[i] != nil
	}
	return ws.dynamic.dynFlags
}

// hasDynamic reports whether a pair of the step touches a dynamic body.
func (c *step) hasDynamic() bool {
	for a := range c.ws.ct.pairs {
		if _, n := c.sides(a); n > 0 {
			return true
		}
	}
	return false
}

// pairSide is a dynamic body that a pair's force acts on: the body, the
// sign of the force C_aᵀ·λ_a on it (−1 for the pair's Body, which the
// force pushes away from the pair's point, +1 for the other body of a
// rigid–rigid pair, which it pushes along the normal) and the material
// point's offset from the body's centre at its free pose.
type pairSide struct {
	d    *dynamicBody
	body int
	sign float64
	rho  r3.Vec
}

// pairSideCount names a pair on a dynamic body and how many of its
// sides are (addRigidBlocks).
type pairSideCount struct{ pair, n int }

// sides returns the dynamic bodies pair a acts on, n of them (0, 1, or 2
// for a rigid–rigid pair between two dynamic bodies).
func (c *step) sides(a int) (s [2]pairSide, n int) {
	ct := &c.ws.ct
	pr := &ct.pairs[a]
	if b := pr.Body; b >= 0 && b < len(c.dyn) && c.dyn[b] != nil {
		d := c.dyn[b]
		s[n] = pairSide{d: d, body: b, sign: -1, rho: r3.Sub(ct.rEnd[a], d.free.Position)}
		n++
	}
	if o := pr.Other; pr.Kind.Info().BetweenRigid && o < len(c.dyn) && c.dyn[o] != nil {
		d := c.dyn[o]
		s[n] = pairSide{d: d, body: o, sign: 1, rho: r3.Sub(ct.other[a], d.free.Position)}
		n++
	}
	return s, n
}

// cross returns [r]×, the matrix of r × ·.
func cross(r r3.Vec) m3.Mat3 {
	return m3.Mat3{0, -r.Z, r.Y, r.Z, 0, -r.X, -r.Y, r.X, 0}
}

// rigidFactors fills, for each side k of each pair a on a dynamic body,
// the two factors of the blocks K_ab = I/m − [ρ_a]×·I⁻¹·[ρ_b]× (ρ the
// material point's offset from the body's centre, I⁻¹ its world inverse
// inertia) seen through frames on either side: left[2a+k] = Lᵀ·[ρ_a]×·I⁻¹
// and right[2a+k] = [ρ_a]×·Rt, so that Lᵀ·K_ab·Rt = Lᵀ·Rt/m −
// left·right, one 3×3 product per block instead of four. L and Rt come
// from frame(a).
func (c *step) rigidFactors(frame func(a int) (L, Rt m3.Mat3)) (left, right []m3.Mat3) {
	ws, ct := c.ws, &c.ws.ct
	ws.dynamic.rigidLeft, ws.dynamic.rigidRight = grow(ws.dynamic.rigidLeft, 2*len(ct.pairs)), grow(ws.dynamic.rigidRight, 2*len(ct.pairs))
	for a := range ct.pairs {
		sides, n := c.sides(a)
		if n == 0 {
			continue
		}
		L, Rt := frame(a)
		for k, sd := range sides[:n] {
			r := cross(sd.rho)
			ws.dynamic.rigidLeft[2*a+k] = m3.Mul(m3.Mul(L.T(), r), sd.d.invI)
			ws.dynamic.rigidRight[2*a+k] = m3.Mul(r, Rt)
		}
	}
	return ws.dynamic.rigidLeft, ws.dynamic.rigidRight
}

// addRigidBlocks adds, for every two pairs a ≥ b and every dynamic body
// both act on, the block σ_a·σ_b·frameT(a)·K_ab·frame(b) =
// σ_a·σ_b·(diag(a, b)/m − left·right) to M (3c×3c, row-major) at (a, b),
// and with both its transpose at (b, a): K is symmetric, K_ba = K_abᵀ. σ
// is each pair's sign on the body (pairSide): the relative displacement
// of pair a's two sides under pair b's force, summed over the bodies (Eq.
// 16). diag(a, b) is the product of the two frames, the identity when
// diag is nil. W_H needs only its lower block triangle (every reader of it
// reads that alone: contact.RebuildWLower, contact.CorrectP, the GPU
// backend's plans), so its caller leaves both unset. Each block is formed
// in place, not through m3's value functions, which copy their matrices
// in and out: with both changes the soft fingers' cube (260 pairs on it)
// took 1.7 ms a step here instead of 4.1, most of it from the forming.
func (c *step) addRigidBlocks(M []float64, left, right []m3.Mat3, diag func(a, b int) m3.Mat3, both bool) {
	ws, ct := c.ws, &c.ws.ct
	n := 3 * len(ct.pairs)
	// The pairs on dynamic bodies and their sides, once.
	ws.dynamic.onDynamic = ws.dynamic.onDynamic[:0]
	ws.dynamic.pairSides = grow(ws.dynamic.pairSides, len(ct.pairs))
	for a := range ct.pairs {
		if sd, k := c.sides(a); k > 0 {
			ws.dynamic.pairSides[a] = sd
			ws.dynamic.onDynamic = append(ws.dynamic.onDynamic, pairSideCount{a, k})
		}
	}
	I := m3.Identity()
	for ia, pa := range ws.dynamic.onDynamic {
		a, sa := pa.pair, ws.dynamic.pairSides[pa.pair][:pa.n]
		for _, pb := range ws.dynamic.onDynamic[:ia+1] {
			b, sb := pb.pair, ws.dynamic.pairSides[pb.pair][:pb.n]
			for i, x := range sa {
				for j, y := range sb {
					if x.d != y.d {
						continue
					}
					D := &I
					if diag != nil {
						Dab := diag(a, b)
						D = &Dab
					}
					// K = σ_a·σ_b·(D/m − L·R), entry by entry in the
					// order of m3.Scale, m3.Sub and m3.Mul, without
					// copying the matrices through them.
					L, R := &left[2*a+i], &right[2*b+j]
					sign, inv := x.sign*y.sign, 1/x.d.Mass
					var K m3.Mat3
					for r := 0; r < 3; r++ {
						l0, l1, l2 := L[3*r], L[3*r+1], L[3*r+2]
						row := M[(3*a+r)*n+3*b : (3*a+r)*n+3*b+3 : (3*a+r)*n+3*b+3]
						for q := 0; q < 3; q++ {
							k := (D[3*r+q]*inv - (l0*R[q] + l1*R[3+q] + l2*R[6+q])) * sign
							K[3*r+q] = k
							row[q] += k
						}
					}
					if both && b != a {
						for r := 0; r < 3; r++ {
							for q := 0; q < 3; q++ {
								M[(3*b+q)*n+3*a+r] += K[3*r+q]
							}
						}
					}
				}
			}
		}
	}
}

// addRigidCompliance adds the dynamic bodies' K to W_H (3c×3c, row-major,
// the lower block triangle, all that is read of it), in the factor's
// frame R: Rᵀ·K·R.
func (c *step) addRigidCompliance(WH []float64) {
	if !c.hasDynamic() {
		return
	}
	R, warped := c.solver.Warp()
	if !warped {
		R = m3.Identity()
	}
	left, right := c.rigidFactors(func(int) (m3.Mat3, m3.Mat3) { return R, R })
	c.addRigidBlocks(WH, left, right, nil, false)
}

// addRigidW adds C_a·K_ab·C_bᵀ to the standard scheme's W (3c×3c).
func (c *step) addRigidW(W []float64) {
	if !c.hasDynamic() {
		return
	}
	ct := &c.ws.ct
	left, right := c.rigidFactors(func(a int) (m3.Mat3, m3.Mat3) { return ct.C[a].T(), ct.C[a].T() })
	c.addRigidBlocks(W, left, right, func(a, b int) m3.Mat3 { return m3.MulT(ct.C[a], ct.C[b]) }, true)
}

// shiftRigid moves the proximity points of the pairs on dynamic bodies by
// the bodies' displacement under λ (the standard scheme's points,
// relative to the bodies' free poses): p_a ← p_a + h²·Σ_b Σ_X σ_a·σ_b·K^X_ab·f_b
// with f_b = C_bᵀ·λ_b, summed over the bodies X both pairs act on (σ each
// pair's sign on X, pairSide). A body's sum is Σ_b σ_b·K^X_ab·f_b =
// F/m − [ρ_a]×·I⁻¹·T for F = Σ_b σ_b·f_b and T = Σ_b ρ_b × σ_b·f_b, O(c)
// per body.
func (c *step) shiftRigid(p []float64, h2 float64) {
	if !c.hasDynamic() {
		return
	}
	ws, ct := c.ws, &c.ws.ct
	c.sumRigidForces()
	for a := range ct.pairs {
		sides, n := c.sides(a)
		var u r3.Vec
		for _, sd := range sides[:n] {
			F, T := ws.dynamic.rigidSums[2*sd.body], ws.dynamic.rigidSums[2*sd.body+1]
			ux := r3.Sub(r3.Scale(1/sd.d.Mass, F), r3.Cross(sd.rho, sd.d.invI.MulVec(T)))
			u = r3.Add(u, r3.Scale(sd.sign, ux))
		}
		if n > 0 {
			p[3*a] += h2 * u.X
			p[3*a+1] += h2 * u.Y
			p[3*a+2] += h2 * u.Z
		}
	}
}

// sumRigidForces leaves in ws.dynamic.rigidSums, for each body i, the force
// F = Σ σ_a·C_aᵀ·λ_a of the pairs acting on it (at 2i; σ their sign on it,
// pairSide) and its torque Σ ρ_a × σ_a·C_aᵀ·λ_a about the centre (at 2i+1).
func (c *step) sumRigidForces() {
	ws, ct := c.ws, &c.ws.ct
	ws.dynamic.rigidSums = grow(ws.dynamic.rigidSums, 2*len(c.bodies))
	clear(ws.dynamic.rigidSums)
	for a := range ct.pairs {
		sides, n := c.sides(a)
		if n == 0 {
			continue
		}
		f := ct.C[a].MulVecT(point(ct.lambda, a))
		for _, sd := range sides[:n] {
			fs := r3.Scale(sd.sign, f)
			k := 2 * sd.body
			ws.dynamic.rigidSums[k] = r3.Add(ws.dynamic.rigidSums[k], fs)
			ws.dynamic.rigidSums[k+1] = r3.Add(ws.dynamic.rigidSums[k+1], r3.Cross(sd.rho, fs))
		}
	}
}

// advanceDynamic gives each dynamic body the velocities of the step's
// contact forces, F = Σ σ_a·C_aᵀ·λ_a over the pairs acting on it (σ their
// sign on it, pairSide) and τ = Σ ρ_a × σ_a·C_aᵀ·λ_a, and the end pose
// they lead to (committed with the step).
func (c *step) advanceDynamic() {
	if !c.anyDynamic() {
		return
	}
	h, ws := c.set.TimeStep, c.ws
	c.sumRigidForces()
	for i, d := range c.dyn {
		if d == nil {
			continue
		}
		F, tau := ws.dynamic.rigidSums[2*i], ws.dynamic.rigidSums[2*i+1]
		d.vNew = r3.Add(d.vNew, r3.Scale(h/d.Mass, F))
		d.wNew = r3.Add(d.wNew, r3.Scale(h, d.invI.MulVec(tau)))
		c.bodies[i].End = advancePose(c.bodies[i].Start, d.vNew, d.wNew, h)
	}
}

// commitDynamic makes the step's velocities the bodies' own.
func (c *step) commitDynamic() {
	for _, d := range c.dyn {
		if d != nil {
			d.Velocity, d.AngularVelocity = d.vNew, d.wNew
		}
	}
}
