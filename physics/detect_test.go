package physics

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// TestStepAlarm checks the alarm distance against the relative motion it
// predicts: a soft box (2 cm, centred at the origin) and a rigid box whose
// near face starts gap away from the soft box's +x face, moving by d along
// −x over the step, with the soft body at rest or moving along with it.
func TestStepAlarm(t *testing.T) {
	soft, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 3, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	shape, err := rigid.NewBox(r3.Vec{X: 0.01, Y: 0.01, Z: 0.01}, 0.005)
	if err != nil {
		t.Fatal(err)
	}
	set := settings.Default()
	set.Gravity = r3.Vec{}
	base := set.AlarmDistance
	const h = 0.01
	for _, tc := range []struct {
		name   string
		gap, d float64 // m
		softVX float64 // soft body's velocity along x, m/s
		want   float64
	}{
		{"at rest", 2e-3, 0, 0, base},
		{"approaching within reach", 5e-3, 10e-3, 0, alarmMargin * 10e-3},
		{"approaching from beyond reach", 40e-3, 10e-3, 0, base},
		{"moving together", 5e-3, 10e-3, -10e-3 / h, base},
		{"soft body running into it", 5e-3, 0, 8e-3 / h, alarmMargin * 8e-3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := rigid.Translation(r3.Vec{X: 0.01 + tc.gap + 0.01})
			end := rigid.Translation(r3.Vec{X: 0.01 + tc.gap + 0.01 - tc.d})
			s, err := New(soft, []rigid.Body{{Name: "box", Shape: shape, Start: start, End: end}}, set)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			v := make([]float64, len(s.Velocities()))
			for i := 0; i < len(v); i += 3 {
				v[i] = tc.softVX
			}
			if err := s.SetState(s.Positions(), v); err != nil {
				t.Fatal(err)
			}
			s.set.TimeStep = h
			if got := s.stepper().stepAlarm(s.Positions()); math.Abs(got-tc.want) > 1e-12 {
				t.Fatalf("alarm %.6g m, want %.6g m", got, tc.want)
			}
		})
	}
}

// TestAlarmFallMargin checks AlarmFallMargin at h = 20 ms, where gravity's
// one-step fall is 3.92 mm: a box at rest on the floor widens the alarm to
// 1.5 × 3.92 mm at the default margin and leaves it at the 4 mm base with
// margin 1 (the fall as it is); a box at rest beside a wall (a box body
// whose face is vertical), where gravity slides its side along the wall,
// widens it at the default and not with margin 1; a box falling at 0.5 m/s
// onto the floor gets 1.5 × its 10 mm move plus 1 × the fall with margin
// 1 (1.5 × both at the default).
func TestAlarmFallMargin(t *testing.T) {
	soft, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 3, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	wall, err := rigid.NewBox(r3.Vec{X: 0.01, Y: 0.05, Z: 0.05}, 0.005)
	if err != nil {
		t.Fatal(err)
	}
	const h, g = 0.02, 9.81
	fall := h * h * g
	floor := rigid.Body{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()}
	beside := rigid.Translation(r3.Vec{X: 0.01 + 1e-3 + 0.01, Z: 0.01})
	side := rigid.Body{Name: "wall", Shape: wall, Start: beside, End: beside}
	for _, tc := range []struct {
		name   string
		body   rigid.Body
		lift   float64 // the soft box's bottom above z = 0, m
		vz     float64 // its velocity, m/s
		margin float64
		want   float64
	}{
		{"resting on the floor, default", floor, 0, 0, 1.5, 1.5 * fall},
		{"resting on the floor, margin 1", floor, 0, 0, 1, 4e-3},
		{"beside a wall, default", side, 0.001, 0, 1.5, 1.5 * fall},
		{"beside a wall, margin 1", side, 0.001, 0, 1, 4e-3},
		{"falling onto the floor, default", floor, 0.005, -0.5, 1.5, 1.5 * (0.5*h + fall)},
		{"falling onto the floor, margin 1", floor, 0.005, -0.5, 1, 1.5*0.5*h + fall},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := settings.Default()
			set.TimeStep, set.Gravity, set.AlarmFallMargin = h, r3.Vec{Z: -g}, tc.margin
			s, err := New(soft, []rigid.Body{tc.body}, set)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			placeBottom(t, s, tc.lift, tc.vz)
			if got := s.stepper().stepAlarm(s.Positions()); math.Abs(got-tc.want) > 1e-12 {
				t.Fatalf("alarm %.6g m, want %.6g m", got, tc.want)
			}
		})
	}
}

// TestAlarmFallLastStep checks Settings.AlarmFall at h = 33 ms, where
// gravity's one-step fall is 10.7 mm: a box resting on the floor whose
// last step changed no velocity keeps the 4 mm base (a tenth of the fall,
// 1.5 × 1.07 mm, is below it) where gravity's fall widens the alarm to
// 16 mm; one whose last step was a step of free fall (Δv = h·g) and that
// falls at 0.5 m/s gets 1.5 × (its move and one fall: the 1.1 falls of
// fallAt, capped at gravity's by capFall); one whose last step slowed its
// fall gets less than that; before any step the alarm counts gravity's
// whole fall; with margin 1, the fall of the last step counts as it is.
func TestAlarmFallLastStep(t *testing.T) {
	soft, err := mesh.Box(r3.Vec{X: 0.02, Y: 0.02, Z: 0.02}, 3, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	const h, g = 0.033, 9.81
	fall := h * h * g
	floor := rigid.Body{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()}
	for _, tc := range []struct {
		name    string
		lift    float64 // the soft box's bottom above z = 0, m
		vz, dvz float64 // its velocity and last velocity change, m/s
		step    bool    // whether it has a last step
		margin  float64
		want    float64
	}{
		{"resting", 0, 0, 0, true, 1.5, 4e-3},
		{"resting, before any step", 0, 0, 0, false, 1.5, 1.5 * fall},
		{"falling", 0.005, -0.5, -h * g, true, 1.5, 1.5 * (0.5*h + fall)},
		{"falling, margin 1", 0.005, -0.5, -h * g, true, 1, 1.5*0.5*h + fall},
		{"slowing", 0.005, -0.5, -0.5 * h * g, true, 1.5, 1.5 * (0.5*h + 0.6*fall)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := settings.Default()
			set.TimeStep, set.Gravity, set.AlarmFallMargin = h, r3.Vec{Z: -g}, tc.margin
			set.AlarmFall = settings.FallLastStep
			s, err := New(soft, []rigid.Body{floor}, set)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			placeBottom(t, s, tc.lift, tc.vz)
			if tc.step {
				s.state.dvLast = make([]float64, len(s.Velocities()))
				for i := 2; i < len(s.state.dvLast); i += 3 {
					s.state.dvLast[i] = tc.dvz
				}
			}
			if got := s.stepper().stepAlarm(s.Positions()); math.Abs(got-tc.want) > 1e-12 {
				t.Fatalf("alarm %.6g m, want %.6g m", got, tc.want)
			}
		})
	}
}

// placeBottom lifts s's soft body so that its lowest node is at height
// lift and gives every node the vertical velocity vz.
func placeBottom(t *testing.T, s *Simulation, lift, vz float64) {
	t.Helper()
	q, v := s.Positions(), make([]float64, len(s.Velocities()))
	lo := math.Inf(1)
	for i := 2; i < len(q); i += 3 {
		lo = math.Min(lo, q[i])
	}
	for i := 2; i < len(q); i += 3 {
		q[i] += lift - lo
		v[i] = vz
	}
	if err := s.SetState(q, v); err != nil {
		t.Fatal(err)
	}
}
