package settings

import (
	"fmt"
	"slices"

	"softgrasp/physics/rigid"
)

// Every choice is written by its name in JSON (a recording's
// configuration and commands), never by its number: the order of a
// choice's values is free, and each choice's zero value is its default
// (DefaultScenario). A recording of the format's first version, which
// wrote numbers, is read through record's migration.

func marshalChoice(names []string, typ string, v int) ([]byte, error) {
	if v < 0 || v >= len(names) {
		return nil, fmt.Errorf("%s(%d) has no name", typ, v)
	}
	return []byte(names[v]), nil
}

func unmarshalChoice[T ~int](names []string, typ string, text []byte, v *T) error {
	i := slices.Index(names, string(text))
	if i < 0 {
		return fmt.Errorf("unknown %s %q: want %s", typ, text, orList(names))
	}
	*v = T(i)
	return nil
}

func (s Scheme) MarshalText() ([]byte, error)  { return marshalChoice(schemeNames, "Scheme", int(s)) }
func (s *Scheme) UnmarshalText(b []byte) error { return unmarshalChoice(schemeNames, "Scheme", b, s) }

func (s Solver) MarshalText() ([]byte, error)  { return marshalChoice(solverNames, "Solver", int(s)) }
func (s *Solver) UnmarshalText(b []byte) error { return unmarshalChoice(solverNames, "Solver", b, s) }

func (l Linearisation) MarshalText() ([]byte, error) {
	return marshalChoice(linearisationNames, "Linearisation", int(l))
}
func (l *Linearisation) UnmarshalText(b []byte) error {
	return unmarshalChoice(linearisationNames, "Linearisation", b, l)
}

func (m FastMapping) MarshalText() ([]byte, error) {
	return marshalChoice(fastMappingNames, "FastMapping", int(m))
}
func (m *FastMapping) UnmarshalText(b []byte) error {
	return unmarshalChoice(fastMappingNames, "FastMapping", b, m)
}

func (t TurnStart) MarshalText() ([]byte, error) {
	return marshalChoice(turnStartNames, "TurnStart", int(t))
}
func (t *TurnStart) UnmarshalText(b []byte) error {
	return unmarshalChoice(turnStartNames, "TurnStart", b, t)
}

func (p Precision) MarshalText() ([]byte, error) {
	return marshalChoice(precisionNames, "Precision", int(p))
}
func (p *Precision) UnmarshalText(b []byte) error {
	return unmarshalChoice(precisionNames, "Precision", b, p)
}

func (f Fall) MarshalText() ([]byte, error)    { return marshalChoice(fallNames, "Fall", int(f)) }
func (f *Fall) UnmarshalText(b []byte) error   { return unmarshalChoice(fallNames, "Fall", b, f) }
func (u UpAxis) MarshalText() ([]byte, error)  { return marshalChoice(upAxisNames, "UpAxis", int(u)) }
func (u *UpAxis) UnmarshalText(b []byte) error { return unmarshalChoice(upAxisNames, "UpAxis", b, u) }
func (m Mesher) MarshalText() ([]byte, error)  { return marshalChoice(mesherNames, "Mesher", int(m)) }
func (m *Mesher) UnmarshalText(b []byte) error { return unmarshalChoice(mesherNames, "Mesher", b, m) }

func (v VolumeMesh) MarshalText() ([]byte, error) {
	return marshalChoice(volumeMeshNames, "VolumeMesh", int(v))
}
func (v *VolumeMesh) UnmarshalText(b []byte) error {
	return unmarshalChoice(volumeMeshNames, "VolumeMesh", b, v)
}

func (a GraspAim) MarshalText() ([]byte, error) {
	return marshalChoice(graspAimNames, "GraspAim", int(a))
}
func (a *GraspAim) UnmarshalText(b []byte) error {
	return unmarshalChoice(graspAimNames, "GraspAim", b, a)
}

func (l GraspLoop) MarshalText() ([]byte, error) {
	return marshalChoice(graspLoopNames, "GraspLoop", int(l))
}
func (l *GraspLoop) UnmarshalText(b []byte) error {
	return unmarshalChoice(graspLoopNames, "GraspLoop", b, l)
}

// jawStyleNames are the jaw styles' names, by value (rigid.JawStyle).
var jawStyleNames = []string{rigid.RoundJaws: "round", rigid.FlatJaws: "flat"}
