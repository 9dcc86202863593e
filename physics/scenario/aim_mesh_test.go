package scenario

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/mesh/meshtest"
	"softgrasp/physics/settings"
)

// barFile is an elongated box modelled with +y up, 24 × 40 × 16 units,
// turned 30° about its long axis (testdata/gen_bar.go): upright, its
// narrow side faces the heading −60° (or 120°).
const barFile = "testdata/bar_yup.obj"

// needTetGen skips a test of a surface file when the tetgen program that
// fills it is missing, except under make test, which installs it and sets
// SOFTGRASP_REQUIRE_TETGEN.
func needTetGen(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tetgen"); err != nil {
		if os.Getenv("SOFTGRASP_REQUIRE_TETGEN") != "" {
			t.Fatal("tetgen is not on PATH, and make test requires it (make deps installs it)")
		}
		t.Skip("tetgen is not on PATH: install it (apt-get install tetgen, or make deps) to run the tests of surface files")
	}
}

// TestMeshUpStandsAYUpFileUpright loads the Y-up bar three ways: taken as
// it is (+z up) it lies on its long side, turned (+y up) it stands on its
// end, 40 mm tall (the largest extent, fitted to the object size), and so
// it does with the automatic up axis, on which it stands level (its end
// face is exactly perpendicular to its y) where its z side leans 30°.
func TestMeshUpStandsAYUpFileUpright(t *testing.T) {
	for _, mesher := range []settings.Mesher{settings.GridMesher, settings.TetGenMesher} {
		if mesher == settings.TetGenMesher {
			needTetGen(t)
		}
		for _, tc := range []struct {
			up     settings.UpAxis
			height float64 // m
		}{
			{settings.ZUp, 12e-3 + 16e-3*math.Cos(math.Pi/6)}, // 24 sin 30° + 16 cos 30°
			{settings.YUp, 40e-3},
			{settings.AutoUp, 40e-3},
		} {
			cfg := settings.DefaultScenario(settings.GraspRotate)
			cfg.MeshFile, cfg.MeshUp, cfg.Mesher = barFile, tc.up, mesher
			obj, info, err := loadObjectMesh(cfg, 600)
			if err != nil {
				t.Fatal(err)
			}
			b := mesh.BoundsOf(obj.surface())
			if h := b.Max.Z - b.Min.Z; math.Abs(h-tc.height) > 1e-6 || math.Abs(b.Min.Z) > 1e-12 {
				t.Errorf("%v mesher, %v up: from z = %g, %g m tall, want from 0, %g m tall", mesher, tc.up, b.Min.Z, h, tc.height)
			}
			if math.Abs(info.scale-1e-3) > 1e-12 {
				t.Errorf("%v mesher, %v up: fitted by ×%g, want ×0.001 (40 units to 40 mm)", mesher, tc.up, info.scale)
			}
		}
	}
}

// TestScriptGraspsAnUprightBar runs the grasp-and-rotate script on the
// upright bar: the jaws are aimed through its middle across its narrow
// side (16 mm, heading −60° or 120°), and it is held with a grip force
// above zero through the whole spin.
func TestScriptGraspsAnUprightBar(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole script")
	}
	needTetGen(t)
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.MeshFile, cfg.MeshUp, cfg.TargetDOFs = barFile, settings.YUp, 600
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	s := sc.script
	if math.Hypot(s.base.X, s.base.Y) > 1e-9 || math.Abs(s.zGrasp-0.02) > 1e-9 {
		t.Errorf("grasp centre (%g, %g, %g), want the bar's middle (0, 0, 0.02)", s.base.X, s.base.Y, s.zGrasp)
	}
	if d := math.Remainder(s.yaw0+math.Pi/3, math.Pi); math.Abs(d) > 1e-3 {
		t.Errorf("closing axis heading %g°, want −60° or 120° (across the narrow side)", s.yaw0*180/math.Pi)
	}
	if math.Abs(sc.width-0.016) > 1e-6 {
		t.Errorf("width across the jaws %g, want 0.016", sc.width)
	}
	spun := 0
	for sc.Sim.Time() < sc.Duration()-1e-9 {
		if _, err := sc.Step(); err != nil {
			t.Fatalf("t = %g s: %v", sc.Sim.Time(), err)
		}
		if l := sc.Live(); l.Phase == PhaseSpin {
			spun++
			if !l.Held || !(l.GripForce > 0) {
				t.Fatalf("t = %g s, spinning: held %v, grip force %g N", sc.Sim.Time(), l.Held, l.GripForce)
			}
		}
	}
	sum := sc.Summary()
	t.Logf("%d DOFs: held %v, grip %.2f N mean, slip %.2f mm (max %.2f mm)", sum.DOFs, sum.Held, sum.GripForceMean, 1e3*sum.Slip, 1e3*sum.MaxSlip)
	if spun == 0 || !sum.Held || !(sum.GripForceMean > 0) || sum.MaxSlip > 2e-3 {
		t.Errorf("%d spinning steps; held %v, grip %g N, max slip %g m; want a spin, held, a grip, under 2 mm", spun, sum.Held, sum.GripForceMean, sum.MaxSlip)
	}
}

