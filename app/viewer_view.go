package main

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/scenario"
	"softgrasp/render"
	"softgrasp/ui"
)

// The 3D view's framing and the mapping of the Display panel onto the
// renderer's options.

// The camera's view before any scene: a few centimetres above the origin,
// where the scenes put their object.
var (
	homeTarget   = r3.Vec{Z: 0.03}
	homeDistance = 0.16
)

// Framing of a scene: the camera looks at a point raised by liftFraction
// of the object's size above its centre (the gripper works above it), from
// distanceFactor object sizes away. With the 45° field of view the image
// is then about 3.3 object sizes high, which leaves room for the jaws and
// the lift of the grasp-and-rotate script between the panels.
const (
	liftFraction   = 0.45
	distanceFactor = 4.6
	// homePitch looks down on the scene enough to see the contacts on the
	// jaws' faces and the floor grid.
	homePitch = 22 * math.Pi / 180
)

// frameCamera aims the camera at the scene's soft object and makes that
// view the one Reset returns to. With the jaws in f's poses it looks
// across their closing axis, turned by framingTurn, so that neither jaw
// hides the object.
func frameCamera(cam *render.Camera, sc *frame.Scene, f *frame.Frame) {
	lo, hi, ok := bounds(sc.SurfaceRest)
	if !ok {
		return
	}
	size := max(hi.X-lo.X, hi.Y-lo.Y, hi.Z-lo.Z)
	centre := r3.Scale(0.5, r3.Add(lo, hi))
	cam.Target = r3.Add(centre, r3.Vec{Z: liftFraction * size})
	cam.Distance = distanceFactor * size
	cam.MinDistance, cam.MaxDistance = cam.Distance/50, cam.Distance*20
	cam.Pitch = homePitch
	if yaw, ok := acrossJaws(sc, f, cam.Yaw); ok {
		cam.Yaw = yaw
	}
	cam.SetHome()
}

// framingTurn is how far the framed view turns from square across the
// jaws' closing axis: enough to see their faces, not enough for a jaw to
// cover the object.
const framingTurn = 20 * math.Pi / 180

// acrossJaws returns the camera yaw square to the jaws' closing axis in
// f, turned by framingTurn, of the two the nearer to yaw; ok is false
// without two jaws apart.
func acrossJaws(sc *frame.Scene, f *frame.Frame, yaw float64) (float64, bool) {
	if f == nil || len(sc.Bodies) <= scenario.RightJawBody || len(f.BodyPoses) <= scenario.RightJawBody {
		return 0, false
	}
	l, r := &f.BodyPoses[scenario.LeftJawBody], &f.BodyPoses[scenario.RightJawBody]
	ax, ay := float64(r[12]-l[12]), float64(r[13]-l[13])
	if math.Hypot(ax, ay) < 1e-6 {
		return 0, false
	}
	axis := math.Atan2(ay, ax)
	best, gap := 0.0, math.Inf(1)
	for _, c := range []float64{axis + math.Pi/2 - framingTurn, axis - math.Pi/2 + framingTurn} {
		if d := math.Abs(math.Remainder(c-yaw, 2*math.Pi)); d < gap {
			best, gap = math.Remainder(c, 2*math.Pi), d
		}
	}
	return best, true
}

// framed is what a camera was framed on: the scenario and the soft
// object's rest bounding box. A new scene reframes the camera when
// either changed: another scenario, another mesh, another size.
type framed struct {
	kind   string
	lo, hi r3.Vec
}

// reframe reports whether the scene differs from what was framed (by the
// scenario, or the object's bounding box by more than a tenth of its
// size) and records it.
func (fr *framed) reframe(kind string, sc *frame.Scene) bool {
	lo, hi, ok := bounds(sc.SurfaceRest)
	if !ok {
		return false
	}
	size := max(hi.X-lo.X, hi.Y-lo.Y, hi.Z-lo.Z)
	moved := r3.Norm(r3.Sub(lo, fr.lo)) + r3.Norm(r3.Sub(hi, fr.hi))
	if kind == fr.kind && moved <= 0.1*size {
		return false
	}
	*fr = framed{kind: kind, lo: lo, hi: hi}
	return true
}

// bounds returns the bounding box of xyz triples; ok is false for none.
func bounds(xyz []float32) (lo, hi r3.Vec, ok bool) {
	if len(xyz) < 3 {
		return lo, hi, false
	}
	lo = r3.Vec{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi = r3.Scale(-1, lo)
	for i := 0; i+2 < len(xyz); i += 3 {
		p := r3.Vec{X: float64(xyz[i]), Y: float64(xyz[i+1]), Z: float64(xyz[i+2])}
		lo = r3.Vec{X: math.Min(lo.X, p.X), Y: math.Min(lo.Y, p.Y), Z: math.Min(lo.Z, p.Z)}
		hi = r3.Vec{X: math.Max(hi.X, p.X), Y: math.Max(hi.Y, p.Y), Z: math.Max(hi.Z, p.Z)}
	}
	return lo, hi, true
}

// renderOptions maps the Display panel's toggles onto the renderer's
// default options.
func renderOptions(d ui.Display) render.Options {
	o := render.DefaultOptions()
	o.Wireframe, o.Contacts, o.Forces, o.Deviations = d.Wireframe, d.Contacts, d.Forces, d.Deviations
	o.Bodies, o.Floor, o.Shadows, o.Pattern = d.Bodies, d.Floor, d.Shadows, d.Pattern
	o.ColourMap = colourMaps[ui.ColourNone]
	if d.ColourMap >= 0 && int(d.ColourMap) < len(colourMaps) {
		o.ColourMap = colourMaps[d.ColourMap]
	}
	if d.ForceScale > 0 {
		o.ForceScale = d.ForceScale
	}
	return o
}

// displayFromOptions is the Display panel's view of render options, so
// that the panel starts from the renderer's documented defaults.
func displayFromOptions(o render.Options) ui.Display {
	d := ui.Display{
		Wireframe: o.Wireframe, Contacts: o.Contacts, Forces: o.Forces, Deviations: o.Deviations,
		Bodies: o.Bodies, Floor: o.Floor, Shadows: o.Shadows, Pattern: o.Pattern, ForceScale: o.ForceScale,
	}
	for m, c := range colourMaps {
		if c == o.ColourMap {
			d.ColourMap = ui.ColourMap(m)
		}
	}
	return d
}

// colourMaps maps the panel's colour maps onto the renderer's, in
// ui.ColourMap order.
var colourMaps = [...]render.ColourMap{
	ui.ColourNone:         render.ColourNone,
	ui.ColourDisplacement: render.ColourDisplacement,
	ui.ColourVonMises:     render.ColourVonMises,
}
