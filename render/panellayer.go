package render

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/inkyblackness/imgui-go/v4"
)

// PanelLayer keeps a picture of the panels so that a frame can show them
// without drawing them again. On a software rasteriser the panels' text
// and plots cost as much as the 3D view (docs/viewer.md, "Keeping the renderer off the physics' core"): the viewer
// redraws them into the layer only when they can have changed to the eye
// (an input, or a tenth of a second of new numbers) and copies the layer
// over every frame.
//
// The panels are opaque with square corners (ui.ApplyStyle), so the layer
// is a plain copy: an RGBA8 texture the size of the framebuffer, cleared to
// the panels' background colour and drawn by ImGui, of which only the
// rectangles the command lists draw on are copied (glBlitFramebuffer) into
// the frame. Rects gives those rectangles to the 3D renderer, which skips
// their pixels (Options.Covered).
type PanelLayer struct {
	fbo, tex uint32
	w, h     int32
	// rects are the disjoint rectangles (x, y, width, height; GL's
	// bottom-left origin) that hold the panels.
	rects [][4]int32
}

// NewPanelLayer creates the framebuffer; its texture follows the
// framebuffer size at the first Update. A GL context must be current.
func NewPanelLayer() (*PanelLayer, error) {
	l := &PanelLayer{}
	gl.GenFramebuffers(1, &l.fbo)
	return l, glError("create the panel layer")
}

// Dispose frees the GL objects.
func (l *PanelLayer) Dispose() {
	if l.fbo != 0 {
		gl.DeleteFramebuffers(1, &l.fbo)
	}
	if l.tex != 0 {
		gl.DeleteTextures(1, &l.tex)
	}
	*l = PanelLayer{}
}

// Rects returns the rectangles the last Update drew on (x, y, width,
// height in framebuffer pixels, bottom-left origin), disjoint. The slice
// is the layer's: valid until the next Update.
func (l *PanelLayer) Rects() [][4]int32 { return l.rects }

// Update draws data into the layer with r (ImGuiRenderer.Render's
// arguments) over background, the panels' opaque background colour, and
// notes the rectangles it draws on. The framebuffer binding, texture,
// viewport, clear colour and scissor test are restored.
func (l *PanelLayer) Update(r *ImGuiRenderer, displaySize, framebufferSize [2]float32, data imgui.DrawData, background [4]float32) error {
	w, h := int32(framebufferSize[0]), int32(framebufferSize[1])
	if w <= 0 || h <= 0 || displaySize[0] <= 0 || displaySize[1] <= 0 {
		l.rects = l.rects[:0]
		return nil
	}
	var fb, texture int32
	var viewport [4]int32
	var clear [4]float32
	gl.GetIntegerv(gl.DRAW_FRAMEBUFFER_BINDING, &fb)
	gl.GetIntegerv(gl.TEXTURE_BINDING_2D, &texture)
	gl.GetIntegerv(gl.VIEWPORT, &viewport[0])
	gl.GetFloatv(gl.COLOR_CLEAR_VALUE, &clear[0])
	scissor := gl.IsEnabled(gl.SCISSOR_TEST)
	defer func() {
		gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, uint32(fb))
		gl.BindTexture(gl.TEXTURE_2D, uint32(texture))
		gl.Viewport(viewport[0], viewport[1], viewport[2], viewport[3])
		gl.ClearColor(clear[0], clear[1], clear[2], clear[3])
		setEnabled(gl.SCISSOR_TEST, scissor)
	}()
	if w != l.w || h != l.h {
		if l.tex != 0 {
			gl.DeleteTextures(1, &l.tex)
		}
		gl.GenTextures(1, &l.tex)
		gl.BindTexture(gl.TEXTURE_2D, l.tex)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
		gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
		gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, nil)
		gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, l.fbo)
		gl.FramebufferTexture2D(gl.DRAW_FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, l.tex, 0)
		if st := gl.CheckFramebufferStatus(gl.DRAW_FRAMEBUFFER); st != gl.FRAMEBUFFER_COMPLETE {
			l.w, l.h = 0, 0
			return fmt.Errorf("panel layer framebuffer %d×%d incomplete: status 0x%04x", w, h, st)
		}
		l.w, l.h = w, h
	}
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, l.fbo)
	gl.Viewport(0, 0, w, h)
	gl.Disable(gl.SCISSOR_TEST)
	gl.ClearColor(background[0], background[1], background[2], background[3])
	gl.Clear(gl.COLOR_BUFFER_BIT)
	r.Render(displaySize, framebufferSize, data)
	l.rects = coveredRects(l.rects[:0], data, displaySize, framebufferSize)
	return glError("draw the panel layer")
}

