package meshfile

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// surface turns the builder's surface elements into a clean triangle
// surface: only the points the triangles use, points at identical
// positions merged, and degenerate and repeated triangles dropped. The
// notes say what was changed.
func (b *builder) surface() (*mesh.TriSurface, []string, error) {
	if len(b.tris) == 0 {
		return nil, nil, b.noTetsError()
	}
	s := &mesh.TriSurface{}
	var notes []string
	index := make(map[r3.Vec]int, min(len(b.nodes), maxPrealloc))
	remap := make([]int, len(b.nodes))
	for i := range remap {
		remap[i] = -1
	}
	merged := 0
	for ti, t := range b.tris {
		for k, v := range t {
			if remap[v] < 0 {
				at, seen := index[b.nodes[v]]
				if !seen {
					at = len(s.Nodes)
					index[b.nodes[v]] = at
					s.Nodes = append(s.Nodes, b.nodes[v])
				} else {
					merged++
				}
				remap[v] = at
			}
			b.tris[ti][k] = remap[v]
		}
	}
	if merged > 0 {
		notes = append(notes, fmt.Sprintf("merged %s the position of another", nouns(merged, "point that repeats", "points that repeat")))
	}
	s.Tris, notes = dropBadTriangles(b.tris, notes)
	if len(s.Tris) == 0 {
		return nil, nil, fmt.Errorf("%s: every one of the %d surface triangles is degenerate", b.name, len(b.tris))
	}
	if err := mesh.CheckCoordinates(s.Nodes); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", b.name, err)
	}
	return s, notes, nil
}

// fillHoles closes the small holes of the surface (mesh.FillHoles) and
// says what it did. A surface open beyond that is an error that says
// where its largest hole is.
func fillHoles(s *mesh.TriSurface) ([]string, error) {
	st, err := s.FillHoles(0)
	if err != nil {
		return nil, err
	}
	var notes []string
	if st.Stray > 0 {
		notes = append(notes, fmt.Sprintf("dropped %s of open surface apart from the rest (%s, under 1%% of the area each): they bound no volume",
			nouns(st.Stray, "loose piece", "loose pieces"), nouns(st.StrayTris, "triangle", "triangles")))
	}
	if st.Holes > 0 {
		notes = append(notes, fmt.Sprintf("filled %s (%s) in the surface",
			nouns(st.Holes, "small hole", "small holes"), nouns(st.OpenEdges, "open edge", "open edges")))
	}
	return notes, nil
}

// dropBadTriangles removes triangles that repeat a corner and triangles
// that repeat another triangle's corners (in any order), and notes how
// many.
func dropBadTriangles(tris [][3]int, notes []string) ([][3]int, []string) {
	seen := make(map[[3]int]bool, min(len(tris), maxPrealloc))
	out := tris[:0]
	degenerate, repeated := 0, 0
	for _, t := range tris {
		s := t
		slices.Sort(s[:])
		switch {
		case s[0] == s[1] || s[1] == s[2]:
			degenerate++
		case seen[s]:
			repeated++
		default:
			seen[s] = true
			out = append(out, t)
		}
	}
	if degenerate > 0 {
		notes = append(notes, fmt.Sprintf("dropped %s (a corner repeated)", nouns(degenerate, "degenerate triangle", "degenerate triangles")))
	}
	if repeated > 0 {
		notes = append(notes, fmt.Sprintf("dropped %s another", nouns(repeated, "triangle that repeats", "triangles that repeat")))
	}
	return out, notes
}
