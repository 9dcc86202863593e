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
