package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"softgrasp/physics/frame"
	"softgrasp/physics/settings"
)

// Recording is a recording as read.
type Recording struct {
	Config      settings.Scenario
	Commands    []Entry      // in the order applied
	Checkpoints []Checkpoint // by step
	// End is the footer, nil when the recording was cut short.
	End *End
	// Notes say what the reader accepted that was not whole (a missing
	// footer, a last line cut off).
	Notes []string
	// Files are the files the run loaded, embedded (version 2), in the
	// order recorded; Materialise writes them out for a replay.
	Files []File
	// Version is the format version the recording was written in.
	Version int
	// configFiles maps each path of Config to the embedded file it
	// loaded (an index of Files).
	configFiles map[string]int
}

// Entry is a recorded command.
type Entry struct {
	Step     int // applied after this many steps
	Command  frame.Command
	Rejected string // why applying it failed in the recorded run, or ""
	Line     int
	// files maps each path a SetScene loads to its embedded file (an
	// index of Recording.Files): the latest embedded before the command.
	files map[string]int
}

// Checkpoint is the state checksum after Step steps.
type Checkpoint struct {
	Step     int
	Checksum uint64
	Line     int
}

// Steps is the number of steps to replay: the footer's, or without one the
// last step the recording reached.
func (r *Recording) Steps() int {
	if r.End != nil {
		return r.End.Steps
	}
	n := 0
	if k := len(r.Checkpoints); k > 0 {
		n = r.Checkpoints[k-1].Step
	}
	if k := len(r.Commands); k > 0 && r.Commands[k-1].Step > n {
		n = r.Commands[k-1].Step
	}
	return n
}

// ReadFile reads the recording at path.
func ReadFile(path string) (*Recording, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Read(bytes.NewReader(data), path)
}

// Read reads a recording; name prefixes the messages (path:line: reason).
// It refuses another format version, a line that does not parse and lines
// out of order, and accepts a recording cut short with a note.
func Read(r io.Reader, name string) (*Recording, error) {
	p := parser{name: name, rec: &Recording{}, current: map[string]int{}}
	br := bufio.NewReader(r)
	for {
		text, err := br.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		whole := strings.HasSuffix(text, "\n")
		if text != "" {
			p.n++
			if perr := p.line(strings.TrimRight(text, "\r\n")); perr != nil {
				if whole || p.n <= 2 {
					return nil, perr
				}
				// The last line was cut off as it was written.
				p.rec.Notes = append(p.rec.Notes, fmt.Sprintf("line %d was cut off and is ignored", p.n))
			}
		}
		if err != nil {
			break
		}
	}
	return p.finish()
}

// parser reads the lines of one recording.
type parser struct {
	name     string
	n        int // the line number
	rec      *Recording
	hasCfg   bool
	lastStep int
	// current maps a path to the latest embedded file of that path.
	current map[string]int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.n, fmt.Sprintf(format, args...))
}

// line parses line p.n.
func (p *parser) line(text string) error {
	if p.n == 1 {
		return p.header(text)
	}
	if p.rec.End != nil {
		return p.errorf("a line after the footer")
	}
	if p.rec.Version == 1 {
		migrated, err := migrateV1(text)
		if err != nil {
			return p.errorf("%v", err)
		}
		text = migrated
	}
	var l line
	if err := strictUnmarshal([]byte(text), &l); err != nil {
		return p.errorf("not a record line: %v", err)
	}
	switch {
	case l.File != nil:
		return p.file(l)
	case l.Config != nil:
		return p.config(l)
	case !p.hasCfg:
		return p.errorf("the configuration must come first, after the header")
	case l.End != nil:
		return p.end(l)
	case l.Step == nil:
		return p.errorf("a line with neither config, step nor end")
	case *l.Step < p.lastStep:
		return p.errorf("step %d after step %d: steps go backwards", *l.Step, p.lastStep)
	case l.Command != "":
		return p.command(l)
	case l.Checksum != "":
		return p.checkpoint(l)
	}
	return p.errorf("a step line with neither command nor checksum")
}

