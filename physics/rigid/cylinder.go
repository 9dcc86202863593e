package rigid

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// DefaultGenerators is the number of generator lines sampled on a
// Cylinder's side when its Generators field is zero.
const DefaultGenerators = 8

// cylinderSegments is the number of facets around a drawn Cylinder.
const cylinderSegments = 48

// Cylinder is a finite solid cylinder with flat caps, its axis along the
// body frame's z: the points with x² + y² ≤ Radius² and |z| ≤ HalfLength.
// The gripper's round fingertips are Cylinders whose axis is parallel to
// the gripper's own axis, so the contact normal on the curved side turns
// with the point of contact.
//
// Build it with NewCylinder, which validates the sizes and precomputes the
// vertex samples; the value is immutable afterwards. A literal works too
// but computes its samples again on every Vertices call.
type Cylinder struct {
	Radius, HalfLength float64
	// EdgeSpacing is the largest distance between consecutive vertex
	// samples along the rims and the generator lines, metres (0 selects
	// DefaultEdgeSpacing).
	EdgeSpacing float64
	// Generators is the number of evenly spaced lines along the axis on the
	// curved side that are sampled, the first at angle 0 (the +x side);
	// 0 selects DefaultGenerators.
	Generators int

	samples []r3.Vec
}

// NewCylinder returns a validated Cylinder with its vertex samples
// precomputed.
func NewCylinder(radius, halfLength, edgeSpacing float64, generators int) (Cylinder, error) {
	c := Cylinder{Radius: radius, HalfLength: halfLength, EdgeSpacing: edgeSpacing, Generators: generators}
	if err := c.Validate(); err != nil {
		return Cylinder{}, err
	}
	c.samples = c.sampleVertices()
	return c, nil
}

// Validate reports sizes that are not finite and positive, a negative or
// excessive generator count and an edge spacing too fine for the shape.
func (c Cylinder) Validate() error {
	if err := checkPositive("cylinder Radius", c.Radius); err != nil {
		return err
	}
	if err := checkPositive("cylinder HalfLength", c.HalfLength); err != nil {
		return err
	}
	if c.Generators < 0 || c.Generators > maxEdgeSamples {
		return fmt.Errorf("cylinder Generators = %d: must be in [0, %d] (0 selects %d)", c.Generators, maxEdgeSamples, DefaultGenerators)
	}
	return checkSpacing(c.EdgeSpacing, max(2*math.Pi*c.Radius, 2*c.HalfLength))
}

// Closest returns the exact closest surface point, outward normal and
// signed distance of the cylinder.
//
// With ρ = √(x²+y²), u = (x, y, 0)/ρ the radial direction, e_r = ρ − R and
// e_z = |z| − L (signed distances to the side and to the cap planes):
//   - e_r > 0 and e_z > 0: nearest is the rim point (R·u, ±L), distance
//     √(e_r² + e_z²), normal from the rim point to x;
//   - only e_r > 0: the side, (R·u, z), distance e_r, normal u;
//   - only e_z > 0: the cap, (x, y, ±L), distance e_z, normal ±z;
//   - inside: the nearer of side and cap, i.e. the larger of e_r and e_z.
//
// On the axis (ρ = 0) u is taken as +x.
func (c Cylinder) Closest(x r3.Vec) (point, normal r3.Vec, dist float64) {
	R, L := c.Radius, c.HalfLength
	rho := math.Hypot(x.X, x.Y)
	u := r3.Vec{X: 1}
	if rho > 0 {
		u = r3.Vec{X: x.X / rho, Y: x.Y / rho}
	}
	er, ez := rho-R, math.Abs(x.Z)-L
	sz := signOf(x.Z)
	side := r3.Vec{X: R * u.X, Y: R * u.Y, Z: x.Z}
	onCap := r3.Vec{X: x.X, Y: x.Y, Z: sz * L}
	switch {
	case er > 0 && ez > 0:
		rim := r3.Vec{X: R * u.X, Y: R * u.Y, Z: sz * L}
		diff := r3.Sub(x, rim)
		d := r3.Norm(diff)
		return rim, r3.Scale(1/d, diff), d
	case er > 0:
		return side, u, er
	case ez > 0:
		return onCap, r3.Vec{Z: sz}, ez
	case er >= ez:
		return side, u, er
	default:
		return onCap, r3.Vec{Z: sz}, ez
	}
}

// Bounds returns the box [−R, R]² × [−L, L].
func (c Cylinder) Bounds() (r3.Box, bool) {
	h := r3.Vec{X: c.Radius, Y: c.Radius, Z: c.HalfLength}
	return r3.Box{Min: r3.Scale(-1, h), Max: h}, true
}

// Vertices returns the samples of the two rims (bottom then top, at arc
// spacing ≤ EdgeSpacing) followed by the interior samples of the generator
// lines. The slice is shared: do not modify it.
func (c Cylinder) Vertices() []r3.Vec {
	if c.samples != nil {
		return c.samples
	}
	return c.sampleVertices()
}

// sampleVertices lists the rim samples, their count a multiple of the
// generator count so that every generator line ends on a rim sample, then
// the generator lines.
func (c Cylinder) sampleVertices() []r3.Vec {
	spacing := spacingOrDefault(c.EdgeSpacing)
	g := c.Generators
	if g == 0 {
		g = DefaultGenerators
	}
	m := segmentCount(2*math.Pi*c.Radius, spacing)
	m = g * ((m + g - 1) / g)
	out := make([]r3.Vec, 0, 2*m)
	for _, z := range [...]float64{-c.HalfLength, c.HalfLength} {
		for k := 0; k < m; k++ {
			s, co := math.Sincos(2 * math.Pi * float64(k) / float64(m))
			out = append(out, r3.Vec{X: c.Radius * co, Y: c.Radius * s, Z: z})
		}
	}
	for k := 0; k < g; k++ {
		s, co := math.Sincos(2 * math.Pi * float64(k) / float64(g))
		lo := r3.Vec{X: c.Radius * co, Y: c.Radius * s, Z: -c.HalfLength}
		hi := r3.Vec{X: lo.X, Y: lo.Y, Z: c.HalfLength}
		out = appendSegmentSamples(out, lo, hi, spacing)
	}
	return out
}

// Triangulate returns a faceted cylinder: the side as quads between the
// two rims (vertices shared so the side shades smoothly) and the caps as
// fans with their own rim vertices (so they shade flat), counter-clockwise
// seen from outside.
func (c Cylinder) Triangulate() ([]r3.Vec, [][3]int) {
	const n = cylinderSegments
	verts := make([]r3.Vec, 0, 4*n+2)
	for ring := 0; ring < 4; ring++ {
		// Rings 0, 1: side bottom and top; rings 2, 3: cap bottom and top.
		z := c.HalfLength * float64(2*(ring&1)-1)
		for k := 0; k < n; k++ {
			s, co := math.Sincos(2 * math.Pi * float64(k) / n)
			verts = append(verts, r3.Vec{X: c.Radius * co, Y: c.Radius * s, Z: z})
		}
	}
	bottom, top := len(verts), len(verts)+1
	verts = append(verts, r3.Vec{Z: -c.HalfLength}, r3.Vec{Z: c.HalfLength})
	tris := make([][3]int, 0, 4*n)
	for k := 0; k < n; k++ {
		k1 := (k + 1) % n
		tris = append(tris,
			[3]int{k, k1, n + k1}, [3]int{k, n + k1, n + k},
			[3]int{bottom, 2*n + k1, 2*n + k},
			[3]int{top, 3*n + k, 3*n + k1})
	}
	return verts, tris
}
