package ui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// FieldID names a field of the panels: the index of its setting among
// the parameter table's entries with a panel label (fieldParams). A
// number is a text field, a choice a combo of its names.
type FieldID int

// fieldParams are the settings shown as numeric fields, in table order
// (settings.Params with a Label). Each edits one value of the working
// configuration and is applied live by the command its scope calls for
// (commandFor).
var fieldParams = func() []*settings.Param {
	var ps []*settings.Param
	for _, p := range settings.Params() {
		if p.Label != "" {
			ps = append(ps, p)
		}
	}
	return ps
}()

// fieldCount is the number of numeric fields.
var fieldCount = FieldID(len(fieldParams))

// FieldOf returns the field of the setting key (settings.Param.Key), or
// −1 when it has none.
func FieldOf(key string) FieldID {
	for i, p := range fieldParams {
		if p.Key == key {
			return FieldID(i)
		}
	}
	return -1
}

// fieldsOn returns the fields of a panel's grid, in table order.
func fieldsOn(panel settings.Panel) []FieldID {
	var ids []FieldID
	for i, p := range fieldParams {
		if p.Panel == panel {
			ids = append(ids, FieldID(i))
		}
	}
	return ids
}

// numberField is one numeric text field: its setting and its current
// text and error.
type numberField struct {
	p    *settings.Param
	text string
	err  string
}

// newFields returns the fields in FieldID order.
func newFields() []*numberField {
	fs := make([]*numberField, fieldCount)
	for i, p := range fieldParams {
		fs[i] = &numberField{p: p}
	}
	return fs
}

// format writes the field's value of cfg as it is shown.
func (f *numberField) format(cfg *settings.Scenario) string {
	if f.p.Kind == settings.Choice {
		return f.p.Format(f.p.Get(cfg))
	}
	v := f.p.Get(cfg) * f.p.PanelScale()
	if f.p.Kind == settings.Integer {
		return strconv.Itoa(int(v))
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// parse reads the shown value of text and returns it in SI units.
func (f *numberField) parse(text string) (float64, error) {
	v, err := f.p.Parse(text)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", f.p.Label, err)
	}
	return v / f.p.PanelScale(), nil
}

// refreshFields shows the working configuration's values and clears the
// fields' errors.
func (s *State) refreshFields() {
	for _, f := range s.fields {
		f.text, f.err = f.format(&s.Config), ""
	}
}

// FieldText returns the text and the error ("" when valid) of a field.
func (s *State) FieldText(id FieldID) (text, err string) {
	if id < 0 || id >= fieldCount {
		return "", ""
	}
	return s.fields[id].text, s.fields[id].err
}

// CommitField parses text as the new value of field id, validates the
// command that applies the configuration it gives (frame.Command.Validate)
// and only then sends it. A bad value sends nothing: the error is returned and
// kept for the panel to show in red under the field; the field keeps the
// text as typed so that the user can correct it.
func (s *State) CommitField(id FieldID, text string, out Sender) error {
	if id < 0 || id >= fieldCount {
		return fmt.Errorf("numeric field %d does not exist", int(id))
	}
	f := s.fields[id]
	f.text = text
	err := s.commit(f, text, out)
	if err == nil && f.p.Key == "dofs" {
		s.DOFsChosen, s.DOFsNote = true, ""
	}
	f.err = ""
	if err != nil {
		f.err = err.Error()
	}
	return err
}

func (s *State) commit(f *numberField, text string, out Sender) error {
	v, err := f.parse(text)
	if err != nil {
		return err
	}
	cfg := s.Config
	f.p.Set(&cfg, v)
	if cfg.Equal(s.Config) {
		f.text = f.format(&cfg)
		return nil // unchanged: nothing to apply
	}
	c := f.commandFor(cfg)
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%s = %s: %w", f.p.Label, strings.TrimSpace(text), err)
	}
	if err := send(out, c); err != nil {
		return err
	}
	s.Config = cfg
	f.text = f.format(&cfg)
	return nil
}

// commandFor returns the command that applies cfg's value of the field:
// the physics settings at the next step, the spin speed at the script's
// next run, the grip force at once, any other scene setting by rebuilding
// the scene.
func (f *numberField) commandFor(cfg settings.Scenario) frame.Command {
	switch {
	case f.p.Scope != settings.SceneScope:
		return frame.SetSettings{Settings: cfg.Physics}
	case f.p.NextRun && f.p.Key == "grip-force":
		return frame.SetGripForce{Force: cfg.GripForce}
	case f.p.NextRun:
		return frame.SetOmega{Omega: cfg.Omega}
	}
	return frame.SetScene{Config: cfg}
}

// errBusy is what a refused command reports.
var errBusy = errors.New("the physics loop is busy (command queue full): try again")

// send queues c, or reports that it could not.
func send(out Sender, c frame.Command) error {
	if out == nil || !out.Send(c) {
		return errBusy
	}
	return nil
}
