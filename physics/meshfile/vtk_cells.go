package meshfile

import (
	"bytes"
	"fmt"
	"io"
)

// cellList is a list of cells as the legacy VTK format stores them: cell c
// uses the point indices conn[offsets[c]:offsets[c+1]], which start on
// line lines[c] of the file.
type cellList struct {
	offsets []int
	conn    []int
	lines   []int
}

func (cl *cellList) count() int { return len(cl.offsets) - 1 }

func (cl *cellList) cell(c int) []int { return cl.conn[cl.offsets[c]:cl.offsets[c+1]] }

// readCellList reads "n size" and the data of a cell list (CELLS or one of
// the POLYDATA lists) in either layout: the records of versions up to 5.0
// or, when OFFSETS follows, the two arrays of version 5.1.
func (p *vtkParser) readCellList(kw string) (*cellList, error) {
	n, err := p.integer(kw + " count")
	if err != nil {
		return nil, err
	}
	size, err := p.integer(kw + " size")
	if err != nil {
		return nil, err
	}
	cl := &cellList{
		offsets: make([]int, 1, min(n+1, maxPrealloc)),
		conn:    make([]int, 0, min(size, maxPrealloc)),
		lines:   make([]int, 0, min(n, maxPrealloc)),
	}
	arrays := p.offsetsFollow()
	switch {
	case p.binary && arrays:
		err = p.binaryCellArrays(cl, kw, n, size)
	case p.binary:
		err = p.binaryCellRecords(cl, kw, n, size)
	case arrays:
		err = p.cellArrays(cl, kw, n, size)
	default:
		err = p.cellRecords(cl, kw, n, size)
	}
	if err != nil {
		return nil, err
	}
	if arrays {
		p.last = fmt.Sprintf("CONNECTIVITY of %s declares %d entries", kw, size)
	} else {
		p.last = fmt.Sprintf("%s declares %d cells of size %d", kw, n, size)
	}
	return cl, nil
}

// offsetsFollow reports whether the version 5.1 arrays follow the line
// just read. In a binary file the legacy records follow as raw integers,
// so the test looks at the raw bytes rather than reading a line.
func (p *vtkParser) offsetsFollow() bool {
	if p.binary {
		head, _ := p.lx.r.Peek(len("OFFSETS"))
		return bytes.EqualFold(head, []byte("OFFSETS"))
	}
	t, err := p.lx.peek()
	return err == nil && bytes.EqualFold(t, []byte("OFFSETS"))
}

// gridCells reads the CELLS block of an unstructured grid.
func (p *vtkParser) gridCells() error {
	if p.cells != nil {
		return p.lx.errorf("second CELLS section")
	}
	cl, err := p.readCellList("CELLS")
	p.cells = cl
	return err
}

// polyCells reads one cell list of a POLYDATA dataset.
func (p *vtkParser) polyCells(kw string) error {
	for _, pl := range p.polys {
		if pl.kw == kw {
			return p.lx.errorf("second %s section", kw)
		}
	}
	cl, err := p.readCellList(kw)
	if err != nil {
		return err
	}
	p.polys = append(p.polys, polyList{kw: kw, cells: cl})
	return nil
}

// cellRecords reads n records "k i1 … ik" holding size numbers in all.
func (p *vtkParser) cellRecords(cl *cellList, kw string, n, size int) error {
	for c := 0; c < n; c++ {
		k, err := p.recordInt(kw, "point count of a cell", c, n)
		if err != nil {
			return err
		}
		if k > size-(c+1)-len(cl.conn) {
			return p.lx.errorf("cell %d with %d points overflows the declared %s size %d", c, k, kw, size)
		}
		cl.lines = append(cl.lines, p.lx.line)
		for i := 0; i < k; i++ {
			v, err := p.recordInt(kw, "point index", c, n)
			if err != nil {
				return err
			}
			cl.conn = append(cl.conn, v)
		}
		cl.offsets = append(cl.offsets, len(cl.conn))
	}
	if n+len(cl.conn) != size {
		return p.lx.errorf("%s declares size %d but its %d cells hold %d numbers", kw, size, n, n+len(cl.conn))
	}
	return nil
}

