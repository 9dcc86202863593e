package meshfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// MaxLineBytes is the longest line the loaders accept. Real mesh files
// have lines of a few hundred bytes; the cap keeps a file without newlines
// from being buffered whole.
const MaxLineBytes = 1 << 20

// lexer reads a text mesh file line by line and splits lines into
// whitespace-separated fields without allocating per line once its buffer
// has grown. It serves both line-oriented formats (Gmsh, one record per
// line) and token streams (VTK, where numbers may wrap across lines), and
// prefixes every error with the format name and the line number.
type lexer struct {
	r      *bufio.Reader
	name   string // "msh" or "vtk", for error messages
	line   int    // number of the line in fields, 1-based
	buf    []byte
	fields [][]byte
	pos    int // next unread field of the current line
	eof    bool
	// inBinary is set while the reader is inside binary data that follows
	// line; messages then locate the error after that line.
	inBinary bool
}

func newLexer(r io.Reader, name string) *lexer {
	return &lexer{r: bufio.NewReaderSize(r, 64<<10), name: name}
}

// errorf returns an error located at the current line.
func (lx *lexer) errorf(format string, args ...any) error {
	if lx.inBinary {
		return fmt.Errorf("%s: binary data after line %d: %s", lx.name, lx.line, fmt.Sprintf(format, args...))
	}
	return fmt.Errorf("%s: line %d: %s", lx.name, lx.line, fmt.Sprintf(format, args...))
}

// readLine reads the next physical line into buf and splits it into
// fields. It returns io.EOF at the end of input; a final line without a
// newline is still returned.
func (lx *lexer) readLine() error {
	if lx.eof {
		return io.EOF
	}
	lx.buf = lx.buf[:0]
	for {
		chunk, err := lx.r.ReadSlice('\n')
		if len(lx.buf)+len(chunk) > MaxLineBytes {
			lx.line++
			return lx.errorf("line longer than %d bytes", MaxLineBytes)
		}
		lx.buf = append(lx.buf, chunk...)
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != io.EOF {
			return fmt.Errorf("%s: line %d: %w", lx.name, lx.line+1, err)
		}
		lx.eof = true
		if len(lx.buf) == 0 {
			return io.EOF
		}
		break
	}
	lx.line++
	lx.inBinary = false
	lx.split()
	return nil
}

// split cuts buf into fields at ASCII white space (which also strips the
// \r of CRLF line endings).
func (lx *lexer) split() {
	lx.fields, lx.pos = lx.fields[:0], 0
	start := -1
	for i, c := range lx.buf {
		space := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
		switch {
		case space && start >= 0:
			lx.fields = append(lx.fields, lx.buf[start:i])
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	if start >= 0 {
		lx.fields = append(lx.fields, lx.buf[start:])
	}
}

// next returns the fields of the next non-blank line, or io.EOF. The
// slices are valid until the following read.
func (lx *lexer) next() ([][]byte, error) {
	for {
		if err := lx.readLine(); err != nil {
			return nil, err
		}
		if len(lx.fields) > 0 {
			lx.pos = len(lx.fields)
			return lx.fields, nil
		}
	}
}

// token returns the next field, crossing line ends, or io.EOF.
func (lx *lexer) token() ([]byte, error) {
	for lx.pos >= len(lx.fields) {
		if err := lx.readLine(); err != nil {
			return nil, err
		}
	}
	lx.pos++
	return lx.fields[lx.pos-1], nil
}

// peek returns the next field without consuming it, or io.EOF.
func (lx *lexer) peek() ([]byte, error) {
	for lx.pos >= len(lx.fields) {
		if err := lx.readLine(); err != nil {
			return nil, err
		}
	}
	return lx.fields[lx.pos], nil
}

// skipToBlankLine discards the rest of the current line and the lines
// after it up to and including the next blank line (or the end of input).
func (lx *lexer) skipToBlankLine() error {
	for {
		err := lx.readLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if len(lx.fields) == 0 {
			return nil
		}
	}
}

// parseInt parses a decimal integer without allocating. It rejects
// anything but an optional sign followed by digits, and values that do not
// fit in an int64.
func parseInt(b []byte) (int, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if v > (math.MaxInt64-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	if neg {
		return -int(v), true
	}
	return int(v), true
}

// parseFloat parses a finite floating-point number.
func parseFloat(b []byte) (float64, bool) {
	if len(b) > 64 {
		return 0, false
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil || !finite(x) {
		return 0, false
	}
	return x, true
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// quote renders a field for an error message, shortened if long.
func quote(b []byte) string {
	if len(b) > 40 {
		return strconv.Quote(string(b[:40])) + "…"
	}
	return strconv.Quote(string(b))
}
