package scenario

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/meshfile"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// customConfig is the shipped pile's first bodies (assets/scenes/pile.toml):
// a soft slab and a soft puck on it, a 20 g cube dropped on the puck, a
// fixed post beside them, and a second cube dropped on the floor.
func customConfig() settings.Scenario {
	cfg := settings.DefaultScenario(settings.Custom)
	cfg.Duration = 1.5
	cfg.Soft = []settings.SoftSpec{
		{Shape: settings.BoxShape, Size: [3]float64{0.03, 0.03, 0.015}, DOFs: 600},
		{Shape: settings.CylinderShape, Size: [3]float64{0.02, 0.015}, DOFs: 400, Position: [3]float64{0.002, 0, 0.0155}},
	}
	cfg.Rigid = []settings.RigidSpec{
		{Name: "weight", Shape: settings.BoxShape, Size: [3]float64{0.012, 0.012, 0.012}, Position: [3]float64{0, 0, 0.0455}, Rotation: [3]float64{0, 0, 30}, Mass: 0.02},
		{Name: "post", Shape: settings.CylinderShape, Size: [3]float64{0.01, 0.04}, Position: [3]float64{0.04, 0, 0.02}},
		{Shape: settings.BoxShape, Size: [3]float64{0.01, 0.01, 0.01}, Position: [3]float64{-0.04, 0, 0.01}, Mass: 0.005},
	}
	return cfg
}

// TestCustomScene runs the listed bodies: two soft parts, the weight
// comes to rest on the puck carried by exactly its weight (soft–soft and
// soft–rigid contact), the second cube on the floor carried by the floor
// (rigid–rigid), the kinematic post stays where it was placed, and
// nothing sinks.
func TestCustomScene(t *testing.T) {
	cfg := customConfig()
	s := runScene(t, cfg)
	if len(s.Bodies) != 3 {
		t.Fatalf("%d bodies in the summary, want 3", len(s.Bodies))
	}
	g := 9.81
	w, post, cube := s.Bodies[0], s.Bodies[1], s.Bodies[2]
	t.Logf("weight: soft push %.6f N for %.6f N (%.3g relative), speed %.3g m/s, at z = %.2f mm; cube 3: floor %.6f N for %.6f N (%.3g), speed %.3g m/s; post at %v; max penetration %.3g m",
		w.SoftForce, 0.02*g, w.SoftForce/(0.02*g)-1, w.Speed, 1e3*w.Position[2], cube.FloorForce, 0.005*g, cube.FloorForce/(0.005*g)-1, cube.Speed, post.Position, s.MaxPenetration)
	// Bounds about five times the measured: the weight's load to 1.05e-4
	// of its weight, speed 1.4e-7 m/s; cube 3's load and speed at
	// round-off (6e-16, 1.5e-16 m/s); penetration 5.8 µm.
	if w.Name != "weight" || !w.Dynamic || math.Abs(w.SoftForce-0.02*g) > 5e-4*0.02*g || w.Speed > 1e-6 {
		t.Fatalf("the weight is not at rest on the puck: %+v", w)
	}
	if cube.Name != "box 3" || math.Abs(cube.FloorForce-0.005*g) > 5e-15*0.005*g || cube.Speed > 1e-15 {
		t.Fatalf("cube 3 is not at rest on the floor: %+v", cube)
	}
	if post.Dynamic || post.Position != [3]float64{0.04, 0, 0.02} {
		t.Fatalf("the kinematic post moved: %+v", post)
	}
	if s.MaxPenetration > 20e-6 {
		t.Fatalf("max penetration %.3g m", s.MaxPenetration)
	}
}

// TestCustomSceneRefusesBadLists: a custom scene needs a soft body, and
// the body lists belong to custom scenes only; each error names the entry.
func TestCustomSceneRefusesBadLists(t *testing.T) {
	cfg := customConfig()
	cfg.Soft[1].Size[1] = -1
	if _, err := Build(cfg); err == nil || err.Error() != "soft[2]: size (height) = -1 m: must be in (0, 1]" {
		t.Fatalf("got %v", err)
	}
	cfg = customConfig()
	cfg.Soft = nil
	if _, err := Build(cfg); err == nil {
		t.Fatal("a custom scene without soft bodies was built")
	}
	cfg = settings.DefaultScenario(settings.GraspRotate)
	cfg.Rigid = customConfig().Rigid
	if _, err := Build(cfg); err == nil {
		t.Fatal("a grasp scene with listed rigid bodies was built")
	}
}

