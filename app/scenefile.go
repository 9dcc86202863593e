package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"softgrasp/physics/settings"
)

// Scene files (README, "Scene files"): a scene written by hand in TOML,
// version 1, whose keys are the scene flags of `softgrasp headless` with
// their values in SI units (metres, seconds, kilograms, newtons, radians),
// e.g.
//
//	version = 1
//	scenario = "grasp-rotate"
//	mesh = "bean.msh"          # relative to the scene file
//	dofs = 3000
//	mu = 0.8
//	attach = ["above:x=0.015"] # repeatable flags take a list
//
// -scene FILE loads one; flags given on the command line override its
// keys. Every value goes through the flag's own parsing and the
// configuration's validation, so a bad one is refused in one line naming
// the file, the line, the key and the allowed range.

// sceneFileVersion is the newest version this build reads: version 1
// (the flags as keys), and version 2, which adds the bodies of a custom
// scene (scenebodies.go): [[soft]] and [[rigid]] tables and duration.
const sceneFileVersion = 2

// notInSceneFiles are the flags that say how to run or report rather than
// what the scene is: a scene file cannot set them.
var notInSceneFiles = map[string]bool{
	"scene": true, "steps": true, "csv": true, "contacts": true, "json": true, "cpuprofile": true,
	"threads": true, "lambda": true, "record": true, "ab": true, "backend": true,
	"frames": true, "screenshot": true, "video": true, "shot-time": true, "pace": true,
	"width": true, "height": true, "max-fps": true, "vsync": true,
}

// sceneKeys are the keys a scene file set, with their lines, so that a
// value the configuration's validation refuses is named by its place in
// the file (where).
type sceneKeys struct {
	path  string
	lines map[string]int
	// bodies are a version 2 file's [[soft]] and [[rigid]] tables and its
	// duration (listed: the file has any of them).
	bodies sceneBodies
}

// where rewrites err, when it names a parameter the scene file set (a
// value out of range, or a choice that names none), as "file:line: key:
// ...".
func (k sceneKeys) where(err error) error {
	var re *settings.RangeError
	if errors.As(err, &re) {
		if line, ok := k.lines[re.Param.Key]; ok {
			return fmt.Errorf("%s:%d: %s: %w", k.path, line, re.Param.Key, re)
		}
	}
	var ce *choiceError
	if errors.As(err, &ce) {
		if line, ok := k.lines[ce.key]; ok {
			return fmt.Errorf("%s:%d: %s: %w", k.path, line, ce.key, ce.err)
		}
	}
	return err
}

// loadSceneFile sets the flags of fs from the scene file path, skipping
// the keys in given (set on the command line) and adding the others to
// it, so that the scenario's preset keeps what neither set.
func loadSceneFile(fs *flag.FlagSet, path string, given map[string]bool) (sceneKeys, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return sceneKeys{}, fmt.Errorf("-scene: %w", err)
	}
	return applySceneFile(fs, path, string(data), given)
}

// applySceneFile is loadSceneFile on the file's text.
func applySceneFile(fs *flag.FlagSet, path, text string, given map[string]bool) (sceneKeys, error) {
	set := sceneKeys{path: path, lines: map[string]int{}}
	err := applySceneKeys(fs, path, text, given, set.lines, &set.bodies)
	return set, err
}

func applySceneKeys(fs *flag.FlagSet, path, text string, given map[string]bool, lines map[string]int, bodies *sceneBodies) error {
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return fmt.Errorf("%s: %v", path, err)
	}
	lineOf := keyLines(text)
	keyLine := func(key string) int {
		if l, ok := lineOf[key]; ok {
			return l
		}
		return 1
	}
	at := func(key string) string { return fmt.Sprintf("%s:%d: %s", path, keyLine(key), key) }
	v, ok := raw["version"]
	if !ok {
		return fmt.Errorf("%s: no version: a scene file starts with version = %d", path, sceneFileVersion)
	}
	version, ok := v.(int64)
	if !ok || version < 1 || version > sceneFileVersion {
		return fmt.Errorf("%s: version = %v: this build reads versions 1 and %d", at("version"), v, sceneFileVersion)
	}
	if version >= 2 {
		if err := bodies.read(raw, path, text, keyLine); err != nil {
			return err
		}
		if bodies.listed {
			if _, set := raw["scenario"]; !set && !given["scenario"] {
				if err := fs.Set("scenario", string(settings.Custom)); err != nil {
					return err
				}
				given["scenario"] = true
			}
		}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		if k != "version" && !(version >= 2 && bodyKeys[k]) {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keyLine(keys[i]) < keyLine(keys[j]) })
	for _, key := range keys {
		fl := fs.Lookup(key)
		if fl == nil || notInSceneFiles[key] {
			return fmt.Errorf("%s: not a scene key (the scene flags of softgrasp headless -h, without the leading -)", at(key))
		}
		if given[key] {
			continue // the command line wins
		}
		values, err := sceneValues(raw[key])
		if err != nil {
			return fmt.Errorf("%s: %v", at(key), err)
		}
		_, list := raw[key].([]any)
		if _, repeatable := fl.Value.(*attachFlag); list && !repeatable {
			return fmt.Errorf("%s: takes one value, not a list", at(key))
		}
		for _, s := range values {
			if key == "mesh" && s != "" && !filepath.IsAbs(s) {
				s = filepath.Join(filepath.Dir(path), s) // relative to the scene file
			}
			if err := fs.Set(key, s); err != nil {
				return fmt.Errorf("%s: invalid value %q: %v", at(key), s, err)
			}
		}
		given[key], lines[key] = true, keyLine(key)
	}
	return nil
}

// sceneValues turns a TOML value into the flag's text: a string, a
// number, a boolean, or a list of those for a repeatable flag.
func sceneValues(v any) ([]string, error) {
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
			s, err := sceneValues(e)
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

// viewerSceneConfig reads a scene file as `softgrasp -scene FILE` would:
// the viewer's defaults (the asynchronous solver) for what the file does
// not set. The viewer loads one typed in the mesh-file field or dropped.
func viewerSceneConfig(path string) (settings.Scenario, error) {
	var f viewerFlags
	fs := flag.NewFlagSet("softgrasp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	if err := fs.Set("scene", path); err != nil {
		return settings.Scenario{}, err
	}
	if err := f.scene.noteGiven(fs); err != nil {
		return settings.Scenario{}, err
	}
	opt, err := f.options()
	return opt.config, err
}
