package render

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Camera is an orbit camera in the simulation's Z-up world. The eye sits
// at Distance from Target in the direction given by Yaw (about +Z,
// measured from +X) and Pitch (above the XY plane):
//
//	eye = Target + Distance·(cos Pitch·cos Yaw, cos Pitch·sin Yaw, sin Pitch)
//
// Orbit turns about the target, Pan moves the target in the view plane,
// Zoom scales the distance within [MinDistance, MaxDistance]. The camera
// is pure math and needs no GL context.
type Camera struct {
	Target     r3.Vec
	Distance   float64 // m, eye to target
	Yaw, Pitch float64 // rad
	// FovY is the vertical field of view (rad).
	FovY float64
	// MinDistance and MaxDistance bound Zoom.
	MinDistance, MaxDistance float64
	// ShiftX moves the image's centre of projection right by that much of
	// the viewport's half width (normalised device coordinates), so that
	// the target appears at the middle of the part of the window the
	// panels leave free rather than behind them; 0 centres it.
	ShiftX float64

	width, height int
	home          CameraView
}

// CameraView is the part of a camera that Reset restores: where it looks
// from and at.
type CameraView struct {
	Target     r3.Vec
	Distance   float64
	Yaw, Pitch float64
}

// maxPitch keeps the eye off the vertical axis, where the Z-up view basis
// would degenerate (forward × Z = 0).
const maxPitch = 89 * math.Pi / 180

// NewCamera returns a camera looking at target from distance, a quarter
// turn of yaw off the X axis and 25° above the floor; that view is the one
// Reset returns to. The zoom range is [distance/50, distance·20] and the
// viewport 1×1 until SetViewport.
func NewCamera(target r3.Vec, distance float64) *Camera {
	if !(distance > 0) || math.IsInf(distance, 0) {
		distance = 1
	}
	c := &Camera{
		FovY:        45 * math.Pi / 180,
		MinDistance: distance / 50,
		MaxDistance: distance * 20,
		width:       1,
		height:      1,
		home: CameraView{
			Target:   target,
			Distance: distance,
			Yaw:      -60 * math.Pi / 180,
			Pitch:    25 * math.Pi / 180,
		},
	}
	c.Reset()
	return c
}

// Reset restores the view the camera was created with (or last given to
// SetHome).
func (c *Camera) Reset() {
	c.Target, c.Distance, c.Yaw, c.Pitch = c.home.Target, c.home.Distance, c.home.Yaw, c.home.Pitch
}

// SetHome makes the current view the one Reset restores.
func (c *Camera) SetHome() {
	c.home = CameraView{Target: c.Target, Distance: c.Distance, Yaw: c.Yaw, Pitch: c.Pitch}
}

// SetViewport records the framebuffer size in pixels; Projection's aspect
// ratio and ViewPlaneDelta's pixel scale use it. Non-positive sizes are
// ignored (a minimised window reports 0×0).
func (c *Camera) SetViewport(width, height int) {
	if width > 0 && height > 0 {
		c.width, c.height = width, height
	}
}

// Viewport returns the size recorded by SetViewport.
func (c *Camera) Viewport() (width, height int) { return c.width, c.height }

// Orbit turns the eye about the target by dYaw and dPitch (rad). The
// distance to the target is unchanged; the pitch is clamped to ±89°.
func (c *Camera) Orbit(dYaw, dPitch float64) {
	c.Yaw = math.Remainder(c.Yaw+dYaw, 2*math.Pi)
	c.Pitch = math.Max(-maxPitch, math.Min(maxPitch, c.Pitch+dPitch))
}

// Pan moves the target so that the scene follows a mouse drag of (dx, dy)
// pixels (y down): a point at the target's depth stays under the cursor.
func (c *Camera) Pan(dx, dy float64) {
	c.Target = r3.Sub(c.Target, c.ViewPlaneDelta(dx, dy, c.Target))
}

// Zoom multiplies the distance by factor (< 1 moves closer), clamped to
// [MinDistance, MaxDistance]. Non-positive factors are ignored.
func (c *Camera) Zoom(factor float64) {
	if !(factor > 0) || math.IsInf(factor, 0) {
		return
	}
	c.Distance = math.Max(c.MinDistance, math.Min(c.MaxDistance, c.Distance*factor))
}

// Eye returns the eye position.
func (c *Camera) Eye() r3.Vec {
	return r3.Sub(c.Target, r3.Scale(c.Distance, c.forward()))
}

// forward is the unit viewing direction, from the eye towards the target.
func (c *Camera) forward() r3.Vec {
	sy, cy := math.Sincos(c.Yaw)
	sp, cp := math.Sincos(c.Pitch)
	return r3.Vec{X: -cp * cy, Y: -cp * sy, Z: -sp}
}