// TestCustomSceneMaterials: two equal soft boxes side by side on the
// floor, the second twice as dense and four times as stiff (its own
// young and density): at rest the floor carries each its own weight (the
// second's twice the first's), and the second's top sinks half as far
// (a column's sag under its weight goes as ρ/E). Measured: the loads to
// 1.4e-12 of the weights, the sags 0.156 and 0.078 mm (ratio 0.4995).
func TestCustomSceneMaterials(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Custom)
	cfg.Duration = 1.0
	mat := cfg.Physics.Material
	box := settings.SoftSpec{Shape: settings.BoxShape, Size: [3]float64{0.02, 0.02, 0.04}, DOFs: 600}
	a, b := box, box
	a.Position, b.Position = [3]float64{-0.02, 0, 0}, [3]float64{0.02, 0, 0}
	b.Young, b.Density = 4*mat.YoungModulus, 2*mat.Density
	cfg.Soft = []settings.SoftSpec{a, b}
	sc := runSceneOpen(t, cfg)
	defer sc.Close()
	q, rest := sc.Sim.Positions(), sc.Sim.RestPositions()
	var load, mass, sag, lift [2]float64
	for i, m := range sc.mass {
		p := sc.Sim.Model().NodePart(i)
		mass[p] += m
		d := rest[3*i+2] - q[3*i+2]
		if rest[3*i+2] > 0.04-1e-9 {
			sag[p] = math.Max(sag[p], d)
		}
		if rest[3*i+2] < 1e-9 {
			lift[p] = -d // the contact law holds the bottom the contact distance up
		}
	}
	for p := range 2 {
		sag[p] += lift[p] // the column's own shortening
	}
	for _, c := range sc.Sim.AppendContacts(nil) {
		if c.Body == FloorBody {
			if c.Point.X < 0 {
				load[0] += c.NormalForce
			} else {
				load[1] += c.NormalForce
			}
		}
	}
	g := 9.81
	t.Logf("floor loads %.6f / %.6f N for weights %.6f / %.6f N (%.3g / %.3g relative); top sags %.4f / %.4f mm (ratio %.4f)",
		load[0], load[1], mass[0]*g, mass[1]*g, load[0]/(mass[0]*g)-1, load[1]/(mass[1]*g)-1, 1e3*sag[0], 1e3*sag[1], sag[1]/sag[0])
	for p := range 2 {
		if math.Abs(load[p]-mass[p]*g) > 1e-11*mass[p]*g {
			t.Fatalf("box %d: the floor carries %.6f N of its %.6f N", p+1, load[p], mass[p]*g)
		}
	}
	if r := mass[1] / mass[0]; math.Abs(r-2) > 1e-9 {
		t.Fatalf("the second box weighs %.6f times the first, want 2", r)
	}
	if r := sag[1] / sag[0]; math.Abs(r-0.5) > 0.002 {
		t.Fatalf("the second box sags %.3f times the first, want 0.5 (ρ/E)", r)
	}
}

// TestCustomSceneWithGripper: a custom scene with the gripper grasps its
// soft bodies (a box with a stiffer puck on it) and spins them, held with
// less than 1 mm of slip, while a listed rigid block rests on the floor
// beside them (the listed bodies come after the jaws).
func TestCustomSceneWithGripper(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Custom)
	cfg.Gripper = true
	cfg.Soft = []settings.SoftSpec{
		{Shape: settings.BoxShape, Size: [3]float64{0.03, 0.03, 0.03}, DOFs: 600},
		{Shape: settings.CylinderShape, Size: [3]float64{0.02, 0.012}, DOFs: 300, Position: [3]float64{0, 0, 0.0301}, Young: 2e5},
	}
	cfg.Rigid = []settings.RigidSpec{{Name: "block", Shape: settings.BoxShape, Size: [3]float64{0.02, 0.02, 0.02}, Position: [3]float64{0.05, 0, 0.01}, Mass: 0.01}}
	s := runScene(t, cfg)
	b := s.Bodies
	t.Logf("held %v, slip %.3f mm (max %.3f), grip %.2f N, %.1f s; block: floor %.6f N (%.3g relative), speed %.3g m/s", s.Held, 1e3*s.Slip, 1e3*s.MaxSlip, s.GripForceMean, s.SimSeconds, b[0].FloorForce, b[0].FloorForce/(0.01*9.81)-1, b[0].Speed)
	if !s.Held || s.MaxSlip > 1e-3 || s.GripForceMean <= 0 {
		t.Fatalf("the soft bodies are not held through the spin: held %v, slip %.3f mm", s.Held, 1e3*s.MaxSlip)
	}
	if len(b) != 1 || b[0].Name != "block" || math.Abs(b[0].FloorForce-0.01*9.81) > 3e-14*0.01*9.81 { // measured 4.2e-15
		t.Fatalf("the block is not at rest on the floor: %+v", b)
	}
}

