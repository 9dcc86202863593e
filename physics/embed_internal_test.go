package physics

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/m3"
	"softgrasp/physics/mesh"
	"softgrasp/physics/mesh/meshtest"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// pressedFineBox returns a 40 mm soft box of about 300 DOFs with a fine
// surface of about 3000 points mapped onto it, and a 12 mm rigid box
// whose bottom is pressed 0.5 mm into its top face, off the grid lines.
func pressedFineBox(t *testing.T) *Simulation {
	t.Helper()
	const size = 0.04
	coarse, emb, err := meshtest.BoxWithFineSurface(size, 300, 3000)
	if err != nil {
		t.Fatal(err)
	}
	shape, err := rigid.NewBox(r3.Vec{X: 0.006, Y: 0.006, Z: 0.006}, 0.002)
	if err != nil {
		t.Fatal(err)
	}
	pose := rigid.Translation(r3.Vec{X: 0.0013, Y: -0.0021, Z: size + 0.006 - 0.0005})
	s, err := NewEmbedded(coarse, emb, []rigid.Body{{Name: "press", Shape: shape, Start: pose, End: pose}}, settings.Default())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMappedH checks the mapping Jacobian of a surface mapped onto a
// coarse mesh by finite differences: for every proximity pair of a rigid
// box pressed onto the top of the soft box, p(q) is the pair's soft point
// (a surface point G_i(q) for a soft-vertex pair; for a rigid-vertex pair
// the point of its surface triangle with the barycentric weights found at
// detection, Σ_k w_k·G_{t_k}(q)), and p(q + ε·δq) − p(q) must equal
// ε·H·δq for random δq. The mapping is linear in q, so the two agree to
// round-off.
func TestMappedH(t *testing.T) {
	s := pressedFineBox(t)
	defer s.Close()
	c := s.stepper()
	c.detect()
	ct := &c.ws.ct
	if len(ct.pairs) == 0 {
		t.Fatal("no pairs")
	}
	c.buildMapping()
	m := c.model
	q := append([]float64(nil), c.state.q...)
	// at gives each pair's soft point on the surface: the
	// surface points and their weights.
	type surfPoint struct {
		n   int
		pts [3]int
		w   [3]float64
	}
	at := make([]surfPoint, len(ct.pairs))
	kinds, widest := [2]int{}, 0
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		kinds[pr.Kind]++
		widest = max(widest, pr.Count)
		if pr.Kind == collide.SoftVertex {
			at[a] = surfPoint{n: 1, pts: [3]int{pr.Point}, w: [3]float64{1}}
			continue
		}
		tri := m.surf.Tris[pr.Tri]
		_, w := collide.ClosestOnTriangle(ct.rT[a], m.surfacePoint(q, tri[0]), m.surfacePoint(q, tri[1]), m.surfacePoint(q, tri[2]))
		at[a] = surfPoint{n: 3, pts: tri, w: w}
	}
	if kinds[collide.SoftVertex] == 0 || kinds[collide.RigidVertex] == 0 || widest <= 4 {
		t.Fatalf("%d soft-vertex and %d rigid-vertex pairs, widest spread on %d nodes: the test needs both kinds, spread on more than 4 nodes",
			kinds[collide.SoftVertex], kinds[collide.RigidVertex], widest)
	}
	pOf := func(x []float64, a int) r3.Vec {
		var p r3.Vec
		for k := 0; k < at[a].n; k++ {
			p = r3.Add(p, r3.Scale(at[a].w[k], m.surfacePoint(x, at[a].pts[k])))
		}
		return p
	}
	// H at q reproduces the points themselves (p_t = H·q_t).
	for a := range ct.pairs {
		if d := r3.Norm(r3.Sub(point(ct.pT, a), pOf(q, a))); d > 1e-15 {
			t.Fatalf("pair %d: H·q is %g m from the soft point", a, d)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dq, qp, Hdq := make([]float64, len(q)), make([]float64, len(q)), make([]float64, 3*len(ct.pairs))
	const eps = 1e-4
	for trial := 0; trial < 5; trial++ {
		for i := range dq {
			dq[i] = rng.NormFloat64()
			qp[i] = q[i] + eps*dq[i]
		}
		ct.H.MulVec(Hdq, dq)
		worst := 0.0
		for a := range ct.pairs {
			fd := r3.Scale(1/eps, r3.Sub(pOf(qp, a), pOf(q, a)))
			worst = math.Max(worst, r3.Norm(r3.Sub(fd, point(Hdq, a)))/math.Max(1, r3.Norm(fd)))
		}
		if worst > 1e-8 {
			t.Fatalf("trial %d: (p(q+ε·δq) − p(q))/ε differs from H·δq by %.3g (relative)", trial, worst)
		}
	}
	t.Logf("%d soft-vertex and %d rigid-vertex pairs, up to %d nodes per pair", kinds[collide.SoftVertex], kinds[collide.RigidVertex], widest)

	// The standard scheme's re-mapping at q_k: each rigid-vertex pair's
	// point is the closest point of its triangle, corners at G(q_k), to
	// the rigid vertex, spread onto the nodes again, so p_k = H_k·q_k is
	// that point and H_k is again G's Jacobian at the new weights.
	qk := c.ws.standard.qK[:0]
	for i := range q {
		qk = append(qk, q[i]+1e-4*rng.NormFloat64())
	}
	c.ws.standard.qK = qk
	copy(c.ws.qFree, qk)
	c.ws.standard.refindMapping(c)
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		if pr.Kind != collide.RigidVertex {
			continue
		}
		tri := m.surf.Tris[pr.Tri]
		want, w := collide.ClosestOnTriangle(ct.rEnd[a], m.surfacePoint(qk, tri[0]), m.surfacePoint(qk, tri[1]), m.surfacePoint(qk, tri[2]))
		if d := r3.Norm(r3.Sub(point(ct.p, a), want)); d > 1e-15 {
			t.Fatalf("pair %d: after re-mapping H·q_k is %g m from the closest point of its triangle", a, d)
		}
		at[a].w = w
	}
	for i := range dq {
		dq[i] = rng.NormFloat64()
		qp[i] = qk[i] + eps*dq[i]
	}
	ct.H.MulVec(Hdq, dq)
	for a := range ct.pairs {
		fd := r3.Scale(1/eps, r3.Sub(pOf(qp, a), pOf(qk, a)))
		if d := r3.Norm(r3.Sub(fd, point(Hdq, a))) / math.Max(1, r3.Norm(fd)); d > 1e-8 {
			t.Fatalf("pair %d after re-mapping: (p(q+ε·δq) − p(q))/ε differs from H·δq by %.3g (relative)", a, d)
		}
	}
}

// TestIdentityMappingKeepsPairs checks that detection on an explicit
// identity embedding finds the very pairs of the mesh's boundary, nodes
// and weights included, with the keys renumbered to the surface points.
func TestIdentityMappingKeepsPairs(t *testing.T) {
	const size = 0.04
	m, err := mesh.BoxForDOFs(r3.Vec{X: size, Y: size, Z: size}, 600)
	if err != nil {
		t.Fatal(err)
	}
	emb, err := mesh.BoundaryEmbedding(m)
	if err != nil {
		t.Fatal(err)
	}
	shape, err := rigid.NewBox(r3.Vec{X: 0.006, Y: 0.006, Z: 0.006}, 0.002)
	if err != nil {
		t.Fatal(err)
	}
	pose := rigid.Translation(r3.Vec{X: 0.0013, Y: -0.0021, Z: size + 0.006 - 0.0005})
	bodies := []rigid.Body{{Name: "press", Shape: shape, Start: pose, End: pose}}
	var pairs [2][]collide.Pair
	for i, e := range []*mesh.Embedding{nil, emb} {
		s, err := NewEmbedded(m, e, bodies, settings.Default())
		if err != nil {
			t.Fatal(err)
		}
		c := s.stepper()
		c.detect()
		pairs[i] = append([]collide.Pair(nil), c.ws.ct.pairs...)
		s.Close()
	}
	if len(pairs[0]) == 0 || len(pairs[0]) != len(pairs[1]) {
		t.Fatalf("%d pairs on the boundary, %d on the identity embedding", len(pairs[0]), len(pairs[1]))
	}
	for a := range pairs[0] {
		b, e := pairs[0][a], pairs[1][a]
		if e.Point >= 0 {
			e.Point = emb.Points[e.Point].Nodes[0]
		}
		if b != e {
			t.Fatalf("pair %d: %+v on the boundary, %+v on the identity embedding", a, b, e)
		}
	}
}

// TestDetectionFollowsTheState checks that a step detects on G(q) of the
// state it starts from: after a step (whose measures mapped its end
// positions, which the next detection reuses) and after the state was
// set in place between steps (surfaceAt compares the positions, not the
// slice, which SetState overwrites).
func TestDetectionFollowsTheState(t *testing.T) {
	s := pressedFineBox(t)
	defer s.Close()
	check := func(when string) {
		t.Helper()
		c := s.stepper()
		c.detect()
		want := make([]float64, 3*s.model.SurfacePoints())
		s.model.emb.Map(want, s.state.q)
		got := c.ws.detection.p
		if len(got) != len(want) {
			t.Fatalf("%s: %d surface coordinates detected on, want %d", when, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: surface coordinate %d is %g, G(q) gives %g", when, i, got[i], want[i])
			}
		}
	}
	check("first step")
	for i := 0; i < 2; i++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		check("after a step")
	}
	q := append([]float64(nil), s.Positions()...)
	for i := range q {
		q[i] += 1e-4 * float64(i%3+1)
	}
	if err := s.SetState(q, s.Velocities()); err != nil {
		t.Fatal(err)
	}
	check("after SetState")
}

