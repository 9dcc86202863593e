package render

import (
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/inkyblackness/imgui-go/v4"
)

// ImGuiRenderer draws ImGui's draw lists (the panels that package ui
// builds) with OpenGL 4.1 core: one orthographic program, the font atlas
// as a texture, a vertex array whose vertex and index buffers are
// re-filled for every command list, and a scissor rectangle per draw
// command. It saves and restores the GL state it touches, so the 3D
// Renderer and it can draw in either order.
type ImGuiRenderer struct {
	program          *Program
	locTex, locProj  int32
	vao, vbo, ebo    uint32
	fontTexture      uint32
	indexType        uint32
	indexSize        int
	proj             [16]float32
	vboSize, eboSize int
}

// NewImGuiRenderer creates the GL objects and uploads the current ImGui
// context's font atlas. A GL context and an ImGui context must be current.
func NewImGuiRenderer() (*ImGuiRenderer, error) {
	if err := gl.Init(); err != nil {
		return nil, fmt.Errorf("load OpenGL functions (is a 4.1 context current?): %w", err)
	}
	prog, err := LoadProgram("imgui")
	if err != nil {
		return nil, err
	}
	r := &ImGuiRenderer{program: prog}
	if err := prog.RequireUniforms("uTexture", "uProjection"); err != nil {
		r.Dispose()
		return nil, err
	}
	r.locTex, r.locProj = prog.Uniform("uTexture"), prog.Uniform("uProjection")
	switch size := imgui.IndexBufferLayout(); size {
	case 2:
		r.indexType, r.indexSize = gl.UNSIGNED_SHORT, 2
	case 4:
		r.indexType, r.indexSize = gl.UNSIGNED_INT, 4
	default:
		r.Dispose()
		return nil, fmt.Errorf("ImGui index size %d bytes: want 2 or 4", size)
	}
	r.createBuffers()
	r.createFontTexture()
	if err := glError("create ImGui renderer"); err != nil {
		r.Dispose()
		return nil, err
	}
	return r, nil
}

// createBuffers sets up the vertex array with ImGui's vertex layout:
// float2 position, float2 uv, and four bytes of colour normalised to
// [0, 1].
func (r *ImGuiRenderer) createBuffers() {
	gl.GenVertexArrays(1, &r.vao)
	gl.GenBuffers(1, &r.vbo)
	gl.GenBuffers(1, &r.ebo)
	stride, posOff, uvOff, colOff := imgui.VertexBufferLayout()
	gl.BindVertexArray(r.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, r.ebo)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 2, gl.FLOAT, false, int32(stride), uintptr(posOff))
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 2, gl.FLOAT, false, int32(stride), uintptr(uvOff))
	gl.EnableVertexAttribArray(2)
	gl.VertexAttribPointerWithOffset(2, 4, gl.UNSIGNED_BYTE, true, int32(stride), uintptr(colOff))
	gl.BindVertexArray(0)
}

// createFontTexture uploads the font atlas as RGBA8 and hands its name to
// ImGui as the atlas's TextureID.
func (r *ImGuiRenderer) createFontTexture() {
	io := imgui.CurrentIO()
	img := io.Fonts().TextureDataRGBA32()
	var last int32
	gl.GetIntegerv(gl.TEXTURE_BINDING_2D, &last)
	gl.GenTextures(1, &r.fontTexture)
	gl.BindTexture(gl.TEXTURE_2D, r.fontTexture)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, 0)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, int32(img.Width), int32(img.Height), 0, gl.RGBA, gl.UNSIGNED_BYTE, img.Pixels)
	io.Fonts().SetTextureID(imgui.TextureID(r.fontTexture))
	gl.BindTexture(gl.TEXTURE_2D, uint32(last))
}

// Dispose frees the GL objects.
func (r *ImGuiRenderer) Dispose() {
	if r.vao != 0 {
		gl.DeleteVertexArrays(1, &r.vao)
	}
	for _, b := range []*uint32{&r.vbo, &r.ebo} {
		if *b != 0 {
			gl.DeleteBuffers(1, b)
		}
	}
	if r.fontTexture != 0 {
		gl.DeleteTextures(1, &r.fontTexture)
	}
	r.program.Delete()
	*r = ImGuiRenderer{}
}