// Composite copies the layer's rectangles into the current draw
// framebuffer. The read framebuffer binding and the scissor test are
// restored.
func (l *PanelLayer) Composite() {
	if l.tex == 0 || len(l.rects) == 0 {
		return
	}
	var read int32
	gl.GetIntegerv(gl.READ_FRAMEBUFFER_BINDING, &read)
	scissor := gl.IsEnabled(gl.SCISSOR_TEST)
	gl.Disable(gl.SCISSOR_TEST) // a blit is clipped by the scissor box
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, l.fbo)
	for _, b := range l.rects {
		x1, y1 := b[0]+b[2], b[1]+b[3]
		gl.BlitFramebuffer(b[0], b[1], x1, y1, b[0], b[1], x1, y1, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	}
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, uint32(read))
	setEnabled(gl.SCISSOR_TEST, scissor)
}

// coveredRects appends to rects the framebuffer rectangles (bottom-left
// origin) that data's command lists draw on: the bounding box of each
// list's vertices (which include the half pixel of antialiasing outside a
// window's edge), within the union of its commands' clip rectangles (a
// list may clip to the whole display and draw a small window), less those
// inside another. Overlapping rectangles are kept as they are (covering
// or copying a pixel twice costs nothing): their bounding box would take
// in pixels that no panel draws, which the view would then leave at the
// background colour, as a tooltip reaching past its panel into the view
// did (a black rectangle around both).
func coveredRects(rects [][4]int32, data imgui.DrawData, displaySize, framebufferSize [2]float32) [][4]int32 {
	if !data.Valid() {
		return rects
	}
	sx, sy := framebufferSize[0]/displaySize[0], framebufferSize[1]/displaySize[1]
	origin := data.DisplayPos()
	fbW, fbH := int32(framebufferSize[0]), int32(framebufferSize[1])
	stride, posOff, _, _ := imgui.VertexBufferLayout()
	for _, list := range data.CommandLists() {
		clip, ok := [4]float32{}, false // x0, y0, x1, y1 in display units
		for _, cmd := range list.Commands() {
			c := cmd.ClipRect()
			if c.Z <= c.X || c.W <= c.Y || cmd.ElementCount() == 0 {
				continue
			}
			if !ok {
				clip, ok = [4]float32{c.X, c.Y, c.Z, c.W}, true
				continue
			}
			clip = [4]float32{min(clip[0], c.X), min(clip[1], c.Y), max(clip[2], c.Z), max(clip[3], c.W)}
		}
		ptr, size := list.VertexBuffer()
		if !ok || size < stride {
			continue
		}
		vtx := unsafe.Slice((*byte)(ptr), size)
		box := [4]float32{clip[2], clip[3], clip[0], clip[1]} // empty
		for off := 0; off+stride <= size; off += stride {
			p := (*[2]float32)(unsafe.Pointer(&vtx[off+posOff]))
			box = [4]float32{min(box[0], p[0]), min(box[1], p[1]), max(box[2], p[0]), max(box[3], p[1])}
		}
		box = [4]float32{max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3])}
		// Display units to framebuffer pixels (every pixel the box
		// touches), GL's bottom-left origin.
		x0, x1 := clampInt32((box[0]-origin.X)*sx, 0, fbW), clampInt32((box[2]-origin.X)*sx+1, 0, fbW)
		y0 := clampInt32(float32(fbH)-(box[3]-origin.Y)*sy, 0, fbH)
		y1 := clampInt32(float32(fbH)-(box[1]-origin.Y)*sy+1, 0, fbH)
		if x1 > x0 && y1 > y0 {
			rects = append(rects, [4]int32{x0, y0, x1 - x0, y1 - y0})
		}
	}
	return dropContained(rects)
}

// dropContained removes every rectangle that lies inside another (the
// first of two equal ones stays).
func dropContained(rects [][4]int32) [][4]int32 {
	inside := func(a, b [4]int32) bool {
		return a[0] >= b[0] && a[1] >= b[1] && a[0]+a[2] <= b[0]+b[2] && a[1]+a[3] <= b[1]+b[3]
	}
	out := rects[:0]
	for i, a := range rects {
		keep := true
		for j, b := range rects {
			if i != j && inside(a, b) && (!inside(b, a) || j < i) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, a)
		}
	}
	return out
}

// clampInt32 rounds v down and clamps it to [lo, hi].
func clampInt32(v float32, lo, hi int32) int32 {
	i := int32(v)
	return max(lo, min(hi, i))
}
