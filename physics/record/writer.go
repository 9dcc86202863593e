package record

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// Writer writes a recording line by line, each with one write as it
// happens. It belongs to the goroutine that runs the simulation. The first
// write error is kept (Err) and ends the recording; the run goes on.
type Writer struct {
	w     io.Writer
	close func() error
	buf   []byte // the checkpoint line, reused
	err   error
	ended bool
	// embedded holds the files written (path and hash).
	embedded map[string]bool
}

// Create creates the file at path and writes the header.
func Create(path string) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	w := NewWriter(f)
	w.close = f.Close
	if w.err != nil {
		f.Close()
		return nil, w.err
	}
	return w, nil
}

// NewWriter writes a recording to w and writes the header.
func NewWriter(w io.Writer) *Writer {
	rw := &Writer{w: w, buf: make([]byte, 0, 64), embedded: map[string]bool{}}
	rw.write([]byte(fmt.Sprintf("%s %d\n", Magic, Version)))
	return rw
}

// Begin writes the files the run starts from and its configuration
// (DeterministicConfig of it: the caller runs that one).
func (w *Writer) Begin(cfg settings.Scenario) {
	w.embedFiles(&cfg)
	w.writeJSON(line{Config: &cfg})
}

// Command records command c applied after step steps; applyErr is the
// error applying it returned. Commands that change no state, and commands
// that fail their own validation, are skipped.
func (w *Writer) Command(steps int, c frame.Command, applyErr error) {
	name := CommandName(c)
	if name == "" || c.Validate() != nil {
		return
	}
	if s, ok := c.(frame.SetScene); ok {
		w.embedFiles(&s.Config)
	}
	l := line{Step: &steps, Command: name}
	if _, empty := emptyCommands[name]; !empty {
		args, err := json.Marshal(c)
		if err != nil {
			w.fail(fmt.Errorf("record: command %s: %w", name, err))
			return
		}
		l.Args = args
	}
	if applyErr != nil {
		l.Rejected = applyErr.Error()
	}
	w.writeJSON(l)
}

// emptyCommands are the commands without fields: their line has no args.
var emptyCommands = map[string]struct{}{
	"reset": {}, "toggle-jaws": {}, "stop-script": {},
}

// Step notes that steps steps have run and writes a checkpoint every
// CheckpointEvery steps (checksum is called only then). It does not
// allocate.
func (w *Writer) Step(steps int, checksum func() uint64) {
	if steps%CheckpointEvery != 0 || steps == 0 || w.err != nil || w.ended {
		return
	}
	b := append(w.buf[:0], `{"step":`...)
	b = strconv.AppendInt(b, int64(steps), 10)
	b = append(b, `,"checksum":"`...)
	b = appendHex16(b, checksum())
	b = append(b, "\"}\n"...)
	w.buf = b
	w.write(b)
}

// End writes the footer: the steps run, the final state's checksum and
// the error of the last step, if any. Later writes are ignored.
func (w *Writer) End(steps int, checksum uint64, runErr error) {
	if w.ended {
		return
	}
	e := End{Steps: steps, Checksum: FormatChecksum(checksum)}
	if runErr != nil {
		e.Error = runErr.Error()
	}
	w.writeJSON(line{End: &e})
	w.ended = true
}

// Err returns the first write error.
func (w *Writer) Err() error { return w.err }

// Close closes the file of Create and returns the first error.
func (w *Writer) Close() error {
	if w.close != nil {
		if err := w.close(); err != nil && w.err == nil {
			w.err = fmt.Errorf("record: %w", err)
		}
		w.close = nil
	}
	return w.err
}

func (w *Writer) writeJSON(l line) {
	b, err := json.Marshal(l)
	if err != nil {
		w.fail(fmt.Errorf("record: %w", err))
		return
	}
	w.write(append(b, '\n'))
}

func (w *Writer) write(b []byte) {
	if w.err != nil || w.ended {
		return
	}
	if _, err := w.w.Write(b); err != nil {
		w.fail(fmt.Errorf("record: %w", err))
	}
}

func (w *Writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// appendHex16 appends v as 16 hex digits.
func appendHex16(b []byte, v uint64) []byte {
	const digits = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, digits[(v>>uint(shift))&0xf])
	}
	return b
}
