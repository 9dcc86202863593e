package scenefile

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"softgrasp/physics/settings"
)

// The bodies of a version 2 scene file (docs/scenes.md): a custom
// scene (scenario = "custom", implied when bodies are listed) of soft and
// rigid bodies over the floor, run for duration seconds:
//
//	version = 2
//	duration = 2.0                 # s (with a gripper, its script's length)
//	gripper = true                 # the two-jaw gripper and its grasp-and-rotate script
//	[[soft]]                       # one or more
//	shape = "box"                  # box, cylinder, or mesh (with mesh = FILE, relative to this file)
//	size = [0.02, 0.02, 0.02]      # m: edges; a cylinder's [diameter, height]; a mesh's [largest extent]
//	up = "y"                       # a mesh: the axis of its file that points up (default the scene's mesh-up)
//	units = "mm"                   # a mesh: its coordinates' unit, taken as they are (instead of size)
//	dofs = 500
//	position = [0, 0, 0]           # m: the centre of its bottom face
//	young = 2e5                    # Pa, density in kg/m³: its own material (default the scene's)
//	[[rigid]]                      # any number
//	name = "weight"                # optional
//	shape = "box"                  # box, cylinder, or mesh (a closed surface, mesh = FILE)
//	size = [0.01, 0.01, 0.01]      # m: edges; a cylinder's [diameter, height]; a mesh's [largest extent]
//	position = [0, 0, 0.03]        # m: its centre (a mesh's centre of mass)
//	rotation = [0, 0, 45]          # degrees about x, then y, then z
//	mass = 0.01                    # kg; 0 or absent: kinematic, fixed
//	velocity = [0, 0, -0.1]        # m/s (dynamic bodies)
//	angular-velocity = [0, 0, 0]   # rad/s
//	[[waypoint]]                   # any number: the gripper's path (implies gripper = true)
//	time = 0.5                     # s, each after the one before
//	position = [0, 0, 0.03]        # m: the grasp centre, midway between the jaws' faces
//	yaw = 90                       # degrees about the world z, not wrapped (optional, 0)
//	opening = 0.05                 # m between the jaws' faces
//
// Every error names the file, the line, the table entry and the field.

// bodyKeys are the version 2 keys that are not flags.
var bodyKeys = map[string]bool{"soft": true, "rigid": true, "waypoint": true, "duration": true, "gripper": true}

// Bodies holds what a version 2 file lists.
type Bodies struct {
	Listed   bool // the file lists bodies, a duration or a gripper
	Soft     []settings.SoftSpec
	Rigid    []settings.RigidSpec
	Duration float64 // s; 0: not given
	Gripper  bool
	Path     []settings.Waypoint // the gripper's [[waypoint]]s
}

// Apply puts the listed bodies into cfg (nothing when none is listed): a
// custom scene's soft and rigid bodies, its duration and its gripper.
func (b *Bodies) Apply(cfg *settings.Scenario) {
	if !b.Listed {
		return
	}
	if b.Soft != nil {
		cfg.Soft = b.Soft
	}
	cfg.Rigid = b.Rigid
	if b.Duration > 0 {
		cfg.Duration = b.Duration
	}
	cfg.Gripper, cfg.GripperPath = b.Gripper, b.Path
}

// softFields and rigidFields are the keys of each table.
var (
	softFields     = []string{"shape", "mesh", "up", "units", "size", "dofs", "position", "young", "density"}
	rigidFields    = []string{"name", "shape", "mesh", "size", "position", "rotation", "mass", "velocity", "angular-velocity"}
	waypointFields = []string{"time", "position", "yaw", "opening"}
)

