package meshfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Binary data inside line-oriented files (binary Gmsh and legacy VTK):
// the header lines are text, read by the lexer, and the data that follows
// a header line is read raw from the same buffered reader. The lexer reads
// whole lines, so after a header line the reader stands exactly at the
// first data byte.

// readBytes fills buf with the raw bytes that follow the current line. It
// returns io.EOF or io.ErrUnexpectedEOF when the input ends first.
func (lx *lexer) readBytes(buf []byte) error {
	lx.fields, lx.pos = lx.fields[:0], 0
	lx.inBinary = true
	_, err := io.ReadFull(lx.r, buf)
	return err
}

// discard skips n raw bytes and returns how many it skipped.
func (lx *lexer) discard(n int64) (int64, error) {
	lx.fields, lx.pos = lx.fields[:0], 0
	lx.inBinary = true
	var done int64
	for done < n {
		step := int(min(n-done, 1<<20))
		k, err := lx.r.Discard(step)
		done += int64(k)
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// truncated reports whether err means that the input ended early.
func truncated(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// skipRaw discards input up to and including a line that starts with
// marker, without splitting lines into fields or bounding their length
// (binary data has neither). It reports whether the marker was found.
func (lx *lexer) skipRaw(marker []byte) (bool, error) {
	lx.fields, lx.pos = lx.fields[:0], 0
	atStart := true
	for {
		chunk, err := lx.r.ReadSlice('\n')
		if atStart && bytes.Equal(bytes.TrimRight(chunk, " \t\r\n"), marker) {
			lx.line++
			lx.inBinary = false
			return true, nil
		}
		atStart = err == nil
		switch {
		case err == nil:
			lx.line++
		case errors.Is(err, bufio.ErrBufferFull):
		case err == io.EOF:
			lx.eof = true
			return false, nil
		default:
			return false, err
		}
	}
}

// rawMarker expects marker after binary data, past any white space (the
// newline that writers put after a binary block). On success it consumes
// the marker's line; otherwise it returns a few of the bytes it found, for
// the message.
func (lx *lexer) rawMarker(marker string) (bool, []byte, error) {
	for {
		c, err := lx.r.ReadByte()
		if err == io.EOF {
			return false, nil, nil
		}
		if err != nil {
			return false, nil, err
		}
		if c == '\n' || c == '\r' || c == ' ' || c == '\t' {
			continue
		}
		_ = lx.r.UnreadByte()
		break
	}
	got, _ := lx.r.Peek(len(marker))
	if string(got) != marker {
		found, _ := lx.r.Peek(16)
		return false, found, nil
	}
	if err := lx.readLine(); err != nil && err != io.EOF {
		return false, nil, err
	}
	if len(lx.fields) == 0 || string(lx.fields[0]) != marker {
		return false, lx.buf, nil
	}
	lx.pos = len(lx.fields)
	return true, nil, nil
}

// atMarker reports, without consuming anything, whether marker comes next
// past white space: a binary block that ends early reaches the closing
// marker of its section.
func (lx *lexer) atMarker(marker string) bool {
	head, _ := lx.r.Peek(len(marker) + 8)
	return bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte(marker))
}
