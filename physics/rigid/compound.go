package rigid

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Part is one shape of a Compound, placed in the compound's frame by
// Offset (x_compound = Offset.Apply(x_part)).
type Part struct {
	Shape  Shape
	Offset Pose
}

// Compound is the union of its parts. A jaw with a round fingertip is a
// box plate and a cylinder pad; the jaw frame is the compound's.
//
// Build it with NewCompound, which validates the parts and precomputes the
// vertex samples and bounds; the value and its parts are immutable
// afterwards. A literal works too but recomputes them on every call.
type Compound struct {
	Parts []Part

	samples []r3.Vec
	bounds  r3.Box
	bounded bool
	cached  bool
	// partBounds are the parts' world boxes (in the compound's frame),
	// for Closest to pass over the parts that cannot be nearest; empty
	// before cache and when a part is unbounded.
	partBounds []r3.Box
}

// validator is implemented by the shapes of this package that can check
// their own sizes.
type validator interface{ Validate() error }

// NewCompound returns a validated Compound of the given parts with its
// vertex samples and bounds precomputed.
func NewCompound(parts ...Part) (Compound, error) {
	c := Compound{Parts: parts}
	if err := c.Validate(); err != nil {
		return Compound{}, err
	}
	return c.cache(), nil
}

// cache returns c with its samples and bounds precomputed.
func (c Compound) cache() Compound {
	c.samples = c.sampleVertices()
	c.bounds, c.bounded = c.computeBounds()
	c.partBounds = nil
	for _, p := range c.Parts {
		b, ok := p.Shape.Bounds()
		if !ok {
			c.partBounds = nil
			break
		}
		c.partBounds = append(c.partBounds, TransformBox(p.Offset, b))
	}
	c.cached = true
	return c
}

// outsideBy is the distance from x to the box (0 inside it).
func outsideBy(x r3.Vec, b *r3.Box) float64 {
	dx := max(b.Min.X-x.X, 0, x.X-b.Max.X)
	dy := max(b.Min.Y-x.Y, 0, x.Y-b.Max.Y)
	dz := max(b.Min.Z-x.Z, 0, x.Z-b.Max.Z)
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// Validate reports an empty compound, a part without a shape, a part whose
// offset is not a rigid transform and a part whose own sizes are invalid.
func (c Compound) Validate() error {
	if len(c.Parts) == 0 {
		return errors.New("compound has no parts")
	}
	for i, p := range c.Parts {
		if p.Shape == nil {
			return fmt.Errorf("compound part %d has no shape", i)
		}
		if err := p.Offset.Validate(); err != nil {
			return fmt.Errorf("compound part %d offset: %w", i, err)
		}
		if v, ok := p.Shape.(validator); ok {
			if err := v.Validate(); err != nil {
				return fmt.Errorf("compound part %d: %w", i, err)
			}
		}
	}
	return nil
}

// Closest returns the closest point of the part with the smallest signed
// distance to x, in the compound's frame. Outside every part this is the
// exact distance to the union (the distance to a union of sets is the
// least of the distances). Inside, it is the exit of the part that x is
// deepest in; where parts overlap the true exit of the union can be
// farther, which only matters for points deeper than the overlap.
func (c Compound) Closest(x r3.Vec) (point, normal r3.Vec, dist float64) {
	dist = math.Inf(1)
	for i := range c.Parts {
		p := &c.Parts[i]
		// (The first part has no best to beat: its test could not pass.)
		if i > 0 && i < len(c.partBounds) && outsideBy(x, &c.partBounds[i]) > max(dist, 0)*(1+1e-9)+1e-12 {
			// x lies outside the part's box, farther from it than the
			// best so far (or outside it at all, when x is inside an
			// earlier part) by more than round-off: the part's distance,
			// at least that to its box, could not win.
			continue
		}
		pt, n, d := p.Shape.Closest(p.Offset.ApplyInverse(x))
		if d < dist {
			point, normal, dist = p.Offset.Apply(pt), p.Offset.Rotate(n), d
		}
	}
	return point, normal, dist
}

// Bounds returns the union of the parts' bounds placed by their offsets;
// ok is false when a part is unbounded.
func (c Compound) Bounds() (r3.Box, bool) {
	if c.cached {
		return c.bounds, c.bounded
	}
	return c.computeBounds()
}

// computeBounds unites the parts' boxes mapped by their offsets.
func (c Compound) computeBounds() (r3.Box, bool) {
	var out r3.Box
	for i, p := range c.Parts {
		b, ok := p.Shape.Bounds()
		if !ok {
			return r3.Box{}, false
		}
		b = TransformBox(p.Offset, b)
		if i == 0 {
			out = b
			continue
		}
		out = growBox(growBox(out, b.Min), b.Max)
	}
	return out, len(c.Parts) > 0
}

// Vertices returns the union of the parts' vertex samples (compound
// frame, parts in order) without those lying inside another part deeper
// than insideTolerance: a sample buried in the union cannot touch anything
// before the surface around it does. The slice is shared: do not modify
// it.
func (c Compound) Vertices() []r3.Vec {
	if c.cached {
		return c.samples
	}
	return c.sampleVertices()
}

// sampleVertices maps every part's samples into the compound frame and
// drops the buried ones.
func (c Compound) sampleVertices() []r3.Vec {
	out := []r3.Vec{}
	for i, p := range c.Parts {
		for _, v := range p.Shape.Vertices() {
			w := p.Offset.Apply(v)
			if !c.buriedInOther(i, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// buriedInOther reports whether x (compound frame) is inside a part other
// than part skip by more than insideTolerance.
func (c Compound) buriedInOther(skip int, x r3.Vec) bool {
	for j := range c.Parts {
		if j == skip {
			continue
		}
		p := &c.Parts[j]
		if _, _, d := p.Shape.Closest(p.Offset.ApplyInverse(x)); d < -insideTolerance {
			return true
		}
	}
	return false
}

// Triangulate returns the parts' meshes placed by their offsets, one after
// the other. Overlapping parts are drawn overlapping (the hidden surfaces
// are simply not visible), which keeps every part's mesh closed.
func (c Compound) Triangulate() ([]r3.Vec, [][3]int) {
	var verts []r3.Vec
	var tris [][3]int
	for _, p := range c.Parts {
		pv, pt := p.Shape.Triangulate()
		base := len(verts)
		for _, v := range pv {
			verts = append(verts, p.Offset.Apply(v))
		}
		for _, t := range pt {
			tris = append(tris, [3]int{t[0] + base, t[1] + base, t[2] + base})
		}
	}
	return verts, tris
}