// read takes the tables and the duration out of the decoded file.
func (b *Bodies) read(raw map[string]any, path, text string, keyLine func(string) int) error {
	if d, ok := raw["duration"]; ok {
		v, ok := number(d)
		if !ok {
			return fmt.Errorf("%s:%d: duration: %v: want a number of seconds", path, keyLine("duration"), d)
		}
		b.Duration, b.Listed = v, true
		if !(v > 0 && v <= settings.MaxCustomSeconds) {
			return fmt.Errorf("%s:%d: duration = %g s: must be in (0, %g]", path, keyLine("duration"), v, settings.MaxCustomSeconds)
		}
	}
	g, gripperGiven := raw["gripper"]
	if gripperGiven {
		on, ok := g.(bool)
		if !ok {
			return fmt.Errorf("%s:%d: gripper: %v: want true or false", path, keyLine("gripper"), g)
		}
		b.Gripper, b.Listed = on, true
	}
	for _, table := range []string{"soft", "rigid", "waypoint"} {
		v, ok := raw[table]
		if !ok {
			continue
		}
		entries, ok := v.([]map[string]any)
		if !ok {
			return fmt.Errorf("%s:%d: %s: want a list of tables, [[%s]]", path, keyLine(table), table, table)
		}
		spans := tableSpans(text, table)
		for i, e := range entries {
			line := func(key string) int {
				if i < len(spans) {
					if l, ok := spans[i].keys[key]; ok {
						return l
					}
					return spans[i].header
				}
				return keyLine(table)
			}
			read := func() *fieldError { return b.readEntry(table, i, e, filepath.Dir(path)) }
			if table == "waypoint" {
				read = func() *fieldError { return b.readWaypoint(e) }
			}
			if err := read(); err != nil {
				return fmt.Errorf("%s:%d: %s[%d].%v", path, line(err.key), table, i+1, err)
			}
		}
		b.Listed = true
	}
	if len(b.Path) > 0 {
		if gripperGiven && !b.Gripper {
			return fmt.Errorf("%s:%d: gripper = false: the [[waypoint]] tables are the gripper's path", path, keyLine("gripper"))
		}
		b.Gripper = true
	}
	return nil
}

// readWaypoint reads one [[waypoint]] entry: time, position and opening
// given, yaw 0 unless given; checked against the waypoint before.
func (b *Bodies) readWaypoint(e tableEntry) *fieldError {
	if err := e.checkKeys(waypointFields, "a waypoint"); err != nil {
		return err
	}
	var w settings.Waypoint
	for _, f := range []struct {
		key  string
		dst  *float64
		unit string
		need bool
	}{{"time", &w.Time, "seconds", true}, {"yaw", &w.Yaw, "degrees", false}, {"opening", &w.Opening, "metres", true}} {
		if err := e.number(f.key, f.unit, f.need, f.dst); err != nil {
			return err
		}
	}
	var err *fieldError
	if w.Position, err = e.vec("position", 3, true); err != nil {
		return err
	}
	var prev *settings.Waypoint
	if n := len(b.Path); n > 0 {
		prev = &b.Path[n-1]
	}
	if err := w.Validate(prev); err != nil {
		return specError(err)
	}
	if len(b.Path) == settings.MaxWaypoints {
		return &fieldError{"", fmt.Sprintf("a gripper path has at most %d waypoints", settings.MaxWaypoints)}
	}
	b.Path = append(b.Path, w)
	return nil
}

// fieldError is an error about one field of a table entry.
type fieldError struct {
	key string
	msg string
}

func (e *fieldError) Error() string { return e.key + ": " + e.msg }

// tableEntry is one entry of a [[table]], as decoded.
type tableEntry map[string]any

// checkKeys names the first key, in sorted order, that is not one of
// fields, for an entry that is what ("a waypoint").
func (e tableEntry) checkKeys(fields []string, what string) *fieldError {
	for _, k := range slices.Sorted(maps.Keys(e)) {
		if !slices.Contains(fields, k) {
			return &fieldError{k, fmt.Sprintf("not a key of %s (%s)", what, strings.Join(fields, ", "))}
		}
	}
	return nil
}

// str reads the string at k, def when absent.
func (e tableEntry) str(k, def string) (string, *fieldError) {
	v, ok := e[k]
	if !ok {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", &fieldError{k, fmt.Sprintf("%v: want a string", v)}
	}
	return s, nil
}

// vec reads the list of n to 3 numbers at k (zeros beyond), missing an
// error when need is set.
func (e tableEntry) vec(k string, n int, need bool) ([3]float64, *fieldError) {
	var out [3]float64
	v, ok := e[k]
	if !ok {
		if need {
			return out, &fieldError{k, "missing"}
		}
		return out, nil
	}
	list, ok := v.([]any)
	if !ok || len(list) < n || len(list) > 3 {
		return out, &fieldError{k, fmt.Sprintf("%v: want a list of %d numbers", v, n)}
	}
	for j, x := range list {
		f, ok := number(x)
		if !ok {
			return out, &fieldError{k, fmt.Sprintf("%v: want a list of %d numbers", v, n)}
		}
		out[j] = f
	}
	return out, nil
}

// number reads the number of unit at k into dst, left as it is when
// absent (an error when need is set).
func (e tableEntry) number(k, unit string, need bool, dst *float64) *fieldError {
	v, ok := e[k]
	if !ok {
		if need {
			return &fieldError{k, "missing"}
		}
		return nil
	}
	x, ok := number(v)
	if !ok {
		return &fieldError{k, fmt.Sprintf("%v: want a number of %s", v, unit)}
	}
	*dst = x
	return nil
}

