package meshfile

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// parseVTK reads a legacy VTK file into a builder, versions 2.0 to
// 5.1, ASCII or BINARY, holding an UNSTRUCTURED_GRID:
//
//	# vtk DataFile Version 3.0
//	any title
//	ASCII | BINARY
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
// A POLYDATA dataset lists VERTICES, LINES, POLYGONS and TRIANGLE_STRIPS
// in the same two layouts (without types); it holds a surface.
//
// In ASCII files numbers may wrap across lines anywhere. In BINARY files
// the data that follows each header line is big-endian, in the type the
// header names (cell records are 32-bit integers). Tetrahedra (and the
// corners of quadratic and Lagrange tetrahedra) are kept; every other cell
// is counted and left out (surface cells kept as the surface that Read
// tetrahedralises when there are no tetrahedra). FIELD and METADATA
// blocks are skipped and reading stops at POINT_DATA or CELL_DATA.
func parseVTK(r io.Reader) (*builder, error) {
	p := &vtkParser{lx: newLexer(r, "vtk"), b: builder{name: "vtk"}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	if err := p.build(); err != nil {
		return nil, err
	}
	enc := "ASCII"
	if p.binary {
		enc = "BINARY"
	}
	p.b.format = fmt.Sprintf("legacy VTK %s %s %s", p.version, enc, p.dataset)
	return &p.b, nil
}

type vtkParser struct {
	lx        *lexer
	b         builder
	version   string // "3.0", "5.1", …
	binary    bool
	dataset   string // UNSTRUCTURED_GRID or POLYDATA
	hasPoints bool
	cells     *cellList // CELLS of an unstructured grid
	types     []int
	typesLine []int
	polys     []polyList // the cell lists of a POLYDATA, in file order
	// last describes the block read last, for the message when the next
	// keyword is missing ("POINTS declares 8 points").
	last    string
	scratch []byte
}

// polyList is one cell list of a POLYDATA dataset.
type polyList struct {
	kw    string
	cells *cellList
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
	case p.dataset == "POLYDATA":
		return nil
	case p.cells == nil:
		return fmt.Errorf("vtk: missing CELLS section")
	case p.types == nil:
		return fmt.Errorf("vtk: missing CELL_TYPES section")
	}
	return nil
}

// vtkPolyKeywords are the cell lists of a POLYDATA dataset.
var vtkPolyKeywords = []string{"VERTICES", "LINES", "POLYGONS", "TRIANGLE_STRIPS"}

// block reads the block that keyword kw opens; stop reports the start of
// the attribute data, which the loader does not need.
func (p *vtkParser) block(kw []byte) (stop bool, err error) {
	is := func(s string) bool { return bytes.EqualFold(kw, []byte(s)) }
	grid := p.dataset == "UNSTRUCTURED_GRID"
	switch {
	case is("POINTS"):
		return false, p.points()
	case grid && is("CELLS"):
		return false, p.gridCells()
	case grid && is("CELL_TYPES"):
		return false, p.cellTypes()
	case is("FIELD"):
		return false, p.field()
	case is("METADATA"):
		return false, p.lx.skipToBlankLine()
	case is("POINT_DATA"), is("CELL_DATA"):
		return true, nil
	}
	if !grid {
		for _, name := range vtkPolyKeywords {
			if is(name) {
				return false, p.polyCells(name)
			}
		}
	}
	return false, p.unexpected(kw)
}

// unexpected explains a token found where a keyword belongs: after a
// block with more values than it declares, or after binary data whose
// declared count is wrong, that is where the mismatch shows.
func (p *vtkParser) unexpected(kw []byte) error {
	want := "POINTS, CELLS, CELL_TYPES, FIELD, METADATA, POINT_DATA or CELL_DATA"
	if p.dataset == "POLYDATA" {
		want = "POINTS, VERTICES, LINES, POLYGONS, TRIANGLE_STRIPS, FIELD, METADATA, POINT_DATA or CELL_DATA"
	}
	_, number := parseFloat(kw)
	switch {
	case p.last != "" && p.binary:
		return p.lx.errorf("expected a keyword after the binary data of %s, found %s: does the declared count match the data?", p.last, quote(kw))
	case p.last != "" && number:
		return p.lx.errorf("expected a keyword, found the number %s: %s, but more values follow", quote(kw), p.last)
	}
	return p.lx.errorf("unexpected %s, want %s", quote(kw), want)
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
	v := bytes.TrimSpace(line[len(magic):])
	if len(v) < 1 || v[0] < '1' || v[0] > '5' {
		return lx.errorf("VTK version %s is not supported (want 2.0 to 5.1)", quote(v))
	}
	p.version = string(v)
	if err := lx.readLine(); err != nil { // title: free text
		return eofAs(err, fmt.Errorf("vtk: line %d: file ends before the title line", lx.line+1))
	}
	f, err := lx.next()
	if err != nil {
		return eofAs(err, fmt.Errorf("vtk: line %d: file ends before the ASCII/BINARY line", lx.line+1))
	}
	switch {
	case len(f) == 1 && bytes.EqualFold(f[0], []byte("BINARY")):
		p.binary = true
	case len(f) != 1 || !bytes.EqualFold(f[0], []byte("ASCII")):
		return lx.errorf("expected ASCII or BINARY, found %s", quote(f[0]))
	}
	return p.datasetLine()
}

