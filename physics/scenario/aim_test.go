package scenario

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/mesh/meshtest"
	"softgrasp/physics/rigid"
)

// aimJaws are the default gripper's jaws with the default reach and μ,
// and aimFloor its lowest grasp centre.
var (
	aimJaws  = JawsOf(rigid.DefaultGripper(), reachShare*0.04, 0.8)
	aimFloor = GraspFloor(rigid.DefaultGripper().JawHeight)
)

// aimSurface is the boundary of one or more tetrahedral meshes as an aim
// takes it, and the centre of their volume.
func aimSurface(t *testing.T, meshes ...*mesh.TetMesh) (Surface[float64, int32], r3.Vec) {
	t.Helper()
	var s Surface[float64, int32]
	var c r3.Vec
	var v float64
	for _, m := range meshes {
		b, err := mesh.ExtractSurface(m)
		if err != nil {
			t.Fatal(err)
		}
		off := int32(len(s.Positions) / 3)
		s.Positions = append(s.Positions, coordinates(m.Nodes)...)
		for _, tr := range flatTris(b.Tris) {
			s.Tris = append(s.Tris, tr+off)
		}
		c, v = r3.Add(c, r3.Scale(m.Volume(), m.Centroid())), v+m.Volume()
	}
	return s, r3.Scale(1/v, c)
}

// boxAt is a procedural box of the given extent (m) on the floor, turned
// by yaw about the vertical and moved by d.
func boxAt(t *testing.T, extent r3.Vec, yaw float64, d r3.Vec) *mesh.TetMesh {
	t.Helper()
	m, err := mesh.BoxForDOFs(extent, 600)
	if err != nil {
		t.Fatal(err)
	}
	rot := r3.NewRotation(yaw, r3.Vec{Z: 1})
	m.Transform(func(p r3.Vec) r3.Vec { return r3.Add(rot.Rotate(p), d) })
	return m
}