// TestStepAlarmNodeBound checks the mapped surface's shortcut in
// stepAlarm: for random node velocities (and last velocity changes, with
// Settings.AlarmFall at FallLastStep) and motions of the pressing body,
// every surface point's relative motion over the step is within its
// nodes' weighted bound (nodeMotionBounds, mesh.Embedding.Bound), and the
// alarm with the shortcut equals the alarm without it to the last bit,
// both where the motions widen it and where they leave it at its base.
func TestStepAlarmNodeBound(t *testing.T) {
	s := pressedFineBox(t)
	defer s.Close()
	c := s.stepper()
	m := c.model
	p := c.surfaceAt(c.state.q)
	rng := rand.New(rand.NewPCG(3, 4))
	base := c.set.AlarmDistance
	widened, atBase := 0, 0
	for trial := range 48 {
		speed := []float64{0, 0.05, 0.3, 1}[trial%4] // m/s
		for i := range c.state.v {
			c.state.v[i] = speed * rng.NormFloat64()
		}
		// Every other trial predicts the fall from a last velocity change.
		lastStep := trial%2 == 1
		c.set.AlarmFall = settings.FallGravity
		c.state.dvLast = c.state.dvLast[:0]
		if lastStep {
			c.set.AlarmFall = settings.FallLastStep
			for range c.state.v {
				c.state.dvLast = append(c.state.dvLast, 0.1*speed*rng.NormFloat64())
			}
		}
		b := &c.bodies[0]
		move := []float64{0, 2e-3, 8e-3}[trial%3]
		axis := r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
		turn := rigid.Pose{Rotation: r3.NewRotation(0.3*move/8e-3, axis), Position: r3.Scale(move, axis)}
		b.End = turn.Compose(b.Start)
		moves := c.ws.detection.moves[:0]
		for i := range c.bodies {
			bi := &c.bodies[i]
			T := bi.End.Compose(bi.Start.Inverse())
			moves = append(moves, bodyMove{start: bi.Start.RotationMatrix(), move: m3.Sub(T.RotationMatrix(), m3.Identity()), t: T.Position})
		}
		h := c.set.TimeStep
		gh2 := r3.Scale(h*h, c.set.Gravity)
		bound := c.nodeMotionBounds(moves, gh2, lastStep)
		for _, n := range m.surf.Vertices {
			x := point(p, n)
			fv := gh2
			if lastStep {
				fv = fallAt(h, m.surfacePoint(c.state.dvLast, n), gh2)
			}
			soft := r3.Add(r3.Scale(h, m.surfacePoint(c.state.v, n)), fv)
			for i := range moves {
				d := r3.Norm(r3.Sub(soft, r3.Add(moves[i].move.MulVec(x), moves[i].t)))
				if lim := m.emb.Bound(bound, n); d > lim {
					t.Fatalf("trial %d: point %d moves %g m against body %d, beyond its bound %g m", trial, n, d, i, lim)
				}
			}
		}
		with, without := c.alarmOver(p, true), c.alarmOver(p, false)
		if with != without {
			t.Fatalf("trial %d: alarm %v with the node bounds, %v without", trial, with, without)
		}
		if with > base {
			widened++
		} else {
			atBase++
		}
	}
	if widened == 0 || atBase == 0 {
		t.Fatalf("%d trials widened the alarm and %d left it at its base: want both", widened, atBase)
	}
}

