package mesh

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// LoadVTK reads a legacy VTK file (versions 2.0 to 5.1, ASCII) holding an
// UNSTRUCTURED_GRID:
//
//	# vtk DataFile Version 3.0
//	any title
//	ASCII
//	DATASET UNSTRUCTURED_GRID
//	POINTS n float|double          3n numbers
//	CELLS n size                   n records "k i1 … ik", size = n + Σk
//	CELL_TYPES n                   n cell types
//
// Version 5.1 writes the cells as two arrays instead:
//
//	CELLS m size
//	OFFSETS type                   m = cells+1 offsets, from 0 to size
//	CONNECTIVITY type              size point indices
//
// Numbers may wrap across lines anywhere. Tetrahedra (type 10) are kept and
// quadratic tetrahedra (type 24) contribute their four corners; vertices,
// lines and surface cells are ignored; other volume cells are an error.
// FIELD and METADATA blocks are skipped and reading stops at POINT_DATA or
// CELL_DATA. Binary files are rejected. The result is cleaned up and
// validated as described in Parse.
func LoadVTK(r io.Reader) (*TetMesh, error) {
	p := &vtkParser{lx: newLexer(r, "vtk"), b: builder{name: "vtk"}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	if err := p.buildTets(); err != nil {
		return nil, err
	}
	return p.b.finish()
}

// vtkTetPoints gives the point count of the tetrahedral cell types.
var vtkTetPoints = map[int]int{10: 4, 24: 10}

// vtkSolidNames names the other volume cell types.
var vtkSolidNames = map[int]string{
	11: "voxel", 12: "hexahedron", 13: "wedge", 14: "pyramid",
	15: "pentagonal prism", 16: "hexagonal prism", 25: "quadratic hexahedron",
	26: "quadratic wedge", 27: "quadratic pyramid", 29: "triquadratic hexahedron",
	42: "polyhedron",
}

type vtkParser struct {
	lx        *lexer
	b         builder
	hasPoints bool
	offsets   []int // cell c uses conn[offsets[c]:offsets[c+1]]
	conn      []int
	cellLine  []int // line where each cell's indices start
	types     []int
	typesLine []int
}

// parse reads the header, then the keyword-led blocks of the dataset.
func (p *vtkParser) parse() error {
	if err := p.header(); err != nil {
		return err
	}
	for {
		kw, err := p.lx.token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		stop, err := p.block(kw)
		if err != nil {
			return err
		}
		if stop {
			break
		}
	}
	switch {
	case !p.hasPoints:
		return fmt.Errorf("vtk: missing POINTS section")
	case p.offsets == nil:
		return fmt.Errorf("vtk: missing CELLS section")
	case p.types == nil:
		return fmt.Errorf("vtk: missing CELL_TYPES section")
	}
	return nil
}

// block reads the block that keyword kw opens; stop reports the start of
// the attribute data, which the loader does not need.
func (p *vtkParser) block(kw []byte) (stop bool, err error) {
	switch {
	case bytes.EqualFold(kw, []byte("POINTS")):
		return false, p.points()
	case bytes.EqualFold(kw, []byte("CELLS")):
		return false, p.cells()
	case bytes.EqualFold(kw, []byte("CELL_TYPES")):
		return false, p.cellTypes()
	case bytes.EqualFold(kw, []byte("FIELD")):
		return false, p.field()
	case bytes.EqualFold(kw, []byte("METADATA")):
		return false, p.lx.skipToBlankLine()
	case bytes.EqualFold(kw, []byte("POINT_DATA")), bytes.EqualFold(kw, []byte("CELL_DATA")):
		return true, nil
	}
	return false, p.lx.errorf("unexpected %s, want POINTS, CELLS, CELL_TYPES, FIELD, METADATA, POINT_DATA or CELL_DATA", quote(kw))
}

// header checks the three header lines and the DATASET line.
func (p *vtkParser) header() error {
	lx := p.lx
	if err := lx.readLine(); err != nil {
		return eofAs(err, fmt.Errorf("vtk: line 1: empty file"))
	}
	const magic = "# vtk DataFile Version"
	line := bytes.TrimSpace(lx.buf)
	if !bytes.HasPrefix(line, []byte(magic)) {
		return lx.errorf("missing %q header (not a legacy VTK file?)", magic)
	}
	if v := bytes.TrimSpace(line[len(magic):]); len(v) < 1 || v[0] < '1' || v[0] > '5' {
		return lx.errorf("VTK version %s is not supported (want 2.0 to 5.1)", quote(v))
	}
	if err := lx.readLine(); err != nil { // title: free text
		return eofAs(err, fmt.Errorf("vtk: line %d: file ends before the title line", lx.line+1))
	}
	f, err := lx.next()
	if err != nil {
		return eofAs(err, fmt.Errorf("vtk: line %d: file ends before the ASCII/BINARY line", lx.line+1))
	}
	switch {
	case bytes.EqualFold(f[0], []byte("BINARY")):
		return lx.errorf("binary VTK files are not supported; save the mesh as ASCII")
	case !bytes.EqualFold(f[0], []byte("ASCII")) || len(f) != 1:
		return lx.errorf("expected ASCII or BINARY, found %s", quote(f[0]))
	}
	if err := p.keyword("DATASET"); err != nil {
		return err
	}
	kind, err := p.word("the dataset type")
	if err != nil {
		return err
	}
	if !bytes.EqualFold(kind, []byte("UNSTRUCTURED_GRID")) {
		return lx.errorf("dataset type %s is not supported; only UNSTRUCTURED_GRID holds tetrahedra", quote(kind))
	}
	return nil
}

// eofAs returns instead when err is io.EOF, and err otherwise.
func eofAs(err, instead error) error {
	if err == io.EOF {
		return instead
	}
	return err
}

// word returns the next token; what names it for the error at the end of
// input.
func (p *vtkParser) word(what string) ([]byte, error) {
	t, err := p.lx.token()
	if err == io.EOF {
		return nil, fmt.Errorf("vtk: line %d: file ends before %s", p.lx.line, what)
	}
	return t, err
}

// keyword expects the next token to be kw.
func (p *vtkParser) keyword(kw string) error {
	t, err := p.word(kw)
	if err != nil {
		return err
	}
	if !bytes.EqualFold(t, []byte(kw)) {
		return p.lx.errorf("expected %s, found %s", kw, quote(t))
	}
	return nil
}

// integer reads a non-negative integer; what names it for messages.
func (p *vtkParser) integer(what string) (int, error) {
	t, err := p.word(what)
	if err != nil {
		return 0, err
	}
	v, ok := parseInt(t)
	if !ok || v < 0 {
		return 0, p.lx.errorf("bad %s %s: want a non-negative integer", what, quote(t))
	}
	return v, nil
}

// points reads "POINTS n type" and 3n coordinates.
func (p *vtkParser) points() error {
	if p.hasPoints {
		return p.lx.errorf("second POINTS section")
	}
	p.hasPoints = true
	n, err := p.integer("point count")
	if err != nil {
		return err
	}
	if _, err := p.word("the POINTS data type"); err != nil {
		return err
	}
	p.b.reserveNodes(n)
	for i := 0; i < n; i++ {
		var c [3]float64
		for k := range c {
			t, err := p.lx.token()
			if err == io.EOF {
				return fmt.Errorf("vtk: line %d: file ends inside POINTS after %d of %d points", p.lx.line, i, n)
			}
			if err != nil {
				return err
			}
			if c[k], err = p.coordinate(t, i, k); err != nil {
				return err
			}
		}
		p.b.nodes = append(p.b.nodes, r3.Vec{X: c[0], Y: c[1], Z: c[2]})
	}
	return nil
}

func (p *vtkParser) coordinate(t []byte, i, k int) (float64, error) {
	v, ok := parseFloat(t)
	if !ok {
		return 0, p.lx.errorf("coordinate %c of point %d is %s, not a finite number", "xyz"[k], i, quote(t))
	}
	return v, nil
}

// field skips "FIELD name n" and its n arrays
// "name components tuples type" followed by components·tuples values.
func (p *vtkParser) field() error {
	if _, err := p.word("the FIELD name"); err != nil {
		return err
	}
	arrays, err := p.integer("FIELD array count")
	if err != nil {
		return err
	}
	for a := 0; a < arrays; a++ {
		if err := p.skipFieldArray(); err != nil {
			return err
		}
	}
	return nil
}

func (p *vtkParser) skipFieldArray() error {
	name, err := p.word("a FIELD array name")
	if err != nil {
		return err
	}
	if bytes.Equal(name, []byte("NULL_ARRAY")) {
		return nil
	}
	comps, err := p.integer("FIELD array component count")
	if err != nil {
		return err
	}
	tuples, err := p.integer("FIELD array tuple count")
	if err != nil {
		return err
	}
	if _, err := p.word("the FIELD array data type"); err != nil {
		return err
	}
	if comps > 0 && tuples > math.MaxInt64/comps {
		return p.lx.errorf("FIELD array of %d×%d values is too large", comps, tuples)
	}
	for i := 0; i < comps*tuples; i++ {
		if _, err := p.word("the end of the FIELD array"); err != nil {
			return err
		}
	}
	if t, err := p.lx.peek(); err == nil && bytes.EqualFold(t, []byte("METADATA")) {
		p.lx.pos++
		return p.lx.skipToBlankLine()
	}
	return nil
}
