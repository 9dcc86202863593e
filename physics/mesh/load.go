package mesh

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"
)

// Format is a mesh file format.
type Format int

const (
	// FormatGmsh is the Gmsh .msh format, versions 2.2 and 4.1, ASCII.
	FormatGmsh Format = iota + 1
	// FormatVTK is the legacy VTK format (UNSTRUCTURED_GRID), versions 2.0
	// to 5.1, ASCII.
	FormatVTK
)

// String returns the usual file extension of the format without the dot.
func (f Format) String() string {
	switch f {
	case FormatGmsh:
		return "msh"
	case FormatVTK:
		return "vtk"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// FormatOf returns the format that the extension of path names (.msh or
// .vtk, in any case).
func FormatOf(path string) (Format, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".msh":
		return FormatGmsh, nil
	case ".vtk":
		return FormatVTK, nil
	default:
		return 0, fmt.Errorf("mesh: %s: unknown extension %q, want .msh (Gmsh) or .vtk (legacy VTK)", path, ext)
	}
}

// Load reads a tetrahedral mesh from a file, choosing the format by the
// extension (see FormatOf). The result is valid (see Parse).
func Load(path string) (*TetMesh, error) {
	format, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mesh: %w", err)
	}
	defer f.Close()
	m, err := Parse(f, format)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Parse reads a tetrahedral mesh in the given format. Nodes that no
// tetrahedron uses are dropped (the others keep their order), negatively
// oriented tetrahedra are flipped, and the result passes Validate.
// Coordinates are taken as they are; see FitInto for unit conversion.
func Parse(r io.Reader, format Format) (*TetMesh, error) {
	switch format {
	case FormatGmsh:
		return LoadGmsh(r)
	case FormatVTK:
		return LoadVTK(r)
	}
	return nil, fmt.Errorf("mesh: unknown format %v", format)
}

// maxPrealloc caps how many nodes or elements a loader reserves room for
// on the strength of a count declared in the file: a hostile header
// claiming 10¹² nodes must not allocate before the data is there. Beyond
// the cap, slices grow as the data is read.
const maxPrealloc = 1 << 16

// builder collects what a loader reads and turns it into a valid mesh.
type builder struct {
	name  string // format name for messages
	nodes []r3.Vec
	tets  [][4]int
	ids   []int // element tag (Gmsh) or cell index (VTK) of each tet
	lines []int // line of each tet in the file
}

// reserveNodes and reserveTets grow the capacity for a declared count,
// within maxPrealloc.
func (b *builder) reserveNodes(n int) {
	if n > 0 && cap(b.nodes) < maxPrealloc {
		b.nodes = make([]r3.Vec, 0, min(n, maxPrealloc))
	}
}

func (b *builder) reserveTets(n int) {
	if n > 0 && cap(b.tets) < maxPrealloc {
		c := min(n, maxPrealloc)
		b.tets = make([][4]int, 0, c)
		b.ids = make([]int, 0, c)
		b.lines = make([]int, 0, c)
	}
}

func (b *builder) addTet(t [4]int, id, line int) {
	b.tets = append(b.tets, t)
	b.ids = append(b.ids, id)
	b.lines = append(b.lines, line)
}

// finish drops unused nodes, orients the tetrahedra and validates.
func (b *builder) finish() (*TetMesh, error) {
	if len(b.tets) == 0 {
		return nil, fmt.Errorf("%s: the file contains no tetrahedra", b.name)
	}
	m := &TetMesh{Nodes: b.compactNodes(), Tets: b.tets}
	if err := m.checkCoordinates(); err != nil {
		return nil, fmt.Errorf("%s: %w", b.name, err)
	}
	eps := degenerateVolume(r3.Norm(m.Bounds().Size()))
	for i, t := range m.Tets {
		v := m.tetSignedVolume(t)
		if math.Abs(v) <= eps {
			return nil, fmt.Errorf("%s: line %d: element %d is degenerate: volume %.3g is below %.3g",
				b.name, b.lines[i], b.ids[i], v, eps)
		}
		if v < 0 {
			// Swapping two nodes reverses the orientation.
			m.Tets[i][2], m.Tets[i][3] = t[3], t[2]
		}
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", b.name, err)
	}
	return m, nil
}

// compactNodes renumbers the tetrahedra onto the used nodes, in their
// original order, and returns those nodes.
func (b *builder) compactNodes() []r3.Vec {
	index := make([]int, len(b.nodes))
	for i := range index {
		index[i] = -1
	}
	for _, t := range b.tets {
		for _, v := range t {
			index[v] = 0
		}
	}
	used := 0
	for i, v := range index {
		if v == 0 {
			index[i] = used
			b.nodes[used] = b.nodes[i]
			used++
		}
	}
	for i, t := range b.tets {
		b.tets[i] = [4]int{index[t[0]], index[t[1]], index[t[2]], index[t[3]]}
	}
	return b.nodes[:used:used]
}
