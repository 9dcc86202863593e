package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"softgrasp/render/video"
)

// runVideo runs the viewer for a short -frames run with -video path and
// returns its stdout (skipping without a display).
func runVideo(t *testing.T, path string) string {
	t.Helper()
	if missingDisplay() != "" {
		t.Skip("no display")
	}
	var code int
	var stdout, stderr strings.Builder
	onMain(func() {
		code = runViewer([]string{"-frames", "10", "-shot-time", "0.4", "-video", path,
			"-dofs", "300", "-width", "320", "-height", "200"}, &stdout, &stderr)
	})
	if strings.Contains(stderr.String(), "no display") {
		t.Skipf("no display: %s", stderr.String())
	}
	if code != 0 {
		t.Fatalf("exit code %d, stderr %q", code, stderr.String())
	}
	return stdout.String()
}

// The video of a run lasts its simulated time: one frame at the start and
// one per 1/30 s simulated after it, whatever the rendering rate.
func TestVideoFlagRecordsSimulatedTime(t *testing.T) {
	if err := video.Tools(); err != nil {
		t.Skipf("%v: skipping", err)
	}
	path := filepath.Join(t.TempDir(), "run.mp4")
	out := runVideo(t, path)
	var wrote, summary string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "softgrasp: wrote ") {
			wrote = line
		}
		if strings.Contains(line, " s simulated, ") {
			summary = line
		}
	}
	var n, frames int
	var sec, fps, simulated float64
	var dur float64
	if _, err := fmt.Sscanf(strings.TrimPrefix(wrote, "softgrasp: wrote "+path), " (%d frames, %g s)", &n, &dur); err != nil {
		t.Fatalf("no 'wrote' line (%v) in %q", err, out)
	}
	if _, err := fmt.Sscanf(summary, "softgrasp: %d frames in %g s: %g rendered frames/s; physics %g s simulated", &frames, &sec, &fps, &simulated); err != nil {
		t.Fatalf("summary %q: %v", summary, err)
	}
	// The summary counts from the first frame, the video's anchor too.
	if want := simulated*video.FPS + 1; math.Abs(float64(n)-want) > 1.01 {
		t.Errorf("%d video frames for %.3f s simulated, want about %.1f", n, simulated, want)
	}
	got, d, err := video.Probe(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != n || math.Abs(d-float64(n)/video.FPS) > 0.5/video.FPS {
		t.Errorf("ffprobe: %d frames, %.3f s; want %d frames, %.3f s", got, d, n, float64(n)/video.FPS)
	}
}

// Without ffmpeg, -video is one line and the run goes on.
func TestVideoFlagWithoutFFmpeg(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	path := filepath.Join(t.TempDir(), "none.mp4")
	out := runVideo(t, path)
	if strings.Count(out, "ffmpeg not found") != 1 {
		t.Errorf("stdout %q: want one line saying ffmpeg is missing", out)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("%s was written", path)
	}
}
