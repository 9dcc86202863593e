package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// TestDropMeshLoadsLikeTheField checks that dropping files loads the first
// one exactly as the field's Load button does.
func TestDropMeshLoadsLikeTheField(t *testing.T) {
	s, out := newTestState()
	if err := s.DropMesh([]string{"/data/liver.stl", "/data/kidney.stl"}, out); err != nil {
		t.Fatal(err)
	}
	c, ok := out.only(t).(frame.SetScene)
	if !ok || c.Config.MeshFile != "/data/liver.stl" || s.MeshFileText() != "/data/liver.stl" {
		t.Fatalf("sent %#v, want SetScene with the first dropped file", out.cmds)
	}
	if !strings.Contains(s.Notice(), "2 files dropped: loading the first, liver.stl") {
		t.Errorf("action message %q", s.Notice())
	}
	if err := s.DropMesh(nil, out); err != nil || len(out.cmds) != 1 {
		t.Errorf("an empty drop sent %d commands, error %v", len(out.cmds)-1, err)
	}
}

func TestSetMeshScale(t *testing.T) {
	s, out := newTestState()
	if err := s.SetMeshScale(0.001, out); err != nil || len(out.cmds) != 0 || s.Config.MeshScale != 0.001 {
		t.Fatalf("without a mesh file: %d commands, scale %g, error %v; want none, 0.001", len(out.cmds), s.Config.MeshScale, err)
	}
	if err := s.SetMeshScale(-1, out); err == nil || !strings.HasPrefix(s.ActionError(), "MeshScale") || s.Config.MeshScale != 0.001 {
		t.Fatalf("negative scale: error %v, scale %g; want a refusal naming MeshScale, 0.001 kept", err, s.Config.MeshScale)
	}
	s.Config.MeshFile = "organ.vtu"
	if err := s.SetMeshScale(0.01, out); err != nil {
		t.Fatal(err)
	}
	if c, ok := out.only(t).(frame.SetScene); !ok || c.Config.MeshScale != 0.01 || c.Config.MeshFile != "organ.vtu" {
		t.Fatalf("sent %#v, want the mesh reloaded at 0.01", out.cmds)
	}
	for scale, label := range map[float64]string{0: "fit", 1: "m", 0.01: "cm", 0.001: "mm", 0.0254: "×0.0254"} {
		if got := meshScaleLabel(scale); got != label {
			t.Errorf("meshScaleLabel(%g) = %q, want %q", scale, got, label)
		}
	}
}

func TestSetMeshUp(t *testing.T) {
	s, out := newTestState()
	if err := s.SetMeshUp(settings.YUp, out); err != nil || len(out.cmds) != 0 || s.Config.MeshUp != settings.YUp {
		t.Fatalf("without a mesh file: %d commands, up %v, error %v; want none, y", len(out.cmds), s.Config.MeshUp, err)
	}
	if err := s.SetMeshUp(settings.UpAxis(7), out); err == nil || !strings.HasPrefix(s.ActionError(), "MeshUp") || s.Config.MeshUp != settings.YUp {
		t.Fatalf("an unknown axis: error %v, up %v; want a refusal naming MeshUp, y kept", err, s.Config.MeshUp)
	}
	s.Config.MeshFile = "statue.vtu"
	if err := s.SetMeshUp(settings.ZUp, out); err != nil {
		t.Fatal(err)
	}
	if c, ok := out.only(t).(frame.SetScene); !ok || c.Config.MeshUp != settings.ZUp || c.Config.MeshFile != "statue.vtu" {
		t.Fatalf("sent %#v, want the mesh reloaded z up", out.cmds)
	}
}

// TestRecentMeshes checks that the files the running scene opened make
// the recent list: most recent first, no repeats, at most eight, kept in
// a file across sessions.
func TestRecentMeshes(t *testing.T) {
	store := filepath.Join(t.TempDir(), "softgrasp", "recent-meshes")
	s, _ := newTestState()
	s.KeepRecentMeshes(store)
	cfg := s.Config
	for i := 0; i < 10; i++ {
		cfg.MeshFile = fmt.Sprintf("/m/%d.msh", i%9)
		v := uint64(i + 1)
		s.Observe(&frame.Frame{Seq: v, SceneVersion: v, ConfigVersion: v}, &frame.Config{Version: v, Scenario: cfg}, true)
	}
	want := []string{"/m/0.msh", "/m/8.msh", "/m/7.msh", "/m/6.msh", "/m/5.msh", "/m/4.msh", "/m/3.msh", "/m/2.msh"}
	if !slices.Equal(s.RecentMeshes(), want) {
		t.Fatalf("recent = %q, want %q", s.RecentMeshes(), want)
	}
	if _, err := os.Stat(store); err != nil {
		t.Fatal(err)
	}
	again, _ := newTestState()
	again.KeepRecentMeshes(store)
	if !slices.Equal(again.RecentMeshes(), want) {
		t.Errorf("reloaded recent = %q, want %q", again.RecentMeshes(), want)
	}
}

