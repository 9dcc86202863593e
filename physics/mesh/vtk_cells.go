package mesh

import (
	"bytes"
	"fmt"
)

// cells reads a CELLS block in either layout: the legacy list of records
// or, when the next token is OFFSETS, the two arrays of version 5.1.
func (p *vtkParser) cells() error {
	if p.offsets != nil {
		return p.lx.errorf("second CELLS section")
	}
	n, err := p.integer("cell count")
	if err != nil {
		return err
	}
	size, err := p.integer("CELLS size")
	if err != nil {
		return err
	}
	p.offsets = make([]int, 1, min(n+1, maxPrealloc))
	p.conn = make([]int, 0, min(size, maxPrealloc))
	p.cellLine = make([]int, 0, min(n, maxPrealloc))
	if t, err := p.lx.peek(); err == nil && bytes.EqualFold(t, []byte("OFFSETS")) {
		return p.cellArrays(n, size)
	}
	return p.cellRecords(n, size)
}

// cellRecords reads n records "k i1 … ik" holding size numbers in all.
func (p *vtkParser) cellRecords(n, size int) error {
	for c := 0; c < n; c++ {
		k, err := p.integer("point count of a cell in CELLS")
		if err != nil {
			return err
		}
		if k > size-(c+1)-len(p.conn) {
			return p.lx.errorf("cell %d with %d points overflows the declared CELLS size %d", c, k, size)
		}
		p.cellLine = append(p.cellLine, p.lx.line)
		for i := 0; i < k; i++ {
			v, err := p.integer("point index in CELLS")
			if err != nil {
				return err
			}
			p.conn = append(p.conn, v)
		}
		p.offsets = append(p.offsets, len(p.conn))
	}
	if n+len(p.conn) != size {
		return p.lx.errorf("CELLS declares size %d but its %d cells hold %d numbers", size, n, n+len(p.conn))
	}
	return nil
}

// cellArrays reads the version 5.1 layout: m offsets (m−1 cells), starting
// at 0, non-decreasing and ending at size, then size point indices.
func (p *vtkParser) cellArrays(m, size int) error {
	if err := p.arrayHeader("OFFSETS"); err != nil {
		return err
	}
	p.offsets = p.offsets[:0]
	for i := 0; i < m; i++ {
		o, err := p.integer("offset in OFFSETS")
		if err != nil {
			return err
		}
		switch {
		case i == 0 && o != 0:
			return p.lx.errorf("OFFSETS must start at 0, found %d", o)
		case i > 0 && o < p.offsets[i-1]:
			return p.lx.errorf("OFFSETS decrease from %d to %d at cell %d", p.offsets[i-1], o, i-1)
		case o > size:
			return p.lx.errorf("offset %d exceeds the connectivity size %d", o, size)
		}
		p.offsets = append(p.offsets, o)
	}
	if m == 0 {
		p.offsets = append(p.offsets, 0)
	}
	if last := p.offsets[len(p.offsets)-1]; last != size {
		return p.lx.errorf("OFFSETS end at %d but CELLS declares %d connectivity entries", last, size)
	}
	if err := p.arrayHeader("CONNECTIVITY"); err != nil {
		return err
	}
	cell := 0
	for i := 0; i < size; i++ {
		v, err := p.integer("point index in CONNECTIVITY")
		if err != nil {
			return err
		}
		// Record the line where each cell starts (empty cells start here too).
		for cell < len(p.offsets)-1 && p.offsets[cell] == i {
			p.cellLine = append(p.cellLine, p.lx.line)
			cell++
		}
		p.conn = append(p.conn, v)
	}
	for ; cell < len(p.offsets)-1; cell++ {
		p.cellLine = append(p.cellLine, p.lx.line)
	}
	return nil
}

// arrayHeader expects "NAME type".
func (p *vtkParser) arrayHeader(name string) error {
	if err := p.keyword(name); err != nil {
		return err
	}
	_, err := p.word("the " + name + " data type")
	return err
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
	if p.offsets != nil && n != len(p.offsets)-1 {
		return p.lx.errorf("CELL_TYPES lists %d types but CELLS has %d cells", n, len(p.offsets)-1)
	}
	p.types = make([]int, 0, min(n, maxPrealloc))
	p.typesLine = make([]int, 0, min(n, maxPrealloc))
	for i := 0; i < n; i++ {
		t, err := p.integer("cell type")
		if err != nil {
			return err
		}
		p.types = append(p.types, t)
		p.typesLine = append(p.typesLine, p.lx.line)
	}
	return nil
}

// buildTets turns the tetrahedral cells into tetrahedra, checking their
// point indices.
func (p *vtkParser) buildTets() error {
	cells := len(p.offsets) - 1
	if len(p.types) != cells {
		return fmt.Errorf("vtk: CELL_TYPES lists %d types but CELLS has %d cells", len(p.types), cells)
	}
	p.b.reserveTets(cells)
	for c, typ := range p.types {
		want, isTet := vtkTetPoints[typ]
		if !isTet {
			if name, solid := vtkSolidNames[typ]; solid {
				return fmt.Errorf("vtk: line %d: cell %d is a %s (type %d); only tetrahedra are supported", p.typesLine[c], c, name, typ)
			}
			continue
		}
		idx := p.conn[p.offsets[c]:p.offsets[c+1]]
		if len(idx) != want {
			return fmt.Errorf("vtk: line %d: cell %d of type %d needs %d points, found %d", p.cellLine[c], c, typ, want, len(idx))
		}
		t, err := p.tet(c, idx)
		if err != nil {
			return err
		}
		p.b.addTet(t, c, p.cellLine[c])
	}
	return nil
}

// tet checks the point indices of cell c and returns its four corners.
func (p *vtkParser) tet(c int, idx []int) ([4]int, error) {
	var t [4]int
	n := len(p.b.nodes)
	for k, v := range idx {
		if v >= n {
			return t, fmt.Errorf("vtk: line %d: cell %d references point %d but there are only %d points", p.cellLine[c], c, v, n)
		}
		if k >= 4 {
			continue
		}
		for _, prev := range t[:k] {
			if prev == v {
				return t, fmt.Errorf("vtk: line %d: cell %d lists point %d twice", p.cellLine[c], c, v)
			}
		}
		t[k] = v
	}
	return t, nil
}
