package meshfile

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"
)

// Legacy VTK BINARY files: each header line ("POINTS n float",
// "CELLS n size", "OFFSETS vtktypeint64", …) is followed by its values as
// raw big-endian numbers of the type the header names, then a newline.
// Legacy cell records and cell types are 32-bit integers.

// numType is the binary layout of a number in a VTK file, legacy or XML:
// its size in bytes, whether it is a floating-point type, whether it is
// signed.
type numType struct {
	size   int
	float  bool
	signed bool
}

// vtkBinaryTypes maps the type names of legacy VTK headers to their
// binary layout. "long" is 8 bytes, as VTK writes it on 64-bit Unix.
var vtkBinaryTypes = map[string]numType{
	"char": {1, false, true}, "unsigned_char": {1, false, false}, "vtktypeint8": {1, false, true}, "vtktypeuint8": {1, false, false},
	"short": {2, false, true}, "unsigned_short": {2, false, false}, "vtktypeint16": {2, false, true}, "vtktypeuint16": {2, false, false},
	"int": {4, false, true}, "unsigned_int": {4, false, false}, "vtktypeint32": {4, false, true}, "vtktypeuint32": {4, false, false},
	"long": {8, false, true}, "unsigned_long": {8, false, false}, "vtktypeint64": {8, false, true}, "vtktypeuint64": {8, false, false},
	"vtkidtype": {8, false, true},
	"float":     {4, true, true}, "double": {8, true, true},
}

// binaryType looks up a type name from a header.
func (p *vtkParser) binaryType(name, what string) (numType, error) {
	t, ok := vtkBinaryTypes[strings.ToLower(name)]
	if !ok {
		return t, p.lx.errorf("%s has data type %s, which a binary file cannot hold here", what, quote([]byte(name)))
	}
	return t, nil
}

// value decodes one number of type t in byte order o (legacy binary
// files are big-endian).
func (t numType) value(b []byte, o binary.ByteOrder) float64 {
	switch {
	case t.float && t.size == 4:
		return float64(math.Float32frombits(o.Uint32(b)))
	case t.float:
		return math.Float64frombits(o.Uint64(b))
	case t.size == 1 && t.signed:
		return float64(int8(b[0]))
	case t.size == 1:
		return float64(b[0])
	case t.size == 2 && t.signed:
		return float64(int16(o.Uint16(b)))
	case t.size == 2:
		return float64(o.Uint16(b))
	case t.size == 4 && t.signed:
		return float64(int32(o.Uint32(b)))
	case t.size == 4:
		return float64(o.Uint32(b))
	case t.signed:
		return float64(int64(o.Uint64(b)))
	}
	return float64(o.Uint64(b))
}

// binaryValues reads n values of type t in chunks (so that a hostile
// count costs no more memory than the data present) and passes each to
// fn. what names the block for the messages.
func (p *vtkParser) binaryValues(n int, t numType, what string, fn func(i int, v float64) error) error {
	const chunk = 8192
	for i := 0; i < n; {
		k := min(n-i, chunk)
		need := k * t.size
		if cap(p.scratch) < need {
			p.scratch = make([]byte, need)
		}
		buf := p.scratch[:need]
		if err := p.lx.readBytes(buf); err != nil {
			if truncated(err) {
				return p.lx.errorf("the binary data of %s is truncated: the file ends before value %d of %d", what, i+k, n)
			}
			return err
		}
		for j := 0; j < k; j++ {
			if err := fn(i+j, t.value(buf[j*t.size:], binary.BigEndian)); err != nil {
				return err
			}
		}
		i += k
	}
	return nil
}

// binaryInts reads n integers of type t and passes each to fn.
func (p *vtkParser) binaryInts(n int, t numType, what string, fn func(i, v int) error) error {
	if t.float {
		return p.lx.errorf("%s must hold integers, not floating-point values", what)
	}
	return p.binaryValues(n, t, what, func(i int, v float64) error {
		if v < 0 || v > math.MaxInt32*float64(1<<20) {
			return p.lx.errorf("value %d of %s is %.0f, not a valid index or count", i, what, v)
		}
		return fn(i, int(v))
	})
}

