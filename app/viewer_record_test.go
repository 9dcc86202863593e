package main

import (
	"path/filepath"
	"strings"
	"testing"

	"softgrasp/physics/frame"
	"softgrasp/physics/record"
	"softgrasp/physics/settings"
	"softgrasp/ui"
)

// TestViewerSessionReplaysBitIdentically: a viewer session recorded with
// -record (the async solver, a right drag of the gripper target through
// the input path, rendering all along) replays to the recorded final
// state.
func TestViewerSessionReplaysBitIdentically(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.rec")
	opt := testOptions()
	opt.config.Physics.Solver = settings.AsyncSolver
	opt.record = path
	withViewer(t, opt, func(v *viewer) {
		if !renderUntil(t, v, 5000, func(f *frame.Frame) bool { return f.Seq >= 2 }) || !pause(t, v) {
			return
		}
		const x0, y0 = 640.0, 380.0
		inject(t, v, ui.CursorEvent(x0, y0), ui.ButtonEvent(ui.MouseRight, ui.Press, 0),
			ui.CursorEvent(x0+30, y0), ui.ButtonEvent(ui.MouseRight, ui.Release, 0))
		v.runner.Send(frame.Pause{Paused: false})
		seq := v.frame.Seq
		renderUntil(t, v, 2000, func(f *frame.Frame) bool { return f.Seq > seq+20 })
	})
	rec, err := record.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if rec.End == nil || len(rec.Commands) == 0 || rec.Config.Physics.AsyncLag != record.AsyncLag {
		t.Fatalf("recording: footer %v, %d commands, lag %d; want a footer, the drag's moves and lag %d",
			rec.End, len(rec.Commands), rec.Config.Physics.AsyncLag, record.AsyncLag)
	}
	code, out, errs := replayCmd(path)
	if code != 0 || !strings.Contains(out, "identical true") {
		t.Fatalf("replay exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	t.Logf("%d steps, %d commands, checksum %s replayed", rec.End.Steps, len(rec.Commands), rec.End.Checksum)
}

func TestViewerTakesTheRecordFlag(t *testing.T) {
	var v viewerFlags
	fs := newFlagSet("v")
	v.register(fs)
	if err := fs.Parse([]string{"-record", "s.rec"}); err != nil {
		t.Fatal(err)
	}
	opt, err := v.options()
	if err != nil || opt.record != "s.rec" {
		t.Fatalf("options %q, %v: want the record file", opt.record, err)
	}
}
