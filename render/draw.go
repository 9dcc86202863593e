package render

import (
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"

	"softgrasp/physics/frame"
)

// uniforms holds every uniform location Draw writes, looked up once in
// New so that a frame does no string work.
type uniforms struct {
	surfView, surfProj, surfBase, surfUseMap, surfRange, surfMap int32
	surfAlpha, surfPattern, surfPatternOrigin                    int32
	bodyModel, bodyView, bodyProj, bodyColour                    int32
	gridModel, gridView, gridProj, gridU, gridV                  int32
	gridSpacing, gridFloor, gridLine, gridFog, gridFogDist       int32
	gridBlobs, gridBlob, gridBlobLift                            int32
	lineView, lineProj, linePointSize, lineRound                 int32
	wideView, wideProj, wideViewport, wideWidth                  int32
}

// lookup resolves every location; a uniform the program does not expose
// (renamed, or optimised away because unused) is an error at start-up
// rather than a silently wrong picture.
func (u *uniforms) lookup(r *Renderer) error {
	s, b, g, l, w := r.surfaceProg, r.bodyProg, r.gridProg, r.lineProg, r.wideLineProg
	table := []struct {
		dst  *int32
		p    *Program
		name string
	}{
		{&u.surfView, s, "uView"}, {&u.surfProj, s, "uProjection"}, {&u.surfBase, s, "uBaseColour"},
		{&u.surfUseMap, s, "uUseColourMap"}, {&u.surfRange, s, "uRange"}, {&u.surfMap, s, "uColourMap"},
		{&u.surfAlpha, s, "uAlpha"}, {&u.surfPattern, s, "uPatternCell"},
		{&u.surfPatternOrigin, s, "uPatternOrigin"},
		{&u.bodyModel, b, "uModel"}, {&u.bodyView, b, "uView"}, {&u.bodyProj, b, "uProjection"},
		{&u.bodyColour, b, "uColour"},
		{&u.gridModel, g, "uModel"}, {&u.gridView, g, "uView"}, {&u.gridProj, g, "uProjection"},
		{&u.gridU, g, "uAxisU"}, {&u.gridV, g, "uAxisV"}, {&u.gridSpacing, g, "uSpacing"},
		{&u.gridFloor, g, "uFloorColour"}, {&u.gridLine, g, "uLineColour"}, {&u.gridFog, g, "uFogColour"},
		{&u.gridFogDist, g, "uFogDistance"}, {&u.gridBlobs, g, "uBlobs"}, {&u.gridBlob, g, "uBlob"},
		{&u.gridBlobLift, g, "uBlobLift"},
		{&u.lineView, l, "uView"}, {&u.lineProj, l, "uProjection"}, {&u.linePointSize, l, "uPointSize"},
		{&u.lineRound, l, "uRoundPoints"},
		{&u.wideView, w, "uView"}, {&u.wideProj, w, "uProjection"}, {&u.wideViewport, w, "uViewport"},
		{&u.wideWidth, w, "uWidth"},
	}
	for _, e := range table {
		if err := e.p.RequireUniforms(e.name); err != nil {
			return err
		}
		*e.dst = e.p.Uniform(e.name)
	}
	return nil
}

// Draw renders frame into the current framebuffer's width×height
// viewport: clear, soft surface (and wireframe), rigid bodies and floor,
// the A/B mode's translucent scene B, ghost outlines, contact overlay. A nil frame draws the scene at rest.
// The camera's viewport is set to width×height so that picking matches
// the picture.
//
// Draw allocates nothing once the contact count has reached its maximum.
// It returns an error, without drawing, when the frame does not match the
// Scene (ErrSceneMismatch for another Version) or an option is out of
// range.
func (r *Renderer) Draw(fr *frame.Frame, cam *Camera, opt Options, width, height int) error {
	if err := r.check(fr, cam, &opt, width, height); err != nil {
		return err
	}
	cam.SetViewport(width, height)
	r.view, r.proj = cam.View(), cam.Projection()

	gl.Viewport(0, 0, int32(width), int32(height))
	gl.Disable(gl.SCISSOR_TEST)
	gl.Disable(gl.BLEND)
	// Closed surfaces and a floor seen from below both want their back
	// faces: the shaders flip the normal of back faces instead.
	gl.Disable(gl.CULL_FACE)
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LESS)
	gl.DepthMask(true)
	gl.ClearColor(opt.Background[0], opt.Background[1], opt.Background[2], 1)
	gl.Clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT)
	r.cover(opt.Covered)
	r.legend = ColourNone
	if r.scene == nil {
		return nil
	}
	r.drawSurface(fr, &opt)
	r.drawBodies(fr, &opt)
	if fr != nil {
		r.drawABGhost(fr.GhostSurface, &opt)
	}
	r.drawGhosts(&opt)
	r.drawContacts(fr, cam, &opt, width, height)
	gl.BindVertexArray(0)
	gl.UseProgram(0)
	return nil
}

