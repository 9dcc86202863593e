package scenario

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/mesh/meshtest"
	"softgrasp/physics/rigid"
)

// aimJawHeight is the default gripper's jaw height and aimFloor its
// lowest grasp centre.
var (
	aimJawHeight = rigid.DefaultGripper().JawHeight
	aimFloor     = GraspFloor(aimJawHeight)
)

// boxAt is a procedural box of the given extent (m) turned by yaw about
// the vertical and moved by d, as node coordinates.
func boxAt(t *testing.T, extent r3.Vec, yaw float64, d r3.Vec) []float64 {
	t.Helper()
	m, err := mesh.BoxForDOFs(extent, 600)
	if err != nil {
		t.Fatal(err)
	}
	rot := r3.NewRotation(yaw, r3.Vec{Z: 1})
	m.Transform(func(p r3.Vec) r3.Vec { return r3.Add(rot.Rotate(p), d) })
	return coordinates(m.Nodes)
}

// TestAimAtObject is the table of the aim rule of the grasp script: the
// procedural box and cylinder exactly on their axis (the centre on the z
// axis at half their height, heading 0, their x extent: the goldens'
// grasp), and elongated objects across their narrow side whatever their
// heading and place, turning least from the gripper's heading.
func TestAimAtObject(t *testing.T) {
	cyl := func(dofs int) []float64 {
		m, err := mesh.CylinderForDOFs(0.02, 0.04, dofs)
		if err != nil {
			t.Fatal(err)
		}
		return coordinates(m.Nodes)
	}
	deg := math.Pi / 180
	tests := []struct {
		name      string
		positions []float64
		yaw       float64 // the gripper's heading
		centre    r3.Vec
		axisYaw   float64
		width     float64
		tol       float64 // on the centre and the width, m; 0: exact
		yawTol    float64 // rad; 0: exact
	}{
		{"box", boxAt(t, r3.Vec{X: 0.04, Y: 0.04, Z: 0.04}, 0, r3.Vec{}), 0, r3.Vec{Z: 0.02}, 0, 0.04, 0, 0},
		{"cylinder 24 DOFs", cyl(24), 0, r3.Vec{Z: 0.02}, 0, 0.04, 0, 0},
		{"cylinder 1000 DOFs", cyl(1000), 0, r3.Vec{Z: 0.02}, 0, 0.04, 0, 0},
		{"cylinder 3000 DOFs", cyl(3000), 0, r3.Vec{Z: 0.02}, 0, 0.04, 0, 0},
		{"box turned by the gripper's heading", boxAt(t, r3.Vec{X: 0.04, Y: 0.04, Z: 0.04}, 0.3, r3.Vec{}), 0.3, r3.Vec{Z: 0.02}, 0.3, 0.04, 1e-9, 1e-12},
		{"box turned 40°", boxAt(t, r3.Vec{X: 0.04, Y: 0.04, Z: 0.04}, 40*deg, r3.Vec{}), 0, r3.Vec{Z: 0.02}, 40 * deg, 0.04, 1e-9, 1e-9},
		{"long along y", boxAt(t, r3.Vec{X: 0.02, Y: 0.06, Z: 0.02}, 0, r3.Vec{X: 0.01, Y: -0.005}), 0,
			r3.Vec{X: 0.01, Y: -0.005, Z: aimFloor}, 0, 0.02, 1e-12, 0},
		{"long along x", boxAt(t, r3.Vec{X: 0.06, Y: 0.02, Z: 0.02}, 0, r3.Vec{X: 0.01, Y: -0.005}), 0,
			r3.Vec{X: 0.01, Y: -0.005, Z: aimFloor}, math.Pi / 2, 0.02, 1e-12, 1e-12},
		{"long along x, gripper turned the other way", boxAt(t, r3.Vec{X: 0.06, Y: 0.02, Z: 0.02}, 0, r3.Vec{}), -2,
			r3.Vec{Z: aimFloor}, -math.Pi / 2, 0.02, 1e-9, 1e-7},
		{"long, turned 30°", boxAt(t, r3.Vec{X: 0.06, Y: 0.02, Z: 0.02}, 30*deg, r3.Vec{Y: 0.01}), 0,
			r3.Vec{Y: 0.01, Z: aimFloor}, -60 * deg, 0.02, 1e-9, 1e-9},
		{"tall and long, standing", boxAt(t, r3.Vec{X: 0.016, Y: 0.024, Z: 0.05}, 0, r3.Vec{}), 0,
			r3.Vec{Z: 0.025}, 0, 0.016, 1e-12, 0},
		{"tall, narrow along y", boxAt(t, r3.Vec{X: 0.024, Y: 0.016, Z: 0.05}, 0, r3.Vec{}), 0,
			r3.Vec{Z: 0.025}, math.Pi / 2, 0.016, 1e-12, 1e-12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, ok := AimAtObject(tc.positions, tc.yaw, aimFloor)
			if !ok {
				t.Fatal("no aim")
			}
			p := a.Pose.Position
			if d := r3.Norm(r3.Sub(p, tc.centre)); d > tc.tol || (tc.tol == 0 && p != tc.centre) {
				t.Errorf("centre %v, want %v", p, tc.centre)
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
		})
	}
	if _, ok := AimAtObject([]float64{}, 0, aimFloor); ok {
		t.Error("an aim at no vertex")
	}
}