// readEntry reads entry i of table ("soft" or "rigid") and checks it.
func (b *Bodies) readEntry(table string, i int, e tableEntry, dir string) *fieldError {
	fields := softFields
	if table == "rigid" {
		fields = rigidFields
	}
	if err := e.checkKeys(fields, "a "+table+" body"); err != nil {
		return err
	}
	shape, err := e.str("shape", "")
	if err != nil {
		return err
	}
	if shape != settings.BoxShape && shape != settings.CylinderShape && shape != settings.MeshShape {
		want := fmt.Sprintf("%q, %q or %q (with mesh = FILE)", settings.BoxShape, settings.CylinderShape, settings.MeshShape)
		return &fieldError{"shape", fmt.Sprintf("%q: want %s", shape, want)}
	}
	mesh, err := e.str("mesh", "")
	if err != nil {
		return err
	}
	if mesh != "" && !filepath.IsAbs(mesh) {
		mesh = filepath.Join(dir, mesh) // relative to the scene file
	}
	n := settings.SizeFields(shape)
	_, hasUnits := e["units"]
	size, err := e.vec("size", n, !(table == "soft" && hasUnits))
	if err != nil {
		return err
	}
	pos, err := e.vec("position", 3, false)
	if err != nil {
		return err
	}
	if table == "soft" {
		s := settings.SoftSpec{Shape: shape, Mesh: mesh, Size: size, Position: pos, DOFs: 1000}
		if s.Up, err = e.str("up", ""); err != nil {
			return err
		}
		if s.Units, err = e.str("units", ""); err != nil {
			return err
		}
		if v, ok := e["dofs"]; ok {
			d, ok := v.(int64)
			if !ok {
				return &fieldError{"dofs", fmt.Sprintf("%v: want a whole number", v)}
			}
			s.DOFs = int(d)
		}
		for _, f := range []struct {
			key  string
			dst  *float64
			unit string
		}{{"young", &s.Young, "pascals"}, {"density", &s.Density, "kg/m³"}} {
			if err := e.number(f.key, f.unit, false, f.dst); err != nil {
				return err
			}
		}
		if verr := s.Validate(); verr != nil {
			return specError(verr)
		}
		b.Soft = append(b.Soft, s)
		return nil
	}
	r := settings.RigidSpec{Shape: shape, Mesh: mesh, Size: size, Position: pos}
	if r.Name, err = e.str("name", ""); err != nil {
		return err
	}
	if r.Rotation, err = e.vec("rotation", 3, false); err != nil {
		return err
	}
	if r.Velocity, err = e.vec("velocity", 3, false); err != nil {
		return err
	}
	if r.AngularVelocity, err = e.vec("angular-velocity", 3, false); err != nil {
		return err
	}
	if err := e.number("mass", "kilograms", false, &r.Mass); err != nil {
		return err
	}
	if verr := r.Validate(); verr != nil {
		return specError(verr)
	}
	name := r.BodyName(len(b.Rigid))
	taken := name == "floor"
	for j, o := range b.Rigid {
		taken = taken || o.BodyName(j) == name
	}
	if taken {
		return &fieldError{"name", fmt.Sprintf("%q: taken by another body", name)}
	}
	b.Rigid = append(b.Rigid, r)
	return nil
}

// specError is a spec's validation error as the field error of its
// table entry (settings.FieldError names the field).
func specError(err error) *fieldError {
	var fe *settings.FieldError
	if errors.As(err, &fe) {
		return &fieldError{fe.Field, fe.Msg}
	}
	return &fieldError{"", err.Error()}
}

// number reads a TOML integer or float.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// tableSpan is one [[table]] entry of the file: its header's line and
// the lines of the keys it sets.
type tableSpan struct {
	header int
	keys   map[string]int
}

// tableHeader matches a [[name]] or [name] line.
var tableHeader = regexp.MustCompile(`^\s*\[\[?\s*([A-Za-z0-9_-]+)\s*\]\]?`)

// tableSpans returns the entries of the array of tables name, in order.
func tableSpans(text, name string) []tableSpan {
	var out []tableSpan
	in := false
	for i, line := range strings.Split(text, "\n") {
		if m := tableHeader.FindStringSubmatch(line); m != nil {
			in = m[1] == name
			if in {
				out = append(out, tableSpan{header: i + 1, keys: map[string]int{}})
			}
			continue
		}
		if in {
			if m := keyPattern.FindStringSubmatch(line); m != nil {
				k := m[1] + m[2]
				if _, seen := out[len(out)-1].keys[k]; !seen {
					out[len(out)-1].keys[k] = i + 1
				}
			}
		}
	}
	return out
}
