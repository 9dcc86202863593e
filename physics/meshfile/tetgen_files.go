package meshfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"

	"gonum.org/v1/gonum/spatial/r3"
)

// TetGen's file formats (TetGen manual, section 5.2):
//
//	.smesh  input: a node list, a facet list, holes and regions
//	        n 3 0 0            then n lines "index x y z"
//	        f 0                then f lines "3 i j k" (triangular facets)
//	        0                  (no holes)
//	        0                  (no regions)
//	.node   output points: "n 3 attributes markers", then n lines
//	        "index x y z [attributes] [marker]"
//	.ele    output tetrahedra: "m corners attributes", then m lines
//	        "index n1 n2 n3 n4 [more nodes] [attributes]"
//
// "#" starts a comment anywhere on a line. With the z switch all indices
// count from zero; the readers take the first index of the .node file as
// the base, as TetGen itself does.

// smesh writes the surface, normalised, as a TetGen .smesh file. Points
// are written with the shortest decimal that parses back exactly.
func (r *tetgenRun) smesh() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %d points\n%d 3 0 0\n", len(r.surf.Nodes), len(r.surf.Nodes))
	num := make([]byte, 0, 32)
	for i, p := range r.surf.Nodes {
		q := r.norm.to(p)
		num = strconv.AppendInt(num[:0], int64(i), 10)
		for _, x := range [3]float64{q.X, q.Y, q.Z} {
			num = append(num, ' ')
			num = strconv.AppendFloat(num, x, 'g', -1, 64)
		}
		b.Write(append(num, '\n'))
	}
	fmt.Fprintf(&b, "# %d triangular facets\n%d 0\n", len(r.surf.Tris), len(r.surf.Tris))
	for _, t := range r.surf.Tris {
		fmt.Fprintf(&b, "3 %d %d %d\n", t[0], t[1], t[2])
	}
	b.WriteString("0\n0\n")
	return b.Bytes()
}

// tetgenReader reads the records of a .node or .ele file.
type tetgenReader struct {
	lx *lexer
}

// newTetGenReader starts reading a .node or .ele file (name) and returns
// the first two numbers of its header line, described by header: the
// count, then the dimension (.node) or the nodes per tetrahedron (.ele).
func newTetGenReader(r io.Reader, name, header string) (*tetgenReader, []int, error) {
	t := &tetgenReader{lx: newLexer(r, name)}
	f, err := t.record("the header")
	if err != nil {
		return nil, nil, err
	}
	h, err := t.ints(f, 2, header)
	if err != nil {
		return nil, nil, err
	}
	return t, h, nil
}

// record returns the fields of the next record, comments removed.
func (t *tetgenReader) record(what string) ([][]byte, error) {
	for {
		f, err := t.lx.next()
		if err == io.EOF {
			return nil, fmt.Errorf("%s: line %d: file ends before %s", t.lx.name, t.lx.line, what)
		}
		if err != nil {
			return nil, err
		}
		for i, field := range f {
			if field[0] == '#' {
				f = f[:i]
				break
			}
		}
		if len(f) > 0 {
			return f, nil
		}
	}
}

// ints parses the first k fields of a record as integers.
func (t *tetgenReader) ints(f [][]byte, k int, what string) ([]int, error) {
	if len(f) < k {
		return nil, t.lx.errorf("%s needs %d fields, found %d", what, k, len(f))
	}
	v := make([]int, k)
	for i := range v {
		x, ok := parseInt(f[i])
		if !ok {
			return nil, t.lx.errorf("bad integer %s in %s", quote(f[i]), what)
		}
		v[i] = x
	}
	return v, nil
}

// readTetGenNodes reads a .node file.
func readTetGenNodes(path string) ([]r3.Vec, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tetgen: TetGen wrote no points: %w", err)
	}
	defer f.Close()
	return parseTetGenNodes(f)
}

// parseTetGenNodes reads the points of a .node file in index order.
func parseTetGenNodes(r io.Reader) ([]r3.Vec, error) {
	t, h, err := newTetGenReader(r, "tetgen .node", "the header (points dimension …)")
	if err != nil {
		return nil, err
	}
	n := h[0]
	if n < 0 || h[1] != 3 {
		return nil, t.lx.errorf("header declares %d points of dimension %d, want dimension 3", n, h[1])
	}
	nodes := make([]r3.Vec, 0, min(n, maxPrealloc))
	base := 0
	for i := 0; i < n; i++ {
		f, err := t.record(fmt.Sprintf("point %d of %d", i+1, n))
		if err != nil {
			return nil, err
		}
		idx, err := t.ints(f, 1, "a point")
		if err != nil {
			return nil, err
		}
		if i == 0 {
			base = idx[0]
		}
		if idx[0] != base+i || len(f) < 4 {
			return nil, t.lx.errorf("point %d: want index %d and three coordinates", i, base+i)
		}
		var c [3]float64
		for k := range c {
			v, ok := parseFloat(f[1+k])
			if !ok {
				return nil, t.lx.errorf("coordinate %c of point %d is %s, not a finite number", "xyz"[k], i, quote(f[1+k]))
			}
			c[k] = v
		}
		nodes = append(nodes, r3.Vec{X: c[0], Y: c[1], Z: c[2]})
	}
	if n > 0 && base != 0 && base != 1 {
		return nil, fmt.Errorf("tetgen .node: points are numbered from %d, want 0 or 1", base)
	}
	return nodes, nil
}

// readTetGenElements reads a .ele file of tetrahedra on nodes points.
func readTetGenElements(path string, nodes int) ([][4]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tetgen: TetGen wrote no tetrahedra: %w", err)
	}
	defer f.Close()
	return parseTetGenElements(f, nodes)
}

// parseTetGenElements reads the tetrahedra of a .ele file as zero-based
// indices into the nodes points.
func parseTetGenElements(r io.Reader, nodes int) ([][4]int, error) {
	t, h, err := newTetGenReader(r, "tetgen .ele", "the header (tetrahedra corners …)")
	if err != nil {
		return nil, err
	}
	n := h[0]
	if n < 0 || (h[1] != 4 && h[1] != 10) {
		return nil, t.lx.errorf("header declares %d tetrahedra of %d nodes, want 4 or 10", n, h[1])
	}
	tets := make([][4]int, 0, min(n, maxPrealloc))
	base := 0
	for i := 0; i < n; i++ {
		f, err := t.record(fmt.Sprintf("tetrahedron %d of %d", i+1, n))
		if err != nil {
			return nil, err
		}
		v, err := t.ints(f, 1+h[1], "a tetrahedron")
		if err != nil {
			return nil, err
		}
		if i == 0 {
			// TetGen numbers tetrahedra and points from the same base.
			base = v[0]
		}
		var tet [4]int
		for k := range tet {
			tet[k] = v[1+k] - base
			if tet[k] < 0 || tet[k] >= nodes {
				return nil, t.lx.errorf("tetrahedron %d references point %d of %d", i, v[1+k], nodes)
			}
		}
		tets = append(tets, tet)
	}
	return tets, nil
}