// TestDropSceneFile: a dropped .toml is read by LoadScene and its scene
// sent; one that does not read is refused with its message, and nothing
// is sent.
func TestDropSceneFile(t *testing.T) {
	s, out := newTestState()
	want := settings.DefaultScenario(settings.Drop)
	s.LoadScene = func(path string) (settings.Scenario, error) {
		if path == "/scenes/bad.toml" {
			return settings.Scenario{}, fmt.Errorf("/scenes/bad.toml:2: mu: out of range")
		}
		return want, nil
	}
	if err := s.DropMesh([]string{"/scenes/drop.TOML"}, out); err != nil {
		t.Fatal(err)
	}
	if c, ok := out.only(t).(frame.SetScene); !ok || !c.Config.Equal(want) {
		t.Fatalf("sent %#v, want the scene file's configuration", out.cmds)
	}
	if err := s.DropMesh([]string{"/scenes/bad.toml"}, out); err == nil || len(out.cmds) != 1 || !strings.Contains(s.ActionError(), ":2: mu") {
		t.Fatalf("a bad scene file: error %v, %d commands, message %q", err, len(out.cmds), s.ActionError())
	}
}

// TestLoadSceneFile: a shipped scene picked from the scenario list loads
// as the same file typed in the mesh-file field would.
func TestLoadSceneFile(t *testing.T) {
	s, out := newTestState()
	want := settings.DefaultScenario(settings.CubeDrop)
	s.LoadScene = func(path string) (settings.Scenario, error) {
		if path != "assets/scenes/cube-drop.toml" {
			return settings.Scenario{}, fmt.Errorf("%s: not a shipped scene", path)
		}
		return want, nil
	}
	if err := s.LoadSceneFile("assets/scenes/cube-drop.toml", out); err != nil {
		t.Fatal(err)
	}
	if c, ok := out.only(t).(frame.SetScene); !ok || !c.Config.Equal(want) || !s.Config.Equal(want) {
		t.Fatalf("sent %#v, want the scene file's configuration", out.cmds)
	}
}

// TestSetAttachments: the attachments field sends the scene with its specs
// (";"-separated, -attach's syntax), none for an empty field; a spec that
// does not parse is refused, naming it, and nothing is sent; the field
// shows the running configuration's attachments once it changes.
func TestSetAttachments(t *testing.T) {
	s, out := newTestState()
	if err := s.SetAttachments("below:z=0.004; above:x=0.01@left jaw", out); err != nil {
		t.Fatal(err)
	}
	c, ok := out.only(t).(frame.SetScene)
	if !ok || len(c.Config.Attach) != 2 || c.Config.Attach[1].Body != "left jaw" {
		t.Fatalf("sent %#v", out.cmds)
	}
	if err := s.SetAttachments("below:q=1", out); err == nil || len(out.cmds) != 1 || !strings.Contains(s.ActionError(), `"q"`) {
		t.Fatalf("a bad spec: error %v, %d commands, message %q", err, len(out.cmds), s.ActionError())
	}
	if err := s.SetAttachments(" ", out); err != nil || len(out.cmds) != 2 {
		t.Fatalf("an empty field: error %v, %d commands", err, len(out.cmds))
	}
	if c := out.cmds[1].(frame.SetScene); len(c.Config.Attach) != 0 {
		t.Fatalf("an empty field kept %v", c.Config.Attach)
	}
	f := &frame.Frame{}
	cfg := s.Config
	spec, _ := settings.ParseAttach("nodes:1,2")
	cfg.Attach = []settings.AttachSpec{spec}
	s.Observe(f, &frame.Config{Version: 99, Scenario: cfg}, true)
	if got := s.AttachText(); got != "nodes:1,2" {
		t.Fatalf("field %q after the running configuration changed", got)
	}
}
