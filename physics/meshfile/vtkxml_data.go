package meshfile

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"strings"
)

// The data of a VTK XML DataArray (VTK file formats, "XML File Formats";
// the header layout is documented only on the VTK wiki):
//
//	format="ascii"     the values as text in the element
//	format="binary"    base64 text in the element
//	format="appended"  at byte offset "offset" after the "_" that opens
//	                   <AppendedData>, raw bytes (encoding="raw") or base64
//	                   text (encoding="base64", the offset counts characters)
//
// Binary data, inline or appended, starts with a header of integers of
// the file's header_type (UInt32 unless UInt64 is named), in its
// byte_order. Uncompressed, the header is one integer, the byte count of
// the data that follows. Compressed (compressor="vtkZLibDataCompressor"),
// the data is cut into blocks of u bytes, the last one p bytes (p = 0:
// also u), each compressed separately with zlib:
//
//	[#blocks][u][p][compressed size of block 1]…[… of block #blocks]
//	[block 1][block 2]…
//
// VTK base64-encodes the header and the data separately, so the text may
// hold padding ("=") in the middle; other writers encode them together.
// b64Reader decodes both.

// xmlNumTypes maps the DataArray type names to their binary layout.
var xmlNumTypes = map[string]numType{
	"Int8": {1, false, true}, "UInt8": {1, false, false}, "Int16": {2, false, true}, "UInt16": {2, false, false},
	"Int32": {4, false, true}, "UInt32": {4, false, false}, "Int64": {8, false, true}, "UInt64": {8, false, false},
	"Float32": {4, true, true}, "Float64": {8, true, true},
}

// byteSource hands out the bytes of one binary DataArray: raw appended
// bytes, or decoded base64.
type byteSource interface {
	read(n int) ([]byte, error)
}

// rawSource reads raw appended data.
type rawSource struct{ data []byte }

func (s *rawSource) read(n int) ([]byte, error) {
	if n > len(s.data) {
		return nil, io.ErrUnexpectedEOF
	}
	b := s.data[:n]
	s.data = s.data[n:]
	return b, nil
}

// b64Reader decodes base64 text quad by quad, white space ignored. A quad
// with padding ends one encoded segment and the next quad starts another,
// so separately encoded header and data decode as one byte stream.
type b64Reader struct {
	text []byte
	pos  int
	left []byte // decoded bytes not yet handed out
	quad [4]byte
}

func (r *b64Reader) read(n int) ([]byte, error) {
	out := make([]byte, 0, min(n, 1<<20))
	for len(out) < n {
		if len(r.left) > 0 {
			k := min(n-len(out), len(r.left))
			out = append(out, r.left[:k]...)
			r.left = r.left[k:]
			continue
		}
		q, err := r.nextQuad()
		if err != nil {
			return nil, err
		}
		var dec [3]byte
		k, err := base64.StdEncoding.Decode(dec[:], q)
		if err != nil {
			return nil, fmt.Errorf("bad base64 near character %d: %v", r.pos, err)
		}
		r.left = append(r.left[:0], dec[:k]...)
	}
	return out, nil
}

// nextQuad returns the next four base64 characters.
func (r *b64Reader) nextQuad() ([]byte, error) {
	k := 0
	for k < 4 {
		if r.pos >= len(r.text) {
			if k == 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("base64 text ends inside a group of four characters")
		}
		c := r.text[r.pos]
		r.pos++
		if c == ' ' || c == '\n' || c == '\r' || c == '\t' {
			continue
		}
		r.quad[k] = c
		k++
	}
	return r.quad[:], nil
}

// header reads k integers of the file's header type.
func (x *vtkxml) header(src byteSource, k int) ([]uint64, error) {
	b, err := src.read(k * x.headerSize)
	if err != nil {
		return nil, err
	}
	v := make([]uint64, k)
	for i := range v {
		if x.headerSize == 4 {
			v[i] = uint64(x.order.Uint32(b[4*i:]))
		} else {
			v[i] = x.order.Uint64(b[8*i:])
		}
	}
	return v, nil
}

// maxInflateRatio bounds how much larger than its compressed size a block
// may declare itself: zlib inflates at most about 1032 to 1.
const maxInflateRatio = 1100

// payload returns the data bytes of a binary DataArray, decompressed;
// want is the byte count the array must hold.
func (x *vtkxml) payload(src byteSource, want int) ([]byte, error) {
	if !x.compressed {
		h, err := x.header(src, 1)
		if err != nil {
			return nil, truncatedHeader(err)
		}
		if h[0] != uint64(want) {
			return nil, fmt.Errorf("its header declares %d bytes of data, %s", h[0], x.needs(want))
		}
		b, err := src.read(want)
		if err != nil {
			return nil, fmt.Errorf("its data is truncated: %d bytes declared: %v", want, err)
		}
		return b, nil
	}
	return x.inflate(src, want)
}

// needs phrases the expected byte count for a message.
func (x *vtkxml) needs(want int) string {
	return fmt.Sprintf("but the counts of the piece need %d", want)
}

func truncatedHeader(err error) error {
	if err == io.ErrUnexpectedEOF {
		return fmt.Errorf("its data ends inside the binary header")
	}
	return err
}

