package main

import (
	"strconv"

	"softgrasp/physics"
	"softgrasp/physics/collide"
)

// contactsLog writes the -contacts CSV: one row per contact per step, the
// contact forces as users of contact simulators read them out (docs/headless.md,
// "Contact forces out"). Units are SI: metres, newtons, seconds.
type contactsLog struct {
	csvFile
	recs []physics.ContactRecord
	row  []string
}

// contactsHeader names the columns. body_a is the soft body, body_b the
// rigid one; the normal points from body_b towards body_a, and the forces
// are those on body_a (body_b gets the opposite).
var contactsHeader = []string{"step", "time_s", "body_a", "body_b", "kind",
	"x_m", "y_m", "z_m", "nx", "ny", "nz", "normal_force_n",
	"friction_x_n", "friction_y_n", "friction_z_n", "gap_m", "state"}

func newContactsLog(path string) (*contactsLog, error) {
	c, err := createCSV("contacts", path, contactsHeader)
	if err != nil {
		return nil, err
	}
	return &contactsLog{csvFile: c, row: make([]string, len(contactsHeader))}, nil
}

// write appends the rows of the step st just taken by sim.
func (l *contactsLog) write(sim *physics.Simulation, st *physics.StepStats) error {
	l.recs = sim.AppendContacts(l.recs[:0])
	bodies := sim.Bodies()
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }
	for _, r := range l.recs {
		body := func(i int) string {
			if i >= 0 && i < len(bodies) && bodies[i].Name != "" {
				return bodies[i].Name
			}
			return strconv.Itoa(i)
		}
		soft, name := "soft", body(r.Body)
		switch {
		case r.Body < 0: // between two parts of the soft body
			soft, name = "soft:"+strconv.Itoa(r.Part), "soft"
		case r.Kind == collide.RigidRigid: // the other body against the dynamic one
			soft = body(r.Other)
		}
		row := l.row[:0]
		row = append(row, strconv.Itoa(st.Step), g(st.Time), soft, name, r.Kind.String(),
			g(r.Point.X), g(r.Point.Y), g(r.Point.Z), g(r.Normal.X), g(r.Normal.Y), g(r.Normal.Z),
			g(r.NormalForce), g(r.Friction.X), g(r.Friction.Y), g(r.Friction.Z), g(r.Gap), r.State.String())
		if err := l.csvFile.write(row); err != nil {
			return err
		}
	}
	return nil
}
