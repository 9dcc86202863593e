package render

import (
	"math"

	"softgrasp/physics/frame"
)

// Blob shadows on the floor: the grid program darkens the floor under
// each body by a soft rectangle, its footprint along the grid's axes,
// widened, blurred and faded with the height of the body's lowest point
// over the floor (shaders/grid.frag). They cost one pass over the
// surface's vertices and the bodies' corners a frame, and no extra draw.

// maxShadows is the number of shadows the grid program takes
// (grid.frag's maxBlobs).
const maxShadows = 8

// patternCells is how many cells of the surface pattern span the soft
// body's largest rest extent: not a whole number, so that the faces of a
// box never lie on the cells' boundaries (shaders/surface.frag).
const patternCells = 4.5

// shadowSet holds the frame's shadows in the floor's grid coordinates.
type shadowSet struct {
	n    int32
	blob [maxShadows][4]float32 // centre u, v; half extents u, v (m)
	lift [maxShadows][2]float32 // lowest point's height over the floor, footprint size (m)
}

// footprint accumulates points' extent in the floor's frame.
type footprint struct {
	lo, hi [2]float32
	low    float32 // lowest height over the floor
	any    bool
}

func (f *footprint) add(u, v, h float32) {
	if !f.any {
		f.lo, f.hi, f.low, f.any = [2]float32{u, v}, [2]float32{u, v}, h, true
		return
	}
	f.lo = [2]float32{min(f.lo[0], u), min(f.lo[1], v)}
	f.hi = [2]float32{max(f.hi[0], u), max(f.hi[1], v)}
	f.low = min(f.low, h)
}

// floorFrame maps world points into a floor's grid coordinates (u, v) and
// height over its top face.
type floorFrame struct {
	pose      *[16]float32
	u, v, n   [3]float32
	top       float32
	available bool
}

// local returns the grid coordinates and height of the world point p.
func (f *floorFrame) local(p [3]float32) (u, v, h float32) {
	m := f.pose
	d := [3]float32{p[0] - m[12], p[1] - m[13], p[2] - m[14]}
	// The pose is a rigid motion: the body-frame point is Rᵀ·d.
	q := [3]float32{
		m[0]*d[0] + m[1]*d[1] + m[2]*d[2],
		m[4]*d[0] + m[5]*d[1] + m[6]*d[2],
		m[8]*d[0] + m[9]*d[1] + m[10]*d[2],
	}
	return dot3(q, f.u), dot3(q, f.v), dot3(q, f.n) - f.top
}

func dot3(a, b [3]float32) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// castShadows fills r.shadows for the frame: one for the soft surface and
// one for each body drawn other than the floor, up to maxShadows; none
// without Options.Shadows, a frame or a floor.
func (r *Renderer) castShadows(fr *frame.Frame, opt *Options) {
	r.shadows.n = 0
	if !opt.Shadows || fr == nil {
		return
	}
	var fl floorFrame
	for i, b := range r.bodies {
		if b.floor && i < len(fr.BodyPoses) {
			fl = floorFrame{pose: &fr.BodyPoses[i], u: b.u, v: b.v, n: b.normal, top: b.top, available: true}
			break
		}
	}
	if !fl.available {
		return
	}
	var f footprint
	for i := 0; i+2 < len(fr.Surface); i += 3 {
		f.add(fl.local([3]float32{fr.Surface[i], fr.Surface[i+1], fr.Surface[i+2]}))
	}
	r.shadows.put(&f)
	if !opt.Bodies {
		return
	}
	for i, b := range r.bodies {
		if b.floor || i >= len(fr.BodyPoses) {
			continue
		}
		m := &fr.BodyPoses[i]
		var f footprint
		for k := 0; k+2 < len(b.points); k += 3 {
			x, y, z := b.points[k], b.points[k+1], b.points[k+2]
			f.add(fl.local([3]float32{
				m[0]*x + m[4]*y + m[8]*z + m[12],
				m[1]*x + m[5]*y + m[9]*z + m[13],
				m[2]*x + m[6]*y + m[10]*z + m[14],
			}))
		}
		r.shadows.put(&f)
	}
}

// put adds the shadow of a footprint; an empty one, one below the floor's
// top (a body sunk in it) or one past maxShadows casts none.
func (s *shadowSet) put(f *footprint) {
	if !f.any || s.n >= maxShadows || math.IsNaN(float64(f.low)) || f.low < -1e-3 {
		return
	}
	half := [2]float32{(f.hi[0] - f.lo[0]) / 2, (f.hi[1] - f.lo[1]) / 2}
	s.blob[s.n] = [4]float32{(f.lo[0] + f.hi[0]) / 2, (f.lo[1] + f.hi[1]) / 2, half[0], half[1]}
	s.lift[s.n] = [2]float32{max(f.low, 0), 2 * max(half[0], half[1])}
	s.n++
}
