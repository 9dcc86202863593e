package render

import "math"

// The colour map's range comes from the data, but a plain min/max would
// let a single spiking vertex (an element inverted for one step, a contact
// corner) squash every other colour into one end of the map. The range is
// therefore the 2nd–98th percentile of the field, and it is smoothed over
// frames so that the colours do not flicker as the percentiles move.

const (
	rangeLowQuantile  = 0.02
	rangeHighQuantile = 0.98
	// rangeGrow and rangeShrink are the exponential smoothing rates per
	// frame: the range widens quickly (a saturated map hides the event the
	// user is looking at) and narrows slowly (no pumping when a load is
	// released).
	rangeGrow   = 0.3
	rangeShrink = 0.05
)

// quantile returns the q-quantile (0 ≤ q ≤ 1, nearest rank) of the finite
// entries of values. scratch must hold len(values) entries; values is left
// untouched. No allocation. It returns NaN when no entry is finite.
func quantile(values, scratch []float32, q float64) float32 {
	n := 0
	for _, v := range values {
		if !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) {
			scratch[n] = v
			n++
		}
	}
	if n == 0 {
		return float32(math.NaN())
	}
	k := int(math.Round(q * float64(n-1)))
	return selectKth(scratch[:n], k)
}

// selectKth returns the k-th smallest entry of a (0-based), reordering a.
// Quickselect with a median-of-three pivot and Hoare partitioning runs in
// O(n) on average; a colour map does not need the O(n) worst case of
// median-of-medians.
func selectKth(a []float32, k int) float32 {
	lo, hi := 0, len(a)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		// Order a[lo] ≤ a[mid] ≤ a[hi]; the median becomes the pivot.
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		pivot := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < pivot {
				i++
			}
			for a[j] > pivot {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		// Now a[lo..j] ≤ pivot ≤ a[i..hi] and entries between equal it.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k]
		}
	}
	return a[k]
}

// rangeTracker keeps the smoothed colour-map range of one field.
type rangeTracker struct {
	lo, hi float32
	valid  bool
}

// reset forgets the history: the next update jumps to its data.
func (r *rangeTracker) reset() { r.valid = false }

// update moves the range towards the robust range of values (scratch as
// for quantile). Non-finite data leave the range unchanged.
func (r *rangeTracker) update(values, scratch []float32) {
	lo := quantile(values, scratch, rangeLowQuantile)
	hi := quantile(values, scratch, rangeHighQuantile)
	if math.IsNaN(float64(lo)) || math.IsNaN(float64(hi)) {
		return
	}
	if !r.valid {
		r.lo, r.hi, r.valid = lo, hi, true
		return
	}
	r.lo += smoothingRate(lo < r.lo) * (lo - r.lo)
	r.hi += smoothingRate(hi > r.hi) * (hi - r.hi)
}

func smoothingRate(widening bool) float32 {
	if widening {
		return rangeGrow
	}
	return rangeShrink
}

// bounds returns the range, widened to a strictly positive span so that
// the shader's division stays finite on a field that is constant (an
// object at rest has zero displacement everywhere).
func (r *rangeTracker) bounds() (lo, hi float32) {
	if !r.valid {
		return 0, 1
	}
	lo, hi = r.lo, r.hi
	if span := hi - lo; !(span > 1e-12*max(1, abs32(lo), abs32(hi))) {
		hi = lo + max(1e-12, 1e-6*abs32(lo))
	}
	return lo, hi
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }
