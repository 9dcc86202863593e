package physics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// twoCubes builds one soft body of two 20 mm cubes (4×4×4 nodes each),
// the lower one with its bottom at z = 0 and the upper one gap above it,
// the upper one shifted by dx in x; with the floor when floor is set.
func twoCubes(t *testing.T, set settings.Settings, gap, dx float64, floor bool, extra ...rigid.Body) *Simulation {
	t.Helper()
	const a = 0.02
	both := &mesh.TetMesh{}
	for _, shift := range []r3.Vec{{}, {X: dx, Z: a + gap}} {
		m, err := mesh.Box(r3.Vec{X: a, Y: a, Z: a}, 4, 4, 4)
		if err != nil {
			t.Fatal(err)
		}
		b := m.Bounds()
		n := len(both.Nodes)
		for _, x := range m.Nodes {
			both.Nodes = append(both.Nodes, r3.Add(x, r3.Add(shift, r3.Vec{X: -b.Min.X - a/2, Y: -b.Min.Y - a/2, Z: -b.Min.Z})))
		}
		for _, tet := range m.Tets {
			both.Tets = append(both.Tets, [4]int{tet[0] + n, tet[1] + n, tet[2] + n, tet[3] + n})
		}
	}
	var bodies []rigid.Body
	if floor {
		bodies = append(bodies, rigid.Body{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()})
	}
	s, err := New(both, append(bodies, extra...), set)
	if err != nil {
		t.Fatal(err)
	}
	if s.Model().Parts() != 2 {
		t.Fatalf("%d parts, want 2", s.Model().Parts())
	}
	return s
}

// softMomentum returns Σ m_i·v_i over the soft body's nodes and the same
// over the nodes of part p.
func softMomentum(s *Simulation, p int) (all, part r3.Vec) {
	for n, m := range s.model.fem.Mass() {
		mv := r3.Scale(m, point(s.state.v, n))
		all = r3.Add(all, mv)
		if s.model.NodePart(n) == p {
			part = r3.Add(part, mv)
		}
	}
	return all, part
}

// TestSoftSoftImpactConservesMomentum: without gravity or a floor, the
// upper cube thrown down at the lower one hits it; their contact forces
// are equal and opposite (Eq. 14: one λ on a pair whose H block is the
// difference of the two sides), so the total momentum is what it was,
// with either scheme, while the lower cube gains what the upper one lost.
func TestSoftSoftImpactConservesMomentum(t *testing.T) {
	for _, scheme := range []settings.Scheme{settings.Fast, settings.Standard} {
		t.Run(scheme.String(), func(t *testing.T) {
			set := settings.Default()
			set.Scheme, set.Gravity = scheme, r3.Vec{}
			s := twoCubes(t, set, 0.002, 0.004, false)
			defer s.Close()
			v := append([]float64(nil), s.Velocities()...)
			for n := range v[:len(v)/3] {
				if s.model.NodePart(n) == 1 {
					v[3*n+2] = -0.3
				}
			}
			if err := s.SetState(s.Positions(), v); err != nil {
				t.Fatal(err)
			}
			p0, up0 := softMomentum(s, 1)
			maxForce, worst, pen := 0.0, 0.0, 0.0
			for i := 0; i < 60; i++ {
				st, err := s.Step()
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				maxForce = math.Max(maxForce, st.PartNormalForce)
				pen = math.Max(pen, st.PartPenetration)
				p, _ := softMomentum(s, 1)
				worst = math.Max(worst, r3.Norm(r3.Sub(p, p0)))
			}
			_, up := softMomentum(s, 1)
			t.Logf("momentum %.6g kg·m/s; largest drift %.3g; peak force between the cubes %.3g N; upper cube's momentum %.4g → %.4g; deepest overlap %.3g m",
				p0.Z, worst, maxForce, up0.Z, up.Z, pen)
			if maxForce == 0 {
				t.Fatal("the cubes never touched")
			}
			// Equal masses: after an impact that does not bounce, each
			// cube carries half of the momentum.
			if math.Abs(up.Z) > 0.75*math.Abs(up0.Z) {
				t.Fatalf("the upper cube kept %.3g of its momentum: the impact did not slow it", up.Z/up0.Z)
			}
			if worst > 1e-9*math.Abs(p0.Z) {
				t.Fatalf("the total momentum drifted by %.3g of %.3g kg·m/s", worst, math.Abs(p0.Z))
			}
			if pen > 0.1e-3 {
				t.Fatalf("the cubes overlap by %.3g m at the impact", pen)
			}
		})
	}
}

