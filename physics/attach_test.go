package physics

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// cantilever returns a 100×20×20 mm bar along x, its nodes at x = −50 mm
// attached to the world, in a simulation without contacts.
func cantilever(t *testing.T, set settings.Settings) (*Simulation, []int) {
	t.Helper()
	msh, err := mesh.Box(r3.Vec{X: 0.1, Y: 0.02, Z: 0.02}, 21, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(msh, nil, set)
	if err != nil {
		t.Fatal(err)
	}
	var end []int
	for n, x := range msh.Nodes {
		if x.X < -0.05+1e-9 {
			end = append(end, n)
		}
	}
	if err := s.SetAttachments([]Attachment{{Nodes: end, Body: -1}}); err != nil {
		t.Fatal(err)
	}
	return s, end
}

// TestCantileverHoldsItsWeight: a bar attached at one end sags under its
// own weight and comes to rest. The attached nodes never move; at rest
// every free node is in equilibrium (its elastic force balances its
// weight), and the attached nodes' reactions carry the whole weight. The
// tip's deflection is compared with Euler–Bernoulli's q·L⁴/(8·E·I): linear
// tetrahedra are stiffer in bending than the beam (shear locking), so the
// bar sags less, by a measured factor.
func TestCantileverHoldsItsWeight(t *testing.T) {
	set := settings.Default()
	set.Material.YoungModulus = 5e6 // a small deflection: the beam's linear regime
	set.Material.PoissonRatio = 0.3
	set.Material.MassDamping = 20
	s, end := cantilever(t, set)
	defer s.Close()
	rest := append([]float64(nil), s.state.q...)
	for i := 0; i < 300; i++ {
		if _, err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		for _, n := range end {
			for d := 0; d < 3; d++ {
				if s.state.q[3*n+d] != rest[3*n+d] {
					t.Fatalf("step %d: attached node %d moved by %g m", i, n, s.state.q[3*n+d]-rest[3*n+d])
				}
			}
		}
	}
	if v := s.Stats().MaxSpeed; v > 1e-5 {
		t.Fatalf("the bar still moves at %.3g m/s", v)
	}
	f := make([]float64, len(s.state.q))
	if err := s.model.fem.ElasticForces(&s.state.elem, s.ws.fem, s.state.q, f); err != nil {
		t.Fatal(err)
	}
	g := set.Gravity.Z
	weight, reaction, worst := 0.0, 0.0, 0.0
	for n, m := range s.model.fem.Mass() {
		weight += -m * g
		// At rest the node's net force, gravity less the elastic force,
		// vanishes; at an attached node the support supplies it.
		net := r3.Vec{X: -f[3*n], Y: -f[3*n+1], Z: m*g - f[3*n+2]}
		if s.Attached(n) {
			reaction -= net.Z
			continue
		}
		worst = math.Max(worst, r3.Norm(net))
	}
	tip := 0.0
	for n, x := range s.model.mesh.Nodes {
		if x.X > 0.05-1e-9 {
			tip = math.Min(tip, s.state.q[3*n+2]-rest[3*n+2])
		}
	}
	const L, h = 0.1, 0.02
	rho := set.Material.Density
	beam := 1.5 * rho * -g * math.Pow(L, 4) / (set.Material.YoungModulus * h * h) // q·L⁴/(8·E·I), q = ρ·g·h², I = h⁴/12
	t.Logf("weight %.6f N, reactions %.6f N, worst free-node imbalance %.3g N; tip %.4f mm, Euler–Bernoulli %.4f mm (ratio %.3f)",
		weight, reaction, worst, -1e3*tip, 1e3*beam, -tip/beam)
	// Measured: reactions equal to the weight and free nodes balanced to
	// 2e-12 of the weight, the tip at 0.876 of the beam's deflection; the
	// bounds leave room for rounding and a few per cent of mesh effect.
	if math.Abs(reaction-weight) > 1e-8*weight {
		t.Fatalf("the attachments carry %.9f N of a %.9f N weight", reaction, weight)
	}
	if worst > 1e-8*weight {
		t.Fatalf("a free node is out of equilibrium by %.3g N (weight %.3g N)", worst, weight)
	}
	if r := -tip / beam; r < 0.85 || r > 0.9 {
		t.Fatalf("tip deflection %.4f mm, %.2f of the beam's %.4f mm", -1e3*tip, r, 1e3*beam)
	}
}

// TestAttachmentFollowsItsBody: nodes attached to a kinematic body follow
// its motion exactly, step by step, while the rest of the soft body hangs
// from them, with either scheme and either solver.
func TestAttachmentFollowsItsBody(t *testing.T) {
	for _, scheme := range []settings.Scheme{settings.Fast, settings.Standard} {
		for _, solver := range []settings.Solver{settings.ExactSolver, settings.AsyncSolver} {
			t.Run(scheme.String()+"/"+solver.String(), func(t *testing.T) {
				set := settings.Default()
				set.Scheme, set.Solver = scheme, solver
				followBody(t, set)
			})
		}
	}
}

func followBody(t *testing.T, set settings.Settings) {
	msh, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 4, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	pose := rigid.Pose{Position: r3.Vec{Z: 0.03}, Rotation: rigid.IdentityPose().Rotation}
	handle := rigid.Body{Name: "handle", Shape: rigid.Box{HalfExtents: r3.Vec{X: 0.005, Y: 0.005, Z: 0.005}}, Start: pose, End: pose}
	s, err := New(msh, []rigid.Body{handle}, set)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var top []int
	for n, x := range msh.Nodes {
		if x.Z > 0.02-1e-9 {
			top = append(top, n)
		}
	}
	if err := s.SetAttachments([]Attachment{{Nodes: top, Body: 0}}); err != nil {
		t.Fatal(err)
	}
	local := make([]r3.Vec, len(top))
	for k, n := range top {
		local[k] = pose.ApplyInverse(point(s.state.q, n))
	}
	for i := 1; i <= 100; i++ {
		// Up and turning about z: 2 cm and 1 rad over the run.
		p := rigid.Pose{Position: r3.Vec{Z: 0.03 + 2e-4*float64(i)}, Rotation: r3.NewRotation(0.01*float64(i), r3.Vec{Z: 1})}
		s.SetBodyEnd(0, p)
		if _, err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		for k, n := range top {
			if d := r3.Norm(r3.Sub(point(s.state.q, n), p.Apply(local[k]))); d > 1e-12 {
				t.Fatalf("step %d: attached node %d is %.3g m off its place on the body", i, n, d)
			}
		}
	}
	low := math.Inf(1)
	for n := range msh.Nodes {
		low = math.Min(low, s.state.q[3*n+2])
	}
	if low < 0.02-0.001 {
		t.Fatalf("the body's lowest node is at %.4f m: it did not rise with the handle", low)
	}
}

// TestAttachedContactsAreDropped: a soft box whose bottom face is
// attached to the world rests on the floor without a contact (every pair
// lies on attached nodes, which cannot move), and a pair on a free node
// is kept.
func TestAttachedContactsAreDropped(t *testing.T) {
	s, msh := boxOnFloor(t, 4)
	defer s.Close()
	var bottom []int
	for n, x := range msh.Nodes {
		if x.Z < 1e-9 {
			bottom = append(bottom, n)
		}
	}
	if _, err := s.Step(); err != nil {
		t.Fatal(err)
	}
	if s.Stats().Contacts == 0 {
		t.Fatal("no contact with the floor before the attachment")
	}
	if err := s.SetAttachments([]Attachment{{Nodes: bottom, Body: -1}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		st, err := s.Step()
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if st.Contacts != 0 {
			t.Fatalf("step %d: %d contacts on attached nodes", i, st.Contacts)
		}
	}
}

// TestSetAttachmentsRejects names what is wrong with an attachment.
func TestSetAttachmentsRejects(t *testing.T) {
	msh, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 3, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(msh, nil, settings.Default())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct {
		list []Attachment
		want string
	}{
		{[]Attachment{{Nodes: []int{0, 99}, Body: -1}}, "node 99 is not a mesh node"},
		{[]Attachment{{Nodes: []int{-1}, Body: -1}}, "node -1 is not a mesh node"},
		{[]Attachment{{Nodes: []int{0}, Body: 0}}, "body 0 does not exist"},
		{[]Attachment{{Nodes: []int{0}, Body: -1}, {Nodes: []int{0}, Body: -1}}, "node 0 is attached twice"},
	} {
		if err := s.SetAttachments(tc.list); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err %v, want one saying %q", tc.list, err, tc.want)
		}
	}
	if s.Attached(0) {
		t.Fatal("a rejected attachment was kept")
	}
}

// boxOnFloor returns a 20 mm soft box meshed by n nodes per side, standing
// on the floor (a plane at z = 0), and its mesh.
func boxOnFloor(t *testing.T, n int) (*Simulation, *mesh.TetMesh) {
	t.Helper()
	msh, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, n, n, n)
	if err != nil {
		t.Fatal(err)
	}
	floor := rigid.Body{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()}
	s, err := New(msh, []rigid.Body{floor}, settings.Default())
	if err != nil {
		t.Fatal(err)
	}
	return s, msh
}