// cover writes the nearest depth into the rectangles, colour masked, so
// that every fragment of the scene there fails the depth test before its
// shader runs (the rasteriser's early depth test).
func (r *Renderer) cover(rects [][4]int32) {
	if len(rects) == 0 {
		return
	}
	gl.ColorMask(false, false, false, false)
	gl.DepthFunc(gl.ALWAYS)
	gl.Enable(gl.SCISSOR_TEST)
	r.coverProg.Use()
	gl.BindVertexArray(r.coverVAO)
	for _, b := range rects {
		gl.Scissor(b[0], b[1], b[2], b[3])
		gl.DrawArrays(gl.TRIANGLES, 0, 3)
	}
	gl.Disable(gl.SCISSOR_TEST)
	gl.DepthFunc(gl.LESS)
	gl.ColorMask(true, true, true, true)
}

// check validates the inputs of Draw; it allocates only on failure.
func (r *Renderer) check(fr *frame.Frame, cam *Camera, opt *Options, width, height int) error {
	if cam == nil {
		return fmt.Errorf("draw: nil camera")
	}
	if width <= 0 || height <= 0 {
		return fmt.Errorf("draw: viewport %d×%d must have a positive size", width, height)
	}
	if err := opt.Validate(); err != nil {
		return fmt.Errorf("draw: %w", err)
	}
	if fr == nil {
		return nil
	}
	if r.scene == nil {
		return fmt.Errorf("draw: frame of scene version %d but no scene set: %w", fr.SceneVersion, ErrSceneMismatch)
	}
	if fr.SceneVersion != r.scene.Version {
		return fmt.Errorf("draw: frame of scene version %d, renderer has version %d: %w", fr.SceneVersion, r.scene.Version, ErrSceneMismatch)
	}
	n := r.surface.vertices
	if len(fr.Surface) != 3*n {
		return fmt.Errorf("draw: frame %d has %d surface coordinates, scene has %d vertices (want %d)", fr.Seq, len(fr.Surface), n, 3*n)
	}
	if field, name := scalarField(fr, opt.ColourMap); name != "" && len(field) != n {
		return fmt.Errorf("draw: frame %d has %d %s values, scene has %d surface vertices", fr.Seq, len(field), name, n)
	}
	if len(fr.BodyPoses) < len(r.bodies) {
		return fmt.Errorf("draw: frame %d has %d body poses, scene has %d bodies", fr.Seq, len(fr.BodyPoses), len(r.bodies))
	}
	return nil
}

// scalarField returns the frame's field for the colour map and its name,
// or nil and "" for no map, which is also what a frame without its von
// Mises field (not asked for) gives.
func scalarField(fr *frame.Frame, m ColourMap) ([]float32, string) {
	switch m {
	case ColourDisplacement:
		return fr.Displacement, "Displacement"
	case ColourVonMises:
		if len(fr.VonMises) == 0 {
			return nil, "" // not computed (frame.SetStressField): no map
		}
		return fr.VonMises, "VonMises"
	}
	return nil, ""
}

func (r *Renderer) drawSurface(fr *frame.Frame, opt *Options) {
	s := r.surface
	if s.vertices == 0 {
		return
	}
	positions := r.scene.SurfaceRest
	var field []float32
	if fr != nil {
		positions = fr.Surface
		field, _ = scalarField(fr, opt.ColourMap)
	}
	if field != nil {
		r.ranges[opt.ColourMap].update(field, r.scratch)
		r.legend = opt.ColourMap
	}
	s.update(positions, field)

	u := &r.u
	r.surfaceProg.Use()
	gl.UniformMatrix4fv(u.surfView, 1, false, &r.view[0])
	gl.UniformMatrix4fv(u.surfProj, 1, false, &r.proj[0])
	gl.Uniform3f(u.surfBase, opt.SurfaceColour[0], opt.SurfaceColour[1], opt.SurfaceColour[2])
	useMap := int32(0)
	if field != nil {
		useMap = 1
		lo, hi := r.ranges[opt.ColourMap].bounds()
		gl.Uniform2f(u.surfRange, lo, hi)
	}
	gl.Uniform1i(u.surfUseMap, useMap)
	gl.Uniform1f(u.surfAlpha, 1)
	cell := float32(0)
	if opt.Pattern {
		cell = r.size / patternCells
	}
	gl.Uniform1f(u.surfPattern, cell)
	gl.Uniform3f(u.surfPatternOrigin, r.restCentre[0], r.restCentre[1], r.restCentre[2])
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindTexture(gl.TEXTURE_1D, r.colourTex)
	gl.Uniform1i(u.surfMap, 0)
	if opt.Wireframe {
		// Push the filled triangles back in depth so that the edges drawn
		// next over the same triangles win the depth test.
		gl.Enable(gl.POLYGON_OFFSET_FILL)
		gl.PolygonOffset(1, 1)
	}
	s.draw()
	gl.Disable(gl.POLYGON_OFFSET_FILL)
	if opt.Wireframe {
		r.drawWireframe(opt.WireColour)
	}
}

