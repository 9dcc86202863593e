package fem

import (
	"runtime"
	"sync/atomic"
)

// minParallelElements is the element count below which the element pass
// runs on the calling goroutine alone: under it, waking a worker costs
// more than the work it would take over.
const minParallelElements = 2048

// chunkElements is the number of elements a goroutine claims at a time:
// large enough that claiming costs nothing measurable, small enough that
// a goroutine delayed by the scheduler (the render thread shares the
// cores) leaves its share to the others.
const chunkElements = 512

// workerPool runs the per-element pass of a Model on its own long-lived
// goroutines, so that splitting the work costs two channel operations per
// worker and no allocation (a goroutine started per call would allocate
// its closure). The caller and the workers claim chunks of elements from
// a shared counter until none is left. Each element writes only its own
// slots of the outputs, so the result is the same whoever computes it.
//
// The workers hold no reference to the Model between jobs; a cleanup
// attached to the Model closes the job channel when the Model is garbage
// collected, and the workers return.
type workerPool struct {
	workers int
	serial  bool // run every pass on the caller alone (SetSerial)
	jobs    chan poolJob
	done    chan struct{}
	next    atomic.Int64 // first element (or scatter part) not yet claimed
	parts   []scatterPart
}

// poolJob is one pass shared through next: the element pass over n
// elements, or (scatter set) the scatter of its n parts.
type poolJob struct {
	job     stressJob
	scatter *scatterJob
	n       int
	next    *atomic.Int64
}

// newWorkerPool starts procs−1 workers for m (the caller of run takes a
// share of the work too); with procs ≤ 1 it starts none.
func newWorkerPool(m *Model, procs int) *workerPool {
	p := &workerPool{workers: max(procs-1, 0)}
	if p.workers == 0 {
		return p
	}
	p.parts = scatterParts(m, scatterPartsPerWorker*procs)
	p.jobs = make(chan poolJob, p.workers)
	p.done = make(chan struct{}, p.workers)
	for w := 0; w < p.workers; w++ {
		go work(p.jobs, p.done)
	}
	runtime.AddCleanup(m, closeJobs, p.jobs)
	return p
}

// work is the loop of one worker.
func work(jobs <-chan poolJob, done chan<- struct{}) {
	for j := range jobs {
		j.drain()
		done <- struct{}{}
	}
}

func closeJobs(jobs chan poolJob) { close(jobs) }

// drain claims and runs chunks of the job until none is left.
func (j *poolJob) drain() {
	if j.scatter != nil {
		for {
			k := int(j.next.Add(1)) - 1
			if k >= j.n {
				return
			}
			j.scatter.do(k)
		}
	}
	for {
		lo := int(j.next.Add(chunkElements)) - chunkElements
		if lo >= j.n {
			return
		}
		j.job.do(lo, min(lo+chunkElements, j.n))
	}
}

// run executes job on the elements [0, n) and returns when all are done.
func (p *workerPool) run(job stressJob, n int) {
	if p.workers == 0 || p.serial || n < minParallelElements {
		job.do(0, n)
		return
	}
	p.next.Store(0)
	j := poolJob{job: job, n: n, next: &p.next}
	for w := 0; w < p.workers; w++ {
		p.jobs <- j
	}
	j.drain()
	for w := 0; w < p.workers; w++ {
		<-p.done
	}
}

// scatter runs job over the pool's scatter parts, or on the caller alone
// over the whole mesh where the pool runs serially.
func (p *workerPool) scatter(job *scatterJob, n int) {
	if p.workers == 0 || p.serial || n < minParallelElements {
		job.all()
		return
	}
	p.next.Store(0)
	j := poolJob{scatter: job, n: len(p.parts), next: &p.next}
	for w := 0; w < p.workers; w++ {
		p.jobs <- j
	}
	j.drain()
	for w := 0; w < p.workers; w++ {
		<-p.done
	}
}
