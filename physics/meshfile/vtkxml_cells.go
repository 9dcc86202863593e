package meshfile

import (
	"fmt"
	"math"
)

// The cells of a VTK XML piece: connectivity and offsets, and for an
// unstructured grid the cell types.

// namedArray returns the DataArray child of section with the given Name.
func namedArray(section *xmlNode, name string) (*xmlNode, error) {
	for _, k := range section.kids {
		if k.name == "DataArray" && k.attr["Name"] == name {
			return k, nil
		}
	}
	return nil, errAt(section, "no <DataArray Name=%q>", name)
}

// indexValues decodes a DataArray of want non-negative integers (-1: any
// number, ASCII only).
func (x *vtkxml) indexValues(arr *xmlNode, want int, what string) ([]int, error) {
	if t := xmlNumTypes[arr.attr["type"]]; t.float {
		return nil, errAt(arr, "type %s cannot hold %s", arr.attr["type"], what)
	}
	v, err := x.arrayValues(arr, want)
	if err != nil {
		return nil, errAt(arr, "%v", err)
	}
	out := make([]int, len(v))
	for i, f := range v {
		if f < 0 || f > math.MaxInt32 || f != math.Trunc(f) {
			return nil, errAt(arr, "value %d is %g, not a valid %s", i, f, what)
		}
		out[i] = int(f)
	}
	return out, nil
}

// cellList reads the offsets and connectivity of n cells in a section.
// Cell i uses connectivity[offsets[i−1]:offsets[i]] (from 0 for i = 0).
func (x *vtkxml) cellList(section *xmlNode, n int) (*cellList, int, error) {
	offArr, err := namedArray(section, "offsets")
	if err != nil {
		return nil, 0, err
	}
	connArr, err := namedArray(section, "connectivity")
	if err != nil {
		return nil, 0, err
	}
	ends, err := x.indexValues(offArr, n, "offset")
	if err != nil {
		return nil, 0, err
	}
	cl := &cellList{offsets: make([]int, 1, n+1)}
	for i, e := range ends {
		if e < cl.offsets[i] {
			return nil, 0, errAt(offArr, "offsets decrease from %d to %d at cell %d", cl.offsets[i], e, i)
		}
		cl.offsets = append(cl.offsets, e)
	}
	size := cl.offsets[n]
	if cl.conn, err = x.indexValues(connArr, size, "point index"); err != nil {
		return nil, 0, fmt.Errorf("%w (the offsets end at %d)", err, size)
	}
	cl.lines = make([]int, n)
	for i := range cl.lines {
		cl.lines[i] = connArr.line
	}
	return cl, connArr.line, nil
}

// readGridCells reads the <Cells> of an unstructured-grid piece whose
// points start at base.
func (x *vtkxml) readGridCells(p *xmlNode, base int) error {
	n, err := count(p, "NumberOfCells")
	if err != nil {
		return err
	}
	cells := p.child("Cells")
	if cells == nil {
		if n == 0 {
			return nil
		}
		return errAt(p, "no <Cells> for NumberOfCells=%d", n)
	}
	cl, _, err := x.cellList(cells, n)
	if err != nil {
		return err
	}
	typArr, err := namedArray(cells, "types")
	if err != nil {
		return err
	}
	types, err := x.indexValues(typArr, n, "cell type")
	if err != nil {
		return err
	}
	x.b.reserveTets(n)
	for c, typ := range types {
		ct, known := vtkCellTypes[typ]
		if !known {
			x.b.skip(fmt.Sprintf("cell of unknown type %d", typ), 1)
			continue
		}
		if err := x.b.addVTKCell(c, ct, typ, shift(cl.cell(c), base), cl.lines[c]); err != nil {
			return err
		}
	}
	return nil
}

// readPolyCells reads one cell section (Verts, Lines, Strips, Polys) of a
// PolyData piece whose points start at base.
func (x *vtkxml) readPolyCells(p *xmlNode, name string, n, base int) error {
	section := p.child(name)
	if section == nil {
		if n == 0 {
			return nil
		}
		return errAt(p, "no <%s> for its %d cells", name, n)
	}
	cl, _, err := x.cellList(section, n)
	if err != nil {
		return err
	}
	typ := map[string]int{"Verts": 2, "Lines": 4, "Strips": 6, "Polys": 7}[name]
	for c := 0; c < n; c++ {
		idx := shift(cl.cell(c), base)
		t := simplePolyType(typ, len(idx))
		if err := x.b.addVTKCell(c, vtkCellTypes[t], t, idx, cl.lines[c]); err != nil {
			return err
		}
	}
	return nil
}

// shift adds base to every index (in place).
func shift(idx []int, base int) []int {
	if base != 0 {
		for i := range idx {
			idx[i] += base
		}
	}
	return idx
}