// TestAimAtObject is the table of the grasp search on objects whose best
// grasp is known: the procedural box exactly on its axis (the centre on
// the z axis at the centre of mass's height, heading 0, its width: the
// goldens' grasp) and the cylinder through its axis, boxes turned to any heading across
// their faces, elongated objects across their narrow side wherever they
// lie (as low as the jaws go on a low one), turning least from the
// gripper's heading.
func TestAimAtObject(t *testing.T) {
	cyl := func(dofs int) *mesh.TetMesh {
		m, err := mesh.CylinderForDOFs(0.02, 0.04, dofs)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	deg := math.Pi / 180
	cube := r3.Vec{X: 0.04, Y: 0.04, Z: 0.04}
	long := r3.Vec{X: 0.06, Y: 0.02, Z: 0.02}
	tests := []struct {
		name    string
		meshes  []*mesh.TetMesh
		yaw     float64 // the gripper's heading
		centre  r3.Vec
		axisYaw float64
		width   float64
		tol     float64 // on the centre and the width, m
		yawTol  float64 // rad
	}{
		{"box", []*mesh.TetMesh{boxAt(t, cube, 0, r3.Vec{})}, 0, r3.Vec{Z: 0.02}, 0, 0.04, 1e-12, 0},
		// A faceted round may turn to meet a facet (its 18 sides at 1000
		// DOFs are 20° apart: flats at ±10°) rather than an edge.
		{"cylinder 1000 DOFs", []*mesh.TetMesh{cyl(1000)}, 0, r3.Vec{Z: 0.02}, 0, 0.04, 1e-3, 10.001 * deg},
		{"cylinder 3000 DOFs", []*mesh.TetMesh{cyl(3000)}, 0, r3.Vec{Z: 0.02}, 0, 0.04, 1e-3, 10.001 * deg},
		{"box turned by the gripper's heading", []*mesh.TetMesh{boxAt(t, cube, 0.3, r3.Vec{})}, 0.3, r3.Vec{Z: 0.02}, 0.3, 0.04, 1e-9, 1e-12},
		{"box turned 40°", []*mesh.TetMesh{boxAt(t, cube, 40*deg, r3.Vec{})}, 0, r3.Vec{Z: 0.02}, 40 * deg, 0.04, 1e-9, 1e-9},
		{"long along y", []*mesh.TetMesh{boxAt(t, r3.Vec{X: 0.02, Y: 0.06, Z: 0.02}, 0, r3.Vec{X: 0.01, Y: -0.005})}, 0,
			r3.Vec{X: 0.01, Y: -0.005, Z: aimFloor}, 0, 0.02, 1e-9, 0},
		{"long along x", []*mesh.TetMesh{boxAt(t, long, 0, r3.Vec{X: 0.01, Y: -0.005})}, 0,
			r3.Vec{X: 0.01, Y: -0.005, Z: aimFloor}, math.Pi / 2, 0.02, 1e-9, 1e-12},
		{"long along x, gripper turned the other way", []*mesh.TetMesh{boxAt(t, long, 0, r3.Vec{})}, -2,
			r3.Vec{Z: aimFloor}, -math.Pi / 2, 0.02, 1e-9, 1e-7},
		{"long, turned 30°", []*mesh.TetMesh{boxAt(t, long, 30*deg, r3.Vec{Y: 0.01})}, 0,
			r3.Vec{Y: 0.01, Z: aimFloor}, -60 * deg, 0.02, 1e-9, 1e-9},
		{"tall and long, standing", []*mesh.TetMesh{boxAt(t, r3.Vec{X: 0.016, Y: 0.024, Z: 0.05}, 0, r3.Vec{})}, 0,
			r3.Vec{Z: 0.025}, 0, 0.016, 1e-9, 0},
		{"tall, narrow along y", []*mesh.TetMesh{boxAt(t, r3.Vec{X: 0.024, Y: 0.016, Z: 0.05}, 0, r3.Vec{})}, 0,
			r3.Vec{Z: 0.025}, math.Pi / 2, 0.016, 1e-9, 1e-12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, com := aimSurface(t, tc.meshes...)
			a, err := AimAtObject(s, com, aimJaws, tc.yaw, aimFloor)
			if err != nil {
				t.Fatal(err)
			}
			p := a.Pose.Position
			if d := r3.Norm(r3.Sub(p, tc.centre)); d > tc.tol {
				t.Errorf("centre %v, want %v (off by %.3g m)", a.Pose.Position, tc.centre, d)
			}
			// Headings half a turn apart are the same closing axis; the aim
			// takes the one within a quarter turn of the gripper's.
			d := math.Remainder(a.Yaw-tc.axisYaw, math.Pi)
			if math.Abs(d) > tc.yawTol || math.Abs(math.Remainder(a.Yaw-tc.yaw, 2*math.Pi)) > math.Pi/2+1e-12 {
				t.Errorf("closing axis heading %g°, want %g°", a.Yaw/deg, tc.axisYaw/deg)
			}
			if x := a.Pose.Rotate(r3.Vec{X: 1}); math.Abs(x.X-math.Cos(a.Yaw)) > 1e-12 || math.Abs(x.Y-math.Sin(a.Yaw)) > 1e-12 || math.Abs(x.Z) > 1e-12 {
				t.Errorf("pose's closing axis %v, want heading %g°", x, a.Yaw/deg)
			}
			if d := math.Abs(a.Width - tc.width); d > tc.tol {
				t.Errorf("width %g, want %g", a.Width, tc.width)
			}
			// The jaws come down approachGap clear of each side, within
			// their reach.
			if want := math.Min(aimJaws.Reach, tc.width+2*approachGap); math.Abs(a.Opening-want) > tc.tol+1e-12 {
				t.Errorf("opening %g, want %g", a.Opening, want)
			}
		})
	}
}

// TestGap checks the share of air between two patches: through one block
// none; across two 12 mm blocks 18 mm apart, 18 mm of the 42 less the
// 3 mm a squeeze is allowed to close.
func TestGap(t *testing.T) {
	block := func(x float64) *mesh.TetMesh { return boxAt(t, r3.Vec{X: 0.012, Y: 0.03, Z: 0.03}, 0, r3.Vec{X: x}) }
	s, com := aimSurface(t, block(-0.015), block(0.015))
	g := newGraspSurface(s.Positions, s.tri, len(s.Tris)/3, com)
	if gap := g.gap(r3.Vec{X: 0.009, Z: 0.015}, r3.Vec{X: 0.021, Z: 0.015}); gap > 1e-9 {
		t.Errorf("through one block: gap %g, want 0", gap)
	}
	want := (0.018 - gapAllowance) / 0.042
	if gap := g.gap(r3.Vec{X: -0.021, Z: 0.015}, r3.Vec{X: 0.021, Z: 0.015}); math.Abs(gap-want) > 1e-9 {
		t.Errorf("across both: gap %g, want %g", gap, want)
	}
}

