package main

import (
	"fmt"
	"testing"
	"time"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// BenchmarkViewer measures the render loop of the default scene while
// its physics goroutine steps at real-time pace: rendered frames per
// second (one iteration is one frame, uncapped and without vsync, so the
// number is what the machine can draw beside the physics) and the
// physics' achieved real-time factor and step rate from the last frame.
// "paused" renders the same scene with the physics paused: the cost of
// drawing alone.
func BenchmarkViewer(b *testing.B) {
	for _, c := range []struct {
		scheme settings.Scheme
		paused bool
	}{{settings.Fast, false}, {settings.Standard, false}, {settings.Fast, true}} {
		opt := viewerOptions{config: settings.DefaultScenario(settings.GraspRotate), pace: 1, width: 1280, height: 800}
		opt.config.Physics.Scheme = c.scheme
		name := fmt.Sprintf("scheme=%s/dofs=%d", c.scheme, opt.config.TargetDOFs)
		if c.paused {
			name += "/paused"
		}
		b.Run(name, func(b *testing.B) { benchmarkViewer(b, opt, c.paused) })
	}
}

func benchmarkViewer(b *testing.B, opt viewerOptions, paused bool) {
	withViewer(b, opt, func(v *viewer) {
		if paused && !pause(b, v) {
			return
		}
		// Warm up: the first steps factor and allocate.
		renderUntil(b, v, 100000, func(f *frame.Frame) bool { return paused || f.Seq >= 20 })
		b.ResetTimer()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			// A fresh policy draws at once: the benchmark measures a
			// drawn frame, even over a paused scene with nothing new.
			v.redraw = newFramePolicy()
			if _, _, err := v.renderFrame(false); err != nil {
				b.Errorf("renderFrame: %v", err)
				return
			}
		}
		elapsed := time.Since(start)
		b.StopTimer()
		b.ReportMetric(float64(b.N)/elapsed.Seconds(), "frames/s")
		b.ReportMetric(1e3*elapsed.Seconds()/float64(b.N), "ms/frame")
		if !paused {
			b.ReportMetric(v.frame.Stats.RealtimeFactor, "physics-rtf")
			b.ReportMetric(v.frame.Stats.StepRate, "steps/s")
		}
	})
}