// TestScriptAimsAtALongBox builds the grasp-and-rotate scene around a long
// box from a volume mesh file (60 × 20 × 20 mm, long along x): the script
// closes the jaws across its 20 mm side, through its middle, opening them
// 16 mm wider than that side (approachGap each side); run again ("Grasp and rotate") with the
// gripper heading 80°, it aims across the same side from +90°, the least
// turn, rather than from −90°.
func TestScriptAimsAtALongBox(t *testing.T) {
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.MeshFile, cfg.MeshScale, cfg.TargetDOFs = writeBoxFile(t, r3.Vec{X: 60, Y: 20, Z: 20}), 0.001, 300
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	check := func(when string, yaw float64) {
		t.Helper()
		s := sc.script
		if math.Abs(math.Remainder(s.yaw0-yaw, 2*math.Pi)) > 1e-9 {
			t.Errorf("%s: closing axis heading %g°, want %g°", when, s.yaw0*180/math.Pi, yaw*180/math.Pi)
		}
		if math.Hypot(s.base.X, s.base.Y) > 1e-9 || math.Abs(s.zGrasp-GraspFloor(sc.Driver.Gripper.JawHeight)) > 1e-12 {
			t.Errorf("%s: grasp centre (%g, %g, %g), want the middle, as low as the jaws go", when, s.base.X, s.base.Y, s.zGrasp)
		}
		if open, closed := sc.Openings(); math.Abs(sc.width-0.02) > 1e-9 || math.Abs(open-0.036) > 1e-9 || closed != MinOpening {
			t.Errorf("%s: width %g, openings %g, %g; want 0.02, 0.036, %g (the grip closes by force, to no less)", when, sc.width, open, closed, MinOpening)
		}
	}
	if a := math.Abs(sc.script.yaw0); math.Abs(a-math.Pi/2) > 1e-9 {
		t.Errorf("built: closing axis heading %g°, want ±90°", sc.script.yaw0*180/math.Pi)
	}
	check("built", sc.script.yaw0)
	sc.Driver.Gripper.Pose.Rotation = spinAbout(80 * math.Pi / 180)
	sc.SetScripted(true)
	check("run again", math.Pi/2)
}

// holesFile is a 320-triangle ball with holes: put down as the file has it
// (+z up: the automatic up axis would turn it onto a facet it rests on)
// it rolls about 10 mm before the jaws arrive.
const holesFile = "../meshfile/testdata/holes.stl"

// TestScriptFollowsARollingBall grasps the ball with holes, which rolls
// away from where the script first aimed: aimed once, the jaws close
// where it was (and catch it only where it rolled no further than they
// reach); following it (the default), the grasp is aimed again where it
// came to rest, the script waits for it, and it is held with a grip force
// above zero through the whole spin.
func TestScriptFollowsARollingBall(t *testing.T) {
	for _, aim := range []settings.GraspAim{settings.AimOnce, settings.AimFollow} {
		cfg := settings.DefaultScenario(settings.GraspRotate)
		cfg.MeshFile, cfg.MeshUp, cfg.TargetDOFs, cfg.GraspAim = holesFile, settings.ZUp, 600, aim
		sc, err := Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		first, scripted := sc.script.base, sc.DefaultSteps()
		gripped := true
		for i := 0; i < sc.DefaultSteps(); i++ {
			if _, err := sc.Step(); err != nil {
				t.Fatalf("%v: t = %g s: %v", aim, sc.Sim.Time(), err)
			}
			if l := sc.Live(); l.Phase == PhaseSpin && (!l.Held || !(l.GripForce > 0)) {
				gripped = false
			}
		}
		s, sum := sc.script, sc.Summary()
		moved := math.Hypot(s.base.X-first.X, s.base.Y-first.Y)
		t.Logf("%v: aim moved %.2f mm, waited %.2f s (%d steps, scripted %d); held %v, grip %.2f N, slip %.2f mm",
			aim, 1e3*moved, s.waited, sc.DefaultSteps(), scripted, sum.Held, sum.GripForceMean, 1e3*sum.Slip)
		sc.Close()
		switch aim {
		case settings.AimOnce:
			if moved != 0 || s.waited != 0 {
				t.Errorf("once: aim moved %g m, waited %g s; want the first aim, no wait", moved, s.waited)
			}
		case settings.AimFollow:
			if moved < 5e-3 || !(s.waited > 0) || s.waited > maxWait || sc.DefaultSteps() <= scripted {
				t.Errorf("follow: aim moved %g m, waited %g s, %d steps against %d; want the aim moved by the roll (> 5 mm) and a wait within %g s", moved, s.waited, sc.DefaultSteps(), scripted, maxWait)
			}
			if !gripped || !sum.Held || sum.MaxSlip > 2e-3 {
				t.Errorf("follow: held %v through the spin %v, max slip %g m; want held, under 2 mm", sum.Held, gripped, sum.MaxSlip)
			}
		}
	}
}

