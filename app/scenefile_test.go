package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"softgrasp/physics/settings"
)

// sceneConfigOf parses args as headless does (a -scene file included) and
// returns the flags after config.
func sceneConfigOf(t *testing.T, args ...string) (*headlessFlags, error) {
	t.Helper()
	var f headlessFlags
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		return &f, err
	}
	if err := f.noteGiven(fs); err != nil {
		return &f, err
	}
	_, err := f.config()
	return &f, err
}

// TestShippedScenes loads every scene file in assets/scenes, runs it for
// 40 steps at 600 DOFs recorded and replays the recording identically; grasp-rotate.toml is today's default demo key for key
// (the same configuration as no flag at all, hence the same goldens).
func TestShippedScenes(t *testing.T) {
	files, err := filepath.Glob("../assets/scenes/*.toml")
	if err != nil || len(files) < 3 {
		t.Fatalf("shipped scenes %v, %v", files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "scene.rec")
			code, _, errs := headless("-scene", file, "-dofs", "600", "-steps", "40", "-record", rec) // small: the file, not the resolution, is tested
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			// The recording carries the scene: it replays without the file.
			code, out, errs := replayCmd(rec)
			if code != 0 || !strings.Contains(out, "identical true") {
				t.Fatalf("replay exit %d, stderr %q, stdout:\n%s", code, errs, out)
			}
		})
	}
	f, err := sceneConfigOf(t, "-scene", "../assets/scenes/grasp-rotate.toml")
	if err != nil {
		t.Fatal(err)
	}
	fromFile, _ := f.config()
	g, err := sceneConfigOf(t)
	if err != nil {
		t.Fatal(err)
	}
	def, _ := g.config()
	if !fromFile.Equal(def) {
		t.Fatalf("grasp-rotate.toml gives %+v, the default is %+v", fromFile, def)
	}
}

// TestSceneFileOverriddenByFlags: a flag on the command line wins over
// the file's key; the file's other keys stay.
func TestSceneFileOverriddenByFlags(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.toml")
	if err := os.WriteFile(path, []byte("version = 1\nmu = 0.3\ndt = 0.005\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := sceneConfigOf(t, "-scene", path, "-mu", "0.6")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := f.config()
	if cfg.Physics.Friction != 0.6 || cfg.Physics.TimeStep != 0.005 {
		t.Fatalf("μ %g (want the flag's 0.6), h %g (want the file's 0.005)", cfg.Physics.Friction, cfg.Physics.TimeStep)
	}
}

// TestSceneFileErrors: every bad scene file is one line naming the file,
// the line and the key (or what is wrong with the file as a whole).
func TestSceneFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text, want string
	}{
		{"no version", "mu = 0.5\n", "no version"},
		{"version 3", "version = 3\n", ":1: version: version = 3: this build reads versions 1 and 2"},
		{"syntax", "version = 1\nmu = \n", ":2: "},
		{"unknown key", "version = 1\n\nfriction = 0.5\n", ":3: friction: not a scene key"},
		{"run flag", "version = 1\nsteps = 10\n", ":2: steps: not a scene key"},
		{"out of range", "version = 1\nmu = -1\n", ":2: mu: Friction = -1 is out of range: must be in [0, 10]"},
		{"bad value", "version = 1\nnewton = \"five\"\n", ":2: newton: invalid value"},
		{"list for a scalar", "version = 1\ndt = [0.01]\n", ":2: dt: takes one value"},
		{"table", "version = 1\n[object]\nsize = 1\n", ":2: object: a table"},
		{"array of tables", "version = 1\n\n[[object]]\nsize = 1\n", ":3: object: a table"},
		{"bad attachment", "version = 1\nattach = [\"below:q=1\"]\n", `:2: attach: invalid value "below:q=1"`},
		{"attachment selecting nothing", "version = 1\nattach = [\"above:z=1\"]\n", "selects no node"},
		{"missing mesh", "version = 1\nmesh = \"nowhere.stl\"\n", "nowhere.stl"},
		{"unknown choice", "version = 1\nmu = 0.5\ngrasp-aim = \"sideways\"\n", `:3: grasp-aim: unknown grasp-aim "sideways": want follow or once`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".toml")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errs := headless("-scene", path, "-steps", "1")
			if code == 0 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stderr %q; want one line with %q", code, errs, tc.want)
			}
			if !strings.Contains(tc.want, "selects") && !strings.Contains(tc.want, "nowhere") && !strings.Contains(errs, path) {
				t.Fatalf("stderr %q does not name the file", errs)
			}
		})
	}
}

