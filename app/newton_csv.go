package main

import (
	"strconv"

	"softgrasp/physics"
	"softgrasp/physics/stage"
)

// newtonLog writes the -newton-csv file: one row per Newton iteration per
// step, what the iteration measured and spent (docs/method.md, "When
// Newton stops" and "Inexact Newton"). Units are SI: radians, metres,
// milliseconds for the times.
type newtonLog struct {
	csvFile
	row []string
}

// newtonHeader names the columns: k counts from 0; the residuals are those
// of the iterate the iteration started from (0 where not measured), the
// changes those its re-linearisation and its correction made.
var newtonHeader = []string{"step", "time_s", "k", "direction_change_rad", "position_change_m",
	"elastic_residual_m", "contact_residual_m", "pgs_tolerance", "pgs_sweeps", "pgs_error",
	"rebuild_w_ms", "pgs_ms", "corr_ms", "elastic_ms"}

func newNewtonLog(path string) (*newtonLog, error) {
	c, err := createCSV("newton-csv", path, newtonHeader)
	if err != nil {
		return nil, err
	}
	return &newtonLog{csvFile: c, row: make([]string, len(newtonHeader))}, nil
}

// write appends the rows of the step st.
func (l *newtonLog) write(st *physics.StepStats) error {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
	for k, r := range st.Newton {
		l.row = append(l.row[:0], strconv.Itoa(st.Step), g(st.Time), strconv.Itoa(k),
			g(r.DirectionChange), g(r.PositionChange), g(r.ElasticResidual), g(r.ContactResidual),
			g(r.PGSTolerance), strconv.Itoa(r.PGSIterations), g(r.PGSError),
			g(stage.Millis(r.RebuildW)), g(stage.Millis(r.PGS)), g(stage.Millis(r.Corr)), g(stage.Millis(r.Elastic)))
		if err := l.csvFile.write(l.row); err != nil {
			return err
		}
	}
	return nil
}
