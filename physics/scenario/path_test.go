package scenario

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/settings"
)

// pickPlacePath is the shipped pick-place scene's path
// (assets/scenes/pick-place.toml): down around a 3 cm box, closed 3 mm
// into each side, lifted, carried 4 cm along x while turning a quarter
// turn, set down, let go, and away.
func pickPlacePath() []settings.Waypoint {
	return []settings.Waypoint{
		{Time: 0, Position: [3]float64{0, 0, 0.06}, Opening: 0.05},
		{Time: 0.4, Position: [3]float64{0, 0, 0.018}, Opening: 0.05},
		{Time: 0.9, Position: [3]float64{0, 0, 0.018}, Opening: 0.024},
		{Time: 1.4, Position: [3]float64{0, 0, 0.043}, Opening: 0.024},
		{Time: 2.2, Position: [3]float64{0.04, 0, 0.043}, Yaw: 90, Opening: 0.024},
		{Time: 2.7, Position: [3]float64{0.04, 0, 0.0185}, Yaw: 90, Opening: 0.024},
		{Time: 3.0, Position: [3]float64{0.04, 0, 0.0185}, Yaw: 90, Opening: 0.05},
		{Time: 3.4, Position: [3]float64{0.04, 0, 0.06}, Yaw: 90, Opening: 0.05},
	}
}

// TestPathScriptCommands: the command at a waypoint's time is that
// waypoint, halfway between two it is their mean (smoothstep(½) = ½),
// before the first and after the last the gripper stays; the jaws close
// at the first waypoint of the smallest opening and open again from the
// waypoint before the first wider one; a script started later (delay)
// is the same path shifted; the peak speeds are 1.5 times the fastest
// segment's mean (the descent, the quarter turn, the release).
func TestPathScriptCommands(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Custom)
	cfg.Gripper, cfg.GripperPath = true, pickPlacePath()
	s := newPathScript(cfg)
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("%s = %.15g, want %.15g", what, got, want)
		}
	}
	yawOf := func(c GripperCommand) float64 {
		x := c.Target.Rotate(r3.Vec{X: 1})
		return math.Atan2(x.Y, x.X) * 180 / math.Pi
	}
	check := func(t0, at float64, w settings.Waypoint) {
		t.Helper()
		c := s.at(t0 + at)
		near("x", c.Target.Position.X, w.Position[0])
		near("y", c.Target.Position.Y, w.Position[1])
		near("z", c.Target.Position.Z, w.Position[2])
		near("opening", c.Opening, w.Opening)
		near("yaw", yawOf(c), w.Yaw)
	}
	p := cfg.GripperPath
	for _, t0 := range []float64{0, 1.25} {
		for _, w := range p {
			check(t0, w.Time, w)
		}
		check(t0, -1, p[0])
		check(t0, 10, p[len(p)-1])
		mid := settings.Waypoint{Position: [3]float64{0.02, 0, 0.043}, Yaw: 45, Opening: 0.024}
		check(t0, 1.8, mid)
		near("closedAt", s.closedAt(), t0+0.9)
		near("releasedAt", s.releasedAt(), t0+2.7)
		near("duration", s.duration(), t0+3.4)
		s.delay(1.25)
	}
	if v, w, o := newPathScript(cfg).pathSpeeds(); math.Abs(v-1.5*0.042/0.4) > 1e-12 || math.Abs(w-1.5*(math.Pi/2)/0.8) > 1e-12 || math.Abs(o-1.5*0.026/0.3) > 1e-12 {
		t.Fatalf("peak speeds %g m/s, %g rad/s, %g m/s", v, w, o)
	}
}

// TestScriptedPathPicksAndPlaces runs the pick-place path on a 3 cm soft
// box of 300 DOFs: the box is held from the lift to the set-down with
// less than 2 mm of slip, and ends on the floor 4 cm along x, turned a
// quarter turn, at rest.
func TestScriptedPathPicksAndPlaces(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Custom)
	cfg.Gripper, cfg.GripperPath, cfg.JawStyle = true, pickPlacePath(), 0
	cfg.Soft = []settings.SoftSpec{{Shape: settings.BoxShape, Size: [3]float64{0.03, 0.03, 0.03}, DOFs: 300}}
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	start := sc.CentreOfMass()
	arm := func() r3.Vec { // node 0 from the centre of mass, in the floor's plane
		q := sc.Sim.Positions()
		d := r3.Sub(r3.Vec{X: q[0], Y: q[1], Z: q[2]}, sc.CentreOfMass())
		d.Z = 0
		return d
	}
	arm0 := arm()
	heldSteps, carry := 0, 0
	for i, n := 0, sc.DefaultSteps(); i < n; i++ {
		if _, err := sc.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if tm := sc.Sim.Time(); tm > 1.45 && tm < 2.6 {
			carry++
			if sc.Live().Held {
				heldSteps++
			}
		}
	}
	s := sc.Summary()
	end, arm1 := sc.CentreOfMass(), arm()
	turn := math.Atan2(r3.Cross(arm0, arm1).Z, r3.Dot(arm0, arm1)) * 180 / math.Pi
	q := sc.Sim.Positions()
	bottom, speed := math.Inf(1), 0.0
	for i := 2; i < len(q); i += 3 {
		bottom = math.Min(bottom, q[i])
	}
	v := sc.Sim.Velocities()
	for i := 0; i < len(v); i += 3 {
		speed = math.Max(speed, math.Sqrt(v[i]*v[i]+v[i+1]*v[i+1]+v[i+2]*v[i+2]))
	}
	t.Logf("held %d of %d carrying steps, slip %.3f mm (max %.3f), grip %.2f N; moved %.2f mm along x, %.2f along y; turned %.1f°; bottom at %.3f mm; speed %.3g m/s; max penetration %.3f mm",
		heldSteps, carry, 1e3*s.Slip, 1e3*s.MaxSlip, s.GripForceMean, 1e3*(end.X-start.X), 1e3*(end.Y-start.Y), turn, 1e3*bottom, speed, 1e3*s.MaxPenetration)
	if heldSteps != carry || s.MaxSlip > 2e-3 || s.GripForceMean <= 0 {
		t.Fatalf("not held while carried: %d of %d steps, slip %.3f mm", heldSteps, carry, 1e3*s.MaxSlip)
	}
	if math.Abs(end.X-start.X-0.04) > 3e-3 || math.Abs(end.Y-start.Y) > 3e-3 || math.Abs(turn-90) > 5 {
		t.Fatalf("placed %.2f mm along x, %.2f along y, turned %.1f°: want 40, 0 and 90", 1e3*(end.X-start.X), 1e3*(end.Y-start.Y), turn)
	}
	if bottom < -0.1e-3 || bottom > 1e-3 || s.MaxPenetration > 0.1e-3 || speed > 5e-3 {
		t.Fatalf("bottom at %.3f mm, max penetration %.3f mm, nodes at up to %.3g m/s: not set down on the floor at rest", 1e3*bottom, 1e3*s.MaxPenetration, speed)
	}
}