// datasetLine reads "DATASET kind".
func (p *vtkParser) datasetLine() error {
	if err := p.keyword("DATASET"); err != nil {
		return err
	}
	kind, err := p.word("the dataset type")
	if err != nil {
		return err
	}
	switch {
	case bytes.EqualFold(kind, []byte("UNSTRUCTURED_GRID")):
		p.dataset = "UNSTRUCTURED_GRID"
	case bytes.EqualFold(kind, []byte("POLYDATA")):
		p.dataset = "POLYDATA"
	default:
		return p.lx.errorf("dataset type %s is not supported; want UNSTRUCTURED_GRID (a volume mesh) or POLYDATA (a surface)", quote(kind))
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

// countAndType reads the count and the data type that end the header of
// POINTS ("POINTS n type") and of a FIELD array ("name comps tuples
// type"); count and typ name them for messages.
func (p *vtkParser) countAndType(count, typ string) (int, string, error) {
	n, err := p.integer(count)
	if err != nil {
		return 0, "", err
	}
	t, err := p.word(typ)
	if err != nil {
		return 0, "", err
	}
	return n, string(t), nil
}

// points reads "POINTS n type" and 3n coordinates.
func (p *vtkParser) points() error {
	if p.hasPoints {
		return p.lx.errorf("second POINTS section")
	}
	p.hasPoints = true
	n, typ, err := p.countAndType("point count", "the POINTS data type")
	if err != nil {
		return err
	}
	p.b.reserveNodes(n)
	p.last = fmt.Sprintf("POINTS declares %d points", n)
	if p.binary {
		return p.binaryPoints(n, typ)
	}
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
			if c[k], err = p.coordinate(t, i, k, n); err != nil {
				return err
			}
		}
		p.b.nodes = append(p.b.nodes, r3.Vec{X: c[0], Y: c[1], Z: c[2]})
	}
	return nil
}

func (p *vtkParser) coordinate(t []byte, i, k, n int) (float64, error) {
	v, ok := parseFloat(t)
	if ok {
		return v, nil
	}
	if isKeyword(t) {
		return 0, p.lx.errorf("POINTS declares %d points but its data ends after %d (found %s)", n, i, quote(t))
	}
	return 0, p.lx.errorf("coordinate %c of point %d is %s, not a finite number", "xyz"[k], i, quote(t))
}

// isKeyword reports whether a token looks like a VTK keyword (upper-case
// letters and underscores), as opposed to a malformed number.
func isKeyword(t []byte) bool {
	if len(t) < 4 {
		return false
	}
	for _, c := range t {
		if (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return true
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
	p.last = ""
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
	tuples, typ, err := p.countAndType("FIELD array tuple count", "the FIELD array data type")
	if err != nil {
		return err
	}
	if comps > 0 && tuples > math.MaxInt32/comps {
		return p.lx.errorf("FIELD array of %d×%d values is too large", comps, tuples)
	}
	if p.binary {
		if err := p.skipBinary(comps*tuples, typ, "FIELD array "+string(name)); err != nil {
			return err
		}
	} else {
		for i := 0; i < comps*tuples; i++ {
			if _, err := p.word("the end of the FIELD array"); err != nil {
				return err
			}
		}
	}
	if t, err := p.lx.peek(); err == nil && bytes.EqualFold(t, []byte("METADATA")) {
		p.lx.pos++
		return p.lx.skipToBlankLine()
	}
	return nil
}