// TestScriptKeepsItsTimelineOnAStillObject runs the default scene (the
// procedural box, which only sags) to the lift: following it never aims
// again nor waits for it, so the aim and the start of the close are the
// first aim's; only the close lasts as long as the grip takes to settle.
func TestScriptKeepsItsTimelineOnAStillObject(t *testing.T) {
	sc := smallGrasp(t)
	defer sc.Close()
	first := *sc.script
	for sc.Sim.Time() < sc.script.closedAt() {
		if _, err := sc.Step(); err != nil {
			t.Fatal(err)
		}
	}
	s := sc.script
	if s.waited != 0 || s.base != first.base || s.yaw0 != first.yaw0 || s.zGrasp != first.zGrasp ||
		s.timeOf(PhaseClose, true) != first.timeOf(PhaseClose, true) || !s.gripped {
		t.Errorf("waited %g s, centre %v heading %g height %g, close from %g s, gripped %v; want the first aim %v, %g, %g, from %g s, gripped",
			s.waited, s.base, s.yaw0, s.zGrasp, s.timeOf(PhaseClose, true), s.gripped, first.base, first.yaw0, first.zGrasp, first.timeOf(PhaseClose, true))
	}
}

// writeLongBody writes, as OBJ, the Y-up long body of docs/meshes.md at a coarser
// level: an icosphere subdivided level times, bumped and stretched as
// physics/embed/testdata/blobs does, then stretched along +y.
func writeLongBody(t *testing.T, level int) string {
	t.Helper()
	s := meshtest.Icosphere(level)
	var b strings.Builder
	for _, p := range s.Nodes {
		r := 1 + 0.15*math.Sin(5*p.X)*math.Sin(4*p.Y)*math.Sin(3*p.Z+1)
		fmt.Fprintf(&b, "v %.9g %.9g %.9g\n", 0.6*0.7*r*p.X, 2.2*r*p.Y, 0.6*1.3*r*p.Z)
	}
	for _, f := range s.Tris {
		fmt.Fprintf(&b, "f %d %d %d\n", f[0]+1, f[1]+1, f[2]+1)
	}
	path := filepath.Join(t.TempDir(), "long_yup.obj")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestScriptFollowsATippingBody stands the long body on its rounded end
// (-mesh-up y): it tips over by itself before the jaws arrive and lands
// on its side. Aimed once, the jaws close where it stood; following, the
// script waits for it to come to rest, aims across its side and holds it
// through the spin; the fine surface never sinks more than 0.1 mm into
// the floor as it lands (the contact budget's node pass).
func TestScriptFollowsATippingBody(t *testing.T) {
	path := writeLongBody(t, 3)
	for _, aim := range []settings.GraspAim{settings.AimOnce, settings.AimFollow} {
		cfg := settings.DefaultScenario(settings.GraspRotate)
		cfg.MeshFile, cfg.MeshUp, cfg.TargetDOFs, cfg.GraspAim = path, settings.YUp, 600, aim
		sc, err := Build(cfg)
		if err != nil {
			t.Fatal(err)
		}
		top, first := boxOf(sc.Sim.SurfacePositions()).Max.Z, sc.script.base
		pen := 0.0
		for i := 0; i < sc.DefaultSteps(); i++ {
			st, err := sc.Step()
			if err != nil {
				t.Fatalf("%v: t = %g s: %v", aim, sc.Sim.Time(), err)
			}
			pen = math.Max(pen, st.Penetration)
		}
		s, sum := sc.script, sc.Summary()
		moved := math.Hypot(s.base.X-first.X, s.base.Y-first.Y)
		t.Logf("%v: %d steps, aim moved %.2f mm, waited %.2f s; held %v, grip %.2f N, max slip %.2f mm, penetration %.3f mm",
			aim, sc.DefaultSteps(), 1e3*moved, s.waited, sum.Held, sum.GripForceMean, 1e3*sum.MaxSlip, 1e3*pen)
		sc.Close()
		if top < 0.039 {
			t.Fatalf("the body stands %g m tall at the start, want 40 mm", top)
		}
		switch aim {
		case settings.AimOnce:
			if sum.Held {
				t.Errorf("once: held; want the jaws to miss the body that fell")
			}
		case settings.AimFollow:
			if moved < 5e-3 || !(s.waited > 0) || !sum.Held || !(sum.GripForceMean > 0) || sum.MaxSlip > 2e-3 {
				t.Errorf("follow: aim moved %g m, waited %g s, held %v, grip %g N, max slip %g m; want re-aimed (> 5 mm) after a wait, held, under 2 mm", moved, s.waited, sum.Held, sum.GripForceMean, sum.MaxSlip)
			}
			if pen > 0.1e-3 {
				t.Errorf("follow: the fine surface sank %.3g mm", 1e3*pen)
			}
		}
	}
}
