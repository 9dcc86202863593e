package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	w.Command(6, frame.RunScript{Aim: settings.AimOnce}, nil)
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
	// The script's aim reads back.
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
		{"newer version", strings.Replace(text, "softgrasp-record 2", "softgrasp-record 3", 1), "rec:1: format version 3 is newer"},
		{"no such version", strings.Replace(text, "softgrasp-record 2", "softgrasp-record 0", 1), "rec:1: format version 0 does not exist"},
		{"version not a number", strings.Replace(text, "softgrasp-record 2", "softgrasp-record x", 1), "rec:1: format version \"x\""},
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

// toV1 rewrites a version 2 recording as version 1 wrote it: choices as
// their numbers in version 1's order, an aim of "once" as no aim, and
// without the keys that drop lists (settings added after the recording
// was made).
func toV1(t *testing.T, text string, drop ...string) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	lines[0] = "softgrasp-record 1\n"
	number := func(m map[string]any, choices map[string][]string) {
		for key, names := range choices {
			if name, ok := m[key].(string); ok {
				m[key] = slices.Index(names, name)
			}
		}
		for _, key := range drop {
			delete(m, key)
		}
	}
	physics := func(s map[string]any) {
		number(s, v1Choices["settings"])
		// The settings whose other modes were removed, as version 1's
		// last builds wrote them (the kept mode's number).
		for _, r := range v1Removed {
			s[r.key] = slices.Index(r.names, r.kept)
		}
	}
	scenario := func(cfg map[string]any) {
		number(cfg, v1Choices["scenario"])
		physics(cfg["Physics"].(map[string]any))
	}
	for i, line := range lines[1:] {
		var l map[string]any
		if json.Unmarshal([]byte(line), &l) != nil {
			continue
		}
		if cfg, ok := l["config"].(map[string]any); ok {
			scenario(cfg)
		}
		args, _ := l["args"].(map[string]any)
		switch l["command"] {
		case "set-settings":
			physics(args["Settings"].(map[string]any))
		case "set-scene":
			scenario(args["Config"].(map[string]any))
		case "run-script":
			if args == nil || args["Aim"] == "once" {
				l["args"] = map[string]any{}
			} else {
				args["Aim"] = 1
			}
		}
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		lines[i+1] = string(b) + "\n"
	}
	return strings.Join(lines, "")
}

// TestVersion1IsMigrated reads a recording as version 1 wrote it, with
// AlarmFallMargin and TurnStart absent as before they existed: each
// choice reads back as the value its number meant, an absent choice as
// version 1's value 0 (TurnStart linearised), the margin as 1.5, the
// aims as they were; a version 1 recording of a removed mode (the
// damping on the velocity) or with the test switch FreezeMapping on is
// refused.
func TestVersion1IsMigrated(t *testing.T) {
	v2 := written(t)
	v1 := toV1(t, v2, "AlarmFallMargin", "TurnStart")
	if !strings.Contains(v1, `"MeshUp":2`) || !strings.Contains(v1, `"DampingRate":1`) || strings.Contains(v1, "TurnStart") {
		t.Fatalf("the version 1 text is not what version 1 wrote:\n%s", v1)
	}
	rec, err := Read(strings.NewReader(v1), "rec")
	if err != nil {
		t.Fatalf("%v\n%s", err, v1)
	}
	want, _ := Read(strings.NewReader(v2), "rec")
	cfg := want.Config
	cfg.Physics.TurnStart, cfg.Physics.AlarmFallMargin = settings.TurnLinearised, 1.5
	if rec.Version != 1 || !rec.Config.Equal(cfg) {
		t.Errorf("version %d, configuration read back as %+v\nwant %+v", rec.Version, rec.Config, cfg)
	}
	if s := rec.Commands[1].Command.(frame.SetSettings).Settings; s.AlarmFallMargin != 1.5 || s.TurnStart != settings.TurnLinearised || s.Friction != 0.3 {
		t.Errorf("set-settings read back as margin %g, turn start %v, friction %g", s.AlarmFallMargin, s.TurnStart, s.Friction)
	}
	if a, b := rec.Commands[3].Command.(frame.RunScript), rec.Commands[4].Command.(frame.RunScript); a.Aim != settings.AimFollow || b.Aim != settings.AimOnce {
		t.Errorf("run-script aims %v and %v read back, want follow and once", a.Aim, b.Aim)
	}
	velocity := strings.Replace(v1, `"DampingRate":1`, `"DampingRate":0`, 1)
	if _, err := Read(strings.NewReader(velocity), "rec"); err == nil || !strings.Contains(err.Error(), "rec:2: recorded with DampingRate velocity") {
		t.Errorf("a recording of a removed mode: %v", err)
	}
	frozen := strings.Replace(v1, `"BudgetFall":`, `"FreezeMapping":true,"BudgetFall":`, 1)
	if _, err := Read(strings.NewReader(frozen), "rec"); err == nil || !strings.Contains(err.Error(), "rec:2: recorded with FreezeMapping") {
		t.Errorf("a recording with FreezeMapping on: %v", err)
	}
}

// TestFilesAreEmbedded: the mesh files a recorded run loads (its
// configuration's and a later scene command's) are embedded once each;
// after the files are deleted, Materialise writes copies with the same
// content and points the configuration and the command at them. A copy
// whose content does not match its hash is refused.
func TestFilesAreEmbedded(t *testing.T) {
	dir := t.TempDir()
	first, second := dir+"/first.stl", dir+"/second.obj"
	contents := map[string]string{first: "solid a\nendsolid a\n", second: "v 0 0 0\n"}
	for path, text := range contents {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.MeshFile = first
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Begin(cfg)
	later := cfg
	later.MeshFile = second
	w.Command(3, frame.SetScene{Config: later}, nil)
	w.Command(4, frame.SetScene{Config: cfg}, nil) // the first again: not embedded twice
	w.End(5, 1, nil)
	for path := range contents {
		os.Remove(path)
	}
	if n := strings.Count(b.String(), `{"file":`); n != 2 {
		t.Fatalf("%d files embedded, want 2:\n%s", n, b.String())
	}
	rec, err := Read(strings.NewReader(b.String()), "rec")
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Materialise(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	paths := []string{rec.Config.MeshFile, rec.Commands[0].Command.(frame.SetScene).Config.MeshFile, rec.Commands[1].Command.(frame.SetScene).Config.MeshFile}
	for i, want := range []string{first, second, first} {
		got, err := os.ReadFile(paths[i])
		if err != nil || string(got) != contents[want] || filepath.Base(paths[i]) != filepath.Base(want) {
			t.Errorf("scene %d loads %s (%q, %v), want a copy of %s", i, paths[i], got, err, want)
		}
	}
	bad := strings.Replace(b.String(), rec.Files[0].SHA256, strings.Repeat("0", 64), 1)
	if _, err := Read(strings.NewReader(bad), "rec"); err == nil || !strings.Contains(err.Error(), "does not match its sha256") {
		t.Errorf("a file that does not match its hash: %v", err)
	}
}