// binaryPoints reads 3n coordinates of the given type.
func (p *vtkParser) binaryPoints(n int, typ string) error {
	t, err := p.binaryType(typ, "POINTS")
	if err != nil {
		return err
	}
	var c [3]float64
	return p.binaryValues(3*n, t, fmt.Sprintf("POINTS (%d points)", n), func(i int, v float64) error {
		if !finite(v) {
			return p.lx.errorf("coordinate %c of point %d is %v, not a finite number (does the declared count match the data?)", "xyz"[i%3], i/3, v)
		}
		c[i%3] = v
		if i%3 == 2 {
			p.b.nodes = append(p.b.nodes, r3.Vec{X: c[0], Y: c[1], Z: c[2]})
		}
		return nil
	})
}

// skipBinary skips n values of the named type.
func (p *vtkParser) skipBinary(n int, typ, what string) error {
	t, err := p.binaryType(typ, what)
	if err != nil {
		return err
	}
	want := int64(n) * int64(t.size)
	got, err := p.lx.discard(want)
	if truncated(err) {
		return p.lx.errorf("the binary data of %s is truncated: %d of %d bytes", what, got, want)
	}
	return err
}

// binaryCellRecords reads the legacy cell records "k i1 … ik" as size
// 32-bit integers.
func (p *vtkParser) binaryCellRecords(cl *cellList, kw string, n, size int) error {
	line := p.lx.line
	need, c := 0, 0 // integers left in the current record, its cell
	err := p.binaryInts(size, vtkBinaryTypes["int"], kw, func(i, v int) error {
		if need > 0 {
			cl.conn = append(cl.conn, v)
			need--
			if need == 0 {
				cl.offsets = append(cl.offsets, len(cl.conn))
			}
			return nil
		}
		if c == n {
			return p.lx.errorf("%s declares %d cells but its %d integers hold more", kw, n, size)
		}
		if v > size-i-1 {
			return p.lx.errorf("cell %d with %d points overflows the declared %s size %d", c, v, kw, size)
		}
		cl.lines = append(cl.lines, line)
		c++
		if need = v; v == 0 {
			cl.offsets = append(cl.offsets, len(cl.conn))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if c != n || need != 0 {
		return p.lx.errorf("%s declares %d cells but its %d integers hold %d", kw, n, size, c)
	}
	return nil
}

// binaryCellArrays reads the version 5.1 arrays of a binary file.
func (p *vtkParser) binaryCellArrays(cl *cellList, kw string, m, size int) error {
	typ, err := p.arrayHeader("OFFSETS")
	if err != nil {
		return err
	}
	t, err := p.binaryType(typ, kw+" OFFSETS")
	if err != nil {
		return err
	}
	cl.offsets = cl.offsets[:0]
	err = p.binaryInts(m, t, kw+" OFFSETS", func(i, o int) error { return p.checkOffset(cl, i, o, size) })
	if err != nil {
		return err
	}
	if err := p.closeOffsets(cl, size); err != nil {
		return err
	}
	if typ, err = p.arrayHeader("CONNECTIVITY"); err != nil {
		return err
	}
	if t, err = p.binaryType(typ, kw+" CONNECTIVITY"); err != nil {
		return err
	}
	err = p.binaryInts(size, t, kw+" CONNECTIVITY", func(_, v int) error {
		cl.conn = append(cl.conn, v)
		return nil
	})
	for range cl.count() {
		cl.lines = append(cl.lines, p.lx.line)
	}
	return err
}

// binaryCellTypes reads n cell types as 32-bit integers.
func (p *vtkParser) binaryCellTypes(n int) error {
	line := p.lx.line
	return p.binaryInts(n, vtkBinaryTypes["int"], "CELL_TYPES", func(_, v int) error {
		p.types = append(p.types, v)
		p.typesLine = append(p.typesLine, line)
		return nil
	})
}
