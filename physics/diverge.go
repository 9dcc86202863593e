package physics

import (
	"errors"
	"fmt"
)

// DivergenceError reports a step that could not produce a sane state: a
// NaN, a node faster than Settings.MaxSpeed, too many inverted elements, a
// system matrix that lost positive definiteness, or a failed solve. The
// simulation keeps the state of the start of that step.
type DivergenceError struct {
	Step   int     // index of the failed step
	Time   float64 // simulated time at its start, s
	Reason string
}

func (e *DivergenceError) Error() string {
	return fmt.Sprintf("simulation diverged at step %d (t = %.3f s): %s", e.Step, e.Time, e.Reason)
}

// IsDivergence reports whether err is (or wraps) a *DivergenceError.
func IsDivergence(err error) bool {
	var d *DivergenceError
	return errors.As(err, &d)
}

// diverged builds the error of the current step.
func (s *Simulation) diverged(reason string) error {
	return &DivergenceError{Step: s.steps, Time: s.time, Reason: reason}
}
