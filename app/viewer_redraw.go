package main

import "time"

// When the viewer draws. On two cores under Xvfb, llvmpipe shares the CPU
// with the physics step and the asynchronous solver's background
// factorisation, so every frame drawn is CPU the physics does not get
// (docs/viewer.md). Two rules keep the renderer to what the screen shows:
//   - frameLimiter caps the rate (-max-fps, 30 by default: the target, and
//     what a video at 30 frames per simulated second needs);
//   - redrawPolicy skips the whole draw and swap when nothing changed: no
//     new physics frame, no input event, nothing asked (screenshot,
//     video). After an input it keeps drawing a few frames, for ImGui's
//     hover and active states to settle, and it draws at least every
//     redrawHeartbeat, so that the panels' clocks and a -frames run over
//     a paused scene still move.

// redrawSettle is how many frames the viewer draws after an input event.
const redrawSettle = 3

// redrawHeartbeat is the longest the viewer goes without drawing.
const redrawHeartbeat = 500 * time.Millisecond

// redrawPolicy decides, once per loop iteration, whether to draw: the
// frame (newFramePolicy) or, within a frame being drawn, the panels
// (newPanelPolicy). Both draw on an input event and for redrawSettle
// iterations after it (ImGui's hover and active states), on anything
// forced, and once period has passed; the frame also on a new physics
// frame.
type redrawPolicy struct {
	period  time.Duration
	onFresh bool      // a new physics frame is a reason
	settle  int       // iterations still to draw after the last input
	last    time.Time // zero before the first draw
}

// newFramePolicy is the whole frame's: redrawHeartbeat keeps the panels'
// clocks and a -frames run over a paused scene moving.
func newFramePolicy() redrawPolicy { return redrawPolicy{period: redrawHeartbeat, onFresh: true} }

// redrawCause is what the loop saw since the last iteration.
type redrawCause struct {
	fresh  bool // a physics frame not drawn yet
	events int  // input events queued since the last iteration
	forced bool // a screenshot, a video start or a new scene is due
}

// due reports whether to draw at now, and notes the draw if so.
func (p *redrawPolicy) due(c redrawCause, now time.Time) bool {
	if c.events > 0 {
		p.settle = redrawSettle
	}
	draw := c.fresh && p.onFresh || c.forced || p.settle > 0 || p.last.IsZero() ||
		now.Sub(p.last) >= p.period
	if draw {
		p.last = now
		if p.settle > 0 {
			p.settle--
		}
	}
	return draw
}

// frameLimiter caps the render loop's rate so that a display without
// vsync (Xvfb) does not take the CPU the physics goroutine needs.
type frameLimiter struct {
	fps  float64
	next time.Time
}

// wait sleeps until the next frame is due. A frame that took longer than
// its period is made up by the next one (the schedule holds, so a loop
// whose frames cost about the period still averages fps), but a loop
// more than one period behind starts a new schedule instead of rushing.
func (l *frameLimiter) wait() {
	if l.fps <= 0 {
		return
	}
	now := time.Now()
	time.Sleep(l.advance(now).Sub(now))
}

// advance returns when the frame after one ending at now is due (a time
// at or before now: at once) and moves the schedule one period on.
func (l *frameLimiter) advance(now time.Time) time.Time {
	period := time.Duration(float64(time.Second) / l.fps)
	if l.next.Before(now.Add(-period)) {
		l.next = now
	}
	due := l.next
	l.next = l.next.Add(period)
	return due
}

// panelRefresh is the longest the panels go without being redrawn while
// frames are drawn: their numbers and plots move at ten frames a second,
// the 3D view at the frame rate.
const panelRefresh = 100 * time.Millisecond

// newPanelPolicy decides, for a frame being drawn, whether to redraw the
// panels (ImGui's whole frame: input, widgets, drawing into the panel
// layer) or to copy the layer kept from the last time: on input and the
// frames after it, for anything forced (a screenshot, a new scene, a new
// size), and every panelRefresh, but not for a new physics frame alone.
// On two cores under Xvfb the panels cost llvmpipe about as much as the
// whole 3D view (docs/viewer.md, "Keeping the renderer off the physics' core").
func newPanelPolicy() redrawPolicy { return redrawPolicy{period: panelRefresh} }

// fpsMeter measures the rendered frame rate over the last second (the
// Stats panel's "rendered frames/s"; ImGui's own rate counts only the
// frames that redrew the panels).
type fpsMeter struct {
	start  time.Time
	frames int
	rate   float64
}

// tick notes a frame drawn at now and returns the rate of the last whole
// second: the frames drawn after the one that started it, over its length
// (0 before the first).
func (m *fpsMeter) tick(now time.Time) float64 {
	if m.start.IsZero() {
		m.start = now
		return m.rate
	}
	m.frames++
	if d := now.Sub(m.start); d >= time.Second {
		m.rate = float64(m.frames) / d.Seconds()
		m.start, m.frames = now, 0
	}
	return m.rate
}
