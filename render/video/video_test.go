package video

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// needFFmpeg skips a test without ffmpeg and ffprobe (make deps installs
// them; make test has them).
func needFFmpeg(t *testing.T) {
	t.Helper()
	if err := Tools(); err != nil {
		t.Skipf("%v: skipping", err)
	}
}

// probeVideo is Probe in a test.
func probeVideo(t *testing.T, path string) (frames int, duration float64) {
	t.Helper()
	frames, duration, err := Probe(path)
	if err != nil {
		t.Fatal(err)
	}
	return frames, duration
}

// fillGradient returns a fill that draws a frame that differs with i.
func fillGradient(w, h, i int) func([]byte) error {
	return func(pix []byte) error {
		for y := range h {
			for x := range w {
				o := 4 * (y*w + x)
				pix[o], pix[o+1], pix[o+2], pix[o+3] = byte(x+i*8), byte(y), byte(i*40), 255
			}
		}
		return nil
	}
}

func TestVideoWriterThroughFFmpeg(t *testing.T) {
	needFFmpeg(t)
	// An odd size checks the crop to even sizes; counts > 1 check repeats.
	const w, h = 65, 47
	counts := []int{1, 3, 0, 2, 1, 5}
	path := filepath.Join(t.TempDir(), "clip.mp4")
	v, err := Start(path, w, h, FPS)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for i, n := range counts {
		if err := v.WriteFrame(n, fillGradient(w, h, i)); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		want += n
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	if v.Written() != want {
		t.Errorf("written %d frames, want %d", v.Written(), want)
	}
	frames, dur := probeVideo(t, path)
	if frames != want {
		t.Errorf("ffprobe counts %d frames, want %d", frames, want)
	}
	if wantDur := float64(want) / FPS; dur < wantDur-0.5/FPS || dur > wantDur+0.5/FPS {
		t.Errorf("duration %.4f s, want %d frames / %d fps = %.4f s", dur, want, FPS, wantDur)
	}
}

func TestVideoWriterSurvivesFFmpegExiting(t *testing.T) {
	needFFmpeg(t)
	const w, h = 64, 48
	path := filepath.Join(t.TempDir(), "killed.mp4")
	v, err := Start(path, w, h, FPS)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.WriteFrame(2, fillGradient(w, h, 0)); err != nil {
		t.Fatal(err)
	}
	if err := v.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// Writes after the kill fail (a broken pipe) within a few frames; the
	// writer reports it and keeps handing buffers back, never blocking.
	deadline := time.Now().Add(10 * time.Second)
	var werr error
	for i := 1; werr == nil; i++ {
		if time.Now().After(deadline) {
			t.Fatal("no error 10 s after ffmpeg was killed")
		}
		werr = v.WriteFrame(1, fillGradient(w, h, i))
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.Contains(werr.Error(), "ffmpeg stopped") {
		t.Errorf("error %q does not say that ffmpeg stopped", werr)
	}
	if err := v.Close(); err == nil {
		t.Error("Close after a killed ffmpeg returned nil")
	}
	if err := v.Close(); err != nil {
		t.Errorf("a second Close: %v, want nil", err)
	}
}

func TestVideoWithoutFFmpeg(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := Start(filepath.Join(t.TempDir(), "x.mp4"), 64, 48, FPS); err != ErrNoFFmpeg {
		t.Fatalf("start without ffmpeg: %v, want ErrNoFFmpeg", err)
	}
}

func TestVideoClock(t *testing.T) {
	const fps = 30
	for _, tc := range []struct {
		name  string
		times []float64 // simulated time of successive published frames
		want  []int     // video frames each fills
	}{
		{"first frame is frame 0", []float64{2.5}, []int{1}},
		{"simulation not advanced", []float64{0, 0, 0}, []int{1, 0, 0}},
		{"faster than the video", []float64{0, 0.01, 0.02, 1.0 / 30, 0.04}, []int{1, 0, 0, 1, 0}},
		{"boundary reached by a sum of steps", []float64{0, sumSteps(99, 1.0/3000), sumSteps(100, 1.0/3000)}, []int{1, 0, 1}},
		{"skipped boundaries repeat", []float64{0, 0.1, 0.2}, []int{1, 3, 3}},
		{"a second in one go", []float64{0, 1}, []int{1, 30}},
		{"reset re-anchors", []float64{0, 0.5, 0, 0.05}, []int{1, 15, 1, 1}},
		{"anchored off the grid", []float64{0.01, 0.02, 0.01 + 1.0/30}, []int{1, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Clock{FPS: fps}
			for i, tm := range tc.times {
				if got := c.Frames(tm); got != tc.want[i] {
					t.Errorf("frame at t = %g: %d video frames, want %d", tm, got, tc.want[i])
				}
			}
		})
	}
}

// sumSteps returns n·h summed step by step, as the physics loop advances
// its clock (rounding included).
func sumSteps(n int, h float64) float64 {
	t := 0.0
	for range n {
		t += h
	}
	return t
}
