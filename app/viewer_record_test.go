package main

import (
	"path/filepath"
	"slices"
	"strconv"
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

// TestViewerWritesContacts: the viewer's -contacts writes the contact rows
// of the steps it ran, up to the last one, closed when the viewer closes.
func TestViewerWritesContacts(t *testing.T) {
	var v viewerFlags
	fs := newFlagSet("v")
	v.register(fs)
	path := filepath.Join(t.TempDir(), "contacts.csv")
	if err := fs.Parse([]string{"-contacts", path}); err != nil {
		t.Fatal(err)
	}
	parsed, err := v.options()
	if err != nil || parsed.contacts != path {
		t.Fatalf("options %q, %v: want the contacts file", parsed.contacts, err)
	}
	opt := testOptions()
	opt.contacts = path
	withViewer(t, opt, func(v *viewer) {
		renderUntil(t, v, 5000, func(f *frame.Frame) bool { return f.Stats.Contacts > 0 && f.Seq >= 20 })
	})
	rows := readCSV(t, path)
	if len(rows) < 2 || !slices.Equal(rows[0], contactsHeader) {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	last, err := strconv.Atoi(rows[len(rows)-1][0])
	if err != nil || last < 10 {
		t.Fatalf("the last row is of step %q (%v); the viewer ran at least 20 frames with contacts", rows[len(rows)-1][0], err)
	}
	t.Logf("%d contact rows, the last of step %d", len(rows)-1, last)
}