// TestAimRefuses checks that objects the jaws cannot hold are refused,
// each with its reason: one wider than their reach across every side, one
// lower than their lower edge, and a low cone whose sides lean 60° from
// the vertical jaws (no two face each other within the friction cone of
// μ = 0.8, 39°).
func TestAimRefuses(t *testing.T) {
	tests := []struct {
		name   string
		m      *mesh.TetMesh
		reason string
	}{
		{"wider than the reach", boxAt(t, r3.Vec{X: 0.07, Y: 0.075, Z: 0.02}, 0, r3.Vec{}), "70 mm wide at its narrowest; the jaws open to 60 mm"},
		{"below the jaws", boxAt(t, r3.Vec{X: 0.03, Y: 0.03, Z: 0.0008}, 0, r3.Vec{}), "below the jaws' lower edge"},
		{"a low cone", nil, "friction cone"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, com := lowCone()
			if tc.m != nil {
				s, com = aimSurface(t, tc.m)
			}
			a, err := AimAtObject(s, com, aimJaws, 0, aimFloor)
			var r *Refusal
			if !errors.As(err, &r) || !strings.Contains(r.Reason, tc.reason) {
				t.Fatalf("aim %+v, error %v; want a refusal saying %q", a, err, tc.reason)
			}
		})
	}
	if _, err := AimAtObject(Surface[float64, int32]{}, r3.Vec{}, aimJaws, 0, aimFloor); err == nil {
		t.Error("an aim at no surface")
	}
}

// lowCone is a 64-sided cone of radius 20 mm, 11.5 mm tall (its side 30°
// above the floor), on the floor, and its centre of mass.
func lowCone() (Surface[float64, int32], r3.Vec) {
	const n, r, h = 64, 0.02, 0.0115
	s := Surface[float64, int32]{Positions: []float64{0, 0, h, 0, 0, 0}}
	for k := 0; k < n; k++ {
		a := 2 * math.Pi * float64(k) / n
		s.Positions = append(s.Positions, r*math.Cos(a), r*math.Sin(a), 0)
	}
	for k := 0; k < n; k++ {
		i, j := int32(2+k), int32(2+(k+1)%n)
		s.Tris = append(s.Tris, 0, i, j, 1, j, i)
	}
	return s, r3.Vec{Z: h / 4}
}

// TestAimAlongRay checks a click's aim on a 60 × 20 × 20 mm box seen from
// above, clicked 12 mm off its middle: too long for the jaws' reach along
// its length, it is taken across its 20 mm side whatever the camera's
// right, as low as the jaws go, with the centre moved from the clicked
// point towards the centre of mass as far as the jaws' faces still take
// the clicked point (a third of their width, 8.3 mm).
func TestAimAlongRay(t *testing.T) {
	pos32, tris := meshtest.CubeSurface(0, 1)
	pos := make([]float64, len(pos32))
	for i := 0; i < len(pos); i += 3 {
		pos[i] = 0.06*float64(pos32[i]) - 0.03
		pos[i+1] = 0.02*float64(pos32[i+1]) - 0.01
		pos[i+2] = 0.02 * float64(pos32[i+2])
	}
	s := Surface[float64, uint32]{Positions: pos, Tris: tris}
	origin, dir := r3.Vec{X: 0.012, Y: 0.005, Z: 0.2}, r3.Vec{Z: -1}
	for _, right := range []r3.Vec{{X: 1}, {Y: 1}, {X: math.Cos(math.Pi / 6), Y: math.Sin(math.Pi / 6)}} {
		a, ok, err := AimAlongRay(origin, dir, right, s, aimJaws, aimFloor)
		if !ok || err != nil {
			t.Fatalf("right %v: hit %v, %v", right, ok, err)
		}
		if math.Abs(math.Abs(a.Yaw)-math.Pi/2) > 1e-9 || math.Abs(a.Width-0.02) > 1e-9 {
			t.Errorf("right %v: closing axis heading %g rad, width %g; want ±π/2, 0.02", right, a.Yaw, a.Width)
		}
		want := 0.012 - nearFree*aimJaws.Width
		if p := a.Pose.Position; math.Abs(p.X-want) > 1e-3 || math.Abs(p.Y) > 1e-9 || math.Abs(p.Z-aimFloor) > 1e-12 {
			t.Errorf("right %v: centre %v, want (%.4f, 0) at the lowest grasp %g", right, p, want, aimFloor)
		}
		if math.Abs(a.Top-0.02) > 1e-9 {
			t.Errorf("top %g, want 0.02", a.Top)
		}
		if w := a.Warning(0.05); w != "" {
			t.Errorf("a 2 cm side in 5 cm jaws warned %q", w)
		}
		if w := a.Warning(0.021); w == "" {
			t.Error("a 2 cm side in 2.1 cm jaws did not warn")
		}
	}
	if _, ok, _ := AimAlongRay(r3.Vec{X: 0.1, Z: 0.2}, dir, r3.Vec{X: 1}, s, aimJaws, aimFloor); ok {
		t.Error("a ray beside the box hit it")
	}
}