// Render draws data (imgui.RenderedDrawData after imgui.Render) into the
// current framebuffer. displaySize is in screen coordinates (ImGui's
// space), framebufferSize in pixels.
func (r *ImGuiRenderer) Render(displaySize, framebufferSize [2]float32, data imgui.DrawData) {
	fbW, fbH := framebufferSize[0], framebufferSize[1]
	if fbW <= 0 || fbH <= 0 || displaySize[0] <= 0 || displaySize[1] <= 0 || !data.Valid() {
		return
	}
	scale := imgui.Vec2{X: fbW / displaySize[0], Y: fbH / displaySize[1]}
	var saved glState
	saved.save()
	r.setup(data, int32(fbW), int32(fbH))
	origin := data.DisplayPos()
	for _, list := range data.CommandLists() {
		r.upload(list)
		for _, cmd := range list.Commands() {
			if cmd.HasUserCallback() {
				cmd.CallUserCallback(list)
				continue
			}
			r.drawCommand(cmd, origin, scale, fbH)
		}
	}
	saved.restore()
}

// setup sets the state ImGui needs: straight (not premultiplied) alpha
// blending, no culling or depth, scissor on, and the orthographic
// projection that maps the display rectangle [L, R]×[T, B] to clip space
// (y flipped: ImGui's y grows downwards).
func (r *ImGuiRenderer) setup(data imgui.DrawData, fbW, fbH int32) {
	gl.Enable(gl.BLEND)
	gl.BlendEquation(gl.FUNC_ADD)
	gl.BlendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	gl.Disable(gl.CULL_FACE)
	gl.Disable(gl.DEPTH_TEST)
	gl.Disable(gl.STENCIL_TEST)
	gl.Enable(gl.SCISSOR_TEST)
	gl.PolygonMode(gl.FRONT_AND_BACK, gl.FILL)
	gl.Viewport(0, 0, fbW, fbH)

	pos, size := data.DisplayPos(), data.DisplaySize()
	L, R := pos.X, pos.X+size.X
	T, B := pos.Y, pos.Y+size.Y
	r.proj = [16]float32{
		2 / (R - L), 0, 0, 0,
		0, 2 / (T - B), 0, 0,
		0, 0, -1, 0,
		(R + L) / (L - R), (T + B) / (B - T), 0, 1,
	}
	r.program.Use()
	gl.Uniform1i(r.locTex, 0)
	gl.UniformMatrix4fv(r.locProj, 1, false, &r.proj[0])
	gl.BindSampler(0, 0)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindVertexArray(r.vao)
}

// upload streams one command list's vertices and indices, orphaning the
// previous storage when the size changes so the driver does not wait for
// the previous draw.
func (r *ImGuiRenderer) upload(list imgui.DrawList) {
	vtx, vtxSize := list.VertexBuffer()
	idx, idxSize := list.IndexBuffer()
	gl.BindBuffer(gl.ARRAY_BUFFER, r.vbo)
	if vtxSize > r.vboSize {
		r.vboSize = vtxSize
	}
	gl.BufferData(gl.ARRAY_BUFFER, r.vboSize, nil, gl.STREAM_DRAW)
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, vtxSize, vtx)
	if idxSize > r.eboSize {
		r.eboSize = idxSize
	}
	gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, r.eboSize, nil, gl.STREAM_DRAW)
	gl.BufferSubData(gl.ELEMENT_ARRAY_BUFFER, 0, idxSize, idx)
}

// drawCommand clips to the command's rectangle (display → framebuffer
// pixels; GL's scissor origin is bottom-left) and draws its triangles.
func (r *ImGuiRenderer) drawCommand(cmd imgui.DrawCommand, origin, scale imgui.Vec2, fbH float32) {
	clip := cmd.ClipRect()
	x0, y0 := (clip.X-origin.X)*scale.X, (clip.Y-origin.Y)*scale.Y
	x1, y1 := (clip.Z-origin.X)*scale.X, (clip.W-origin.Y)*scale.Y
	if x1 <= x0 || y1 <= y0 {
		return
	}
	gl.Scissor(int32(x0), int32(fbH-y1), int32(x1-x0), int32(y1-y0))
	gl.BindTexture(gl.TEXTURE_2D, uint32(cmd.TextureID()))
	gl.DrawElementsBaseVertexWithOffset(gl.TRIANGLES, int32(cmd.ElementCount()), r.indexType,
		uintptr(cmd.IndexOffset()*r.indexSize), int32(cmd.VertexOffset()))
}

