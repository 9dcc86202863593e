package frame

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// TestCommandsValidateThemselves checks each command's bounds, written
// once here for both the panels and the loop: values inside pass, values
// outside (NaN, infinities, out of range) fail with a message naming what
// is wrong.
func TestCommandsValidateThemselves(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	badSettings := settings.Default()
	badSettings.Friction = -1
	badScene := settings.DefaultScenario(settings.Drop)
	badScene.TargetDOFs = 3
	target := rigid.Translation(r3.Vec{Z: 0.03})
	tests := []struct {
		name string
		c    Command
		want string // "" when valid, else a part of the message
	}{
		{"settings", SetSettings{Settings: settings.Default()}, ""},
		{"bad settings", SetSettings{Settings: badSettings}, "Friction"},
		{"scene", SetScene{Config: settings.DefaultScenario(settings.Incline)}, ""},
		{"bad scene", SetScene{Config: badScene}, "TargetDOFs"},
		{"pace", SetPace{RealtimeFactor: 0.25}, ""},
		{"as fast as possible", SetPace{}, ""},
		{"pace too high", SetPace{RealtimeFactor: MaxPace + 1}, "real-time factor"},
		{"NaN pace", SetPace{RealtimeFactor: nan}, "real-time factor"},
		{"move", MoveGripper{Delta: r3.Vec{X: 0.01}}, ""},
		{"infinite move", MoveGripper{Delta: r3.Vec{Y: inf}}, "not finite"},
		{"spin", SpinGripper{Angle: 0.2}, ""},
		{"NaN spin", SpinGripper{Angle: nan}, "not finite"},
		{"target", SetGripperTarget{Target: target, Opening: 0.05}, ""},
		{"target opening too wide", SetGripperTarget{Target: target, Opening: MaxOpening * 1.01}, "opening"},
		{"NaN target", SetGripperTarget{Target: rigid.Translation(r3.Vec{X: nan}), Opening: 0.05}, "invalid"},
		{"opening", SetOpening{Opening: MaxOpening}, ""},
		{"negative opening", SetOpening{Opening: -1e-3}, "opening"},
		{"omega", SetOmega{Omega: -settings.MaxOmega}, ""},
		{"omega too fast", SetOmega{Omega: 2 * settings.MaxOmega}, "Omega"},
		{"cpu backend", SetBackend{Backend: BackendCPU}, ""},
		{"gpu backend", SetBackend{Backend: BackendGPU}, ""},
		{"no backend", SetBackend{}, "backend"},
		{"unknown backend", SetBackend{Backend: "cuda"}, "want cpu or gpu"},
		{"backend in capitals", SetBackend{Backend: "GPU"}, "not known"},
		{"A/B", SetAB{Enabled: true, Changes: "newton=1"}, ""},
		{"A/B two changes", SetAB{Enabled: true, Changes: "scheme=standard, pgs=60"}, ""},
		{"A/B off ignores the changes", SetAB{Changes: "nonsense"}, ""},
		{"A/B unknown key", SetAB{Enabled: true, Changes: "dt=0.02"}, "unknown key"},
		{"A/B not key=value", SetAB{Enabled: true, Changes: "newton"}, "key=value"},
		{"A/B K out of range", SetAB{Enabled: true, Changes: "newton=0"}, "NewtonIterations"},
		{"reset", Reset{}, ""},
		{"jaws", ToggleJaws{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("valid %T rejected: %v", tc.c, err)
			case tc.want != "" && err == nil:
				t.Fatalf("invalid %#v accepted", tc.c)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}