// drawWireframe draws the surface's triangle edges in one colour over the
// filled pass, which was pushed back by the polygon offset.
func (r *Renderer) drawWireframe(c [4]float32) {
	r.useLineProgram(0, false)
	// The wire vertex array leaves the colour attribute disabled, so the
	// line program reads this constant instead.
	gl.VertexAttrib4f(1, c[0], c[1], c[2], c[3])
	gl.DepthFunc(gl.LEQUAL)
	r.surface.drawWire()
	gl.DepthFunc(gl.LESS)
}

func (r *Renderer) useLineProgram(pointSize float32, round bool) {
	r.lineProg.Use()
	gl.UniformMatrix4fv(r.u.lineView, 1, false, &r.view[0])
	gl.UniformMatrix4fv(r.u.lineProj, 1, false, &r.proj[0])
	gl.Uniform1f(r.u.linePointSize, pointSize)
	roundPoints := int32(0)
	if round {
		roundPoints = 1
	}
	gl.Uniform1i(r.u.lineRound, roundPoints)
}

// drawBodies draws each rigid body at its pose of the frame (identity
// without a frame): the floor with the grid program, the others shaded.
func (r *Renderer) drawBodies(fr *frame.Frame, opt *Options) {
	u := &r.u
	if opt.Floor {
		r.castShadows(fr, opt)
	}
	for i, b := range r.bodies {
		model := &r.identity
		if fr != nil {
			model = &fr.BodyPoses[i]
		}
		switch {
		case b.floor && opt.Floor:
			r.gridProg.Use()
			gl.UniformMatrix4fv(u.gridModel, 1, false, &model[0])
			gl.UniformMatrix4fv(u.gridView, 1, false, &r.view[0])
			gl.UniformMatrix4fv(u.gridProj, 1, false, &r.proj[0])
			gl.Uniform3f(u.gridU, b.u[0], b.u[1], b.u[2])
			gl.Uniform3f(u.gridV, b.v[0], b.v[1], b.v[2])
			gl.Uniform1f(u.gridSpacing, b.spacing)
			gl.Uniform3f(u.gridFloor, opt.FloorColour[0], opt.FloorColour[1], opt.FloorColour[2])
			gl.Uniform3f(u.gridLine, opt.FloorLineColour[0], opt.FloorLineColour[1], opt.FloorLineColour[2])
			gl.Uniform3f(u.gridFog, opt.Background[0], opt.Background[1], opt.Background[2])
			gl.Uniform1f(u.gridFogDist, b.fog)
			gl.Uniform1i(u.gridBlobs, r.shadows.n)
			if r.shadows.n > 0 {
				gl.Uniform4fv(u.gridBlob, r.shadows.n, &r.shadows.blob[0][0])
				gl.Uniform2fv(u.gridBlobLift, r.shadows.n, &r.shadows.lift[0][0])
			}
			b.draw()
		case !b.floor && opt.Bodies:
			r.bodyProg.Use()
			gl.UniformMatrix4fv(u.bodyModel, 1, false, &model[0])
			gl.UniformMatrix4fv(u.bodyView, 1, false, &r.view[0])
			gl.UniformMatrix4fv(u.bodyProj, 1, false, &r.proj[0])
			gl.Uniform3f(u.bodyColour, b.colour[0], b.colour[1], b.colour[2])
			b.draw()
		}
	}
}

// drawContacts draws the overlay without depth test: contacts lie on the
// interface between the soft body and a jaw, where the jaw would hide
// them. Arrows and direction segments are wide lines; points are discs.
func (r *Renderer) drawContacts(fr *frame.Frame, cam *Camera, opt *Options, width, height int) {
	if fr == nil || len(fr.Contacts) == 0 || !(opt.Contacts || opt.Forces || opt.Deviations) {
		return
	}
	forward, _, _ := cam.Basis()
	length := opt.DirectionLength
	if length == 0 {
		length = 0.15 * r.size
	}
	r.overlay.build(fr.Contacts, overlayParams{
		points: opt.Contacts, forces: opt.Forces, deviations: opt.Deviations,
		forceScale: opt.ForceScale, directionLength: length, view: forward,
	})
	r.overlay.upload()
	gl.Disable(gl.DEPTH_TEST)

	u := &r.u
	r.wideLineProg.Use()
	gl.UniformMatrix4fv(u.wideView, 1, false, &r.view[0])
	gl.UniformMatrix4fv(u.wideProj, 1, false, &r.proj[0])
	gl.Uniform2f(u.wideViewport, float32(width), float32(height))
	gl.Uniform1f(u.wideWidth, opt.LineWidth)
	r.overlay.drawLines()

	r.useLineProgram(opt.PointSize, true)
	gl.Enable(gl.PROGRAM_POINT_SIZE)
	r.overlay.drawPoints()
	gl.Disable(gl.PROGRAM_POINT_SIZE)
	gl.Enable(gl.DEPTH_TEST)
}
