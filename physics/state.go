package physics

import (
	"fmt"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/fem"
)

// State is everything of one soft body that a step reads at its start and
// advances: the positions q and velocities v (3N each), the element
// rotations (the warm starts of the next assembly's polar
// decompositions), the warm starts of the contact forces, the steps taken
// and the simulated time. It is what a snapshot, a checkpoint and an A/B
// copy take, and nothing else: copying a State (CopyFrom) and the rigid
// bodies' poses replays the next step exactly. The scratch of a step is
// in its workspace, the unchanging data in the Model.
type State struct {
	q, v []float64
	elem fem.State
	warm map[uint64]warmStart
	// dvFree is the last step's free velocity change, the next free
	// motion's starting guess for the conjugate gradient (async solver).
	dvFree []float64
	// dvLast is the last step's velocity change v_t − v_{t−h}, the
	// prediction of the next step's for the contact budget's reach;
	// empty when the state has no last step (reset, SetState).
	dvLast []float64
	steps  int
	time   float64
}

// warmStart keeps a pair's force and tangent from one step to the next so
// that PGS starts near the solution.
type warmStart struct {
	lambda [3]float64
	t1     r3.Vec
}

// reset puts the body at rest in the rest configuration of m and forgets
// the warm starts.
func (st *State) reset(m *Model) {
	copy(st.q, m.qRest)
	clear(st.v)
	st.elem.Reset()
	clear(st.warm)
	st.dvFree = st.dvFree[:0]
	st.dvLast = st.dvLast[:0]
	st.steps, st.time = 0, 0
}

// CopyFrom makes st a copy of src, reusing st's storage.
func (st *State) CopyFrom(src *State) {
	st.q = append(st.q[:0], src.q...)
	st.v = append(st.v[:0], src.v...)
	st.elem.CopyFrom(&src.elem)
	if st.warm == nil {
		st.warm = make(map[uint64]warmStart, len(src.warm))
	}
	clear(st.warm)
	for k, w := range src.warm {
		st.warm[k] = w
	}
	st.dvFree = append(st.dvFree[:0], src.dvFree...)
	st.dvLast = append(st.dvLast[:0], src.dvLast...)
	st.steps, st.time = src.steps, src.time
}

// fits reports whether src is a state of a body shaped like st's.
func (st *State) fits(src *State) error {
	if len(src.q) != len(st.q) || len(src.elem.Rotations()) != len(st.elem.Rotations()) {
		return fmt.Errorf("state of %d DOFs and %d elements does not fit a body of %d DOFs and %d elements",
			len(src.q), len(src.elem.Rotations()), len(st.q), len(st.elem.Rotations()))
	}
	return nil
}

// Positions returns q and Velocities v (read-only views, length 3N).
func (st *State) Positions() []float64  { return st.q }
func (st *State) Velocities() []float64 { return st.v }

// Elements returns the state of the finite elements (read-only view).
func (st *State) Elements() *fem.State { return &st.elem }

// Time returns the simulated time (s) and Steps the number of steps taken.
func (st *State) Time() float64 { return st.time }
func (st *State) Steps() int    { return st.steps }