// TestCustomSceneMeshBody: a soft body from a mesh file (the shipped
// bean, a volume mesh above its budget, so its boundary is mapped onto a
// grid mesh) rests on a procedural soft slab: the mappings of both join
// (the slab's boundary as an identity mapping), and the soft–soft
// contacts carry the bean's weight.
func TestCustomSceneMeshBody(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Custom)
	cfg.Duration = 1.0
	cfg.Soft = []settings.SoftSpec{
		{Shape: settings.BoxShape, Size: [3]float64{0.05, 0.05, 0.01}, DOFs: 800},
		{Shape: settings.MeshShape, Mesh: "../../assets/bean.msh", Size: [3]float64{0.03}, DOFs: 1500, Position: [3]float64{0, 0, 0.0101}},
	}
	sc := runSceneOpen(t, cfg)
	defer sc.Close()
	if sc.Sim.Model().Parts() != 2 || sc.Sim.Model().Embedding() == nil {
		t.Fatalf("%d parts, embedding %v: want 2 parts and a joined mapping", sc.Sim.Model().Parts(), sc.Sim.Model().Embedding() != nil)
	}
	st := sc.Sim.Stats()
	weight := sc.partMass[1] * 9.81
	s := sc.Summary()
	t.Logf("bean %.2f g: carried by %.6f N for %.6f N (%.3g relative; %d soft–soft pairs); %d contacts, max penetration %.3g m",
		1e3*sc.partMass[1], st.PartNormalForce, weight, st.PartNormalForce/weight-1, st.PartPairs, st.Contacts, s.MaxPenetration)
	if math.Abs(st.PartNormalForce-weight) > 1e-4*weight { // measured 2e-5
		t.Fatalf("the slab carries the bean with %.6f N, it weighs %.6f N", st.PartNormalForce, weight)
	}
	if s.MaxPenetration > 1e-6 || st.Contacts > cfg.Physics.ContactBudget { // measured 0
		t.Fatalf("max penetration %.3g m, %d contacts (budget %d)", s.MaxPenetration, st.Contacts, cfg.Physics.ContactBudget)
	}
}

// TestLoadRigidMesh: the Y-up bar (a closed 24 × 40 × 16-unit box turned
// by 30° about its long axis, 496 triangles) as a rigid mesh of largest
// extent 20 mm: its volume and principal moments are the box's, its
// vertices in the principal frame fill the box's extents about the
// origin, and the principal frame turned by the mesh's axes gives the
// fitted file's vertices back about their centre.
func TestLoadRigidMesh(t *testing.T) {
	m, err := loadRigidMesh("testdata/bar_yup.obj", 0.02)
	if err != nil {
		t.Fatal(err)
	}
	k := 0.02 / 40 // metres per unit: the 40-unit side fitted to 20 mm
	a, b, c := 24*k, 40*k, 16*k
	vol := a * b * c
	// Principal moments per unit density, ascending (EigenSym's order).
	want := []float64{vol * (a*a + c*c) / 12, vol * (b*b + c*c) / 12, vol * (a*a + b*b) / 12}
	got := []float64{m.moments.X, m.moments.Y, m.moments.Z}
	t.Logf("volume %.6g m³ (box %.6g), moments %v (box %v)", m.volume, vol, got, want)
	// The file's coordinates have 7 significant digits: 1.4e-8 of the
	// volume and 1.4e-9 of the largest moment measured.
	if math.Abs(m.volume-vol) > 1e-7*vol {
		t.Fatalf("volume %g, want %g", m.volume, vol)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-7*want[2] {
			t.Fatalf("principal moments %v, want %v", got, want)
		}
	}
	box, _ := m.shape.Bounds()
	half := []float64{b / 2, a / 2, c / 2} // the axes of the moments above
	for i, h := range half {
		lo, hi := [3]float64{box.Min.X, box.Min.Y, box.Min.Z}[i], [3]float64{box.Max.X, box.Max.Y, box.Max.Z}[i]
		if math.Abs(hi-h) > 1e-8*b || math.Abs(lo+h) > 1e-8*b {
			t.Fatalf("principal-frame bounds %v, want ±%v", box, half)
		}
	}
	// The file's vertices, fitted: the principal frame's turned back.
	raw, err := meshfile.Open("testdata/bar_yup.obj", meshfile.Options{KeepSurface: true})
	if err != nil {
		t.Fatal(err)
	}
	raw.Surface.Compact()
	verts := raw.Surface.Nodes
	var centre r3.Vec
	for _, v := range verts {
		centre = r3.Add(centre, r3.Scale(k/float64(len(verts)), v))
	}
	pose := rigid.Pose{Position: centre, Rotation: m.axes}
	shapeVerts, _ := m.shape.Triangulate()
	for i, v := range shapeVerts {
		if d := r3.Norm(r3.Sub(pose.Apply(v), r3.Scale(k, verts[i]))); d > 1e-8*b {
			t.Fatalf("vertex %d: %v from the principal frame, %v in the file (×%g): %g apart", i, pose.Apply(v), r3.Scale(k, verts[i]), k, d)
		}
	}
}

