package render

import (
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Screenshot reads the w×h lower-left region of the current draw
// framebuffer's back buffer. Call it after drawing and BEFORE swapping
// buffers: after a swap the back buffer's content is undefined. OpenGL
// returns rows bottom-up; the image is flipped to the usual top-down
// order.
func Screenshot(w, h int) (*image.RGBA, error) {
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("screenshot: size %d×%d must be positive", w, h)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := ReadPixels(img.Pix, w, h); err != nil {
		return nil, err
	}
	flipRows(img.Pix, 4*w, h)
	return img, nil
}

// ReadPixels reads the w×h lower-left region of the current draw
// framebuffer's back buffer into pix as RGBA, 4·w·h bytes, rows
// bottom-up as OpenGL returns them (the video writer lets ffmpeg flip
// them). Like Screenshot, call it before swapping buffers. It allocates
// nothing, so a caller that reuses pix can read every frame.
func ReadPixels(pix []uint8, w, h int) error {
	if w <= 0 || h <= 0 || len(pix) < 4*w*h {
		return fmt.Errorf("read pixels: %d bytes for %d×%d", len(pix), w, h)
	}
	var fbo int32
	gl.GetIntegerv(gl.DRAW_FRAMEBUFFER_BINDING, &fbo)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, uint32(fbo))
	if fbo == 0 {
		gl.ReadBuffer(gl.BACK)
	}
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(pix))
	return glError("screenshot: read pixels")
}

// flipRows reverses the order of h rows of stride bytes in place.
func flipRows(pix []uint8, stride, h int) {
	tmp := make([]uint8, stride)
	for top, bottom := 0, h-1; top < bottom; top, bottom = top+1, bottom-1 {
		a := pix[top*stride : (top+1)*stride]
		b := pix[bottom*stride : (bottom+1)*stride]
		copy(tmp, a)
		copy(a, b)
		copy(b, tmp)
	}
}

// SavePNG writes img to path as a PNG file.
func SavePNG(path string, img image.Image) error {
	if img == nil {
		return fmt.Errorf("save PNG %s: nil image", path)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("save PNG: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("save PNG %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save PNG %s: %w", path, err)
	}
	return nil
}