// TestBudgetReachFall checks the fall the budget's reach counts
// (closing) on a soft-vertex pair at one node of the fine box, the body
// and the node at rest, h = 10 ms, for a body facing up at it (a floor)
// and sideways (a wall): gravity's whole fall h²·g before the first step;
// after a step, the last velocity change's part towards the body and
// unforeseenFall of the fall: a tenth of h²·g at rest, 1.1·h²·g after a
// step of free fall, and nothing for a velocity change away from the body
// or along it.
func TestBudgetReachFall(t *testing.T) {
	s := pressedFineBox(t)
	defer s.Close()
	c := s.stepper()
	c.set.TimeStep = 0.01
	h, g := c.set.TimeStep, c.set.Gravity
	fall := r3.Norm(r3.Scale(h*h, g))
	pr := collide.Pair{Kind: collide.SoftVertex, Body: 0, Count: 1, Point: -1, Tri: -1, Vertex: -1, Normal: r3.Vec{Z: 1}}
	pr.Nodes[0], pr.Weights[0] = 0, 1
	b := &c.bodies[0]
	b.End = b.Start
	set := func(dv r3.Vec, have bool) {
		c.state.dvLast = c.state.dvLast[:0]
		if have {
			for i := 0; i < len(c.state.v); i += 3 {
				c.state.dvLast = append(c.state.dvLast, dv.X, dv.Y, dv.Z)
			}
		}
	}
	down := r3.Scale(h, g) // a step of free fall's velocity change
	for _, tc := range []struct {
		name   string
		dv     r3.Vec
		have   bool
		normal r3.Vec
		want   float64
	}{
		{"no step yet", r3.Vec{}, false, r3.Vec{Z: 1}, fall},
		{"at rest", r3.Vec{}, true, r3.Vec{Z: 1}, unforeseenFall * fall},
		{"falling", down, true, r3.Vec{Z: 1}, (1 + unforeseenFall) * fall},
		{"rising", r3.Scale(-3, down), true, r3.Vec{Z: 1}, 0},
		{"beside a wall", down, true, r3.Vec{X: 1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clear(c.state.v)
			set(tc.dv, tc.have)
			pr.Normal = tc.normal
			closing, reach := c.closing(&pr)
			if closing != 0 || math.Abs(reach-tc.want) > 1e-15 {
				t.Fatalf("closing %g, reach %g m, want 0 and %g m", closing, reach, tc.want)
			}
		})
	}
}
