package scenefile

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestParseShippedScenes parses every shipped scene file: each reads,
// its flat keys come in the order of their lines and each on its own
// line; the custom pile's bodies and duration reach the settings types.
func TestParseShippedScenes(t *testing.T) {
	files, err := filepath.Glob("../../assets/scenes/*.toml")
	if err != nil || len(files) < 3 {
		t.Fatalf("shipped scenes %v, %v", files, err)
	}
	for _, file := range files {
		f, err := Read(file)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for i, k := range f.Keys {
			if i > 0 && k.Line <= f.Keys[i-1].Line {
				t.Errorf("%s: key %s on line %d after %s on line %d", file, k.Name, k.Line, f.Keys[i-1].Name, f.Keys[i-1].Line)
			}
			if _, err := f.Values(k); err != nil {
				t.Errorf("%s: %s: %v", file, k.Name, err)
			}
		}
	}
	f, err := Read("../../assets/scenes/pile.toml")
	if err != nil {
		t.Fatal(err)
	}
	b := f.Bodies
	if f.Version != 2 || !b.Listed || len(b.Soft) != 2 || len(b.Rigid) != 4 || b.Duration != 1.5 ||
		b.Soft[1].Shape != "cylinder" || b.Soft[1].DOFs != 400 || b.Soft[0].DOFs != 600 ||
		b.Rigid[0].Name != "weight" || b.Rigid[0].Mass != 0.02 || b.Rigid[0].Rotation != [3]float64{0, 0, 30} || b.Rigid[1].Mass != 0 {
		t.Fatalf("pile.toml: version %d, bodies %+v", f.Version, b)
	}
	if len(f.Keys) != 1 || f.Keys[0].Name != "mu" || f.Keys[0].Line != 11 {
		t.Fatalf("pile.toml's flat keys %+v, want mu on line 11", f.Keys)
	}
}

// TestValuesAsFlagsTakeThem: each TOML value becomes its flag's text, a
// list one text per entry, and a relative mesh path is anchored at the
// scene file's folder.
func TestValuesAsFlagsTakeThem(t *testing.T) {
	f, err := Parse(filepath.Join("scenes", "a.toml"), "version = 1\nmu = 0.5\nnewton = 7\nmesh = \"bean.msh\"\nattach = [\"below:z=0.004\", \"nodes:1,2\"]\nvsync = true\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"mu": "0.5", "newton": "7", "mesh": filepath.Join("scenes", "bean.msh"), "attach": "below:z=0.004|nodes:1,2", "vsync": "true"}
	for _, k := range f.Keys {
		v, err := f.Values(k)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if got := strings.Join(v, "|"); got != want[k.Name] || k.List() != (k.Name == "attach") {
			t.Errorf("%s: %q (list %v), want %q", k.Name, got, k.List(), want[k.Name])
		}
	}
	if len(f.Keys) != len(want) {
		t.Errorf("%d keys, want %d", len(f.Keys), len(want))
	}
}

// TestParseErrors: every file the package refuses is one line naming
// the file and the line, with the key or the table entry and its field.
func TestParseErrors(t *testing.T) {
	box := "[[soft]]\nshape = \"box\"\nsize = [0.02, 0.02, 0.02]\n"
	for _, tc := range []struct{ name, text, want string }{
		{"no version", "mu = 0.5\n", "s.toml: no version"},
		{"version 3", "version = 3\n", "s.toml:1: version: version = 3: this build reads versions 1 and 2"},
		{"version text", "version = \"2\"\n", "s.toml:1: version: version = 2"},
		{"syntax", "version = 1\nmu = \n", "s.toml:2: "},
		{"duration", "version = 2\nduration = 0\n", "s.toml:2: duration = 0 s: must be in (0, 3600]"},
		{"gripper", "version = 2\n\ngripper = \"yes\"\n", "s.toml:3: gripper: yes: want true or false"},
		{"soft as a number", "version = 2\nsoft = 3\n", "s.toml:2: soft: want a list of tables, [[soft]]"},
		{"shape", "version = 2\n" + strings.Replace(box, "box", "cone", 1), `s.toml:3: soft[1].shape: "cone"`},
		{"soft field", "version = 2\n" + box + "colour = 1\n", "s.toml:5: soft[1].colour: not a key of a soft body"},
		{"size missing", "version = 2\n[[soft]]\nshape = \"box\"\n", "s.toml:2: soft[1].size: missing"},
		{"dofs", "version = 2\n" + box + "dofs = 4.5\n", "s.toml:5: soft[1].dofs: 4.5: want a whole number"},
		{"rigid name", "version = 2\n" + box + "[[rigid]]\nname = \"floor\"\nshape = \"box\"\nsize = [0.01, 0.01, 0.01]\n", `s.toml:6: rigid[1].name: "floor": taken`},
		{"waypoint order", "version = 2\n" + box + "[[waypoint]]\ntime = 1\nposition = [0, 0, 0.02]\nopening = 0.05\n[[waypoint]]\ntime = 0.5\nposition = [0, 0, 0.02]\nopening = 0.05\n",
			"s.toml:10: waypoint[2].time: time = 0.5 s: must come after the previous waypoint's 1 s"},
		{"gripper off with a path", "version = 2\ngripper = false\n" + box + "[[waypoint]]\ntime = 1\nposition = [0, 0, 0.02]\nopening = 0.05\n",
			"s.toml:2: gripper = false: the [[waypoint]] tables are the gripper's path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("s.toml", tc.text)
			if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v; want one line with %q", err, tc.want)
			}
		})
	}
	// Version 1 has no bodies: its tables are flat keys, for the caller to refuse.
	f, err := Parse("s.toml", "version = 1\nduration = 2\n")
	if err != nil || len(f.Keys) != 1 || f.Keys[0].Name != "duration" || f.Bodies.Listed {
		t.Fatalf("version 1 with duration: %+v, %v", f, err)
	}
	if _, err := f.Values(Key{Name: "x", Value: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "a table") {
		t.Fatalf("a table's value: %v", err)
	}
}

// FuzzParse feeds arbitrary text to Parse: an error or a file whose keys
// all sit on a line of the text, never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"version = 1\nmu = 0.5\n", "version = 1\nattach = [\"below:z=0.004\", \"nodes:1,2\"]\n", "version = 1\n[x]\n",
		"version = 2\nduration = 1\n[[soft]]\nshape = \"box\"\nsize = [0.02, 0.02, 0.02]\n[[rigid]]\nshape = \"cylinder\"\nsize = [0.01, 0.02]\nmass = 0.1\n",
		"version = 2\n[[soft]]\nshape = \"cylinder\"\nsize = [1e999, 0]\n", "version = 2\nsoft = 3\n", "\x00",
		"version = 2\n[[waypoint]]\ntime = 0\nposition = [0, 0, 0]\nopening = 0.05\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		file, err := Parse("fuzz.toml", text)
		if err != nil {
			return
		}
		lines := strings.Count(text, "\n") + 1
		for _, k := range file.Keys {
			if k.Line < 1 || k.Line > lines {
				t.Fatalf("key %q on line %d of %d", k.Name, k.Line, lines)
			}
			_, _ = file.Values(k)
		}
	})
}
