// Package video writes the viewer's videos: frames streamed to an ffmpeg
// process, scheduled in simulated time.
package video

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// The viewer streams frames to an ffmpeg process as raw RGBA on its
// standard input; ffmpeg encodes them to H.264 in an MP4 file. No frame is
// kept in memory beyond two reusable buffers: one the render thread fills
// while the writer goroutine pipes the other to ffmpeg.
//
// Rate. The video has a fixed rate (FPS) in simulated time, not in
// wall time: video frame k shows the simulation at t0 + k/FPS
// (Clock). A machine that renders slower than the simulation's pace
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

// FPS is the video's frame rate, frames per simulated second.
const FPS = 30

// ErrNoFFmpeg says that the ffmpeg program is not on the PATH.
var ErrNoFFmpeg = errors.New("video: ffmpeg not found on the PATH (make deps installs it); recording is off")

// frame is one filled buffer and how many video frames it stands for.
type frame struct {
	pix   []byte
	count int
}

// Writer is one ffmpeg process and the goroutine that feeds it.
type Writer struct {
	path   string
	w, h   int
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *tailBuffer

	free chan []byte   // buffers the render thread may fill
	full chan frame    // filled buffers for the writer goroutine
	done chan struct{} // closed when the writer goroutine returns

	mu      sync.Mutex
	err     error // the first write error, with ffmpeg's last words
	written int   // video frames piped to ffmpeg
	closed  bool
}

// Start starts ffmpeg writing a w×h video at fps frames per second to
// path (overwritten). Frames are w×h RGBA, rows bottom-up (as OpenGL reads
// them): ffmpeg flips them, and crops an odd width or height by one pixel
// because 4:2:0 chroma needs even sizes.
//
// The MP4 is fragmented (a self-contained fragment at each keyframe), so a
// file whose ffmpeg was killed stays playable up to its last fragment.
func Start(path string, w, h int, fps float64) (*Writer, error) {
	if w <= 0 || h <= 0 || fps <= 0 {
		return nil, fmt.Errorf("video: size %d×%d at %g frames/s", w, h, fps)
	}
	bin, err := exec.LookPath("ffmpeg")
	if err != nil {
		return nil, ErrNoFFmpeg
	}
	v := &Writer{path: path, w: w, h: h, stderr: &tailBuffer{max: 2048},
		free: make(chan []byte, 2), full: make(chan frame, 2), done: make(chan struct{})}
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
func (v *Writer) pipe() {
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
func (v *Writer) fail(err error) {
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
func (v *Writer) Err() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.err
}

// Path is the file being written.
func (v *Writer) Path() string { return v.path }

// Written returns the number of video frames piped to ffmpeg so far.
func (v *Writer) Written() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.written
}

// WriteFrame fills a free buffer with fill (4·w·h bytes, rows bottom-up)
// and queues it as count video frames. It waits for a buffer when ffmpeg
// is behind. It returns the writer's error once ffmpeg has stopped: the
// caller then closes the writer.
func (v *Writer) WriteFrame(count int, fill func(pix []byte) error) error {
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
	v.full <- frame{pix: pix, count: count}
	return nil
}

// Close ends the input, waits for ffmpeg to finish the file and returns
// the first error of the writing or of ffmpeg's exit. Closing twice is a
// no-op.
func (v *Writer) Close() error {
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

// Clock schedules video frames in simulated time: video frame k is
// due when the simulation reaches t0 + k/fps, t0 being the simulated time
// of the first frame offered. A published frame stands for every boundary
// crossed since the previous one (repeated when the simulation skipped
// several), and for none when the simulation has not advanced. Time going
// backwards (a reset) starts a new anchor at the new time.
type Clock struct {
	FPS     float64 // video frames per simulated second
	t0      float64
	last    float64
	emitted int64 // video frames due so far, since t0
	started bool
}

// Frames returns how many video frames the published frame at simulated
// time t fills.
func (c *Clock) Frames(t float64) int {
	if !c.started || t < c.last {
		c.started, c.t0, c.emitted = true, t, 0
	}
	c.last = t
	// The small tolerance keeps t = t0 + k/fps, computed in floating
	// point from a sum of steps, on the boundary it was meant to reach.
	due := int64(math.Floor((t-c.t0)*c.FPS+1e-6)) + 1
	n := due - c.emitted
	if n <= 0 {
		return 0
	}
	c.emitted = due
	return int(n)
}

// Tools reports a program of the two that writing (ffmpeg) and checking
// (ffprobe) a video need and that is not on the PATH.
func Tools() error {
	for _, p := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(p); err != nil {
			return fmt.Errorf("%s not on the PATH (make deps installs ffmpeg)", p)
		}
	}
	return nil
}

// Probe returns the frame count and the duration (s) of the video stream
// of the file at path, as ffprobe counts them.
func Probe(path string) (frames int, duration float64, err error) {
	out, err := exec.Command("ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
		"-show_entries", "stream=nb_read_frames:format=duration", "-of", "default=noprint_wrappers=1", path).Output()
	if err != nil {
		return 0, 0, fmt.Errorf("ffprobe %s: %w", path, err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case "nb_read_frames":
			frames, _ = strconv.Atoi(v)
		case "duration":
			duration, _ = strconv.ParseFloat(v, 64)
		}
	}
	return frames, duration, nil
}
