package ui

import (
	"math"
	"slices"

	"softgrasp/physics/frame"
)

// DefaultHistoryLength is how many steps the time plots keep: ten
// seconds at the default h = 10 ms.
const DefaultHistoryLength = 1000

// Ring is a fixed-capacity ring buffer of float32 samples: Push
// overwrites the oldest sample once full. It allocates only in NewRing.
type Ring struct {
	data []float32
	next int // index of the slot the next Push writes
	n    int // samples held, ≤ len(data)
}

// NewRing returns an empty ring holding up to capacity samples (at least
// one).
func NewRing(capacity int) *Ring {
	return &Ring{data: make([]float32, max(capacity, 1))}
}

// Push appends v, dropping the oldest sample when the ring is full.
func (r *Ring) Push(v float32) {
	r.data[r.next] = v
	r.next = (r.next + 1) % len(r.data)
	r.n = min(r.n+1, len(r.data))
}

// Len returns the number of samples held; Cap the capacity.
func (r *Ring) Len() int { return r.n }
func (r *Ring) Cap() int { return len(r.data) }

// At returns the i-th sample, oldest first (0 ≤ i < Len).
func (r *Ring) At(i int) float32 {
	start := (r.next - r.n + len(r.data)) % len(r.data)
	return r.data[(start+i)%len(r.data)]
}

// Values writes the samples, oldest first, into dst (reusing its
// storage) and returns it.
func (r *Ring) Values(dst []float32) []float32 {
	dst = dst[:0]
	for i := 0; i < r.n; i++ {
		dst = append(dst, r.At(i))
	}
	return dst
}

// Last returns the newest sample (0 when empty).
func (r *Ring) Last() float32 {
	if r.n == 0 {
		return 0
	}
	return r.At(r.n - 1)
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1, nearest rank) of the
// finite samples, using scratch for a sorted copy; 0 when there is none.
func (r *Ring) Quantile(q float64, scratch []float32) (float32, []float32) {
	scratch = scratch[:0]
	for i := 0; i < r.n; i++ {
		if v := r.At(i); !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) {
			scratch = append(scratch, v)
		}
	}
	if len(scratch) == 0 {
		return 0, scratch
	}
	slices.Sort(scratch)
	k := int(math.Ceil(q*float64(len(scratch)))) - 1
	return scratch[min(max(k, 0), len(scratch)-1)], scratch
}

// Clear empties the ring.
func (r *Ring) Clear() { r.next, r.n = 0, 0 }

// History is the per-step record behind the Stats panel's time plots:
// the wall time of the whole step and of the recursive scheme's Table-1
// stages (ms), the penetration (µm) and the scheme of each step (1 for
// standard), so that a scheme switch shows in the plots at the step it
// took effect. While the A/B mode is on, ABDistance (mm) and
// PenetrationB (µm) record scene B against A (0 while it is off).
type History struct {
	Step, Total, BuildWH, NewtonIter *Ring
	Penetration                      *Ring
	Standard                         *Ring
	ABDistance, PenetrationB         *Ring
}

// NewHistory returns empty histories of the given length.
func NewHistory(length int) History {
	return History{
		Step: NewRing(length), Total: NewRing(length), BuildWH: NewRing(length),
		NewtonIter: NewRing(length), Penetration: NewRing(length), Standard: NewRing(length),
		ABDistance: NewRing(length), PenetrationB: NewRing(length),
	}
}

// Add appends one step's measurements.
func (h *History) Add(st *frame.Stats) {
	h.Step.Push(float32(st.MS.Step))
	h.Total.Push(float32(st.MS.Total))
	h.BuildWH.Push(float32(st.MS.BuildWH))
	h.NewtonIter.Push(float32(st.MS.NewtonIter))
	h.Penetration.Push(float32(1e6 * st.Penetration))
	standard := float32(0)
	if st.Scheme == "standard" {
		standard = 1
	}
	h.Standard.Push(standard)
	h.ABDistance.Push(float32(1e3 * st.AB.NodeDistance))
	h.PenetrationB.Push(float32(1e6 * st.AB.Penetration))
}

// Len returns the number of steps recorded.
func (h *History) Len() int { return h.Step.Len() }

// Clear forgets every step.
func (h *History) Clear() {
	for _, r := range []*Ring{h.Step, h.Total, h.BuildWH, h.NewtonIter, h.Penetration, h.Standard, h.ABDistance, h.PenetrationB} {
		r.Clear()
	}
}