// FuzzSceneFile feeds arbitrary text to the scene-file reader and the
// configuration after it: an error or a configuration, never a panic.
func FuzzSceneFile(f *testing.F) {
	for _, s := range []string{
		"version = 1\nmu = 0.5\n", "version = 1\nattach = [\"below:z=0.004\", \"nodes:1,2\"]\n",
		"version = 1\n[x]\n", "version = 1\ndt = 1e400\n", "version = 1\nnewton = 9999999999999999999\n",
		"version = 1\nscenario = \"drop\"\nobject = \"cylinder\"\n", "\x00", "version = 1\nmesh-up = \"y\"\n",
		"version = 2\nduration = 1\n[[soft]]\nshape = \"box\"\nsize = [0.02, 0.02, 0.02]\n[[rigid]]\nshape = \"cylinder\"\nsize = [0.01, 0.02]\nmass = 0.1\n",
		"version = 2\n[[soft]]\nshape = \"cylinder\"\nsize = [1e999, 0]\n", "version = 2\nsoft = 3\n",
		"version = 2\n[[soft]]\nshape = \"box\"\nsize = [0.02, 0.02, 0.02]\n[[rigid]]\nshape = \"mesh\"\nmesh = \"x.stl\"\nsize = [0.01]\nmass = 0.1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var h headlessFlags
		fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		h.register(fs)
		h.given = map[string]bool{}
		var err error
		if h.fromScene, err = applySceneFile(fs, "fuzz.toml", text, h.given); err != nil {
			return
		}
		_, _ = h.config()
	})
}

// TestViewerReadsSceneFiles: the viewer's loader reads a shipped scene
// with the viewer's defaults (the asynchronous solver) for the keys it
// does not set, the mesh path relative to the file.
func TestViewerReadsSceneFiles(t *testing.T) {
	cfg, err := viewerSceneConfig("../assets/scenes/organ.toml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MeshFile != filepath.Join("../assets/scenes", "../bean.msh") || len(cfg.Attach) != 1 || cfg.Physics.Solver.String() != "async" {
		t.Fatalf("mesh %q, attachments %v, solver %s", cfg.MeshFile, cfg.Attach, cfg.Physics.Solver)
	}
	if _, err := viewerSceneConfig("../assets/scenes/none.toml"); err == nil {
		t.Fatal("a missing scene file read")
	}
	// a version 2 file's bodies reach the viewer's configuration too
	cfg, err = viewerSceneConfig("../assets/scenes/grasp-two.toml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Kind != "custom" || !cfg.Gripper || len(cfg.Soft) != 2 || len(cfg.Rigid) != 1 || cfg.Physics.Solver.String() != "async" {
		t.Fatalf("grasp-two.toml in the viewer: kind %s, gripper %v, %d soft, %d rigid, solver %s", cfg.Kind, cfg.Gripper, len(cfg.Soft), len(cfg.Rigid), cfg.Physics.Solver)
	}
}

// TestSceneFileBodies reads the shipped custom scene (version 2): its
// lists and duration reach the configuration, the scenario is custom
// without saying so; and every bad field of a [[soft]] or [[rigid]] table
// is one line naming the file, the line, the entry and the field.
func TestSceneFileBodies(t *testing.T) {
	f, err := sceneConfigOf(t, "-scene", "../assets/scenes/pile.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := f.config()
	if cfg.Kind != "custom" || len(cfg.Soft) != 2 || len(cfg.Rigid) != 4 || cfg.Duration != 1.5 ||
		cfg.Soft[1].Shape != "cylinder" || cfg.Soft[1].DOFs != 400 || cfg.Rigid[0].Name != "weight" || cfg.Rigid[0].Mass != 0.02 ||
		cfg.Rigid[0].Rotation != [3]float64{0, 0, 30} || cfg.Rigid[1].Mass != 0 {
		t.Fatalf("configuration from pile.toml: %+v", cfg)
	}
	checkSceneEdits(t, "../assets/scenes/pile.toml", []sceneEdit{
		{"size = [0.02, 0.015]", "size = [0.02, -1]", ":21: soft[2].size: size (height) = -1 m"},
		{"dofs = 400", "dofs = 4.5", ":22: soft[2].dofs: 4.5: want a whole number"},
		{"mass = 0.02", "mass = -2", ":31: rigid[1].mass: mass = -2 kg"},
		{"rotation = [0, 0, 30]", "rotation = [0, 0]", ":30: rigid[1].rotation:"},
		{`name = "post"`, `name = "weight"`, `:34: rigid[2].name: "weight": taken`},
		{`shape = "cylinder"` + "\nsize = [0.02", `shape = "cone"` + "\nsize = [0.02", `:20: soft[2].shape: "cone"`},
		{"position = [0.04, 0, 0.02]", `colour = "red"`, ":37: rigid[2].colour: not a key of a rigid body"},
		{"duration = 1.5", "duration = 0", ":10: duration = 0 s: must be in (0, 3600]"},
		{"version = 2", "version = 1", ":10: duration: not a scene key"},
		{"duration = 1.5", "gripper = \"yes\"", ":10: gripper: yes: want true or false"},
	})
}

// sceneEdit replaces from by to in a scene file; want is the error line
// after the file's path.
type sceneEdit struct{ from, to, want string }

// checkSceneEdits runs headless on copies of the scene file with each edit
// made: each is refused with exit 2 and one line naming the copy's path
// followed by its want.
func checkSceneEdits(t *testing.T, file string, edits []sceneEdit) {
	t.Helper()
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range edits {
		t.Run(tc.to, func(t *testing.T) {
			text := strings.Replace(string(good), tc.from, tc.to, 1)
			if text == string(good) {
				t.Fatalf("%q is not in %s", tc.from, file)
			}
			path := filepath.Join(t.TempDir(), filepath.Base(file))
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errs := headless("-scene", path, "-steps", "1")
			if code != 2 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, path+tc.want) {
				t.Fatalf("exit %d, stderr %q: want 2 and one line with %q", code, errs, path+tc.want)
			}
		})
	}
}

