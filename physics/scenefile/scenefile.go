// Package scenefile reads scene files (docs/scenes.md): a scene written
// by hand in TOML, whose flat keys are the scene flags of `softgrasp
// headless` with their values as the flags take them, e.g.
//
//	version = 1
//	scenario = "grasp-rotate"
//	mesh = "bean.msh"          # relative to the scene file
//	dofs = 3000
//	mu = 0.8
//	attach = ["above:x=0.015"] # repeatable flags take a list
//
// and, from version 2, the bodies of a custom scene ([[soft]], [[rigid]]
// and [[waypoint]] tables, duration and gripper; bodies.go), read into
// the settings types. Parse checks the syntax, the version and the
// tables; the flat keys come back as written, with their lines, for the
// caller to apply through its flags' own parsing. Every error names the
// file and the line.
package scenefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Version is the newest version this build reads: version 1 (the flags
// as keys), and version 2, which adds the bodies of a custom scene.
const Version = 2

// File is a scene file as read.
type File struct {
	Path    string
	Version int
	// Keys are the flat keys, version and the body keys aside, in the
	// order of their lines.
	Keys   []Key
	Bodies Bodies
	lines  map[string]int
}

// Key is one flat key of the file: its name, its decoded TOML value and
// the line that sets it.
type Key struct {
	Name  string
	Value any
	Line  int
}

// List reports whether the key's value is a list (a repeatable flag's).
func (k Key) List() bool {
	_, list := k.Value.([]any)
	return list
}

// Read reads and parses the scene file at path.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, string(data))
}

// Parse parses text, the contents of the scene file at path (which names
// it in errors and anchors its relative mesh paths).
func Parse(path, text string) (*File, error) {
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	f := &File{Path: path, lines: keyLines(text)}
	v, ok := raw["version"]
	if !ok {
		return nil, fmt.Errorf("%s: no version: a scene file starts with version = %d", path, Version)
	}
	version, ok := v.(int64)
	if !ok || version < 1 || version > Version {
		return nil, fmt.Errorf("%s: version = %v: this build reads versions 1 and %d", f.At("version"), v, Version)
	}
	f.Version = int(version)
	if version >= 2 {
		if err := f.Bodies.read(raw, path, text, f.Line); err != nil {
			return nil, err
		}
	}
	for k, v := range raw {
		if k != "version" && !(version >= 2 && bodyKeys[k]) {
			f.Keys = append(f.Keys, Key{Name: k, Value: v, Line: f.Line(k)})
		}
	}
	sort.Slice(f.Keys, func(i, j int) bool { return f.Keys[i].Line < f.Keys[j].Line })
	return f, nil
}

// Line returns the line that first sets or opens key, 1 when none does.
func (f *File) Line(key string) int {
	if l, ok := f.lines[key]; ok {
		return l
	}
	return 1
}

// At is "file:line: key", the prefix of a message about key.
func (f *File) At(key string) string { return fmt.Sprintf("%s:%d: %s", f.Path, f.Line(key), key) }

// Values turns the key's value into the flag's text: a string, a number,
// a boolean, or a list of those for a repeatable flag. A relative mesh
// path is taken relative to the scene file.
func (f *File) Values(k Key) ([]string, error) {
	values, err := textValues(k.Value)
	if err != nil {
		return nil, err
	}
	if k.Name == "mesh" {
		for i, s := range values {
			if s != "" && !filepath.IsAbs(s) {
				values[i] = filepath.Join(filepath.Dir(f.Path), s)
			}
		}
	}
	return values, nil
}

// textValues is Values before the paths.
func textValues(v any) ([]string, error) {
	switch x := v.(type) {
	case string:
		return []string{x}, nil
	case int64:
		return []string{strconv.FormatInt(x, 10)}, nil
	case float64:
		return []string{strconv.FormatFloat(x, 'g', -1, 64)}, nil
	case bool:
		return []string{strconv.FormatBool(x)}, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, err := textValues(e)
			if err != nil || len(s) != 1 {
				return nil, fmt.Errorf("a list holds strings, numbers or booleans")
			}
			out = append(out, s[0])
		}
		return out, nil
	case map[string]any, []map[string]any:
		return nil, fmt.Errorf("a table: a scene file's tables are version 2's [[soft]] and [[rigid]]; the other keys are flat (key = value lines)")
	}
	return nil, fmt.Errorf("a %T: want a string, a number, a boolean or a list", v)
}

// keyPattern matches a line that sets a key (bare or quoted: key = ...)
// or opens a table ([key], [[key]]), the key in its first or second group.
var keyPattern = regexp.MustCompile(`^\s*(?:\[+\s*)?(?:"([^"]*)"|([A-Za-z0-9_-]+))\s*(?:=|\]+)`)

// keyLines returns the line of the scene file's text that first sets or
// opens each key, read once for all the messages.
func keyLines(text string) map[string]int {
	lines := map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		if m := keyPattern.FindStringSubmatch(line); m != nil {
			key := m[1] + m[2]
			if _, seen := lines[key]; !seen {
				lines[key] = i + 1
			}
		}
	}
	return lines
}