// TestSoftSoftStandardEqualsFast is "standard == fast with A and H held"
// with two soft bodies: W = J·A⁻¹·Jᵀ with each soft–soft row spanning
// both cubes (the sum of their compliances, Eq. 16) against C·W_H·Cᵀ,
// and the corrections h²·A⁻¹·Jᵀλ against h²·W_H·Cᵀλ. The upper cube is
// shifted off the lower one's grid so that its corners meet the lower
// cube's triangles inside.
func TestSoftSoftStandardEqualsFast(t *testing.T) {
	run := func(scheme settings.Scheme) (q, l [][]float64, part int) {
		set := settings.Default()
		set.Scheme, set.NewtonIterations, set.NewtonTolerance = scheme, 3, 0
		set.PGSIterations, set.PGSTolerance = 40, 0
		s := twoCubes(t, set, set.ContactDistance+0.0005, 0.0037, true)
		s.freezeMapping = true
		defer s.Close()
		for i := 0; i < 40; i++ {
			st, err := s.Step()
			if err != nil {
				t.Fatalf("%s step %d: %v", scheme, i, err)
			}
			if st.PartNormalForce > 0 {
				part++
			}
			q = append(q, append([]float64(nil), s.Positions()...))
			l = append(l, append([]float64(nil), s.Lambda()...))
		}
		return q, l, part
	}
	qf, lf, part := run(settings.Fast)
	qs, ls, _ := run(settings.Standard)
	if part < 20 {
		t.Fatalf("only %d of 40 steps pushed the cubes apart; the test needs them in contact", part)
	}
	worstQ, worstL := 0.0, 0.0
	for i := range qf {
		for k := range qf[i] {
			worstQ = math.Max(worstQ, math.Abs(qf[i][k]-qs[i][k]))
		}
		if len(lf[i]) != len(ls[i]) {
			t.Fatalf("step %d: %d contact rows fast, %d standard", i, len(lf[i]), len(ls[i]))
		}
		den := 0.0
		for k := range lf[i] {
			den = math.Max(den, math.Abs(ls[i][k]))
		}
		for k := range lf[i] {
			worstL = math.Max(worstL, math.Abs(lf[i][k]-ls[i][k])/math.Max(den, 1e-300))
		}
	}
	t.Logf("steps with force between the cubes %d/40; largest difference q %.3g m, λ %.3g relative", part, worstQ, worstL)
	if worstQ > 1e-9*0.02 || worstL > 1e-9 {
		t.Fatalf("standard and fast differ by %.3g m (q) and %.3g (λ), want ≤ 2e-11 m and 1e-9", worstQ, worstL)
	}
}

// TestSoftSoftPairs: Detect pairs each surface vertex of one cube within
// the alarm distance with the other cube's nearest triangle, both ways
// (but once where the two grids meet vertex to vertex), never with its
// own cube; a pair's weights sum to zero (its point is a difference) and
// its normal points from the other cube towards the vertex, also at the
// rims, where an edge is shared by a side face.
func TestSoftSoftPairs(t *testing.T) {
	set := settings.Default()
	gap := 0.3e-3
	s := twoCubes(t, set, gap, 0, false)
	defer s.Close()
	det := collide.NewDetector(s.model.surf)
	det.SetParts(s.model.part)
	pairs := det.Detect(s.Positions(), nil, 1e-3, nil)
	up, down := 0, 0
	for _, pr := range pairs {
		if pr.Kind != collide.SoftSoft || pr.Body != -1 || pr.Count != 4 {
			t.Fatalf("pair %+v: want a soft–soft pair of 4 points without a body", pr)
		}
		sum := 0.0
		for i := 0; i < pr.Count; i++ {
			sum += pr.Weights[i]
		}
		if math.Abs(sum) > 1e-12 {
			t.Fatalf("pair of vertex %d: weights sum to %g, want 0", pr.Point, sum)
		}
		vp := s.model.NodePart(pr.Point)
		for _, n := range pr.Nodes[1:4] {
			if s.model.NodePart(n) == vp {
				t.Fatalf("vertex %d paired with a triangle of its own cube", pr.Point)
			}
		}
		want := r3.Vec{Z: 1}
		if vp == 0 {
			want, down = r3.Vec{Z: -1}, down+1
		} else {
			up++
		}
		if r3.Norm(r3.Sub(pr.Normal, want)) > 1e-12 || math.Abs(pr.Distance-gap) > 1e-12 {
			t.Fatalf("vertex %d (cube %d): normal %v, distance %g; want %v, %g", pr.Point, vp, pr.Normal, pr.Distance, want, gap)
		}
	}
	// A face of 4×4 nodes. The grids meet vertex to vertex, so each
	// upper vertex's pair mirrors a lower vertex's (the same constraint,
	// the sides swapped) and only the lower part's are kept.
	if up != 0 || down != 16 {
		t.Fatalf("%d pairs from the upper cube and %d from the lower, want 0 and 16", up, down)
	}
	// Shifted off the grid, the two faces' vertices meet the other's
	// triangles inside: pairs both ways.
	shifted := twoCubes(t, set, gap, 0.0037, false)
	defer shifted.Close()
	det2 := collide.NewDetector(shifted.model.surf)
	det2.SetParts(shifted.model.part)
	var ways [2]int
	for _, pr := range det2.Detect(shifted.Positions(), nil, 1e-3, nil) {
		ways[shifted.model.NodePart(pr.Point)]++
	}
	if ways[0] == 0 || ways[1] == 0 {
		t.Fatalf("shifted cubes: %d pairs from the lower and %d from the upper, want both ways", ways[0], ways[1])
	}
	single, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 3, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, n := single.Components(); n != 1 {
		t.Fatalf("one box: %d parts, want 1", n)
	}
}