// TestSceneFileSoftTables: a [[soft]] table's young and density, and a
// mesh body's file (relative to the scene file), reach its spec; a bad
// value, or a mesh body without its file, is refused on its line (the
// table's, for a key that is absent).
func TestSceneFileSoftTables(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		check      func(dir string, soft []settings.SoftSpec) bool
		from, to   string // the bad edit
		want       string
	}{
		{"materials", "version = 2\n[[soft]]\nshape = \"box\"\nsize = [0.02, 0.02, 0.02]\n[[soft]]\nshape = \"box\"\nsize = [0.02, 0.02, 0.02]\nposition = [0.03, 0, 0]\nyoung = 2e5\ndensity = 2000\n",
			func(_ string, soft []settings.SoftSpec) bool {
				return len(soft) == 2 && soft[0].Young == 0 && soft[1].Young == 2e5 && soft[1].Density == 2000
			},
			"density = 2000", "density = -1", ":10: soft[2].density: density = -1"},
		{"mesh body", "version = 2\n[[soft]]\nshape = \"box\"\nsize = [0.05, 0.05, 0.01]\n[[soft]]\nshape = \"mesh\"\nmesh = \"bean.msh\"\nsize = [0.03]\nposition = [0, 0, 0.0101]\n",
			func(dir string, soft []settings.SoftSpec) bool {
				return len(soft) == 2 && soft[1].Mesh == filepath.Join(dir, "bean.msh") && soft[1].Size[0] == 0.03
			},
			"mesh = \"bean.msh\"\n", "", ":5: soft[2].mesh: mesh: missing"},
		{"mesh units and up", "version = 2\n[[soft]]\nshape = \"mesh\"\nmesh = \"bar.obj\"\nup = \"y\"\nunits = \"mm\"\n",
			func(_ string, soft []settings.SoftSpec) bool {
				return len(soft) == 1 && soft[0].Up == "y" && soft[0].Units == "mm" && soft[0].Size == [3]float64{}
			},
			"units = \"mm\"", "units = \"mm\"\nsize = [0.02]", ":7: soft[1].size: size [0.02 0 0] and units \"mm\": give one of them"},
		{"mesh units unknown", "version = 2\n[[soft]]\nshape = \"mesh\"\nmesh = \"bar.obj\"\nunits = \"cm\"\n",
			func(_ string, soft []settings.SoftSpec) bool { return len(soft) == 1 && soft[0].Units == "cm" },
			"units = \"cm\"", "units = \"in\"", ":5: soft[1].units: units = \"in\": want m, cm or mm"},
		{"mesh up", "version = 2\n[[soft]]\nshape = \"mesh\"\nmesh = \"bar.obj\"\nsize = [0.02]\nup = \"z\"\n",
			func(_ string, soft []settings.SoftSpec) bool { return len(soft) == 1 && soft[0].Up == "z" },
			"up = \"z\"", "up = \"x\"", ":6: soft[1].up: up = \"x\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "scene.toml")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := sceneConfigOf(t, "-scene", path)
			if err != nil {
				t.Fatal(err)
			}
			if cfg, _ := f.config(); !tc.check(dir, cfg.Soft) {
				t.Fatalf("soft bodies %+v", cfg.Soft)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(tc.text, tc.from, tc.to, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errs := headless("-scene", path, "-steps", "1")
			if want := path + tc.want; code != 2 || !strings.Contains(errs, want) {
				t.Fatalf("exit %d, stderr %q: want 2 and %q", code, errs, want)
			}
		})
	}
}

