package linsolve

import (
	"fmt"
	"sync/atomic"

	"softgrasp/physics/sparse"
)

// background keeps a Cholesky factor of A fresh in the background, after
// the asynchronous preconditioner of Courtecuisse et al. (2014) that the
// paper uses: the step goes on with the latest available factor while a
// worker goroutine factors a newer A; the new factor is swapped in, at the
// start of a step, as soon as it is ready. One factorisation is in flight
// at a time. The factor of an older A is only a preconditioner: solves
// run preconditioned conjugate gradient on the current A (pcg.go), while
// W_H is computed from the factor directly, which is the approximation
// this mode trades for speed.
//
// Two sparse.Factor values with the same analysis take turns: current is
// the step's, spare the worker's. They are swapped only when the worker
// has reported, so each is written by one goroutine at a time.
//
// The conjugate gradient does not need the node compliance G, only a
// factor of an A near the step's: a job's factor preconditions the steps
// from the moment it is factored (the worker says so on factored), while
// the worker goes on computing G with it, and becomes current, the factor
// of W_H and of the final solve, once G is done. Until then (early) the
// preconditioner is the spare, which both goroutines only read (the
// single-precision solve and the compliance kernel use workspaces of
// their own: sparse.Factor), assembled at qJob and pending steps old;
// otherwise it is current.
type background struct {
	current, spare *sparse.Factor
	early          bool // the spare, factored and not yet current, preconditions
	// factored says, once per job, whether the worker's factor of the job
	// in flight is ready (false: the factorisation failed); signalled
	// records that the step has taken the word for the job in flight.
	factored  chan bool
	signalled bool

	pattern sparse.SymCSC // A's pattern with the values of the job in flight
	// qJob holds the positions at which the job's A was assembled and
	// qFactor those of current's A, for warping (warp.go).
	qJob, qFactor []float64
	// gCur is G for current (nodecompliance.go), computed by the worker
	// right after the factorisation for the job's nodes jobNodes (the
	// worker's, filled from the job's Near); gSpare is the worker's.
	gCur, gSpare *nodeCompliance
	// gExt is the step's own G for the nodes of its pairs when gCur
	// misses some (Solver.PairCompliance), computed with current: dropped
	// whenever current changes, as gCur is. extNodes is the scratch of its
	// node list. Only the step's goroutine touches them.
	gExt     nodeCompliance
	extNodes []int
	jobNodes []int
	nNodes   int
	jobs     chan func() []int // a job: the worker's half of its Near
	done     chan error
	busy     bool
	// running is set when a job is handed to the worker and cleared by
	// the worker before it hands the result back: busy also covers a
	// finished job that waits to be swapped in, when the worker takes no
	// CPU.
	running atomic.Bool
	// primed is set once current holds a factor of an A this worker saw
	// (the first begin factors synchronously).
	primed bool
	// primedBefore tells begin's caller whether the call it just made
	// found a factor already (an error then comes from a background job,
	// not from factoring the step's own A).
	primedBefore bool
	// age counts the steps since the values of current were assembled,
	// pending those since the values of the job in flight were.
	age, pending int
	// lag > 0 swaps each job in exactly lag steps after it started
	// (Options.Lag).
	lag int
	// refresh > 0 starts a job only once current is that many steps old
	// (Options.Refresh).
	refresh int
	// single computes the node compliances in single precision
	// (Options.SingleCompliance); jobSingle is its value for the job in
	// flight, written by begin before the job is sent and read by the
	// worker.
	single, jobSingle bool
}

// newBackground analyses A a second time for the background factor.
// first is the factor in use until then; begin factors it synchronously
// on the first step.
func newBackground(A *sparse.SymCSC, first *sparse.Factor) (*background, error) {
	spare, err := sparse.Analyze(A)
	if err != nil {
		return nil, fmt.Errorf("sparse analysis of the background factor: %w", err)
	}
	af := &background{
		current: first, spare: spare,
		pattern:  sparse.SymCSC{N: A.N, ColPtr: A.ColPtr, RowIdx: A.RowIdx, Val: make([]float64, len(A.Val))},
		jobs:     make(chan func() []int),
		done:     make(chan error, 1),
		factored: make(chan bool, 1),
		qJob:     make([]float64, A.N),
		qFactor:  make([]float64, A.N),
		gCur:     &nodeCompliance{},
		gSpare:   &nodeCompliance{},
		nNodes:   A.N / 3,
	}
	go af.work()
	return af, nil
}