// inflate reads the block header and the zlib blocks of compressed data.
func (x *vtkxml) inflate(src byteSource, want int) ([]byte, error) {
	h, err := x.header(src, 3)
	if err != nil {
		return nil, truncatedHeader(err)
	}
	blocks, usize, psize := h[0], h[1], h[2]
	last := psize
	if last == 0 {
		last = usize
	}
	if blocks == 0 {
		last = 0
	}
	total := uint64(0)
	if blocks > 0 {
		total = (blocks-1)*usize + last
	}
	if blocks > uint64(want)+1 || total != uint64(want) {
		return nil, fmt.Errorf("its compression header declares %d blocks holding %d bytes, %s", blocks, total, x.needs(want))
	}
	sizes, err := x.header(src, int(blocks))
	if err != nil {
		return nil, truncatedHeader(err)
	}
	out := make([]byte, 0, min(want, 1<<24))
	for i, c := range sizes {
		u := usize
		if uint64(i) == blocks-1 {
			u = last
		}
		if c > math.MaxInt32 || u > maxInflateRatio*c+1024 {
			return nil, fmt.Errorf("block %d declares %d bytes compressed to %d, more than zlib can inflate", i+1, u, c)
		}
		comp, err := src.read(int(c))
		if err != nil {
			return nil, fmt.Errorf("compressed block %d of %d is truncated: %v", i+1, blocks, err)
		}
		if out, err = inflateBlock(out, comp, int(u)); err != nil {
			return nil, fmt.Errorf("compressed block %d of %d does not inflate: %v", i+1, blocks, err)
		}
	}
	return out, nil
}

// inflateBlock appends the zlib-inflated block to out; it must inflate to
// exactly u bytes.
func inflateBlock(out, comp []byte, u int) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(comp))
	if err != nil {
		return out, err
	}
	defer zr.Close()
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(zr, int64(u)+1))
	if err != nil {
		return out, err
	}
	if int(n) != u {
		return out, fmt.Errorf("it inflates to %d bytes, its header says %d", n, u)
	}
	return append(out, buf.Bytes()...), nil
}

// arrayValues decodes the values of a DataArray element: want values
// (-1: as many as there are, ASCII only), as float64.
func (x *vtkxml) arrayValues(n *xmlNode, want int) ([]float64, error) {
	typName := n.attr["type"]
	t, ok := xmlNumTypes[typName]
	if !ok {
		return nil, fmt.Errorf("type %q is not a numeric type VTK writes (Int8 … UInt64, Float32, Float64)", typName)
	}
	switch format := n.attr["format"]; format {
	case "ascii":
		x.encodings.add("ascii", 1)
		return asciiValues(n.text, want)
	case "binary":
		x.encodings.add("binary", 1)
		return x.binaryValues(&b64Reader{text: n.text}, t, want)
	case "appended":
		src, err := x.appendedSource(n)
		if err != nil {
			return nil, err
		}
		return x.binaryValues(src, t, want)
	default:
		return nil, fmt.Errorf("format %q is not ascii, binary or appended", format)
	}
}

// binaryValues decodes want values of type t from a binary source.
func (x *vtkxml) binaryValues(src byteSource, t numType, want int) ([]float64, error) {
	if want < 0 || want > math.MaxInt32/8 {
		return nil, fmt.Errorf("the counts of the piece make an array of %d values", want)
	}
	b, err := x.payload(src, want*t.size)
	if err != nil {
		return nil, err
	}
	v := make([]float64, want)
	for i := range v {
		v[i] = t.value(b[i*t.size:], x.order)
	}
	return v, nil
}

// asciiValues parses white-space separated numbers.
func asciiValues(text []byte, want int) ([]float64, error) {
	var v []float64
	for i, f := range bytes.Fields(text) {
		x, ok := parseFloat(f)
		if !ok {
			return nil, fmt.Errorf("value %d is %s, not a finite number", i, quote(f))
		}
		v = append(v, x)
	}
	if want >= 0 && len(v) != want {
		return nil, fmt.Errorf("it holds %d values, but the counts of the piece need %d", len(v), want)
	}
	return v, nil
}

// appendedSource locates the data of an appended DataArray.
func (x *vtkxml) appendedSource(n *xmlNode) (byteSource, error) {
	if x.appended == nil {
		return nil, fmt.Errorf("format is appended, but the file has no <AppendedData>")
	}
	off, ok := parseInt([]byte(n.attr["offset"]))
	if !ok || off < 0 || off > len(x.appended) {
		return nil, fmt.Errorf("offset %q is not within the %d bytes of <AppendedData>", n.attr["offset"], len(x.appended))
	}
	switch strings.ToLower(x.appendedEncoding) {
	case "raw":
		x.encodings.add("appended raw", 1)
		return &rawSource{data: x.appended[off:]}, nil
	case "base64":
		x.encodings.add("appended base64", 1)
		return &b64Reader{text: x.appended[off:]}, nil
	}
	return nil, fmt.Errorf("<AppendedData> encoding %q is not raw or base64", x.appendedEncoding)
}