func TestSurfaceCrossingsEnterThroughTheNearestFace(t *testing.T) {
	pos, tris := meshtest.CubeSurface(-1, 1)
	rng := rand.New(rand.NewSource(11))
	for i := 0; i < 200; i++ {
		// A ray from far outside through a random point inside the cube
		// enters through the face nearest to its origin along the ray.
		inside := r3.Vec{X: rng.Float64()*1.8 - 0.9, Y: rng.Float64()*1.8 - 0.9, Z: rng.Float64()*1.8 - 0.9}
		dir := r3.Unit(r3.Vec{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
		origin := r3.Sub(inside, r3.Scale(10, dir))
		entry, _, ok := surfaceCrossings(origin, dir, pos, tris)
		if !ok {
			t.Fatalf("ray %d through an inside point missed the cube", i)
		}
		hit := r3.Add(origin, r3.Scale(entry, dir))
		// The entry point lies on the surface (one coordinate at ±1) and is
		// the smallest t at which the ray is inside the slab of every axis.
		tEntry := math.Inf(-1)
		for _, c := range []struct{ o, d float64 }{{origin.X, dir.X}, {origin.Y, dir.Y}, {origin.Z, dir.Z}} {
			t0, t1 := (-1-c.o)/c.d, (1-c.o)/c.d
			tEntry = math.Max(tEntry, math.Min(t0, t1))
		}
		want := r3.Add(origin, r3.Scale(tEntry, dir))
		if d := r3.Norm(r3.Sub(hit, want)); d > 1e-6 {
			t.Fatalf("ray %d: hit %v, slab entry point %v (off by %g)", i, hit, want, d)
		}
	}
}

func TestSurfaceCrossingsMiss(t *testing.T) {
	pos, tris := meshtest.CubeSurface(-1, 1)
	tests := []struct {
		name        string
		origin, dir r3.Vec
	}{
		{"pointing away", r3.Vec{Z: 5}, r3.Vec{Z: 1}},
		{"passing beside", r3.Vec{X: 3, Z: 5}, r3.Vec{Z: -1}},
		{"parallel above the top", r3.Vec{X: -5, Z: 1.5}, r3.Vec{X: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if entry, _, ok := surfaceCrossings(tc.origin, tc.dir, pos, tris); ok {
				t.Fatalf("entry at t = %g, want a miss", entry)
			}
		})
	}
	// A ray in a triangle's own plane is parallel to it: no hit.
	if _, ok := rayTriangle(r3.Vec{X: -1, Y: 0.2}, r3.Vec{X: 1}, r3.Vec{}, r3.Vec{X: 1}, r3.Vec{Y: 1}); ok {
		t.Fatal("a ray in the triangle's plane hit it")
	}
	bad := []uint32{0, 1, 99}
	if _, _, ok := surfaceCrossings(r3.Vec{Z: 5}, r3.Vec{Z: -1}, pos, bad); ok {
		t.Fatal("a triangle with an index out of range was hit")
	}
}

func TestSurfaceCrossingsOfACube(t *testing.T) {
	pos, tris := meshtest.CubeSurface(-1, 1)
	origin, dir := r3.Vec{X: 0.3, Y: -0.2, Z: 5}, r3.Vec{Z: -1}
	entry, exit, ok := surfaceCrossings(origin, dir, pos, tris)
	if !ok || math.Abs(entry-4) > 1e-9 || math.Abs(exit-6) > 1e-9 {
		t.Fatalf("crossings %g, %g (%v), want 4 and 6", entry, exit, ok)
	}
	// Through an edge shared by two triangles: still one entry.
	entry, exit, ok = surfaceCrossings(r3.Vec{Z: 5}, dir, pos, tris)
	if !ok || math.Abs(entry-4) > 1e-9 || math.Abs(exit-6) > 1e-9 {
		t.Fatalf("through the diagonal: crossings %g, %g (%v), want 4 and 6", entry, exit, ok)
	}
}

// BenchmarkAimAtObjectBox3000DOFs times the grasp search on the default
// box's surface (972 triangles): the script's aim at a build and at each
// run of it.
func BenchmarkAimAtObjectBox3000DOFs(b *testing.B) {
	m, err := mesh.BoxForDOFs(r3.Vec{X: 0.04, Y: 0.04, Z: 0.04}, 3000)
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	s, com := aimSurface(t, m)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := AimAtObject(s, com, aimJaws, 0, aimFloor); err != nil {
			b.Fatal(err)
		}
	}
}
