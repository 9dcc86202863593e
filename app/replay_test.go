package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"softgrasp/physics/record"
	"softgrasp/physics/settings"
)

// replayCmd runs the replay subcommand in-process.
func replayCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runReplay(args, &out, &errb)
	return code, out.String(), errb.String()
}

// checksums reads final_checksum and the replay's comparison from a JSON
// summary.
func checksums(t *testing.T, out string) (final string, replay map[string]any) {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	final, _ = obj["final_checksum"].(string)
	if len(final) != 16 {
		t.Fatalf("final_checksum %v, want 16 hex digits", obj["final_checksum"])
	}
	replay, _ = obj["replay"].(map[string]any)
	return final, replay
}

// TestHeadlessRecordReplaysBitIdentically: a recorded headless run and
// its replay end with the same final checksum, with the exact solver and
// with the async one at a fixed lag, the flags before or after the file.
func TestHeadlessRecordReplaysBitIdentically(t *testing.T) {
	tests := []struct {
		name  string
		flags []string
	}{
		{"exact", []string{"-solver", "exact"}},
		{"async", []string{"-solver", "async", "-async-lag", "3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.rec")
			args := append([]string{"-dofs", "300", "-steps", "110", "-json", "-record", path}, tc.flags...)
			code, out, errs := headless(args...)
			if code != 0 {
				t.Fatalf("headless exit %d: %s", code, errs)
			}
			recorded, _ := checksums(t, out)
			for _, args := range [][]string{{path, "-json"}, {"-json", path}} {
				code, out, errs = replayCmd(args...)
				if code != 0 {
					t.Fatalf("replay %v exit %d: %s", args, code, errs)
				}
				replayed, cmp := checksums(t, out)
				if replayed != recorded || cmp["match"] != true || cmp["recorded_checksum"] != recorded || cmp["checkpoints"].(float64) != 1 {
					t.Fatalf("replayed %s (%v), recorded %s", replayed, cmp, recorded)
				}
			}
			t.Logf("recorded and replayed final checksum %s", recorded)
		})
	}
}

