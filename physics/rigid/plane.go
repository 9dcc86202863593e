package rigid

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// DefaultPlaneSize is the side of the square patch drawn for a Plane whose
// Size is zero, metres.
const DefaultPlaneSize = 0.5

// Plane is the half-space z ≤ 0 of its body frame: the surface is the plane
// z = 0 and the outward normal is +z. The floor is a Plane at the identity
// pose; an incline is the same Plane with a rotated pose.
type Plane struct {
	// Size is the side of the square patch, centred at the origin, that
	// Triangulate returns for drawing, metres (0 selects DefaultPlaneSize).
	// It does not limit contact: the plane is infinite.
	Size float64
}

// Validate reports a drawing size that is negative or not finite.
func (p Plane) Validate() error {
	if math.IsNaN(p.Size) || math.IsInf(p.Size, 0) || p.Size < 0 {
		return fmt.Errorf("plane Size = %g: must be a finite length ≥ 0 in metres", p.Size)
	}
	return nil
}

// Closest projects x on the plane: the closest point is (x, y, 0), the
// normal +z and the signed distance z, exact everywhere.
func (p Plane) Closest(x r3.Vec) (point, normal r3.Vec, dist float64) {
	return r3.Vec{X: x.X, Y: x.Y}, r3.Vec{Z: 1}, x.Z
}

// Bounds reports that a plane is unbounded.
func (p Plane) Bounds() (r3.Box, bool) { return r3.Box{}, false }

// Vertices returns nil: a plane has no corners or edges to sample, so it
// only produces soft-vertex pairs.
func (p Plane) Vertices() []r3.Vec { return nil }

// Triangulate returns the square patch of side Size at z = 0 as two
// triangles, counter-clockwise seen from +z.
func (p Plane) Triangulate() ([]r3.Vec, [][3]int) {
	s := p.Size
	if !(s > 0) {
		s = DefaultPlaneSize
	}
	h := s / 2
	verts := []r3.Vec{{X: -h, Y: -h}, {X: h, Y: -h}, {X: h, Y: h}, {X: -h, Y: h}}
	return verts, [][3]int{{0, 1, 2}, {0, 2, 3}}
}
