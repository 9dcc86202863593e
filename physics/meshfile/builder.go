package meshfile

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// maxPrealloc caps how many nodes or elements a loader reserves room for
// on the strength of a count declared in the file: a hostile header
// claiming 10¹² nodes must not allocate before the data is there. Beyond
// the cap, slices grow as the data is read.
const maxPrealloc = 1 << 16

// builder collects what a reader finds: the nodes, the tetrahedra, the
// surface triangles (used only when the file has no tetrahedra) and a
// count of every element it had no use for, by kind. It turns them into a
// valid tetrahedral mesh (finish) or a triangle surface (surface).
type builder struct {
	name   string // format name for messages: "msh", "vtk", "vtk xml", "stl", "obj"
	format string // what the content turned out to be, for the user
	nodes  []r3.Vec
	tets   [][4]int
	ids    []int // element tag (Gmsh) or cell index (VTK) of each tet
	lines  []int // line of each tet in the file

	tris    [][3]int   // surface triangles, corners in file order
	faces   skipCounts // the surface elements behind tris, by kind
	skipped skipCounts // elements neither a tetrahedron nor a surface element
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

// addPolygon adds a planar polygon of the surface as a fan of triangles
// around its first corner; kind names it in the notes ("triangle",
// "quadrangle", "polygon"). The corners are node indices, checked by the
// caller.
func (b *builder) addPolygon(kind string, corners []int) {
	b.faces.add(kind, 1)
	for k := 2; k < len(corners); k++ {
		b.tris = append(b.tris, [3]int{corners[0], corners[k-1], corners[k]})
	}
}

// addStrip adds a triangle strip: triangle k is (v[k], v[k+1], v[k+2]),
// every other one reversed so that all share the orientation of the first.
func (b *builder) addStrip(v []int) {
	b.faces.add("triangle strip", 1)
	for k := 2; k < len(v); k++ {
		if k%2 == 0 {
			b.tris = append(b.tris, [3]int{v[k-2], v[k-1], v[k]})
		} else {
			b.tris = append(b.tris, [3]int{v[k-1], v[k-2], v[k]})
		}
	}
}

// skip counts n elements of the given kind that the mesh does not use.
func (b *builder) skip(kind string, n int) { b.skipped.add(kind, n) }

// finish drops unused nodes, orients the tetrahedra and validates.
func (b *builder) finish() (*mesh.TetMesh, error) {
	if len(b.tets) == 0 {
		return nil, b.noTetsError()
	}
	m := &mesh.TetMesh{Nodes: b.compactNodes(), Tets: b.tets}
	if err := mesh.CheckCoordinates(m.Nodes); err != nil {
		return nil, fmt.Errorf("%s: %w", b.name, err)
	}
	eps := m.DegenerateVolume()
	for i, t := range m.Tets {
		v := m.TetVolume(t)
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

// noTetsError says that the file holds no tetrahedra and what it holds
// instead.
func (b *builder) noTetsError() error {
	var what []string
	if b.faces.total() > 0 {
		what = append(what, b.faces.String())
	}
	if b.skipped.total() > 0 {
		what = append(what, b.skipped.String())
	}
	if len(what) == 0 {
		return fmt.Errorf("%s: the file contains no tetrahedra and no surface elements (%d points)", b.name, len(b.nodes))
	}
	return fmt.Errorf("%s: the file contains no tetrahedra, only %s; only tetrahedra are simulated", b.name, strings.Join(what, " and "))
}

// skippedNote is the one line that says what a volume mesh left out, or ""
// when it kept everything.
func (b *builder) skippedNote() string {
	var all skipCounts
	all.merge(b.faces)
	all.merge(b.skipped)
	if all.total() == 0 {
		return ""
	}
	return fmt.Sprintf("kept %d tetrahedra, skipped %s", len(b.tets), all.String())
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

// skipCounts counts elements by kind, remembering the order in which the
// kinds first appeared so that messages are stable.
type skipCounts struct {
	kinds []string
	n     map[string]int
}

func (s *skipCounts) add(kind string, n int) {
	if n <= 0 {
		return
	}
	if s.n == nil {
		s.n = make(map[string]int)
	}
	if _, seen := s.n[kind]; !seen {
		s.kinds = append(s.kinds, kind)
	}
	s.n[kind] += n
}

func (s *skipCounts) merge(o skipCounts) {
	for _, k := range o.kinds {
		s.add(k, o.n[k])
	}
}

func (s *skipCounts) total() int {
	t := 0
	for _, k := range s.kinds {
		t += s.n[k]
	}
	return t
}

// String lists the counts: "300 triangles, 40 lines and 1 vertex".
func (s skipCounts) String() string {
	parts := make([]string, len(s.kinds))
	for i, k := range s.kinds {
		parts[i] = fmt.Sprintf("%d %s", s.n[k], plural(k, s.n[k]))
	}
	switch len(parts) {
	case 0:
		return "nothing"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// irregularPlurals holds the element kinds whose plural is not kind+"s".
var irregularPlurals = map[string]string{
	"hexahedron": "hexahedra", "tetrahedron": "tetrahedra", "polyhedron": "polyhedra",
	"vertex": "vertices", "quadratic hexahedron": "quadratic hexahedra",
	"triquadratic hexahedron": "triquadratic hexahedra",
}

// plural returns the name of n elements of a kind.
func plural(kind string, n int) string {
	if n == 1 {
		return kind
	}
	if p, ok := irregularPlurals[kind]; ok {
		return p
	}
	if strings.HasPrefix(kind, "element") {
		return "elements" + kind[len("element"):]
	}
	return kind + "s"
}

// nouns phrases n things: "1 edge borders", "3 edges border".
func nouns(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
