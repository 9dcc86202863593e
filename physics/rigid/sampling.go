package rigid

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// DefaultEdgeSpacing is the spacing of the rigid vertex samples along
// edges and rims when a shape's EdgeSpacing is zero, metres. It is chosen
// below the edge length of the soft meshes the project runs (3–5 mm at
// 18k–36k DOFs on a 4 cm object), so that a rigid edge pressing into a
// soft face meets at least one sample per soft triangle it crosses.
const DefaultEdgeSpacing = 2e-3

// maxEdgeSamples bounds the samples of one edge or rim, so that a spacing
// far too fine for a shape's size is reported instead of exhausting
// memory.
const maxEdgeSamples = 4096

// insideTolerance is how deep (metres) a part's vertex must lie inside
// another part of a Compound to be dropped. Vertices on a shared boundary
// come out of the pose transforms within round-off of zero distance; they
// stay.
const insideTolerance = 1e-9

// spacingOrDefault returns s, or DefaultEdgeSpacing when s is not positive.
func spacingOrDefault(s float64) float64 {
	if s > 0 {
		return s
	}
	return DefaultEdgeSpacing
}

// segmentCount returns how many equal segments of length ≤ spacing cover a
// length, at least 1 and at most maxEdgeSamples.
func segmentCount(length, spacing float64) int {
	n := math.Ceil(length / spacing)
	if !(n >= 1) {
		return 1
	}
	return int(min(n, maxEdgeSamples))
}

// appendSegmentSamples appends the points that split [a, b] into segments
// no longer than spacing, endpoints excluded (they are corners, listed
// once by the caller).
func appendSegmentSamples(out []r3.Vec, a, b r3.Vec, spacing float64) []r3.Vec {
	n := segmentCount(r3.Norm(r3.Sub(b, a)), spacing)
	for i := 1; i < n; i++ {
		t := float64(i) / float64(n)
		out = append(out, r3.Add(a, r3.Scale(t, r3.Sub(b, a))))
	}
	return out
}

// checkPositive reports a size that is not a finite positive number.
func checkPositive(what string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("%s = %g: must be a finite positive length in metres", what, v)
	}
	return nil
}

// checkSpacing reports an edge spacing that is negative, not finite, or so
// fine that an edge of the given length would need more than
// maxEdgeSamples samples. Zero selects DefaultEdgeSpacing.
func checkSpacing(spacing, longest float64) error {
	if math.IsNaN(spacing) || math.IsInf(spacing, 0) || spacing < 0 {
		return fmt.Errorf("EdgeSpacing = %g: must be a finite length ≥ 0 in metres (0 selects %g)", spacing, DefaultEdgeSpacing)
	}
	if s := spacingOrDefault(spacing); longest/s > maxEdgeSamples {
		return fmt.Errorf("EdgeSpacing = %g is too fine for an edge of %g m: more than %d samples", s, longest, maxEdgeSamples)
	}
	return nil
}

// TransformBox returns the axis-aligned box that contains box after the
// pose maps it: the bounds of its eight transformed corners.
func TransformBox(p Pose, box r3.Box) r3.Box {
	out := r3.Box{
		Min: r3.Vec{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)},
		Max: r3.Vec{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)},
	}
	for i := 0; i < 8; i++ {
		out = growBox(out, p.Apply(BoxCorner(box, i)))
	}
	return out
}

// InBox reports whether x lies in the closed box (on its faces included;
// a box flat along an axis holds the points on it). It takes the box by
// pointer and tests the six bounds only: the hot loops that pass over
// every surface point with it cannot afford r3.Box.Contains's copy and
// its test for an empty box first.
func InBox(box *r3.Box, x r3.Vec) bool {
	return box.Min.X <= x.X && x.X <= box.Max.X &&
		box.Min.Y <= x.Y && x.Y <= box.Max.Y &&
		box.Min.Z <= x.Z && x.Z <= box.Max.Z
}

// BoxesMeet reports whether two closed boxes share a point (touching
// counts), by pointer as InBox.
func BoxesMeet(a, b *r3.Box) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X &&
		a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y &&
		a.Min.Z <= b.Max.Z && b.Min.Z <= a.Max.Z
}

// LowestAlong returns the least n·x over the points x of box: at the
// corner that n points away from, axis by axis.
func LowestAlong(n r3.Vec, box *r3.Box) float64 {
	return min(n.X*box.Min.X, n.X*box.Max.X) + min(n.Y*box.Min.Y, n.Y*box.Max.Y) + min(n.Z*box.Min.Z, n.Z*box.Max.Z)
}

// BoxCorner returns corner i (0…7) of box: bit 0 of i selects Max.X over
// Min.X, bit 1 Max.Y, bit 2 Max.Z.
func BoxCorner(box r3.Box, i int) r3.Vec {
	c := box.Min
	if i&1 != 0 {
		c.X = box.Max.X
	}
	if i&2 != 0 {
		c.Y = box.Max.Y
	}
	if i&4 != 0 {
		c.Z = box.Max.Z
	}
	return c
}

// growBox returns the smallest box containing box and x.
func growBox(box r3.Box, x r3.Vec) r3.Box {
	box.Min = r3.Vec{X: min(box.Min.X, x.X), Y: min(box.Min.Y, x.Y), Z: min(box.Min.Z, x.Z)}
	box.Max = r3.Vec{X: max(box.Max.X, x.X), Y: max(box.Max.Y, x.Y), Z: max(box.Max.Z, x.Z)}
	return box
}
