package record

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// written returns a recording of a few commands, a checkpoint and a
// footer, as the Writer writes it.
func written(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b)
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.Physics.Solver = settings.AsyncSolver
	w.Begin(DeterministicConfig(cfg))
	set := settings.Default()
	set.Friction = 0.3
	w.Command(0, frame.MoveGripper{Delta: r3.Vec{X: 0.1, Y: 1.0 / 3, Z: -2e-17}}, nil)
	w.Command(0, frame.Pause{Paused: true}, nil) // changes no state: skipped
	w.Command(3, frame.SetSettings{Settings: set}, nil)
	w.Command(3, frame.SetOpening{Opening: -1}, nil) // invalid: skipped
	w.Command(5, frame.ToggleJaws{}, nil)
	w.Command(6, frame.RunScript{Aim: settings.AimFollow}, nil)
	w.Command(6, frame.RunScript{}, nil)
	w.Command(7, frame.SetScene{Config: cfg}, fmt.Errorf("no mesh"))
	for s := 1; s <= CheckpointEvery; s++ {
		w.Step(s, func() uint64 { return 0xfeedbeef })
	}
	w.End(CheckpointEvery+2, 0x0123456789abcdef, nil)
	w.Step(2*CheckpointEvery, func() uint64 { return 1 }) // after the footer: ignored
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWrittenRecordingReadsBack(t *testing.T) {
	text := written(t)
	rec, err := Read(strings.NewReader(text), "rec")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if rec.Config.Physics.AsyncLag != AsyncLag {
		t.Errorf("recorded async lag %d, want the fixed %d", rec.Config.Physics.AsyncLag, AsyncLag)
	}
	want := []struct {
		step     int
		name     string
		rejected bool
	}{{0, "move-gripper", false}, {3, "set-settings", false}, {5, "toggle-jaws", false},
		{6, "run-script", false}, {6, "run-script", false}, {7, "set-scene", true}}
	if len(rec.Commands) != len(want) {
		t.Fatalf("%d commands read, want %d:\n%s", len(rec.Commands), len(want), text)
	}
	for i, w := range want {
		e := rec.Commands[i]
		if e.Step != w.step || CommandName(e.Command) != w.name || (e.Rejected != "") != w.rejected {
			t.Errorf("command %d: step %d %s rejected %q, want step %d %s rejected %v", i, e.Step, CommandName(e.Command), e.Rejected, w.step, w.name, w.rejected)
		}
	}
	if m := rec.Commands[0].Command.(frame.MoveGripper); m.Delta != (r3.Vec{X: 0.1, Y: 1.0 / 3, Z: -2e-17}) {
		t.Errorf("move %v does not read back to the bit", m.Delta)
	}
	if s := rec.Commands[1].Command.(frame.SetSettings); s.Settings.Friction != 0.3 {
		t.Errorf("settings read back with friction %g, want 0.3", s.Settings.Friction)
	}
	// The script's aim reads back; a run-script line without arguments (as
	// recorded before the command had a field) aims once.
	if a, b := rec.Commands[3].Command.(frame.RunScript), rec.Commands[4].Command.(frame.RunScript); a.Aim != settings.AimFollow || b.Aim != settings.AimOnce {
		t.Errorf("run-script aims %v and %v read back, want follow and once", a.Aim, b.Aim)
	}
	if len(rec.Checkpoints) != 1 || rec.Checkpoints[0].Step != CheckpointEvery || rec.Checkpoints[0].Checksum != 0xfeedbeef {
		t.Errorf("checkpoints %+v, want one at step %d", rec.Checkpoints, CheckpointEvery)
	}
	if sum, ok := rec.EndChecksum(); !ok || sum != 0x0123456789abcdef || rec.Steps() != CheckpointEvery+2 {
		t.Errorf("footer %+v, want %d steps and checksum 0123456789abcdef", rec.End, CheckpointEvery+2)
	}
	if len(rec.Notes) != 0 {
		t.Errorf("notes %q on a whole recording", rec.Notes)
	}
}

// TestBadRecordingsAreRefused: each bad input gives one message naming
// the line and the reason, never a panic.
func TestBadRecordingsAreRefused(t *testing.T) {
	text := written(t)
	lines := strings.SplitAfter(text, "\n")
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "empty file"},
		{"not a recording", "hello\n", "rec:1: not a softgrasp recording"},
		{"newer version", strings.Replace(text, "softgrasp-record 1", "softgrasp-record 2", 1), "rec:1: format version 2 is newer"},
		{"older version", strings.Replace(text, "softgrasp-record 1", "softgrasp-record 0", 1), "rec:1: format version 0 is older"},
		{"version not a number", strings.Replace(text, "softgrasp-record 1", "softgrasp-record x", 1), "rec:1: format version \"x\""},
		{"header only", lines[0], "cut short after the header"},
		{"corrupted line", strings.Replace(text, `"command":"toggle-jaws"`, `"command":"toggle-jaws"}{`, 1), "rec:5: not a record line"},
		{"garbage line", lines[0] + lines[1] + "\x00\x01\x02\n" + strings.Join(lines[2:], ""), "rec:3: not a record line"},
		{"unknown command", strings.Replace(text, "toggle-jaws", "fly", 1), `rec:5: unknown command "fly"`},
		{"unknown field", strings.Replace(text, `"Delta"`, `"Delt"`, 1), "unknown field"},
		{"invalid value", strings.Replace(text, `"Friction":0.3`, `"Friction":-3`, 1), "rec:4: command set-settings: Friction"},
		{"steps backwards", lines[0] + lines[1] + lines[3] + lines[2], "rec:4: step 0 after step 3"},
		{"no configuration", lines[0] + lines[2], "rec:2: the configuration must come first"},
		{"line after footer", text + lines[2], "a line after the footer"},
		{"bad checksum", strings.Replace(text, "0123456789abcdef", "0123", 1), "footer: checksum"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.text), "rec")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("message %q is more than one line", err)
			}
		})
	}
}

