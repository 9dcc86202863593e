package meshfile

import "fmt"

// vtkCellType describes a VTK cell type: its name (for the notes) and
// what the loader does with it. Tetrahedra keep their four leading
// points, the corners, as do quadratic and Lagrange tetrahedra; surface
// cells become triangles, also from their leading corner points.
type vtkCellType struct {
	name string
	role vtkRole
	// points is the fixed point count of the type (0: any).
	points int
}

type vtkRole int

const (
	vtkSkip     vtkRole = iota // counted and left out
	vtkTet                     // first 4 points: a tetrahedron
	vtkTriangle                // first 3 points: a triangle
	vtkQuad                    // first 4 points: a quadrangle
	vtkPixel                   // 4 points in the order (0, 1, 3, 2)
	vtkPolygon                 // any number of points, a planar polygon
	vtkStrip                   // a triangle strip
)

// vtkCellTypes is the VTK cell type table (vtkCellType.h).
var vtkCellTypes = map[int]vtkCellType{
	1: {"vertex", vtkSkip, 1}, 2: {"polyvertex", vtkSkip, 0}, 3: {"line", vtkSkip, 2}, 4: {"polyline", vtkSkip, 0},
	5: {"triangle", vtkTriangle, 3}, 6: {"triangle strip", vtkStrip, 0}, 7: {"polygon", vtkPolygon, 0},
	8: {"pixel", vtkPixel, 4}, 9: {"quadrangle", vtkQuad, 4}, 10: {"tetrahedron", vtkTet, 4},
	11: {"voxel", vtkSkip, 8}, 12: {"hexahedron", vtkSkip, 8}, 13: {"wedge", vtkSkip, 6}, 14: {"pyramid", vtkSkip, 5},
	15: {"pentagonal prism", vtkSkip, 10}, 16: {"hexagonal prism", vtkSkip, 12},
	21: {"quadratic edge", vtkSkip, 3}, 22: {"quadratic triangle", vtkTriangle, 6},
	23: {"quadratic quadrangle", vtkQuad, 8}, 24: {"quadratic tetrahedron", vtkTet, 10},
	25: {"quadratic hexahedron", vtkSkip, 20}, 26: {"quadratic wedge", vtkSkip, 15},
	27: {"quadratic pyramid", vtkSkip, 13}, 28: {"biquadratic quadrangle", vtkQuad, 9},
	29: {"triquadratic hexahedron", vtkSkip, 27}, 42: {"polyhedron", vtkSkip, 0},
	68: {"Lagrange curve", vtkSkip, 0}, 69: {"Lagrange triangle", vtkTriangle, 0},
	70: {"Lagrange quadrilateral", vtkQuad, 0}, 71: {"Lagrange tetrahedron", vtkTet, 0},
	72: {"Lagrange hexahedron", vtkSkip, 0}, 73: {"Lagrange wedge", vtkSkip, 0}, 74: {"Lagrange pyramid", vtkSkip, 0},
}

// minPoints is the fewest points a cell of the role can have.
func (t vtkCellType) minPoints() int {
	switch t.role {
	case vtkTet, vtkQuad, vtkPixel:
		return 4
	case vtkTriangle, vtkPolygon, vtkStrip:
		return 3
	}
	return 0
}

// build turns the cells of the dataset into tetrahedra and surface
// triangles, checking their point indices.
func (p *vtkParser) build() error {
	if p.dataset == "POLYDATA" {
		for _, pl := range p.polys {
			if err := p.buildPolys(pl); err != nil {
				return err
			}
		}
		return nil
	}
	cells := p.cells.count()
	if len(p.types) != cells {
		return fmt.Errorf("vtk: CELL_TYPES lists %d types but CELLS has %d cells", len(p.types), cells)
	}
	p.b.reserveTets(cells)
	for c, typ := range p.types {
		ct, known := vtkCellTypes[typ]
		if !known {
			p.b.skip(fmt.Sprintf("cell of unknown type %d", typ), 1)
			continue
		}
		if err := p.b.addVTKCell(c, ct, typ, p.cells.cell(c), p.cells.lines[c]); err != nil {
			return err
		}
	}
	return nil
}

// addVTKCell checks cell c of a VTK cell type (legacy or XML) and adds
// it: a tetrahedron, a surface element, or a count of skipped cells.
func (b *builder) addVTKCell(c int, ct vtkCellType, typ int, idx []int, line int) error {
	if ct.role == vtkSkip {
		b.skip(ct.name, 1)
		return nil
	}
	if (ct.points > 0 && len(idx) != ct.points) || len(idx) < ct.minPoints() {
		want := fmt.Sprint(ct.points)
		if ct.points == 0 {
			want = fmt.Sprintf("at least %d", ct.minPoints())
		}
		return fmt.Errorf("%s: line %d: cell %d of type %d (%s) needs %s points, found %d", b.name, line, c, typ, ct.name, want, len(idx))
	}
	n := len(b.nodes)
	for _, v := range idx {
		if v >= n {
			return fmt.Errorf("%s: line %d: cell %d references point %d but there are only %d points", b.name, line, c, v, n)
		}
	}
	corners := idx
	switch ct.role {
	case vtkTet, vtkQuad, vtkPixel:
		corners = idx[:4]
	case vtkTriangle:
		corners = idx[:3]
	}
	if ct.role != vtkStrip && ct.role != vtkPolygon {
		for k, v := range corners {
			for _, prev := range corners[:k] {
				if prev == v {
					return fmt.Errorf("%s: line %d: cell %d lists point %d twice", b.name, line, c, v)
				}
			}
		}
	}
	switch ct.role {
	case vtkTet:
		b.addTet([4]int(corners), c, line)
	case vtkPixel:
		b.addPolygon(ct.name, []int{corners[0], corners[1], corners[3], corners[2]})
	case vtkStrip:
		b.addStrip(corners)
	default:
		b.addPolygon(ct.name, corners)
	}
	return nil
}

// vtkPolyRoles gives the cell type that each POLYDATA list holds.
var vtkPolyRoles = map[string]int{"VERTICES": 2, "LINES": 4, "POLYGONS": 7, "TRIANGLE_STRIPS": 6}

// simplePolyType is the VTK type of a polydata cell of n points listed as
// typ (poly-vertex 2, poly-line 4, polygon 7, strip 6): a polygon of 3
// points is a triangle (5), a poly-line of 2 a line (3), a poly-vertex of
// 1 a vertex (1), so that the notes name the simple cells as such.
func simplePolyType(typ, n int) int {
	switch {
	case typ == 7 && n == 3:
		return 5
	case typ == 4 && n == 2:
		return 3
	case typ == 2 && n == 1:
		return 1
	}
	return typ
}

// buildPolys adds the cells of a POLYDATA list: polygons and strips to the
// surface, vertices and lines to the skipped counts.
func (p *vtkParser) buildPolys(pl polyList) error {
	typ := vtkPolyRoles[pl.kw]
	for c := 0; c < pl.cells.count(); c++ {
		idx := pl.cells.cell(c)
		t := simplePolyType(typ, len(idx))
		if err := p.b.addVTKCell(c, vtkCellTypes[t], t, idx, pl.cells.lines[c]); err != nil {
			return err
		}
	}
	return nil
}
