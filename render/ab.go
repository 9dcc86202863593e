package render

import "github.com/go-gl/gl/v4.1-core/gl"

// The A/B mode's scene B (frame.Frame.GhostSurface) is drawn as a
// translucent ghost of one colour over the opaque picture: blended, with
// depth test against A and the bodies but without depth writes, so that
// A stays visible through B and B's own back faces show through its
// front ones. It has its own buffers (same triangles as A's surface):
// A's positions are in A's.

// drawABGhost draws B's surface when the frame carries one of the Scene's
// size; the caller has drawn everything opaque.
func (r *Renderer) drawABGhost(positions []float32, opt *Options) {
	g := r.abGhost
	if !opt.ABGhost || g == nil || g.vertices == 0 || len(positions) != 3*g.vertices {
		return
	}
	g.update(positions, nil)
	u := &r.u
	r.surfaceProg.Use()
	gl.UniformMatrix4fv(u.surfView, 1, false, &r.view[0])
	gl.UniformMatrix4fv(u.surfProj, 1, false, &r.proj[0])
	c := opt.ABColour
	gl.Uniform3f(u.surfBase, c[0], c[1], c[2])
	gl.Uniform1i(u.surfUseMap, 0)
	gl.Uniform1f(u.surfAlpha, c[3])
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
	gl.DepthMask(false)
	g.draw()
	gl.DepthMask(true)
	gl.Disable(gl.BLEND)
	gl.Uniform1f(u.surfAlpha, 1)
}
