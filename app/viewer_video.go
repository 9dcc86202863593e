package main

import (
	"fmt"
	"time"

	"softgrasp/render"
	"softgrasp/render/video"
)

// The viewer's video recording (render/video has the writer and the clock):
// F9 starts and stops it, -video starts it with the first frame. A video
// frame is read from the back buffer before the swap, like a screenshot,
// into one of the writer's two buffers, only when the simulated time has
// crossed a video frame's boundary.
//
// Whatever goes wrong (no ffmpeg, ffmpeg exiting, the window resized) is
// one line on stdout and in the message banner; the recording stops and
// the simulation goes on.

// videoRecorder is the viewer's recording state.
type videoRecorder struct {
	pending string        // file to start at the next frame (F9, -video)
	writer  *video.Writer // the running recording, or nil
	clock   video.Clock
	w, h    int // framebuffer size at the start
}

// toggleVideo starts a recording to softgrasp-<time>.mp4 in the working
// directory, or stops the running one (F9).
func (v *viewer) toggleVideo() {
	if v.video.writer != nil || v.video.pending != "" {
		v.video.pending = ""
		v.stopVideo()
		return
	}
	v.video.pending = "softgrasp-" + time.Now().Format("20060102-150405") + ".mp4"
}

// recordVideo starts a pending recording and writes the video frames the
// newest frame's simulated time is due for. Call it after drawing and
// before the swap.
func (v *viewer) recordVideo(w, h int) {
	if v.video.pending != "" && w > 0 && h > 0 {
		path := v.video.pending
		v.video.pending = ""
		vw, err := video.Start(path, w, h, video.FPS)
		if err != nil {
			v.videoMessage(err.Error())
			return
		}
		v.video = videoRecorder{writer: vw, clock: video.Clock{FPS: video.FPS}, w: w, h: h}
		fmt.Fprintf(v.stdout, "softgrasp: recording %s (%d×%d, %d frames per simulated second)\n", path, w, h, video.FPS)
	}
	vw := v.video.writer
	if vw == nil || v.frame == nil || w <= 0 || h <= 0 {
		return
	}
	if w != v.video.w || h != v.video.h {
		v.videoMessage(fmt.Sprintf("video %s: the window was resized, recording stopped", vw.Path()))
		v.stopVideo()
		return
	}
	n := v.video.clock.Frames(v.frame.Time)
	err := vw.WriteFrame(n, func(pix []byte) error { return render.ReadPixels(pix, w, h) })
	if err != nil {
		// One message: what stopped, and what the file holds.
		v.video.writer = nil
		_ = vw.Close()
		v.videoMessage(fmt.Sprintf("%v; recording stopped after %d frames, the simulation goes on", err, vw.Written()))
	}
}

// stopVideo closes the running recording, if any, and says what it wrote.
func (v *viewer) stopVideo() {
	vw := v.video.writer
	if vw == nil {
		return
	}
	v.video.writer = nil
	err := vw.Close()
	n := vw.Written()
	switch {
	case err != nil && n == 0:
		v.videoMessage(err.Error())
	case err != nil:
		v.videoMessage(fmt.Sprintf("%v (%d frames were piped)", err, n))
	default:
		fmt.Fprintf(v.stdout, "softgrasp: wrote %s (%d frames, %.2f s)\n", vw.Path(), n, float64(n)/video.FPS)
	}
}

// videoMessage says msg on stdout and in the message banner.
func (v *viewer) videoMessage(msg string) {
	fmt.Fprintln(v.stdout, "softgrasp:", msg)
	if v.state != nil {
		v.state.Warn(msg)
	}
}
