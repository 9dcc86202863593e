package ui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// FieldID names a numeric field of the panels.
type FieldID int

// The numeric fields. Each edits one value of the working configuration
// and is applied live by the command named in its comment.
const (
	FieldTimeStep  FieldID = iota // h, ms (SetSettings)
	FieldNewton                   // K (SetSettings)
	FieldNewtonTol                // Newton direction tolerance, rad (SetSettings)
	FieldPGS                      // PGS sweeps per Newton iteration (SetSettings)
	FieldPGSTol                   // PGS relative tolerance (SetSettings)
	FieldFriction                 // μ (SetSettings)
	FieldYoung                    // E, kPa (SetSettings)
	FieldPoisson                  // ν (SetSettings)
	FieldDOFs                     // mesh resolution (SetScene: a rebuild)
	FieldOmega                    // ω of the grasp-and-rotate script, rad/s (SetOmega)
	fieldCount
)

// numberField is one numeric text field: its label, how its text maps to
// the configuration, and its current text and error.
type numberField struct {
	label   string
	integer bool
	// scale converts the stored SI value to the shown one (h in ms: 1000).
	scale float64
	get   func(c *settings.Scenario) float64
	set   func(c *settings.Scenario, v float64)
	// command builds the command that applies cfg; nil for the physics
	// settings' fields, which send SetSettings.
	command func(cfg settings.Scenario) frame.Command
	text    string
	err     string
}

// newFields returns the fields in FieldID order.
func newFields() []*numberField {
	phys := func(get func(c *settings.Scenario) *float64) (func(*settings.Scenario) float64, func(*settings.Scenario, float64)) {
		return func(c *settings.Scenario) float64 { return *get(c) }, func(c *settings.Scenario, v float64) { *get(c) = v }
	}
	integer := func(get func(c *settings.Scenario) *int) (func(*settings.Scenario) float64, func(*settings.Scenario, float64)) {
		return func(c *settings.Scenario) float64 { return float64(*get(c)) }, func(c *settings.Scenario, v float64) { *get(c) = int(v) }
	}
	fs := make([]*numberField, fieldCount)
	add := func(id FieldID, label string, isInt bool, scale float64, get func(*settings.Scenario) float64, set func(*settings.Scenario, float64)) {
		fs[id] = &numberField{label: label, integer: isInt, scale: scale, get: get, set: set}
	}
	g, st := phys(func(c *settings.Scenario) *float64 { return &c.Physics.TimeStep })
	add(FieldTimeStep, "h (ms)", false, 1e3, g, st)
	g, st = integer(func(c *settings.Scenario) *int { return &c.Physics.NewtonIterations })
	add(FieldNewton, "Newton K", true, 1, g, st)
	g, st = phys(func(c *settings.Scenario) *float64 { return &c.Physics.NewtonTolerance })
	add(FieldNewtonTol, "Newton tol (rad)", false, 1, g, st)
	g, st = integer(func(c *settings.Scenario) *int { return &c.Physics.PGSIterations })
	add(FieldPGS, "PGS sweeps", true, 1, g, st)
	g, st = phys(func(c *settings.Scenario) *float64 { return &c.Physics.PGSTolerance })
	add(FieldPGSTol, "PGS tol", false, 1, g, st)
	g, st = phys(func(c *settings.Scenario) *float64 { return &c.Physics.Friction })
	add(FieldFriction, "friction μ", false, 1, g, st)
	g, st = phys(func(c *settings.Scenario) *float64 { return &c.Physics.Material.YoungModulus })
	add(FieldYoung, "E (kPa)", false, 1e-3, g, st)
	g, st = phys(func(c *settings.Scenario) *float64 { return &c.Physics.Material.PoissonRatio })
	add(FieldPoisson, "Poisson ν", false, 1, g, st)
	g, st = integer(func(c *settings.Scenario) *int { return &c.TargetDOFs })
	add(FieldDOFs, "DOFs", true, 1, g, st)
	g, st = phys(func(c *settings.Scenario) *float64 { return &c.Omega })
	add(FieldOmega, "ω (rad/s)", false, 1, g, st)
	fs[FieldOmega].command = func(cfg settings.Scenario) frame.Command { return frame.SetOmega{Omega: cfg.Omega} }
	fs[FieldDOFs].command = func(cfg settings.Scenario) frame.Command { return frame.SetScene{Config: cfg} }
	return fs
}

// format writes the field's value of cfg as it is shown.
func (f *numberField) format(cfg *settings.Scenario) string {
	v := f.get(cfg) * f.scale
	if f.integer {
		return strconv.Itoa(int(v))
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// parse reads the shown value of text and returns it in SI units.
func (f *numberField) parse(text string) (float64, error) {
	t := strings.TrimSpace(text)
	if f.integer {
		n, err := strconv.Atoi(t)
		if err != nil {
			return 0, fmt.Errorf("%s: %q is not a whole number", f.label, text)
		}
		return float64(n) / f.scale, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a number", f.label, text)
	}
	return v / f.scale, nil
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
	f.set(&cfg, v)
	if cfg == s.Config {
		f.text = f.format(&cfg)
		return nil // unchanged: nothing to apply
	}
	c := f.commandFor(cfg)
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%s = %s: %w", f.label, strings.TrimSpace(text), err)
	}
	if err := send(out, c); err != nil {
		return err
	}
	s.Config = cfg
	f.text = f.format(&cfg)
	return nil
}

// commandFor returns the command that applies cfg's value of the field.
func (f *numberField) commandFor(cfg settings.Scenario) frame.Command {
	if f.command != nil {
		return f.command(cfg)
	}
	return frame.SetSettings{Settings: cfg.Physics}
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