// TestSceneFileRigidMesh: a [[rigid]] table of shape "mesh" takes its
// file relative to the scene file and runs (a closed surface); a mesh
// body without its file, or a box with one, is refused on its line, and
// an open surface is refused naming the body and why.
func TestSceneFileRigidMesh(t *testing.T) {
	dir := t.TempDir()
	bar, err := os.ReadFile("../physics/scenario/testdata/bar_yup.obj")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bar.obj"), bar, 0o644); err != nil {
		t.Fatal(err)
	}
	text := "version = 2\nduration = 0.05\n[[soft]]\nshape = \"box\"\nsize = [0.03, 0.03, 0.01]\ndofs = 300\n" +
		"[[rigid]]\nshape = \"mesh\"\nmesh = \"bar.obj\"\nsize = [0.02]\nposition = [0.05, 0, 0.006]\nmass = 0.01\n"
	path := filepath.Join(dir, "scene.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := sceneConfigOf(t, "-scene", path)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _ := f.config(); len(cfg.Rigid) != 1 || cfg.Rigid[0].Mesh != filepath.Join(dir, "bar.obj") || cfg.Rigid[0].Size[0] != 0.02 {
		t.Fatalf("rigid bodies %+v", cfg.Rigid)
	}
	if code, _, errs := headless("-scene", path); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	sheet, err := filepath.Abs("../physics/meshfile/testdata/sheet.stl") // an open surface
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"mesh = \"bar.obj\"\n", "", ":7: rigid[1].mesh: mesh: missing"},
		{"shape = \"mesh\"\nmesh = \"bar.obj\"\nsize = [0.02]", "shape = \"box\"\nmesh = \"bar.obj\"\nsize = [0.02, 0.02, 0.02]", ":9: rigid[1].mesh: mesh = "},
		{"bar.obj", sheet, "rigid[1]: "},
	} {
		bad := strings.Replace(text, tc.from, tc.to, 1)
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := headless("-scene", path, "-steps", "1")
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Fatalf("%q → %q: exit %d, stderr %q: want an error with %q", tc.from, tc.to, code, errs, tc.want)
		}
		if tc.want == "rigid[1]: " && !strings.Contains(errs, "a rigid mesh must be one closed surface") {
			t.Fatalf("open surface: stderr %q", errs)
		}
	}
}

// TestSceneFileWaypoints reads the shipped pick-place scene: its
// [[waypoint]] tables become the gripper's path (the gripper implied), the
// yaw 0 where not given; and every bad waypoint is one line naming the
// file, the line, the entry and the field.
func TestSceneFileWaypoints(t *testing.T) {
	const file = "../assets/scenes/pick-place.toml"
	f, err := sceneConfigOf(t, "-scene", file)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := f.config()
	p := cfg.GripperPath
	want := settings.Waypoint{Time: 2.2, Position: [3]float64{0.04, 0, 0.043}, Yaw: 90, Opening: 0.024}
	if cfg.Kind != "custom" || !cfg.Gripper || len(p) != 8 || p[4] != want || p[1].Yaw != 0 || p[7].Time != 3.4 {
		t.Fatalf("configuration from pick-place.toml: gripper %v, path %+v", cfg.Gripper, p)
	}
	checkSceneEdits(t, file, []sceneEdit{
		{"time = 0.9", "time = 0.3", ":28: waypoint[3].time: time = 0.3 s: must come after the previous waypoint's 0.4 s"},
		{"time = 0.9", "time = -1", ":28: waypoint[3].time: time = -1 s: must be in [0, 3600]"},
		{"position = [0, 0, 0.018]\nopening = 0.024", "position = [0, 0, 0.018]", ":27: waypoint[3].opening: missing"},
		{"position = [0, 0, 0.018]\nopening = 0.024", "position = [0, 0]\nopening = 0.024", ":29: waypoint[3].position: [0 0]: want a list of 3 numbers"},
		{"yaw = 90                     # degrees about the world z", "yaw = \"right\"", ":38: waypoint[5].yaw: right: want a number of degrees"},
		{"yaw = 90                     # degrees about the world z", "yaw = 1e9", ":38: waypoint[5].yaw: yaw = 1e+09°: must be in [-36000, 36000]"},
		{"time = 1.4", "time = 1.4\nspeed = 2", ":33: waypoint[4].speed: not a key of a waypoint (time, position, yaw, opening)"},
		{"opening = 0.05               # m", "opening = 0.5", ":22: waypoint[1].opening: opening = 0.5 m: must be in [0, 0.2]"},
		{"jaws = \"flat\"", "jaws = \"flat\"\ngripper = false", ":12: gripper = false: the [[waypoint]] tables are the gripper's path"},
	})
}
