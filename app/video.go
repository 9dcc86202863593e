package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strings"
	"sync"
)

// Video: the viewer streams frames to an ffmpeg process as raw RGBA on its
// standard input; ffmpeg encodes them to H.264 in an MP4 file. No frame is
// kept in memory beyond two reusable buffers: one the render thread fills
// while the writer goroutine pipes the other to ffmpeg.
//
// Rate. The video has a fixed rate (videoFPS) in simulated time, not in
// wall time: video frame k shows the simulation at t0 + k/videoFPS
// (videoClock). A machine that renders slower than the simulation's pace
// repeats the latest image for the boundaries it skipped; a paused
// simulation adds nothing. The video therefore plays in real time whatever
// the speed of the machine that rendered it.
//
// Back-pressure. When ffmpeg encodes slower than the viewer renders, the
// render thread waits for a free buffer (blocking, not dropping): a dropped
// frame would shorten the video and break "duration = simulated time".
// Only the render loop slows down; the physics goroutine never waits for
// the renderer, so the simulation goes on at its pace and the skipped
// boundaries become repeated images.

// videoFPS is the video's frame rate, frames per simulated second.
const videoFPS = 30

// errNoFFmpeg says that the ffmpeg program is not on the PATH.
var errNoFFmpeg = errors.New("video: ffmpeg not found on the PATH (make deps installs it); recording is off")

// videoFrame is one filled buffer and how many video frames it stands for.
type videoFrame struct {
	pix   []byte
	count int
}

// videoWriter is one ffmpeg process and the goroutine that feeds it.
type videoWriter struct {
	path   string
	w, h   int
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *tailBuffer

	free chan []byte     // buffers the render thread may fill
	full chan videoFrame // filled buffers for the writer goroutine
	done chan struct{}   // closed when the writer goroutine returns

	mu      sync.Mutex
	err     error // the first write error, with ffmpeg's last words
	written int   // video frames piped to ffmpeg
	closed  bool
}

// startVideo starts ffmpeg writing a w×h video at fps frames per second to
// path (overwritten). Frames are w×h RGBA, rows bottom-up (as OpenGL reads
// them): ffmpeg flips them, and crops an odd width or height by one pixel
// because 4:2:0 chroma needs even sizes.
//
// The MP4 is fragmented (a self-contained fragment at each keyframe), so a
// file whose ffmpeg was killed stays playable up to its last fragment.
func startVideo(path string, w, h int, fps float64) (*videoWriter, error) {
	if w <= 0 || h <= 0 || fps <= 0 {
		return nil, fmt.Errorf("video: size %d×%d at %g frames/s", w, h, fps)
	}
	bin, err := exec.LookPath("ffmpeg")
	if err != nil {
		return nil, errNoFFmpeg
	}
	v := &videoWriter{path: path, w: w, h: h, stderr: &tailBuffer{max: 2048},
		free: make(chan []byte, 2), full: make(chan videoFrame, 2), done: make(chan struct{})}
	v.cmd = exec.Command(bin, "-hide_banner", "-loglevel", "error", "-y",
		"-f", "rawvideo", "-pix_fmt", "rgba", "-s", fmt.Sprintf("%dx%d", w, h),
		"-r", fmt.Sprint(fps), "-i", "-",
		"-vf", "vflip,crop=trunc(iw/2)*2:trunc(ih/2)*2",
		"-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
		"-movflags", "frag_keyframe+empty_moov", path)
	v.cmd.Stderr = v.stderr
	if v.stdin, err = v.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("video: %w", err)
	}
	if err := v.cmd.Start(); err != nil {
		return nil, fmt.Errorf("video: start ffmpeg: %w", err)
	}
	for range cap(v.free) {
		v.free <- make([]byte, 4*w*h)
	}
	go v.pipe()
	return v, nil
}

// pipe writes each filled buffer count times to ffmpeg and hands it back.
// After a failed write (ffmpeg exited: a broken pipe) it keeps taking
// buffers and discarding them, so the render thread never waits on a
// dead process.
func (v *videoWriter) pipe() {
	defer close(v.done)
	for f := range v.full {
		for i := 0; i < f.count && v.Err() == nil; i++ {
			if _, err := v.stdin.Write(f.pix); err != nil {
				v.fail(err)
				break
			}
			v.mu.Lock()
			v.written++
			v.mu.Unlock()
		}
		v.free <- f.pix
	}
}

// fail keeps the first error, with ffmpeg's last lines of stderr.
func (v *videoWriter) fail(err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.err != nil {
		return
	}
	msg := fmt.Sprintf("video %s: ffmpeg stopped taking frames (%v)", v.path, err)
	if tail := v.stderr.lastLine(); tail != "" {
		msg += ": " + tail
	}
	v.err = errors.New(msg)
}

// Err returns the error that stopped the writing, or nil.
func (v *videoWriter) Err() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.err
}

// Written returns the number of video frames piped to ffmpeg so far.
func (v *videoWriter) Written() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.written
}

// WriteFrame fills a free buffer with fill (4·w·h bytes, rows bottom-up)
// and queues it as count video frames. It waits for a buffer when ffmpeg
// is behind. It returns the writer's error once ffmpeg has stopped: the
// caller then closes the writer.
func (v *videoWriter) WriteFrame(count int, fill func(pix []byte) error) error {
	if err := v.Err(); err != nil {
		return err
	}
	if count <= 0 {
		return nil
	}
	pix := <-v.free
	if err := fill(pix); err != nil {
		v.free <- pix
		return err
	}
	v.full <- videoFrame{pix: pix, count: count}
	return nil
}

// Close ends the input, waits for ffmpeg to finish the file and returns
// the first error of the writing or of ffmpeg's exit. Closing twice is a
// no-op.
func (v *videoWriter) Close() error {
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return nil
	}
	v.closed = true
	v.mu.Unlock()
	close(v.full)
	<-v.done
	v.stdin.Close()
	waitErr := v.cmd.Wait()
	if err := v.Err(); err != nil {
		return err
	}
	if waitErr != nil {
		v.fail(waitErr)
		return v.Err()
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it (ffmpeg's stderr).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// lastLine returns the last non-empty line written.
func (t *tailBuffer) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// videoClock schedules video frames in simulated time: video frame k is
// due when the simulation reaches t0 + k/fps, t0 being the simulated time
// of the first frame offered. A published frame stands for every boundary
// crossed since the previous one (repeated when the simulation skipped
// several), and for none when the simulation has not advanced. Time going
// backwards (a reset) starts a new anchor at the new time.
type videoClock struct {
	fps     float64
	t0      float64
	last    float64
	emitted int64 // video frames due so far, since t0
	started bool
}

// frames returns how many video frames the published frame at simulated
// time t fills.
func (c *videoClock) frames(t float64) int {
	if !c.started || t < c.last {
		c.started, c.t0, c.emitted = true, t, 0
	}
	c.last = t
	// The small tolerance keeps t = t0 + k/fps, computed in floating
	// point from a sum of steps, on the boundary it was meant to reach.
	due := int64(math.Floor((t-c.t0)*c.fps+1e-6)) + 1
	n := due - c.emitted
	if n <= 0 {
		return 0
	}
	c.emitted = due
	return int(n)
}