// glState is the part of the GL state Render changes.
type glState struct {
	program, texture, activeTexture, sampler int32
	arrayBuffer, vertexArray                 int32
	viewport, scissor                        [4]int32
	polygonMode                              [2]int32
	blendSrcRGB, blendDstRGB                 int32
	blendSrcAlpha, blendDstAlpha             int32
	blendEqRGB, blendEqAlpha                 int32
	blend, cull, depth, stencil, scissorTest bool
}

func (s *glState) save() {
	gl.GetIntegerv(gl.ACTIVE_TEXTURE, &s.activeTexture)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.GetIntegerv(gl.CURRENT_PROGRAM, &s.program)
	gl.GetIntegerv(gl.TEXTURE_BINDING_2D, &s.texture)
	gl.GetIntegerv(gl.SAMPLER_BINDING, &s.sampler)
	gl.GetIntegerv(gl.ARRAY_BUFFER_BINDING, &s.arrayBuffer)
	gl.GetIntegerv(gl.VERTEX_ARRAY_BINDING, &s.vertexArray)
	gl.GetIntegerv(gl.VIEWPORT, &s.viewport[0])
	gl.GetIntegerv(gl.SCISSOR_BOX, &s.scissor[0])
	gl.GetIntegerv(gl.POLYGON_MODE, &s.polygonMode[0])
	gl.GetIntegerv(gl.BLEND_SRC_RGB, &s.blendSrcRGB)
	gl.GetIntegerv(gl.BLEND_DST_RGB, &s.blendDstRGB)
	gl.GetIntegerv(gl.BLEND_SRC_ALPHA, &s.blendSrcAlpha)
	gl.GetIntegerv(gl.BLEND_DST_ALPHA, &s.blendDstAlpha)
	gl.GetIntegerv(gl.BLEND_EQUATION_RGB, &s.blendEqRGB)
	gl.GetIntegerv(gl.BLEND_EQUATION_ALPHA, &s.blendEqAlpha)
	s.blend = gl.IsEnabled(gl.BLEND)
	s.cull = gl.IsEnabled(gl.CULL_FACE)
	s.depth = gl.IsEnabled(gl.DEPTH_TEST)
	s.stencil = gl.IsEnabled(gl.STENCIL_TEST)
	s.scissorTest = gl.IsEnabled(gl.SCISSOR_TEST)
}

func (s *glState) restore() {
	gl.UseProgram(uint32(s.program))
	gl.BindTexture(gl.TEXTURE_2D, uint32(s.texture))
	gl.BindSampler(0, uint32(s.sampler))
	gl.ActiveTexture(uint32(s.activeTexture))
	gl.BindVertexArray(uint32(s.vertexArray))
	gl.BindBuffer(gl.ARRAY_BUFFER, uint32(s.arrayBuffer))
	gl.BlendEquationSeparate(uint32(s.blendEqRGB), uint32(s.blendEqAlpha))
	gl.BlendFuncSeparate(uint32(s.blendSrcRGB), uint32(s.blendDstRGB), uint32(s.blendSrcAlpha), uint32(s.blendDstAlpha))
	setEnabled(gl.BLEND, s.blend)
	setEnabled(gl.CULL_FACE, s.cull)
	setEnabled(gl.DEPTH_TEST, s.depth)
	setEnabled(gl.STENCIL_TEST, s.stencil)
	setEnabled(gl.SCISSOR_TEST, s.scissorTest)
	// Core profile has one polygon mode for both faces.
	gl.PolygonMode(gl.FRONT_AND_BACK, uint32(s.polygonMode[0]))
	gl.Viewport(s.viewport[0], s.viewport[1], s.viewport[2], s.viewport[3])
	gl.Scissor(s.scissor[0], s.scissor[1], s.scissor[2], s.scissor[3])
}

func setEnabled(capability uint32, on bool) {
	if on {
		gl.Enable(capability)
	} else {
		gl.Disable(capability)
	}
}
