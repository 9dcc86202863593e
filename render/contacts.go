package render

import (
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
)

// Contact states as frame.ContactView.State carries them (the order of
// contact.State: separated, stick, slip).
const (
	stateSeparated = 0
	stateStick     = 1
	stateSlip      = 2
	stateHeld      = 3 // a node attached to a dynamic body (contact.Held)
)

// Colours of the contact overlay. Force arrows use hues the deviation
// scale (green–yellow–red) does not, so the two never read as one.
var (
	colourNormalForce   = [4]float32{0.25, 0.65, 1.00, 1}
	colourFrictionForce = [4]float32{0.95, 0.35, 0.95, 1}
	colourStick         = [4]float32{1.00, 1.00, 1.00, 1}
	colourSlip          = [4]float32{1.00, 0.55, 0.10, 1}
	colourSeparated     = [4]float32{0.55, 0.55, 0.55, 1}
	colourHeld          = [4]float32{0.30, 0.90, 0.90, 1}
)

// lineFloats is the size of one overlay vertex: position (3) and RGBA (4).
const lineFloats = 7

// contactOverlay builds, per frame, the line and point vertices of the
// contacts in one reused CPU slice and streams it into one GPU buffer:
// lines first, then points.
type contactOverlay struct {
	vao, vb  uint32
	capacity int // GPU buffer size, floats
	data     []float32
	lines    int32 // line vertices at the start of data
	points   int32 // point vertices after them
}

func newContactOverlay() *contactOverlay {
	o := &contactOverlay{}
	gl.GenVertexArrays(1, &o.vao)
	gl.GenBuffers(1, &o.vb)
	gl.BindVertexArray(o.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, o.vb)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, 4*lineFloats, 0)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 4, gl.FLOAT, false, 4*lineFloats, 12)
	gl.BindVertexArray(0)
	return o
}

// overlayParams are the Options and view quantities the geometry needs.
type overlayParams struct {
	points, forces, deviations bool
	forceScale                 float32 // m per N
	directionLength            float32 // m, length of the n⁰ and n segments
	view                       r3.Vec  // camera forward, to orient arrow heads
}

// build fills the vertex data for contacts. Its slices grow only when a
// frame has more contacts than any before it.
func (o *contactOverlay) build(contacts []frame.ContactView, p overlayParams) {
	o.data = o.data[:0]
	for i := range contacts {
		c := &contacts[i]
		pt := vec3(c.Point)
		if p.forces {
			o.arrow(pt, r3.Scale(float64(p.forceScale), vec3(c.ForceN)), p.view, colourNormalForce)
			o.arrow(pt, r3.Scale(float64(p.forceScale), vec3(c.ForceT)), p.view, colourFrictionForce)
		}
		if p.deviations && c.State != stateHeld {
			// A held node's frame is the world's axes, not a normal.
			o.directionPair(c, pt, float64(p.directionLength))
		}
	}
	o.lines = int32(len(o.data) / lineFloats)
	if p.points {
		for i := range contacts {
			o.vertex(vec3(contacts[i].Point), stateColour(contacts[i].State))
		}
	}
	o.points = int32(len(o.data)/lineFloats) - o.lines
}

// directionPair draws the start-of-step normal n⁰ and the converged
// normal n from the contact point, both coloured by their angle; n⁰ at
// half brightness so the two can be told apart where they diverge.
func (o *contactOverlay) directionPair(c *frame.ContactView, pt r3.Vec, length float64) {
	rgb := DeviationColour(c.Deviation)
	bright := [4]float32{rgb[0], rgb[1], rgb[2], 1}
	dim := [4]float32{0.5 * rgb[0], 0.5 * rgb[1], 0.5 * rgb[2], 1}
	if n0 := vec3(c.Normal0); r3.Norm(n0) > 0 {
		o.segment(pt, r3.Add(pt, r3.Scale(length, r3.Unit(n0))), dim)
	}
	if n := vec3(c.Normal); r3.Norm(n) > 0 {
		o.segment(pt, r3.Add(pt, r3.Scale(length, r3.Unit(n))), bright)
	}
}

// arrow draws a shaft from p along v and a two-stroke head at the tip, in
// the plane that contains v and faces the camera (side = v × view), so the
// head is never seen edge-on. Zero vectors draw nothing.
func (o *contactOverlay) arrow(p, v, view r3.Vec, colour [4]float32) {
	l := r3.Norm(v)
	if !(l > 0) || math.IsInf(l, 0) {
		return
	}
	tip := r3.Add(p, v)
	side := r3.Cross(v, view)
	if s := r3.Norm(side); s > 1e-9*l {
		side = r3.Scale(0.08*l/s, side)
	} else {
		side = r3.Scale(0.08*l, anyPerpendicular(r3.Scale(1/l, v)))
	}
	back := r3.Sub(tip, r3.Scale(0.22, v))
	o.segment(p, tip, colour)
	o.segment(tip, r3.Add(back, side), colour)
	o.segment(tip, r3.Sub(back, side), colour)
}

// anyPerpendicular returns a unit vector orthogonal to the unit vector u.
func anyPerpendicular(u r3.Vec) r3.Vec {
	if math.Abs(u.X) < 0.9 {
		return r3.Unit(r3.Cross(u, r3.Vec{X: 1}))
	}
	return r3.Unit(r3.Cross(u, r3.Vec{Y: 1}))
}

func (o *contactOverlay) segment(a, b r3.Vec, colour [4]float32) {
	o.vertex(a, colour)
	o.vertex(b, colour)
}

func (o *contactOverlay) vertex(p r3.Vec, c [4]float32) {
	o.data = append(o.data, float32(p.X), float32(p.Y), float32(p.Z), c[0], c[1], c[2], c[3])
}

func stateColour(s uint8) [4]float32 {
	switch s {
	case stateStick:
		return colourStick
	case stateSlip:
		return colourSlip
	case stateHeld:
		return colourHeld
	}
	return colourSeparated
}

func vec3(a [3]float32) r3.Vec {
	return r3.Vec{X: float64(a[0]), Y: float64(a[1]), Z: float64(a[2])}
}

// upload streams the built vertices, growing the GPU buffer geometrically
// when they no longer fit.
func (o *contactOverlay) upload() {
	if len(o.data) == 0 {
		return
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, o.vb)
	if len(o.data) > o.capacity {
		o.capacity = max(2*o.capacity, len(o.data), 64*lineFloats)
	}
	gl.BufferData(gl.ARRAY_BUFFER, 4*o.capacity, nil, gl.STREAM_DRAW)
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, 4*len(o.data), unsafe.Pointer(&o.data[0]))
}

// drawLines and drawPoints issue the two parts with the bound line
// program.
func (o *contactOverlay) drawLines() {
	if o.lines > 0 {
		gl.BindVertexArray(o.vao)
		gl.DrawArrays(gl.LINES, 0, o.lines)
	}
}

func (o *contactOverlay) drawPoints() {
	if o.points > 0 {
		gl.BindVertexArray(o.vao)
		gl.DrawArrays(gl.POINTS, o.lines, o.points)
	}
}

func (o *contactOverlay) delete() {
	gl.DeleteBuffers(1, &o.vb)
	gl.DeleteVertexArrays(1, &o.vao)
}