// TestAimAlongRay checks a click's aim: through a long box seen from
// above, the centre stays on the line of sight, midway across the box
// along the closing axis, which crosses the box's narrow side.
func TestAimAlongRay(t *testing.T) {
	pos, tris := meshtest.CubeSurface(0, 1)
	// Stretch the unit cube into a 60 × 20 × 20 mm box on the floor.
	for i := 0; i < len(pos); i += 3 {
		pos[i] = 0.06*pos[i] - 0.03
		pos[i+1] = 0.02*pos[i+1] - 0.01
		pos[i+2] *= 0.02
	}
	origin, dir := r3.Vec{X: 0.02, Y: 0.005, Z: 0.2}, r3.Vec{Z: -1}
	// The camera's right 30° from x: the box's narrow side (y) is beyond
	// the search, so the axis stops at the search's edge, 75°.
	right := r3.Vec{X: math.Cos(math.Pi / 6), Y: math.Sin(math.Pi / 6)}
	a, ok := AimAlongRay(origin, dir, right, 0, pos, tris, aimFloor)
	if !ok {
		t.Fatal("the ray missed the box")
	}
	if math.Abs(a.Yaw-(math.Pi/6+ClickSearch)) > 1e-9 {
		t.Errorf("closing axis heading %g rad, want %g (the search's edge)", a.Yaw, math.Pi/6+ClickSearch)
	}
	// The camera's right along x: 60 mm across there, 56.6 mm at the
	// search's edge, less than 10 % narrower: the heading is kept.
	if a, ok = AimAlongRay(origin, dir, r3.Vec{X: 1}, 0, pos, tris, aimFloor); !ok || a.Yaw != 0 {
		t.Errorf("closing axis heading %g rad (hit %v), want the camera's right kept", a.Yaw, ok)
	}
	// The camera's right along y: the axis crosses the narrow side.
	a, ok = AimAlongRay(origin, dir, r3.Vec{Y: 1}, 0, pos, tris, aimFloor)
	if !ok {
		t.Fatal("the ray missed the box")
	}
	if math.Abs(math.Abs(a.Yaw)-math.Pi/2) > 1e-9 || math.Abs(a.Width-0.02) > 1e-6 {
		t.Errorf("closing axis heading %g rad, width %g; want ±π/2, 0.02", a.Yaw, a.Width)
	}
	if p := a.Pose.Position; math.Abs(p.X-0.02) > 1e-6 || math.Abs(p.Y) > 1e-6 || math.Abs(p.Z-aimFloor) > 1e-12 {
		t.Errorf("centre %v, want (0.02, 0) at the lowest grasp %g", p, aimFloor)
	}
	if math.Abs(a.Top-0.02) > 1e-6 {
		t.Errorf("top %g, want 0.02", a.Top)
	}
	if w := a.Warning(0.05); w != "" {
		t.Errorf("a 2 cm side in 5 cm jaws warned %q", w)
	}
	if w := a.Warning(0.021); w == "" {
		t.Error("a 2 cm side in 2.1 cm jaws did not warn")
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
