package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"softgrasp/physics/scenefile"
	"softgrasp/physics/settings"
)

// Scene files (docs/scenes.md, read by physics/scenefile): -scene FILE
// loads one; flags given on the command line override its keys. Every
// flat key goes through its flag's own parsing and the configuration's
// validation, so a bad value is refused in one line naming the file, the
// line, the key and the allowed range.

// notInSceneFiles are the flags that say how to run or report rather than
// what the scene is: a scene file cannot set them.
var notInSceneFiles = map[string]bool{
	"scene": true, "steps": true, "csv": true, "contacts": true, "json": true, "cpuprofile": true,
	"threads": true, "blas-threads": true, "lambda": true, "record": true, "ab": true, "backend": true,
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
	// duration (Listed: the file has any of them).
	bodies scenefile.Bodies
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
	file, err := scenefile.Parse(path, text)
	if err != nil {
		return set, err
	}
	set.bodies = file.Bodies
	if file.Bodies.Listed && !given["scenario"] && !hasKey(file, "scenario") {
		if err := fs.Set("scenario", string(settings.Custom)); err != nil {
			return set, err
		}
		given["scenario"] = true
	}
	for _, key := range file.Keys {
		fl := fs.Lookup(key.Name)
		if fl == nil || notInSceneFiles[key.Name] {
			return set, fmt.Errorf("%s: not a scene key (the scene flags of softgrasp headless -h, without the leading -)", file.At(key.Name))
		}
		if given[key.Name] {
			continue // the command line wins
		}
		values, err := file.Values(key)
		if err != nil {
			return set, fmt.Errorf("%s: %v", file.At(key.Name), err)
		}
		if _, repeatable := fl.Value.(*attachFlag); key.List() && !repeatable {
			return set, fmt.Errorf("%s: takes one value, not a list", file.At(key.Name))
		}
		for _, s := range values {
			if err := fs.Set(key.Name, s); err != nil {
				return set, fmt.Errorf("%s: invalid value %q: %v", file.At(key.Name), s, err)
			}
		}
		given[key.Name], set.lines[key.Name] = true, key.Line
	}
	return set, nil
}

// hasKey reports whether the file sets the flat key name.
func hasKey(file *scenefile.File, name string) bool {
	for _, k := range file.Keys {
		if k.Name == name {
			return true
		}
	}
	return false
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
