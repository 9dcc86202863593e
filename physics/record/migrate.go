package record

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Version 1 of the format wrote each choice of the settings as the number
// of its value in that version's order, and settings added after a
// recording was made are absent from it; a choice absent or numbered
// meant what its value 0 or that number meant then. Version 2 writes
// choices by name. migrateV1 rewrites a version 1 line as the version 2
// line of the same run: the numbers become the names they stood for
// (v1Choices), an absent choice the name of that version's value 0, an
// absent or zero AlarmFallMargin its value then (1.5), and the test
// switch FreezeMapping, which the settings no longer hold, is dropped (a
// recording with it on is refused); so are the settings whose other
// modes were removed (v1Removed), after checking that the recording ran
// the mode that is left. A run-script command's aim is
// migrated as the scenario's GraspAim.

// v1Choices names each choice's values in the order of version 1: what
// the numbers of a version 1 recording mean. Frozen: never edit it to
// follow the enums.
var v1Choices = map[string]map[string][]string{
	"settings": {
		"Scheme":              {"fast", "standard"},
		"Solver":              {"exact", "async"},
		"FirstLinearisation":  {"end", "start"},
		"FastMapping":         {"held", "remapped"},
		"TurnStart":           {"linearised", "predicted"},
		"CompliancePrecision": {"double", "single"},
		"AlarmFall":           {"gravity", "last-step"},
	},
	"scenario": {
		"MeshUp":     {"z", "y", "auto"},
		"Mesher":     {"grid", "tetgen"},
		"VolumeMesh": {"budget", "as-is"},
		"GraspAim":   {"once", "follow"},
		"GraspLoop":  {"once", "repeat"},
		"JawStyle":   {"flat", "round"},
	},
}

// v1Removed are the settings of version 1 whose other modes were removed:
// a recording that ran the removed mode (its number, or its absence when
// that mode was value 0) is refused, one that ran the kept one reads as
// it ran.
var v1Removed = []struct {
	key   string
	names []string // by version 1 number
	kept  string
	why   string
}{
	{"DampingRate", []string{"velocity", "stretch"}, "stretch",
		"the stiffness damping on the velocity, which shrank a spinning body by 2 %"},
	{"BudgetFall", []string{"gravity", "last-step"}, "last-step",
		"the contact budget's reach by gravity's whole fall, which let a resting body sink 0.3 mm"},
}

// v1AlarmFallMargin is the alarm margin of the builds before the setting.
const v1AlarmFallMargin = 1.5

// migrateV1 rewrites one version 1 line (after the header) as version 2.
func migrateV1(text string) (string, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var l map[string]any
	if err := dec.Decode(&l); err != nil {
		return text, nil // the strict reader says what is wrong
	}
	cfg, isConfig := l["config"].(map[string]any)
	command, _ := l["command"].(string)
	if !isConfig && command != "run-script" && command != "set-settings" && command != "set-scene" {
		return text, nil // checkpoints, the footer, commands without settings: as they are
	}
	var err error
	if isConfig {
		err = migrateScenario(cfg)
	}
	if command == "run-script" {
		// Version 1 wrote the aim as a number and no aim for "once".
		args, _ := l["args"].(map[string]any)
		if args == nil {
			args = map[string]any{}
			l["args"] = args
		}
		err = nameChoices(args, map[string][]string{"Aim": v1Choices["scenario"]["GraspAim"]})
	}
	if args, ok := l["args"].(map[string]any); ok && err == nil {
		switch command {
		case "set-settings":
			if s, ok := args["Settings"].(map[string]any); ok {
				err = migrateSettings(s)
			}
		case "set-scene":
			if cfg, ok := args["Config"].(map[string]any); ok {
				err = migrateScenario(cfg)
			}
		}
	}
	if err != nil {
		return "", err
	}
	out, err := json.Marshal(l)
	if err != nil {
		return "", fmt.Errorf("version 1 line: %w", err)
	}
	return string(out), nil
}

func migrateScenario(cfg map[string]any) error {
	if err := nameChoices(cfg, v1Choices["scenario"]); err != nil {
		return err
	}
	if s, ok := cfg["Physics"].(map[string]any); ok {
		return migrateSettings(s)
	}
	return nil
}

func migrateSettings(s map[string]any) error {
	if on, _ := s["FreezeMapping"].(bool); on {
		return fmt.Errorf("recorded with FreezeMapping, a switch of the schemes' equality test that recordings do not replay")
	}
	delete(s, "FreezeMapping")
	for _, r := range v1Removed {
		name := r.names[0]
		if v, ok := s[r.key]; ok {
			n, _ := v.(json.Number)
			i, err := n.Int64()
			if err != nil || i < 0 || int(i) >= len(r.names) {
				return fmt.Errorf("version 1 %s = %v: want 0 to %d", r.key, v, len(r.names)-1)
			}
			name = r.names[i]
		}
		if name != r.kept {
			return fmt.Errorf("recorded with %s %s: %s, a mode this softgrasp no longer has; replay it with the softgrasp that recorded it", r.key, name, r.why)
		}
		delete(s, r.key)
	}
	if m, ok := s["AlarmFallMargin"].(json.Number); !ok || m.String() == "0" {
		s["AlarmFallMargin"] = json.Number(fmt.Sprint(v1AlarmFallMargin))
	}
	return nameChoices(s, v1Choices["settings"])
}

// nameChoices replaces each choice's number in m by its version 1 name,
// and gives an absent choice the name of its version 1 value 0.
func nameChoices(m map[string]any, choices map[string][]string) error {
	for key, names := range choices {
		v, ok := m[key]
		if !ok {
			m[key] = names[0]
			continue
		}
		n, isNum := v.(json.Number)
		if !isNum {
			return fmt.Errorf("version 1 %s = %v: want a number", key, v)
		}
		i, err := n.Int64()
		if err != nil || i < 0 || int(i) >= len(names) {
			return fmt.Errorf("version 1 %s = %s: want 0 to %d", key, n, len(names)-1)
		}
		m[key] = names[i]
	}
	return nil
}