// TestCustomSceneRigidMesh: the bar as a 15 g dynamic rigid mesh body
// dropped 3 mm onto the floor beside a soft box comes to rest on it
// carried by its weight (rigid–rigid contact of its vertex and edge
// samples), and a second one dropped 1 mm onto the soft box rests on it
// carried by the soft box (soft–rigid contact on the mesh's surface, both
// ways) without sinking in; an open surface is refused with a message
// that says so.
func TestCustomSceneRigidMesh(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Custom)
	cfg.Duration = 0.5
	cfg.Soft = []settings.SoftSpec{{Shape: settings.BoxShape, Size: [3]float64{0.03, 0.03, 0.015}, DOFs: 300}}
	cfg.Rigid = []settings.RigidSpec{
		{Name: "bar", Shape: settings.MeshShape, Mesh: "testdata/bar_yup.obj", Size: [3]float64{0.02},
			Position: [3]float64{0.05, 0, 0.007}, Mass: 0.015},
		{Name: "load", Shape: settings.MeshShape, Mesh: "testdata/bar_yup.obj", Size: [3]float64{0.02},
			Position: [3]float64{0, 0, 0.015 + 0.004 + 0.001}, Rotation: [3]float64{0, 0, 90}, Mass: 0.015},
	}
	s := runScene(t, cfg)
	bar, load := s.Bodies[0], s.Bodies[1]
	w := 0.015 * 9.81
	t.Logf("bar: floor %.6f N for %.6f N (%.3g relative), speed %.3g m/s, at z = %.3f mm; load: soft push %.6f N (%.3g), speed %.3g m/s, at z = %.3f mm; max penetration %.3g m",
		bar.FloorForce, w, bar.FloorForce/w-1, bar.Speed, 1e3*bar.Position[2], load.SoftForce, load.SoftForce/w-1, load.Speed, 1e3*load.Position[2], s.MaxPenetration)
	// Bounds about five times the measured: the bar's load to 9e-13 of
	// its weight, speed 6e-10 m/s; the load's to 8.9e-4, 6.4e-7 m/s;
	// penetration 2.3 µm.
	if !bar.Dynamic || math.Abs(bar.FloorForce-w) > 5e-12*w || bar.Speed > 5e-9 {
		t.Fatalf("the bar is not at rest on the floor: %+v", bar)
	}
	if math.Abs(load.SoftForce-w) > 3e-3*w || load.Speed > 3e-6 {
		t.Fatalf("the load is not at rest on the soft box: %+v", load)
	}
	if s.MaxPenetration > 10e-6 {
		t.Fatalf("max penetration %.3g m", s.MaxPenetration)
	}
	cfg.Rigid[1].Mesh = "../meshfile/testdata/sheet.stl"
	if _, err := Build(cfg); err == nil || !strings.Contains(err.Error(), "rigid[2]: ") || !strings.Contains(err.Error(), "a rigid mesh must be one closed surface") {
		t.Fatalf("an open surface as a rigid mesh: %v", err)
	}
}

// TestCustomSceneMeshUpAndUnits builds a custom scene of the Y-up bar
// (24 × 40 × 16 units, turned 30° about its long axis) as a mesh body
// with its own up axis and units: in millimetres and turned y up it
// stands 40 mm tall; in centimetres as it is, it lies 24·sin 30° + 16·cos
// 30° cm tall.
func TestCustomSceneMeshUpAndUnits(t *testing.T) {
	for _, tc := range []struct {
		up, units string
		height    float64 // m
	}{
		{"y", "mm", 0.040},
		{"z", "cm", 0.24*0.5 + 0.16*math.Cos(math.Pi/6)},
	} {
		cfg := settings.DefaultScenario(settings.Custom)
		cfg.Duration = 0.1
		cfg.Soft = []settings.SoftSpec{{Shape: settings.MeshShape, Mesh: barFile, Up: tc.up, Units: tc.units, DOFs: 300}}
		sc, err := Build(cfg)
		if err != nil {
			t.Fatalf("up %s, units %s: %v", tc.up, tc.units, err)
		}
		p := sc.Sim.SurfacePositions()
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := 2; i < len(p); i += 3 {
			lo, hi = math.Min(lo, p[i]), math.Max(hi, p[i])
		}
		sc.Close()
		if math.Abs(hi-lo-tc.height) > 1e-7*tc.height { // the surface is kept in single precision
			t.Errorf("up %s, units %s: %g m tall, want %g m", tc.up, tc.units, hi-lo, tc.height)
		}
	}
}