// recordInt reads one integer of cell c of n in list kw; a keyword in its
// place means the list holds fewer cells than it declares.
func (p *vtkParser) recordInt(kw, what string, c, n int) (int, error) {
	t, err := p.lx.token()
	if err == io.EOF {
		return 0, fmt.Errorf("vtk: line %d: file ends inside %s after %d of %d cells", p.lx.line, kw, c, n)
	}
	if err != nil {
		return 0, err
	}
	v, ok := parseInt(t)
	switch {
	case ok && v >= 0:
		return v, nil
	case isKeyword(t):
		return 0, p.lx.errorf("%s declares %d cells but its data ends inside cell %d (found %s)", kw, n, c, quote(t))
	}
	return 0, p.lx.errorf("bad %s %s in %s: want a non-negative integer", what, quote(t), kw)
}

// cellArrays reads the version 5.1 layout: m offsets (m−1 cells), starting
// at 0, non-decreasing and ending at size, then size point indices.
func (p *vtkParser) cellArrays(cl *cellList, kw string, m, size int) error {
	if _, err := p.arrayHeader("OFFSETS"); err != nil {
		return err
	}
	cl.offsets = cl.offsets[:0]
	for i := 0; i < m; i++ {
		o, err := p.recordInt(kw, "offset in OFFSETS", i, m)
		if err != nil {
			return err
		}
		if err := p.checkOffset(cl, i, o, size); err != nil {
			return err
		}
	}
	if err := p.closeOffsets(cl, size); err != nil {
		return err
	}
	if _, err := p.arrayHeader("CONNECTIVITY"); err != nil {
		return err
	}
	cell := 0
	for i := 0; i < size; i++ {
		v, err := p.integer("point index in CONNECTIVITY")
		if err != nil {
			return err
		}
		// Record the line where each cell starts (empty cells start here too).
		for cell < cl.count() && cl.offsets[cell] == i {
			cl.lines = append(cl.lines, p.lx.line)
			cell++
		}
		cl.conn = append(cl.conn, v)
	}
	for ; cell < cl.count(); cell++ {
		cl.lines = append(cl.lines, p.lx.line)
	}
	return nil
}

// checkOffset appends offset i of the OFFSETS array after checking it.
func (p *vtkParser) checkOffset(cl *cellList, i, o, size int) error {
	switch {
	case i == 0 && o != 0:
		return p.lx.errorf("OFFSETS must start at 0, found %d", o)
	case i > 0 && o < cl.offsets[i-1]:
		return p.lx.errorf("OFFSETS decrease from %d to %d at cell %d", cl.offsets[i-1], o, i-1)
	case o > size:
		return p.lx.errorf("offset %d exceeds the connectivity size %d", o, size)
	}
	cl.offsets = append(cl.offsets, o)
	return nil
}

// closeOffsets checks that the offsets end at the connectivity size.
func (p *vtkParser) closeOffsets(cl *cellList, size int) error {
	if len(cl.offsets) == 0 {
		cl.offsets = append(cl.offsets, 0)
	}
	if last := cl.offsets[len(cl.offsets)-1]; last != size {
		return p.lx.errorf("OFFSETS end at %d but CELLS declares %d connectivity entries", last, size)
	}
	return nil
}

// arrayHeader expects "NAME type" and returns the type.
func (p *vtkParser) arrayHeader(name string) (string, error) {
	if err := p.keyword(name); err != nil {
		return "", err
	}
	t, err := p.word("the " + name + " data type")
	return string(t), err
}

// cellTypes reads "CELL_TYPES n" and n cell types.
func (p *vtkParser) cellTypes() error {
	if p.types != nil {
		return p.lx.errorf("second CELL_TYPES section")
	}
	n, err := p.integer("cell type count")
	if err != nil {
		return err
	}
	if p.cells != nil && n != p.cells.count() {
		return p.lx.errorf("CELL_TYPES lists %d types but CELLS has %d cells", n, p.cells.count())
	}
	p.types = make([]int, 0, min(n, maxPrealloc))
	p.typesLine = make([]int, 0, min(n, maxPrealloc))
	p.last = fmt.Sprintf("CELL_TYPES declares %d types", n)
	if p.binary {
		return p.binaryCellTypes(n)
	}
	for i := 0; i < n; i++ {
		t, err := p.recordInt("CELL_TYPES", "cell type", i, n)
		if err != nil {
			return err
		}
		p.types = append(p.types, t)
		p.typesLine = append(p.typesLine, p.lx.line)
	}
	return nil
}
