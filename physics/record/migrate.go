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
// recording with it on is refused). A run-script command's aim is
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
		"DampingRate":         {"velocity", "stretch"},
		"CompliancePrecision": {"double", "single"},
		"AlarmFall":           {"gravity", "last-step"},
		"BudgetFall":          {"gravity", "last-step"},
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
	var err error
	if cfg, ok := l["config"].(map[string]any); ok {
		err = migrateScenario(cfg)
	}
	if l["command"] == "run-script" {
		// Version 1 wrote the aim as a number and no aim for "once".
		args, _ := l["args"].(map[string]any)
		if args == nil {
			args = map[string]any{}
			l["args"] = args
		}
		err = nameChoices(args, map[string][]string{"Aim": v1Choices["scenario"]["GraspAim"]})
	}
	if args, ok := l["args"].(map[string]any); ok && err == nil {
		switch l["command"] {
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
