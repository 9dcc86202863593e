package meshfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// STL holds a surface as unconnected triangles, each with its own copy of
// its corners; the reader joins corners at identical positions.
//
// Binary STL: an 80-byte header (free text), a little-endian uint32
// triangle count n, then n records of 50 bytes: the normal and the three
// corners as 12 float32, and a 2-byte attribute. The size is exactly
// 84 + 50n bytes.
//
// ASCII STL:
//
//	solid name
//	  facet normal nx ny nz
//	    outer loop
//	      vertex x y z        (three times)
//	    endloop
//	  endfacet
//	endsolid name
//
// The closing keywords are also read in two words ("end solid", "end
// facet", "end loop"), as some exporters write them.
//
// A file may hold several solids. A binary file whose header starts with
// "solid" (some exporters write that) is told apart by its NUL bytes,
// which ASCII STL never holds.

// maxWholeBytes bounds the size of a file that is read whole: VTK XML
// (its appended data is addressed by offset) and STL (ASCII or binary is
// told by the size).
const maxWholeBytes = 1 << 31

// readWhole reads a file that is parsed whole, up to maxWholeBytes; name
// starts the error messages.
func readWhole(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxWholeBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxWholeBytes {
		return nil, fmt.Errorf("%s: the file is larger than %d bytes", name, maxWholeBytes)
	}
	return data, nil
}

// parseSTL reads an ASCII or binary STL file into a builder.
func parseSTL(r io.Reader) (*builder, error) {
	data, err := readWhole(r, "stl")
	if err != nil {
		return nil, err
	}
	w := &welder{b: builder{name: "stl"}}
	head := bytes.TrimLeft(data, " \t\r\n")
	ascii := len(head) >= 5 && bytes.EqualFold(head[:5], []byte("solid")) &&
		bytes.IndexByte(data[:min(len(data), 1024)], 0) < 0
	if ascii {
		w.b.format = "STL ASCII"
		err = w.asciiSTL(data)
	} else {
		w.b.format = "STL binary"
		err = w.binarySTL(data)
	}
	if err != nil {
		return nil, err
	}
	return &w.b, nil
}

// welder builds a surface from corners given by position, joining equal
// positions into one node.
type welder struct {
	b     builder
	index map[r3.Vec]int
}

func (w *welder) node(p r3.Vec) int {
	if w.index == nil {
		w.index = make(map[r3.Vec]int)
	}
	if i, ok := w.index[p]; ok {
		return i
	}
	w.index[p] = len(w.b.nodes)
	w.b.nodes = append(w.b.nodes, p)
	return len(w.b.nodes) - 1
}

// binarySTL reads the binary layout.
func (w *welder) binarySTL(data []byte) error {
	if len(data) < 84 {
		return fmt.Errorf("stl: a binary STL file needs at least 84 bytes (header and triangle count), this one has %d", len(data))
	}
	n := int64(binary.LittleEndian.Uint32(data[80:]))
	if want := 84 + 50*n; want != int64(len(data)) {
		return fmt.Errorf("stl: the binary header declares %d triangles, which need %d bytes, but the file has %d (%.4g triangles)",
			n, want, len(data), float64(len(data)-84)/50)
	}
	var corners [3]int
	for i := int64(0); i < n; i++ {
		rec := data[84+50*i:]
		for k := 0; k < 3; k++ {
			var c [3]float64
			for j := range c {
				c[j] = float64(math.Float32frombits(binary.LittleEndian.Uint32(rec[12+12*k+4*j:])))
			}
			if !finite(c[0]) || !finite(c[1]) || !finite(c[2]) {
				return fmt.Errorf("stl: triangle %d: corner %d has a coordinate that is not a finite number", i, k)
			}
			corners[k] = w.node(r3.Vec{X: c[0], Y: c[1], Z: c[2]})
		}
		w.b.addPolygon("triangle", corners[:])
	}
	return nil
}

// asciiSTL reads the ASCII layout, line by line.
func (w *welder) asciiSTL(data []byte) error {
	lx := newLexer(bytes.NewReader(data), "stl")
	st := stlState{w: w, lx: lx}
	for {
		f, err := lx.next()
		if err == io.EOF {
			return st.atEnd()
		}
		if err != nil {
			return err
		}
		if err := st.record(f); err != nil {
			return err
		}
	}
}

// stlState is the position of the ASCII reader in the solid/facet/loop
// nesting.
type stlState struct {
	w       *welder
	lx      *lexer
	inSolid bool
	inFacet bool
	inLoop  bool
	corners []int
	solids  int
	facetAt int
}

// record handles one line of an ASCII STL file.
func (st *stlState) record(f [][]byte) error {
	kw := string(bytes.ToLower(f[0]))
	if kw == "end" && len(f) > 1 {
		// Some exporters close with two words: "end solid", "end facet",
		// "end loop".
		kw, f = "end"+string(bytes.ToLower(f[1])), f[1:]
	}
	switch {
	case kw == "solid" && !st.inSolid:
		st.inSolid, st.solids = true, st.solids+1
	case kw == "endsolid" && st.inSolid && !st.inFacet:
		st.inSolid = false
	case kw == "facet" && st.inSolid && !st.inFacet:
		st.inFacet, st.corners, st.facetAt = true, st.corners[:0], st.lx.line
	case kw == "outer" && st.inFacet && !st.inLoop:
		st.inLoop = true
	case kw == "vertex" && st.inLoop:
		return st.vertex(f)
	case kw == "endloop" && st.inLoop:
		st.inLoop = false
	case kw == "endfacet" && st.inFacet && !st.inLoop:
		return st.endFacet()
	default:
		return st.lx.errorf("unexpected %s %s", quote(f[0]), st.expected())
	}
	return nil
}

// expected says what the reader was waiting for.
func (st *stlState) expected() string {
	switch {
	case st.inLoop:
		return "inside a loop (want vertex or endloop)"
	case st.inFacet:
		return "inside a facet (want outer loop or endfacet)"
	case st.inSolid:
		return "inside a solid (want facet or endsolid)"
	}
	return "outside a solid (want solid)"
}

// vertex reads "vertex x y z".
func (st *stlState) vertex(f [][]byte) error {
	if len(f) != 4 {
		return st.lx.errorf("vertex needs 3 coordinates, found %d", len(f)-1)
	}
	var c [3]float64
	for k := range c {
		v, ok := parseFloat(f[1+k])
		if !ok {
			return st.lx.errorf("coordinate %c of a vertex is %s, not a finite number", "xyz"[k], quote(f[1+k]))
		}
		c[k] = v
	}
	st.corners = append(st.corners, st.w.node(r3.Vec{X: c[0], Y: c[1], Z: c[2]}))
	return nil
}

// endFacet adds the facet's polygon.
func (st *stlState) endFacet() error {
	st.inFacet = false
	if len(st.corners) < 3 {
		return fmt.Errorf("stl: line %d: the facet has %d vertices, a triangle needs 3", st.facetAt, len(st.corners))
	}
	kind := "triangle"
	if len(st.corners) > 3 {
		kind = "polygon"
	}
	st.w.b.addPolygon(kind, st.corners)
	return nil
}

// atEnd checks that the file did not end inside a solid.
func (st *stlState) atEnd() error {
	switch {
	case st.solids == 0:
		return fmt.Errorf("stl: the file holds no solid")
	case st.inSolid:
		return fmt.Errorf("stl: line %d: the file ends %s (truncated file?)", st.lx.line, st.expected())
	}
	return nil
}
