package render_test

import (
	"testing"

	"softgrasp/render"
)

// TestABGhostChangesThePicture draws a frame whose scene B is A's surface
// raised by half the object's height: the ghost changes the picture, is
// translucent (opacity 1 draws another colour there) and off draws the
// picture without it.
func TestABGhostChangesThePicture(t *testing.T) {
	withGL(t, func(fx *glFixture) {
		scene := testScene(1, 8)
		setScene(t, fx, scene)
		fr := testFrame(scene, 0)
		opt := render.DefaultOptions()
		opt.Contacts, opt.Deviations, opt.Bodies = false, false, false
		ref := drawShot(t, fx, fr, opt, false)

		fr.GhostSurface = make([]float32, len(fr.Surface))
		copy(fr.GhostSurface, fr.Surface)
		for i := 2; i < len(fr.GhostSurface); i += 3 {
			fr.GhostSurface[i] += objectHalf
		}
		ghost := drawShot(t, fx, fr, opt, false)
		if n := differing(ref, ghost); n < 500 {
			t.Errorf("the ghost changed %d pixels, want ≥ 500", n)
		}
		// Above A's top, inside B: the ghost over the floor behind.
		x, y := projected([3]float32{0, 0, 2.6 * objectHalf}, ref.Bounds().Size())
		bg, c := rgb(ref, x, y), rgb(ghost, x, y)
		if c == bg || !(c[2] > c[0]+20) {
			t.Errorf("above the object: %v without the ghost, %v with it; want a blue tint", bg, c)
		}
		opaque := opt
		opaque.ABColour[3] = 1
		if solid := rgb(drawShot(t, fx, fr, opaque, false), x, y); solid == c {
			t.Errorf("opacity 1 and %.2f draw the same %v: the ghost is not translucent", opt.ABColour[3], c)
		}
		opt.ABGhost = false
		if n := differing(ref, drawShot(t, fx, fr, opt, false)); n != 0 {
			t.Errorf("ABGhost off still changed %d pixels", n)
		}
	})
}
