package rigid

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Box is a rectangular box centred at the origin of its body frame, with
// faces orthogonal to the frame's axes: the points with |x| ≤ HalfExtents.X,
// |y| ≤ HalfExtents.Y and |z| ≤ HalfExtents.Z.
//
// Build it with NewBox, which validates the sizes and precomputes the
// vertex samples; the value is immutable afterwards. A Box literal works
// too but computes its samples again on every Vertices call.
type Box struct {
	HalfExtents r3.Vec
	// EdgeSpacing is the largest distance between consecutive vertex
	// samples along an edge, metres (0 selects DefaultEdgeSpacing).
	EdgeSpacing float64

	samples []r3.Vec
}

// NewBox returns a validated Box with its vertex samples precomputed.
func NewBox(halfExtents r3.Vec, edgeSpacing float64) (Box, error) {
	b := Box{HalfExtents: halfExtents, EdgeSpacing: edgeSpacing}
	if err := b.Validate(); err != nil {
		return Box{}, err
	}
	b.samples = b.sampleVertices()
	return b, nil
}

// Validate reports half extents that are not finite and positive, and an
// edge spacing that is negative or too fine for the box.
func (b Box) Validate() error {
	h := b.HalfExtents
	for i, v := range [...]float64{h.X, h.Y, h.Z} {
		if err := checkPositive(fmt.Sprintf("box HalfExtents.%c", "XYZ"[i]), v); err != nil {
			return err
		}
	}
	return checkSpacing(b.EdgeSpacing, 2*max(h.X, h.Y, h.Z))
}

// Closest returns the exact closest surface point, outward normal and
// signed distance of the box.
//
// With e = |x| − h componentwise (the signed distances to the three pairs
// of face planes):
//   - outside (some e_i > 0): the closest point is x clamped to the box,
//     the distance |x − clamp(x)| and the normal (x − clamp(x))/distance —
//     the face normal over a face, the bisecting direction from the closest
//     point over an edge or a corner;
//   - inside or on the surface (all e_i ≤ 0): the nearest exit is the face
//     of the largest e_i, the distance is that e_i (≤ 0) and the closest
//     point is x moved onto that face along its normal.
func (b Box) Closest(x r3.Vec) (point, normal r3.Vec, dist float64) {
	h := b.HalfExtents
	e := r3.Vec{X: math.Abs(x.X) - h.X, Y: math.Abs(x.Y) - h.Y, Z: math.Abs(x.Z) - h.Z}
	if e.X > 0 || e.Y > 0 || e.Z > 0 {
		c := r3.Vec{
			X: min(max(x.X, -h.X), h.X),
			Y: min(max(x.Y, -h.Y), h.Y),
			Z: min(max(x.Z, -h.Z), h.Z),
		}
		diff := r3.Sub(x, c)
		d := r3.Norm(diff)
		return c, r3.Scale(1/d, diff), d
	}
	point = x
	switch {
	case e.X >= e.Y && e.X >= e.Z:
		s := signOf(x.X)
		point.X, normal.X, dist = s*h.X, s, e.X
	case e.Y >= e.Z:
		s := signOf(x.Y)
		point.Y, normal.Y, dist = s*h.Y, s, e.Y
	default:
		s := signOf(x.Z)
		point.Z, normal.Z, dist = s*h.Z, s, e.Z
	}
	return point, normal, dist
}

// signOf returns +1 for v ≥ 0 and −1 otherwise, so that a point on a
// symmetry plane exits through the positive face.
func signOf(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

// Bounds returns the box itself.
func (b Box) Bounds() (r3.Box, bool) {
	h := b.HalfExtents
	return r3.Box{Min: r3.Scale(-1, h), Max: h}, true
}

// Vertices returns the eight corners followed by samples along the twelve
// edges at spacing ≤ EdgeSpacing. The slice is shared: do not modify it.
func (b Box) Vertices() []r3.Vec {
	if b.samples != nil {
		return b.samples
	}
	return b.sampleVertices()
}

// sampleVertices lists the corners, then the interior samples of each edge
// (edges parallel to x, then y, then z).
func (b Box) sampleVertices() []r3.Vec {
	h := b.HalfExtents
	out := make([]r3.Vec, 0, 8)
	for i := 0; i < 8; i++ {
		out = append(out, boxCorner(h, i))
	}
	spacing := spacingOrDefault(b.EdgeSpacing)
	hv := [3]float64{h.X, h.Y, h.Z}
	for axis := 0; axis < 3; axis++ {
		for k := 0; k < 4; k++ {
			// The edge along axis with the other two coordinates at the
			// signs given by the two bits of k.
			var lo, hi [3]float64
			for j, bit := 1, 0; j < 3; j, bit = j+1, bit+1 {
				other := (axis + j) % 3
				lo[other] = hv[other] * float64(2*(k>>bit&1)-1)
				hi[other] = lo[other]
			}
			lo[axis], hi[axis] = -hv[axis], hv[axis]
			out = appendSegmentSamples(out, r3.Vec{X: lo[0], Y: lo[1], Z: lo[2]}, r3.Vec{X: hi[0], Y: hi[1], Z: hi[2]}, spacing)
		}
	}
	return out
}

// boxCorner returns corner i of the box of half extents h: bit 0 of i
// selects +x, bit 1 +y, bit 2 +z.
func boxCorner(h r3.Vec, i int) r3.Vec {
	c := r3.Scale(-1, h)
	if i&1 != 0 {
		c.X = h.X
	}
	if i&2 != 0 {
		c.Y = h.Y
	}
	if i&4 != 0 {
		c.Z = h.Z
	}
	return c
}

// Triangulate returns the six faces, four vertices each (so that each face
// is drawn flat), two counter-clockwise triangles per face seen from
// outside.
func (b Box) Triangulate() ([]r3.Vec, [][3]int) {
	h := [3]float64{b.HalfExtents.X, b.HalfExtents.Y, b.HalfExtents.Z}
	verts := make([]r3.Vec, 0, 24)
	tris := make([][3]int, 0, 12)
	for axis := 0; axis < 3; axis++ {
		for _, s := range [...]float64{-1, 1} {
			// Tangents u, v with u×v = s·e_axis: the cyclic successors of
			// the axis, swapped on the negative face.
			u, v := (axis+1)%3, (axis+2)%3
			if s < 0 {
				u, v = v, u
			}
			base := len(verts)
			for _, c := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				var p [3]float64
				p[axis], p[u], p[v] = s*h[axis], c[0]*h[u], c[1]*h[v]
				verts = append(verts, r3.Vec{X: p[0], Y: p[1], Z: p[2]})
			}
			tris = append(tris, [3]int{base, base + 1, base + 2}, [3]int{base, base + 2, base + 3})
		}
	}
	return verts, tris
}