// TestDampingFlagsRecordAndReplay: the Rayleigh damping flags reach the
// step (the run ends elsewhere than with the default damping), the JSON
// configuration and the recording, whose replay ends bit-identically with
// the same damping.
func TestDampingFlagsRecordAndReplay(t *testing.T) {
	base := []string{"-dofs", "300", "-steps", "60", "-json"}
	_, out, _ := headless(base...)
	undamped, _ := checksums(t, out)
	path := filepath.Join(t.TempDir(), "run.rec")
	code, out, errs := headless(append(base, "-mass-damping", "0.5", "-stiffness-damping", "0.002", "-record", path)...)
	if code != 0 {
		t.Fatalf("headless exit %d: %s", code, errs)
	}
	recorded, _ := checksums(t, out)
	if recorded == undamped {
		t.Fatal("the damping flags did not change the run")
	}
	code, out, errs = replayCmd(path, "-json")
	if code != 0 {
		t.Fatalf("replay exit %d: %s", code, errs)
	}
	replayed, cmp := checksums(t, out)
	if replayed != recorded || cmp["match"] != true {
		t.Fatalf("replayed %s (%v), recorded %s", replayed, cmp, recorded)
	}
	var sum struct {
		Settings map[string]any `json:"settings"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Settings["mass-damping"] != 0.5 || sum.Settings["stiffness-damping"] != 0.002 {
		t.Fatalf("replay's configuration %v, want mass-damping 0.5 and stiffness-damping 0.002", sum.Settings)
	}
}

// TestReplayRefusesBadRecordings: each bad recording ends with one line
// on stderr and a non-zero exit; one cut short replays with a note.
func TestReplayRefusesBadRecordings(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.rec")
	if code, _, errs := headless("-dofs", "300", "-steps", "105", "-record", good); code != 0 {
		t.Fatalf("headless exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	cut := strings.LastIndex(text, `{"end"`)
	var missing bytes.Buffer
	w := record.NewWriter(&missing)
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.MeshFile = filepath.Join(dir, "gone.msh")
	w.Begin(cfg)
	tests := []struct {
		name, text string
		code       int
		want       string
	}{
		{"newer version", strings.Replace(text, "softgrasp-record 2", "softgrasp-record 7", 1), 1, "format version 7 is newer"},
		{"no such version", strings.Replace(text, "softgrasp-record 2", "softgrasp-record 0", 1), 1, "format version 0 does not exist"},
		{"corrupted line", strings.Replace(text, `{"step":100`, `{"step":1OO`, 1), 1, ":3: not a record line"},
		{"missing mesh", missing.String(), 1, "gone.msh"},
		{"other final state", strings.Replace(text, text[cut:], `{"end":{"steps":105,"checksum":"0000000000000000"}}`+"\n", 1), 1, "differs from the recording"},
		{"cut short", text[:cut+15], 0, "no footer"},
		{"not a recording", "{}\n", 1, "not a softgrasp recording"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".rec")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errs := replayCmd(path)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, errs, tc.code, tc.want)
			}
			if tc.code != 0 && strings.Count(errs, "\n") != 1 {
				t.Fatalf("stderr %q: want one line", errs)
			}
		})
	}
}

func TestReplayFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "which recording?"},
		{[]string{"a.rec", "b.rec"}, `unexpected argument "b.rec"`},
		{[]string{"a.rec", "-blas-threads", "0"}, "-blas-threads = 0"},
		{[]string{"-threads", "-2", "a.rec"}, "-threads = -2"},
		{[]string{"-nope", "a.rec"}, "flag provided but not defined"},
	}
	for _, tc := range tests {
		if code, _, errs := replayCmd(tc.args...); code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("replay %q: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestReplayKeepsAttachments: a run recorded with -attach replays to its
// recorded final state: the recording's configuration carries the
// attachment, without which the replay would differ at once.
func TestReplayKeepsAttachments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "attached.rec")
	code, _, errs := headless("-dofs", "300", "-steps", "80", "-attach", "above:x=0.015", "-record", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rec, err := record.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Config.Attach) != 1 || rec.Config.Attach[0].String() != "plane:-1,0,0,-0.015" {
		t.Fatalf("recorded attachments %v", rec.Config.Attach)
	}
	code, out, errs := replayCmd(path)
	if code != 0 || !strings.Contains(out, "identical true") {
		t.Fatalf("replay exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
}

// TestVersion1RecordingsReplay: recordings written by the format's first
// version (kept in testdata, written before version 2 existed) replay to
// their recorded final checksum: a scripted grasp, and a soak's random
// commands (settings, scenes with a mesh file, gripper, script, resets).
func TestVersion1RecordingsReplay(t *testing.T) {
	for _, file := range []string{"testdata/record-v1-grasp.rec", "testdata/record-v1-soak.rec"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			code, out, errs := replayCmd(file, "-json")
			if code != 0 {
				t.Fatalf("replay exit %d: %s", code, errs)
			}
			replayed, cmp := checksums(t, out)
			if cmp["match"] != true || cmp["recorded_checksum"] != replayed {
				t.Fatalf("replayed %s, comparison %v", replayed, cmp)
			}
		})
	}
}

// TestReplayFileAmongFlags: the recording may come after the flags; the
// values of the flags that take one (given apart or with "=") are not
// taken for it, and a boolean flag takes none.
func TestReplayFileAmongFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		file string
	}{
		{[]string{"a.rec", "-json"}, "a.rec"},
		{[]string{"-json", "a.rec"}, "a.rec"},
		{[]string{"-csv", "out.csv", "a.rec"}, "a.rec"},
		{[]string{"--csv", "out.csv", "-json", "a.rec"}, "a.rec"},
		{[]string{"-csv=out.csv", "a.rec"}, "a.rec"},
		{[]string{"-threads", "2", "-blas-threads", "1", "a.rec"}, "a.rec"},
	} {
		file, _, code, done := parseReplay(tc.args, io.Discard, io.Discard)
		if done || code != 0 || file != tc.file {
			t.Errorf("replay %q: file %q (exit %d, done %v), want %q", tc.args, file, code, done, tc.file)
		}
	}
}
