package meshfile

import (
	"bytes"
	"fmt"
	"io"

	"gonum.org/v1/gonum/spatial/r3"
)

// Wavefront OBJ surfaces: one record per line,
//
//	v x y z [w | r g b]      a vertex (numbered from 1 in file order)
//	f a b c …                a planar polygon; each corner is "i", "i/t",
//	                         "i//n" or "i/t/n", and a negative i counts
//	                         back from the last vertex defined
//	l …, p …                 lines and points (left out)
//
// Normals, texture coordinates, groups, objects, materials and smoothing
// groups do not change the shape and are ignored.

// parseOBJ reads a Wavefront OBJ file into a builder.
func parseOBJ(r io.Reader) (*builder, error) {
	p := &objParser{lx: newLexer(r, "obj"), b: builder{name: "obj", format: "Wavefront OBJ"}}
	for {
		f, err := p.lx.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := p.record(f); err != nil {
			return nil, err
		}
	}
	if len(p.b.nodes) == 0 {
		return nil, fmt.Errorf("obj: the file defines no vertex (no \"v\" record)")
	}
	return &p.b, nil
}

type objParser struct {
	lx      *lexer
	b       builder
	corners []int
}

// record handles one line.
func (p *objParser) record(f [][]byte) error {
	switch string(f[0]) {
	case "v":
		return p.vertex(f)
	case "f", "fo":
		return p.face(f)
	case "l":
		p.b.skip("line", 1)
	case "p":
		p.b.skip("point", len(f)-1)
	}
	return nil
}

// vertex reads "v x y z [w]" (or with a colour after the position).
func (p *objParser) vertex(f [][]byte) error {
	if len(f) < 4 {
		return p.lx.errorf("vertex needs 3 coordinates, found %d", len(f)-1)
	}
	var c [3]float64
	for k := range c {
		v, ok := parseFloat(f[1+k])
		if !ok {
			return p.lx.errorf("coordinate %c of vertex %d is %s, not a finite number", "xyz"[k], len(p.b.nodes)+1, quote(f[1+k]))
		}
		c[k] = v
	}
	p.b.nodes = append(p.b.nodes, r3.Vec{X: c[0], Y: c[1], Z: c[2]})
	return nil
}

// face reads "f a b c …".
func (p *objParser) face(f [][]byte) error {
	if len(f) < 4 {
		return p.lx.errorf("face needs at least 3 corners, found %d", len(f)-1)
	}
	p.corners = p.corners[:0]
	for _, c := range f[1:] {
		ref := c
		if i := bytes.IndexByte(c, '/'); i >= 0 {
			ref = c[:i]
		}
		v, ok := parseInt(ref)
		n := len(p.b.nodes)
		switch {
		case !ok || v == 0:
			return p.lx.errorf("bad face corner %s: want a vertex number (from 1, or negative from the last)", quote(c))
		case v < 0:
			v += n
		default:
			v--
		}
		if v < 0 || v >= n {
			return p.lx.errorf("face corner %s refers to vertex %d, but %d vertices are defined so far", quote(c), v+1, n)
		}
		p.corners = append(p.corners, v)
	}
	kind := "triangle"
	switch len(p.corners) {
	case 3:
	case 4:
		kind = "quadrangle"
	default:
		kind = "polygon"
	}
	p.b.addPolygon(kind, p.corners)
	return nil
}