// work factors the spare factor with the job's values, then asks the
// job for its nodes and computes G for them, one job at a time.
func (af *background) work() {
	for nodes := range af.jobs {
		err := af.spare.Factorize(&af.pattern)
		if err == nil {
			err = af.spare.CopySingle()
		}
		af.factored <- err == nil
		if err == nil {
			af.jobNodes = append(af.jobNodes[:0], nodes()...)
			err = af.gSpare.build(af.spare, af.jobNodes, af.nNodes, af.jobSingle)
		}
		af.running.Store(false)
		af.done <- err
	}
	close(af.done)
}

// begin is called at the start of every step with the step's freshly
// assembled A and the positions q it was assembled at. It swaps in a
// finished factorisation, if any, and starts a new one from A's values
// when the worker is idle. The very first call factors synchronously. It
// returns the error of a failed background factorisation (A was not
// positive definite), after which the old factor stays in use.
func (af *background) begin(A *sparse.SymCSC, q []float64, near Near) error {
	af.primedBefore = af.primed
	if !af.primed {
		af.primed = true
		af.age = 0
		copy(af.qFactor, q)
		af.settle()
		af.gCur.valid, af.gExt.valid = false, false
		return af.factorNow(A)
	}
	af.age++
	var failed error
	if af.busy {
		af.pending++
		if af.lag > 0 {
			if af.pending >= af.lag {
				failed = af.swap(<-af.done)
			} else if !af.signalled && af.pending >= af.pcLag() {
				af.signalled = true
				af.early = <-af.factored
			}
		} else {
			select {
			case err := <-af.done:
				failed = af.swap(err)
			default:
				if !af.signalled {
					select {
					case ok := <-af.factored:
						af.signalled, af.early = true, ok
					default:
					}
				}
			}
		}
	}
	if !af.busy && af.age >= af.refresh {
		copy(af.pattern.Val, A.Val)
		copy(af.qJob, q)
		nodes := near()
		af.jobSingle = af.single
		af.busy, af.pending = true, 0
		af.running.Store(true)
		af.jobs <- nodes
	}
	return failed
}

// pcLag is the step after a job's start at which a run with a fixed lag
// takes its factor as the preconditioner (waiting for it if need be):
// half the lag, at least one step, so that such a run is reproducible.
func (af *background) pcLag() int { return max(1, af.lag/2) }

// settle ends the job that just reported: the factored signal, if the
// step has not taken it, is drained, and the preconditioner is current
// again (the spare may be factored anew by the next job).
func (af *background) settle() {
	if af.busy && !af.signalled {
		<-af.factored // sent before the job's done
	}
	af.busy, af.signalled, af.early = false, false, false
}

// swap takes the result of the finished job: on success its factor, G and
// positions become current; on failure the old ones stay and the error is
// returned.
func (af *background) swap(err error) error {
	if err != nil {
		af.settle()
		return err
	}
	af.current, af.spare = af.spare, af.current
	af.qFactor, af.qJob = af.qJob, af.qFactor
	af.gCur, af.gSpare = af.gSpare, af.gCur
	af.age = af.pending
	af.gExt.valid = false
	af.settle()
	return nil
}

// exact factors this step's A synchronously (waiting for a job in flight
// first), for steps that need the exact factor: the standard scheme, whose
// per-iteration corrections from the true A do not tolerate an
// approximate compliance.
func (af *background) exact(A *sparse.SymCSC, q []float64) error {
	if af.busy {
		<-af.done
	}
	af.primed = true
	af.age = 0
	copy(af.qFactor, q)
	af.settle()
	af.gCur.valid, af.gExt.valid = false, false
	return af.factorNow(A)
}

// factorNow factors A into current on the step's goroutine, with the
// single-precision copy that the conjugate gradient preconditions with.
func (af *background) factorNow(A *sparse.SymCSC) error {
	if err := af.current.Factorize(A); err != nil {
		return err
	}
	return af.current.CopySingle()
}

// invalidate drops the factor in use and any job in flight (its A is no
// longer the operator the simulation integrates: h or the material
// changed, or the body was put back at rest): the next begin factors its A
// synchronously, as the first one does.
func (af *background) invalidate() {
	if af.busy {
		<-af.done
		af.settle()
		af.pending = 0
	}
	af.primed = false
	af.gCur.valid, af.gExt.valid = false, false
}

// stop ends the worker, frees the spare factor and returns the current
// one, which stays valid.
func (af *background) stop() *sparse.Factor {
	close(af.jobs)
	for range af.done {
	}
	af.spare.Free()
	return af.current
}
