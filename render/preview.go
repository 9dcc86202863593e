package render

import (
	"github.com/go-gl/gl/v4.1-core/gl"
)

// Ghost is a Scene body drawn as an outline at a pose of the viewer's
// choosing rather than the frame's: the preview of where a ctrl+click
// aims the jaws (open, and at the opening where they meet the object).
type Ghost struct {
	Body   int         // index of the body in the Scene
	Model  [16]float32 // column-major model matrix
	Colour [3]float32  // linear RGB
}

// drawGhosts draws the ghosts' triangle edges without depth test, so
// that a preview inside or behind the object stays visible. Ghosts of a
// body the Scene does not have, or of the floor, are skipped.
func (r *Renderer) drawGhosts(opt *Options) {
	if len(opt.Ghosts) == 0 {
		return
	}
	u := &r.u
	r.bodyProg.Use()
	gl.UniformMatrix4fv(u.bodyView, 1, false, &r.view[0])
	gl.UniformMatrix4fv(u.bodyProj, 1, false, &r.proj[0])
	gl.Disable(gl.DEPTH_TEST)
	gl.PolygonMode(gl.FRONT_AND_BACK, gl.LINE)
	for i := range opt.Ghosts {
		g := &opt.Ghosts[i]
		if g.Body < 0 || g.Body >= len(r.bodies) || r.bodies[g.Body].floor {
			continue
		}
		gl.UniformMatrix4fv(u.bodyModel, 1, false, &g.Model[0])
		gl.Uniform3f(u.bodyColour, g.Colour[0], g.Colour[1], g.Colour[2])
		r.bodies[g.Body].draw()
	}
	gl.PolygonMode(gl.FRONT_AND_BACK, gl.FILL)
	gl.Enable(gl.DEPTH_TEST)
}
