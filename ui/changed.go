package ui

import (
	"fmt"
	"strings"

	"softgrasp/physics/settings"
)

// Settings that differ from their defaults: the panels mark their labels
// (changedColour, the default in the tooltip), and Reset, which rebuilds
// the scene from the running configuration and so keeps them, says so.

// changedColour marks a field whose value is not its scenario's default.
var changedColour = colourWarn

// defaultOf returns the field's default for the scenario of cfg, shown as
// the panel shows values.
func (f *numberField) defaultOf(cfg *settings.Scenario) string {
	def := settings.DefaultScenario(cfg.Kind)
	return f.format(&def)
}

// changed reports whether the field's value in cfg differs from its
// scenario's default, as shown.
func (f *numberField) changed(cfg *settings.Scenario) bool {
	return f.format(cfg) != f.defaultOf(cfg)
}

// ChangedSettings lists the panels' fields whose values in cfg differ
// from the scenario's defaults, "label value (default d)" each.
func (s *State) ChangedSettings(cfg settings.Scenario) []string {
	var out []string
	for _, f := range s.fields {
		if f.changed(&cfg) {
			out = append(out, fmt.Sprintf("%s %s (default %s)", f.p.Label, f.format(&cfg), f.defaultOf(&cfg)))
		}
	}
	return out
}

// resetNote says what a reset keeps: the settings changed from the
// defaults, or "" when none is.
func (s *State) resetNote() string {
	changed := s.ChangedSettings(s.Config)
	if len(changed) == 0 {
		return ""
	}
	return "Reset keeps what you changed: " + strings.Join(changed, ", ") + "."
}
