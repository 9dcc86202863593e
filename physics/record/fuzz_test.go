package record

import (
	"bytes"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// FuzzRead feeds the recording reader arbitrary bytes, seeded with a
// whole recording as the Writer writes it, cut at every kind of place,
// and with damaged lines. For any input it must not panic, and it must
// either refuse it with an error that names the file, or return a
// recording whose configuration passes validation, whose commands and
// checkpoints come in step order, and whose step count covers them.
func FuzzRead(f *testing.F) {
	var b bytes.Buffer
	w := NewWriter(&b)
	cfg := settings.DefaultScenario(settings.GraspRotate)
	w.Begin(DeterministicConfig(cfg))
	w.Command(0, frame.MoveGripper{Delta: r3.Vec{X: 0.1, Z: -2e-3}}, nil)
	w.Command(2, frame.ToggleJaws{}, nil)
	for s := 1; s <= CheckpointEvery; s++ {
		w.Step(s, func() uint64 { return 0xfeedbeef })
	}
	w.End(CheckpointEvery+1, 0x0123456789abcdef, nil)
	whole := b.String()
	f.Add([]byte(whole))
	f.Add([]byte(whole[:len(whole)/2]))
	f.Add([]byte(whole[:len(whole)-5]))
	f.Add([]byte(strings.Replace(whole, `"step":`, `"step":-`, 1)))
	f.Add([]byte(strings.Replace(whole, "{", "[", 2)))
	f.Add([]byte(""))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Read(bytes.NewReader(data), "fuzz.rec")
		if err != nil {
			if rec != nil {
				t.Fatalf("a recording returned together with error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "fuzz.rec") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if verr := rec.Config.Validate(); verr != nil {
			t.Fatalf("accepted a configuration that does not validate: %v", verr)
		}
		last := 0
		for _, c := range rec.Commands {
			if c.Step < last || c.Command == nil {
				t.Fatalf("command %+v out of order or empty", c)
			}
			last = c.Step
		}
		last = 0
		for _, c := range rec.Checkpoints {
			if c.Step < last {
				t.Fatalf("checkpoint %+v out of order", c)
			}
			last = c.Step
		}
		if n := rec.Steps(); n < last {
			t.Fatalf("%d steps to replay, but a checkpoint at step %d", n, last)
		}
	})
}
