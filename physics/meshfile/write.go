package meshfile

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// Writers for the two loader formats. Coordinates are written with the
// shortest decimal form that parses back to the same float64, so a written
// mesh loads back bit for bit.

// meshWriter accumulates formatted text with a reused scratch buffer.
type meshWriter struct {
	w       *bufio.Writer
	scratch []byte
}

func newMeshWriter(w io.Writer) *meshWriter {
	return &meshWriter{w: bufio.NewWriter(w), scratch: make([]byte, 0, 128)}
}

func (mw *meshWriter) str(s string) { mw.w.WriteString(s) }

// ints writes the integers separated by spaces, then a newline.
func (mw *meshWriter) ints(v ...int) {
	b := mw.scratch[:0]
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	mw.w.Write(append(b, '\n'))
}

// vec writes the three coordinates of p on one line.
func (mw *meshWriter) vec(p r3.Vec) {
	b := mw.scratch[:0]
	b = strconv.AppendFloat(b, p.X, 'g', -1, 64)
	b = append(b, ' ')
	b = strconv.AppendFloat(b, p.Y, 'g', -1, 64)
	b = append(b, ' ')
	b = strconv.AppendFloat(b, p.Z, 'g', -1, 64)
	mw.w.Write(append(b, '\n'))
}

func (mw *meshWriter) flush(format string) error {
	if err := mw.w.Flush(); err != nil {
		return fmt.Errorf("%s: write: %w", format, err)
	}
	return nil
}

// WriteGmsh41 writes the mesh as a Gmsh 4.1 ASCII file: one volume entity
// holding all nodes (tags 1…N) and all tetrahedra (type 4, tags 1…T).
func WriteGmsh41(w io.Writer, m *mesh.TetMesh) error {
	mw := newMeshWriter(w)
	n, t := len(m.Nodes), len(m.Tets)
	mw.str("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n")
	// One volume entity: tag, bounding box, no physical tags, no bounding
	// surfaces. Gmsh expects the entities that the blocks refer to.
	b := m.Bounds()
	mw.str("$Entities\n0 0 0 1\n1 ")
	mw.vecInline(b.Min)
	mw.vecInline(b.Max)
	mw.str("0 0\n$EndEntities\n")
	mw.str("$Nodes\n")
	mw.ints(1, n, min(1, n), n)
	mw.ints(3, 1, 0, n)
	for i := range m.Nodes {
		mw.ints(i + 1)
	}
	for _, p := range m.Nodes {
		mw.vec(p)
	}
	mw.str("$EndNodes\n$Elements\n")
	mw.ints(1, t, min(1, t), t)
	mw.ints(3, 1, 4, t)
	for i, tet := range m.Tets {
		mw.ints(i+1, tet[0]+1, tet[1]+1, tet[2]+1, tet[3]+1)
	}
	mw.str("$EndElements\n")
	return mw.flush("msh")
}

// vecInline writes the coordinates of p followed by a space.
func (mw *meshWriter) vecInline(p r3.Vec) {
	b := mw.scratch[:0]
	for _, x := range [3]float64{p.X, p.Y, p.Z} {
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
		b = append(b, ' ')
	}
	mw.w.Write(b)
}

// WriteVTK writes the mesh as a legacy VTK 3.0 ASCII unstructured grid of
// tetrahedra (cell type 10), points in double precision.
func WriteVTK(w io.Writer, m *mesh.TetMesh) error {
	mw := newMeshWriter(w)
	n, t := len(m.Nodes), len(m.Tets)
	mw.str("# vtk DataFile Version 3.0\nsoftgrasp tetrahedral mesh\nASCII\nDATASET UNSTRUCTURED_GRID\n")
	mw.str("POINTS " + strconv.Itoa(n) + " double\n")
	for _, p := range m.Nodes {
		mw.vec(p)
	}
	mw.str("CELLS " + strconv.Itoa(t) + " " + strconv.Itoa(5*t) + "\n")
	for _, tet := range m.Tets {
		mw.ints(4, tet[0], tet[1], tet[2], tet[3])
	}
	mw.str("CELL_TYPES " + strconv.Itoa(t) + "\n")
	for range m.Tets {
		mw.str("10\n")
	}
	return mw.flush("vtk")
}