// TestTruncatedRecordingIsAcceptedWithANote: a recording cut short keeps
// every whole line before the cut, replays to the last step it reached
// and says so.
func TestTruncatedRecordingIsAcceptedWithANote(t *testing.T) {
	text := written(t)
	cut := strings.LastIndex(text, `{"end"`)
	tests := []struct {
		name  string
		text  string
		steps int
		notes []string
	}{
		{"without footer", text[:cut], CheckpointEvery, []string{"no footer"}},
		{"last line cut off", text[:cut+10], CheckpointEvery, []string{"line 10 was cut off", "no footer"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := Read(strings.NewReader(tc.text), "rec")
			if err != nil {
				t.Fatal(err)
			}
			if rec.End != nil || rec.Steps() != tc.steps || len(rec.Commands) != 6 {
				t.Fatalf("footer %v, %d steps, %d commands; want none, %d, 6", rec.End, rec.Steps(), len(rec.Commands), tc.steps)
			}
			if len(rec.Notes) != len(tc.notes) {
				t.Fatalf("notes %q, want %d", rec.Notes, len(tc.notes))
			}
			for i, n := range tc.notes {
				if !strings.Contains(rec.Notes[i], n) {
					t.Errorf("note %q, want %q", rec.Notes[i], n)
				}
			}
		})
	}
}

// TestCheckpointDoesNotAllocate: the per-step call of the recording
// allocates nothing, checkpoint or not.
func TestCheckpointDoesNotAllocate(t *testing.T) {
	w := NewWriter(&discard{})
	sum := func() uint64 { return 42 }
	s := 0
	allocs := testing.AllocsPerRun(3*CheckpointEvery, func() {
		s++
		w.Step(s, sum)
	})
	if allocs != 0 {
		t.Fatalf("%g allocations per step", allocs)
	}
}

type discard struct{}

func (*discard) Write(b []byte) (int, error) { return len(b), nil }

// TestDampingRoundTrips: the Rayleigh damping of the configuration and of
// a settings command reads back to the bit, with the rest of the
// configuration.
func TestDampingRoundTrips(t *testing.T) {
	cfg := settings.DefaultScenario(settings.Drop)
	cfg.Physics.Material.MassDamping, cfg.Physics.Material.StiffnessDamping = 1.0/3, 2e-3/3
	set := cfg.Physics
	set.Material.MassDamping, set.Material.StiffnessDamping = 0.7, 1.0/7
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Begin(cfg)
	w.Command(2, frame.SetSettings{Settings: set}, nil)
	w.End(4, 1, nil)
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	rec, err := Read(strings.NewReader(b.String()), "rec")
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Config.Equal(cfg) {
		t.Fatalf("configuration read back as %+v, want %+v", rec.Config.Physics.Material, cfg.Physics.Material)
	}
	if len(rec.Commands) != 1 {
		t.Fatalf("%d commands read back, want 1", len(rec.Commands))
	}
	if got := rec.Commands[0].Command.(frame.SetSettings).Settings; got != set {
		t.Fatalf("settings read back with material %+v, want %+v", got.Material, set.Material)
	}
}

// TestRecordingWithoutAddedSettings reads a recording written before
// AlarmFallMargin existed (the key taken out of its configuration and of
// its set-settings and set-scene commands): the field reads back as 1.5,
// the alarm of those builds, instead of a zero the settings refuse.
func TestRecordingWithoutAddedSettings(t *testing.T) {
	text := written(t)
	old := strings.ReplaceAll(text, `"AlarmFallMargin":1.5,`, "")
	if old == text {
		t.Fatalf("no AlarmFallMargin key in the recording:\n%s", text)
	}
	rec, err := Read(strings.NewReader(old), "rec")
	if err != nil {
		t.Fatalf("%v\n%s", err, old)
	}
	if m := rec.Config.Physics.AlarmFallMargin; m != 1.5 {
		t.Errorf("configuration's AlarmFallMargin %g, want 1.5", m)
	}
	if m := rec.Commands[1].Command.(frame.SetSettings).Settings.AlarmFallMargin; m != 1.5 {
		t.Errorf("set-settings' AlarmFallMargin %g, want 1.5", m)
	}
}