// header checks the format name and version.
func (p *parser) header(text string) error {
	f := strings.Fields(text)
	if len(f) != 2 || f[0] != Magic {
		return p.errorf("not a softgrasp recording (the first line is %q, want %q)", clip(text), fmt.Sprintf("%s %d", Magic, Version))
	}
	v, err := strconv.Atoi(f[1])
	switch {
	case err != nil:
		return p.errorf("format version %q is not a number", clip(f[1]))
	case v > Version:
		return p.errorf("format version %d is newer than this softgrasp reads (version %d): replay it with the softgrasp that recorded it", v, Version)
	case v < 1:
		return p.errorf("format version %d does not exist", v)
	}
	p.rec.Version = v
	return nil
}

func (p *parser) config(l line) error {
	if p.hasCfg {
		return p.errorf("a second configuration")
	}
	if err := l.Config.Validate(); err != nil {
		return p.errorf("configuration: %v", err)
	}
	p.rec.Config, p.hasCfg = *l.Config, true
	p.rec.configFiles = p.filesOf(&p.rec.Config)
	return nil
}

// file reads an embedded file's line.
func (p *parser) file(l line) error {
	data, err := l.File.Content()
	if err != nil {
		return p.errorf("%v", err)
	}
	f := *l.File
	f.data = data // checked once: Materialise writes it out
	p.current[f.Path] = len(p.rec.Files)
	p.rec.Files = append(p.rec.Files, f)
	return nil
}

// filesOf maps the paths cfg loads to the latest embedded file of each.
func (p *parser) filesOf(cfg *settings.Scenario) map[string]int {
	var m map[string]int
	for _, path := range cfg.Files() {
		if i, ok := p.current[*path]; ok && *path != "" {
			if m == nil {
				m = map[string]int{}
			}
			m[*path] = i
		}
	}
	return m
}

func (p *parser) command(l line) error {
	c, err := decodeCommand(l.Command, l.Args)
	if err != nil {
		return p.errorf("%v", err)
	}
	if err := c.Validate(); err != nil {
		return p.errorf("command %s: %v", l.Command, err)
	}
	e := Entry{Step: *l.Step, Command: c, Rejected: l.Rejected, Line: p.n}
	if s, ok := c.(frame.SetScene); ok {
		e.files = p.filesOf(&s.Config)
	}
	p.lastStep = *l.Step
	p.rec.Commands = append(p.rec.Commands, e)
	return nil
}

func (p *parser) checkpoint(l line) error {
	sum, err := parseChecksum(l.Checksum)
	if err != nil {
		return p.errorf("%v", err)
	}
	p.lastStep = *l.Step
	p.rec.Checkpoints = append(p.rec.Checkpoints, Checkpoint{Step: *l.Step, Checksum: sum, Line: p.n})
	return nil
}

func (p *parser) end(l line) error {
	if l.End.Steps < p.lastStep {
		return p.errorf("footer of %d steps after step %d", l.End.Steps, p.lastStep)
	}
	if _, err := parseChecksum(l.End.Checksum); err != nil {
		return p.errorf("footer: %v", err)
	}
	p.rec.End = l.End
	return nil
}

// finish checks that the recording holds a configuration and notes a
// missing footer.
func (p *parser) finish() (*Recording, error) {
	if p.n == 0 {
		return nil, fmt.Errorf("%s: empty file, not a softgrasp recording", p.name)
	}
	if !p.hasCfg {
		return nil, fmt.Errorf("%s: cut short after the header: no configuration to replay", p.name)
	}
	if p.rec.End == nil {
		p.rec.Notes = append(p.rec.Notes, fmt.Sprintf("no footer: the recording was cut short; replaying the %d steps it reached, without a final checksum to compare", p.rec.Steps()))
	}
	return p.rec, nil
}

// EndChecksum returns the footer's checksum (ok false without footer).
func (r *Recording) EndChecksum() (sum uint64, ok bool) {
	if r.End == nil {
		return 0, false
	}
	sum, err := parseChecksum(r.End.Checksum)
	return sum, err == nil
}

// strictUnmarshal decodes one JSON value, refusing unknown fields and
// trailing data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the JSON object")
	}
	return nil
}

// clip shortens a quoted excerpt of a bad line.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