// Basis returns the camera's orthonormal frame: forward (into the screen),
// right and up (on screen), with right = forward × Z normalised and
// up = right × forward.
func (c *Camera) Basis() (forward, right, up r3.Vec) {
	forward = c.forward()
	right = r3.Unit(r3.Cross(forward, r3.Vec{Z: 1}))
	up = r3.Cross(right, forward)
	return forward, right, up
}

// clipPlanes returns the near and far distances. They scale with the
// orbit distance so that depth precision follows the zoom: 1/100 and 100
// times the distance keep a 1e4 ratio, well inside a 24-bit depth buffer.
func (c *Camera) clipPlanes() (near, far float64) {
	return c.Distance / 100, c.Distance * 100
}

func (c *Camera) aspect() float64 { return float64(c.width) / float64(c.height) }

// View returns the world-to-eye matrix (column-major, OpenGL convention:
// the eye looks down −z).
func (c *Camera) View() [16]float32 {
	f, r, u := c.Basis()
	e := c.Eye()
	return [16]float32{
		float32(r.X), float32(u.X), float32(-f.X), 0,
		float32(r.Y), float32(u.Y), float32(-f.Y), 0,
		float32(r.Z), float32(u.Z), float32(-f.Z), 0,
		float32(-r3.Dot(r, e)), float32(-r3.Dot(u, e)), float32(r3.Dot(f, e)), 1,
	}
}

// Projection returns the perspective matrix (column-major) for FovY, the
// viewport's aspect ratio and the distance-scaled clip planes. It maps eye
// depth −near to NDC −1 and −far to +1.
func (c *Camera) Projection() [16]float32 {
	near, far := c.clipPlanes()
	f := 1 / math.Tan(c.FovY/2)
	// x_ndc = x_clip/w with w = −z_eye: the −ShiftX·z_eye term adds ShiftX.
	return [16]float32{
		float32(f / c.aspect()), 0, 0, 0,
		0, float32(f), 0, 0,
		float32(-c.ShiftX), 0, float32((far + near) / (near - far)), -1,
		0, 0, float32(2 * far * near / (near - far)), 0,
	}
}

// Ray returns the picking ray through pixel (x, y) of a width×height
// viewport (origin top-left, y down): it starts at the eye and its unit
// direction passes through the pixel on the image plane. The pixel
// coordinates are continuous: (width/2, height/2) is the exact centre.
func (c *Camera) Ray(x, y float64, width, height int) (origin, dir r3.Vec) {
	f, r, u := c.Basis()
	if width <= 0 || height <= 0 {
		return c.Eye(), f
	}
	tanHalf := math.Tan(c.FovY / 2)
	ndcX := 2*x/float64(width) - 1 - c.ShiftX
	ndcY := 1 - 2*y/float64(height)
	aspect := float64(width) / float64(height)
	d := r3.Add(f, r3.Add(r3.Scale(ndcX*tanHalf*aspect, r), r3.Scale(ndcY*tanHalf, u)))
	return c.Eye(), r3.Unit(d)
}

// Project returns the pixel (x right, y down) where the world point p
// appears in the current viewport; ok is false for points at or behind
// the eye plane.
func (c *Camera) Project(p r3.Vec) (x, y float64, ok bool) {
	f, r, u := c.Basis()
	d := r3.Sub(p, c.Eye())
	depth := r3.Dot(d, f)
	if depth <= 0 {
		return 0, 0, false
	}
	tanHalf := math.Tan(c.FovY / 2)
	ndcX := r3.Dot(d, r)/(depth*tanHalf*c.aspect()) + c.ShiftX
	ndcY := r3.Dot(d, u) / (depth * tanHalf)
	return (ndcX + 1) / 2 * float64(c.width), (1 - ndcY) / 2 * float64(c.height), true
}

// ViewPlaneDelta maps a mouse drag of (dx, dy) pixels (y down) to the
// world displacement, parallel to the image plane, that moves a point at
// the depth of the point depth by exactly that many pixels on screen.
//
// At eye depth z a pixel spans s = 2·z·tan(FovY/2)/height metres (the
// image plane at depth z is 2·z·tan(FovY/2) high), so the displacement is
// s·(dx·right − dy·up). Points at or behind the eye use the near plane.
func (c *Camera) ViewPlaneDelta(dx, dy float64, depth r3.Vec) r3.Vec {
	f, r, u := c.Basis()
	z := r3.Dot(r3.Sub(depth, c.Eye()), f)
	if near, _ := c.clipPlanes(); z < near {
		z = near
	}
	s := 2 * z * math.Tan(c.FovY/2) / float64(c.height)
	return r3.Add(r3.Scale(s*dx, r), r3.Scale(-s*dy, u))
}
