package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"softgrasp/physics/record"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// TestJawsIsOneTableEntry follows the jaws' style, once a hand-declared
// flag and now one entry of the parameter table, to every place a setting
// reaches: the flag, a scene file's key, the JSON configuration, an A/B
// key, the recording and its replay (the panel's combo is
// ui.TestEveryFieldOfTheTable's, docs/flags.md TestFlagReferenceIsCurrent's).
// A scenario's preset is kept when the flag is not given: soft-fingers'
// flat jaws (the hand-declared flag's default once overrode it).
func TestJawsIsOneTableEntry(t *testing.T) {
	jaws := func(out string) string {
		var obj struct {
			Settings map[string]any `json:"settings"`
		}
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		s, _ := obj.Settings["jaws"].(string)
		return s
	}
	base := []string{"-dofs", "300", "-steps", "3", "-json"}
	dir := t.TempDir()
	scene := filepath.Join(dir, "flat.toml")
	if err := os.WriteFile(scene, []byte("version = 1\njaws = \"flat\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, "flat.rec")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"default", nil, "round"},
		{"flag", []string{"-jaws", "flat"}, "flat"},
		{"scene file", []string{"-scene", scene}, "flat"},
		{"soft-fingers' preset", []string{"-scenario", "soft-fingers"}, "flat"},
		{"recorded", []string{"-jaws", "flat", "-record", rec}, "flat"},
	} {
		code, out, errs := headless(append(append([]string(nil), base...), tc.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errs)
		}
		if got := jaws(out); got != tc.want {
			t.Errorf("%s: jaws %q, want %q", tc.name, got, tc.want)
		}
	}
	if code, _, errs := headless(append(base, "-jaws", "claws")...); code != 2 || !strings.Contains(errs, `-jaws: unknown jaws "claws": want round or flat`) {
		t.Errorf("a bad -jaws: exit %d, %q", code, errs)
	}
	r, err := record.ReadFile(rec)
	if err != nil || r.Config.JawStyle != rigid.FlatJaws {
		t.Fatalf("the recording's jaws: %v, %v", r.Config.JawStyle, err)
	}
	if code, out, errs := replayCmd(rec, "-json"); code != 0 || jaws(out) != "flat" {
		t.Errorf("replay: exit %d, jaws %q: %s", code, jaws(out), errs)
	}
	b, err := settings.ApplyAB(settings.DefaultScenario(settings.GraspRotate), "jaws=flat")
	if err != nil || b.JawStyle != rigid.FlatJaws {
		t.Errorf("A/B jaws=flat: %v, %v", b.JawStyle, err)
	}
	// B grips with flat jaws where A's are round: by the time the jaws
	// close (150 steps) the two bodies are apart.
	code, out, errs := headless("-dofs", "300", "-steps", "150", "-json", "-ab", "jaws=flat")
	var ab struct {
		Changes    string `json:"b_changes"`
		Divergence struct {
			Max float64 `json:"max_node_distance"`
		} `json:"divergence"`
	}
	if err := json.Unmarshal([]byte(out), &ab); code != 0 || err != nil || ab.Changes != "jaws=flat" || !(ab.Divergence.Max > 0) {
		t.Errorf("headless -ab jaws=flat: exit %d, %+v, %v: %s", code, ab, err, errs)
	}
}
