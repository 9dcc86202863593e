// Package embed builds the mechanical mesh of a user's surface: a coarse
// tetrahedral mesh over a regular grid, kept where the surface's solid is,
// with the surface embedded in it point by point (mesh.Embedding, the
// geometric mapping p = G(q)). The solid is found by the generalised
// winding number, which needs no clean surface: small holes, open edges,
// self-intersecting or overlapping triangles and triangles facing the
// wrong way all leave it a usable inside/outside function. See the
// "Mechanical mesh of a user's surface" section of docs/method.md.
package embed

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// Options tune Build; the zero value is the default.
type Options struct {
	// Inside is the winding number at or above which (in absolute value)
	// a cell centre is inside the solid; 0 means 1/2, halfway between
	// outside (0) and inside (1).
	Inside float64
	// MaxCells bounds the cells of the grid, and so the time Build takes
	// on a shape that fills little of its bounding box; 0 means
	// DefaultMaxCells.
	MaxCells int
}

// DefaultMaxCells is the default bound on the grid's cells (about 30 MB
// of per-cell tables).
const DefaultMaxCells = 1 << 20

const (
	// solidWinding is the winding number that some point near the surface
	// or some cell centre must reach for the surface to bound a solid: a
	// closed surface has 1 just inside; a flat sheet stays below 1/2.
	solidWinding = 0.75
	// countTolerance is how close to the budget the sizing of the grid
	// stops (relative node count); maxSizing bounds its trials.
	countTolerance = 0.03
	maxSizing      = 10
	// refineTolerance is the relative count beyond which the sizing tries
	// grids of unequal cell sides (see refine).
	refineTolerance = 0.05
	// refineCells is the largest grid that refine varies: beyond it a
	// layer of cells changes the count by less than refineTolerance
	// anyway, and 26 more trials would cost seconds.
	refineCells = 1 << 16
	// thickRatio is the ratio of the mesh's volume to the surface's
	// beyond which a note says that thin parts were thickened (a closed
	// sphere on 300 nodes is at 1.6).
	thickRatio = 2.0
	// probes is the number of triangles probed for an inside.
	probes = 32
)

// Build returns a tetrahedral mesh of the solid that surf bounds, with
// about targetDOFs/3 nodes, and the embedding of surf in it.
//
// The mesh is a regular grid of near-cubic cells over surf's bounding box
// (along its principal axes when that box is much smaller, see
// gridFrame), sized so that the kept cells have about targetDOFs/3 nodes
// (see size). A cell is
// kept when the winding number w at its centre has |w| ≥ Options.Inside,
// or when the surface passes through it (a surface point lies in it or a
// triangle overlaps it): every surface point is then inside the mesh, and
// a feature thinner than a cell survives as a layer of cells. Every kept
// cube is split into the six tetrahedra around its main diagonal (the
// same split in every cell, so that neighbouring cells share their face
// diagonals and the mesh conforms), positively oriented, with nodes
// numbered compactly in grid order. Each surface point is mapped onto the
// tetrahedron of its cell that holds it, with its four barycentric
// weights.
//
// The embedded surface is a copy of surf with the same points and
// triangles; triangles that face inwards or disagree with their
// neighbours are turned (see orient). Notes say what was worked around.
// Build refuses a surface that bounds no solid (its winding number stays
// below 3/4 everywhere: an open sheet), with an error saying so.
func Build(surf *mesh.TriSurface, targetDOFs int, opt Options) (*mesh.TetMesh, *mesh.Embedding, []string, error) {
	if err := check(surf, targetDOFs); err != nil {
		return nil, nil, nil, err
	}
	inside := opt.Inside
	if inside == 0 {
		inside = 0.5
	}
	if !(inside > 0 && inside < 1) {
		return nil, nil, nil, fmt.Errorf("embed: the inside threshold %v is not in (0, 1)", opt.Inside)
	}
	maxCells := opt.MaxCells
	if maxCells == 0 {
		maxCells = DefaultMaxCells
	}
	s := mesh.TriSurface{Nodes: slices.Clone(surf.Nodes), Tris: slices.Clone(surf.Tris)}
	or := orient(&s)
	f := gridFrame(&s)
	ls := f.local(&s)
	tree := newWindingTree(ls)
	probe := probeSolid(ls, tree)

	cl, capped := size(ls, tree, float64(targetDOFs)/3, inside, maxCells)
	if reach := math.Max(probe, cl.reach); reach < solidWinding {
		return nil, nil, nil, notSolid(&s, or.edges, reach)
	}
	m, e := cl.mesh(ls)
	e.Fill = cl.fill(tree, inside)
	for i, x := range m.Nodes {
		m.Nodes[i] = f.toWorld(x)
	}
	e.Surface = s
	notes := cl.notes(ls, tree, or, m, inside)
	if capped {
		notes = append(notes, fmt.Sprintf("the grid was limited to %d cells: the mesh has %d nodes for a budget of %d",
			maxCells, len(m.Nodes), targetDOFs/3))
	} else if r := float64(3*len(m.Nodes)) / float64(targetDOFs); r < 0.75 || r > 1.25 {
		notes = append(notes, fmt.Sprintf("the mesh has %d nodes, the nearest grid to the budget of %d nodes", len(m.Nodes), targetDOFs/3))
	}
	if err := m.Validate(); err != nil {
		return nil, nil, nil, fmt.Errorf("embed: the grid mesh is not valid: %w", err)
	}
	if err := e.Validate(m); err != nil {
		return nil, nil, nil, fmt.Errorf("embed: the embedding is not valid: %w", err)
	}
	return m, e, notes, nil
}

// check validates Build's arguments.
func check(surf *mesh.TriSurface, targetDOFs int) error {
	if surf == nil || len(surf.Tris) == 0 {
		return fmt.Errorf("embed: the surface has no triangles")
	}
	if targetDOFs < mesh.MinDOFs || targetDOFs > 3*mesh.MaxProceduralNodes {
		return fmt.Errorf("embed: requested %d degrees of freedom, want between %d and %d", targetDOFs, mesh.MinDOFs, 3*mesh.MaxProceduralNodes)
	}
	if err := mesh.CheckCoordinates(surf.Nodes); err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	for t, tri := range surf.Tris {
		for _, v := range tri {
			if v < 0 || v >= len(surf.Nodes) {
				return fmt.Errorf("embed: triangle %d uses point %d, the surface has %d", t, v, len(surf.Nodes))
			}
		}
	}
	return nil
}

// notSolid is the error for a surface that bounds no solid.
func notSolid(s *mesh.TriSurface, e edgeStats, reach float64) error {
	b := s.Bounds()
	msg := fmt.Sprintf("embed: the surface (%d triangles from %s to %s) encloses no volume: its winding number reaches at most %.2f, where a solid's inside has 1 (at least %.2f is needed), so it is an open sheet, not the boundary of a solid",
		len(s.Tris), fmtPoint(b.Min), fmtPoint(b.Max), reach, solidWinding)
	if e.open > 0 {
		msg += fmt.Sprintf("; %d of its edges border a single triangle, the first from %s to %s",
			e.open, fmtPoint(s.Nodes[e.firstOpen[0]]), fmtPoint(s.Nodes[e.firstOpen[1]]))
	}
	return fmt.Errorf("%s", msg)
}

func fmtPoint(p r3.Vec) string { return fmt.Sprintf("(%.4g, %.4g, %.4g)", p.X, p.Y, p.Z) }

// probeSolid returns the largest |w| just inside and just outside some
// triangles (the largest, and others spread over the list): about 1 for
// a surface that bounds a solid, below 1/2 for a sheet.
func probeSolid(s *mesh.TriSurface, tree *windingTree) float64 {
	area := func(t int) (r3.Vec, r3.Vec, float64) {
		a, b, c := s.Nodes[s.Tris[t][0]], s.Nodes[s.Tris[t][1]], s.Nodes[s.Tris[t][2]]
		n := r3.Cross(r3.Sub(b, a), r3.Sub(c, a))
		return r3.Scale(1.0/3, r3.Add(a, r3.Add(b, c))), n, r3.Norm(n) / 2
	}
	cand := make([]int, len(s.Tris))
	for i := range cand {
		cand[i] = i
	}
	areas := make([]float64, len(s.Tris))
	for t := range areas {
		_, _, areas[t] = area(t)
	}
	slices.SortStableFunc(cand, func(x, y int) int { return cmp.Compare(areas[y], areas[x]) }) // largest first
	pick := cand[:min(probes/2, len(cand))]
	for i := 0; i < probes/2 && len(s.Tris) > probes/2; i++ {
		pick = append(pick, i*len(s.Tris)/(probes/2))
	}
	var reach float64
	var stack []int
	for _, t := range pick {
		c, n, a := area(t)
		if a == 0 {
			continue
		}
		d := r3.Scale(1e-3*math.Sqrt(a)/r3.Norm(n), n)
		for _, q := range [2]r3.Vec{r3.Sub(c, d), r3.Add(c, d)} {
			var w float64
			w, stack = tree.at(q, stack)
			reach = math.Max(reach, math.Abs(w))
		}
		if reach >= 1-1e-3 {
			break
		}
	}
	return reach
}

// classification is one sizing of the grid: the cells the surface
// crosses, the winding numbers at the other cells' centres, the cells
// kept and their nodes.
type classification struct {
	g       grid
	crossed []bool
	w       []float64
	kept    []bool
	nodes   int
	// reach is the largest |w| at a cell centre.
	reach float64
}

// classify sorts the cells of g.
func classify(s *mesh.TriSurface, tree *windingTree, g grid, inside float64) *classification {
	cl := &classification{g: g, crossed: g.crossedCells(s)}
	cl.w = g.windingsAway(tree, cl.crossed, inside)
	cl.kept = make([]bool, g.cells())
	used := make([]bool, g.nodes())
	for c := range cl.kept {
		w := math.Abs(cl.w[c])
		if !cl.crossed[c] {
			cl.reach = math.Max(cl.reach, w)
		}
		if !cl.crossed[c] && w < inside {
			continue
		}
		cl.kept[c] = true
		i, j, k := g.cellIJK(c)
		for b := range 8 {
			used[g.node(i+b&1, j+(b>>1)&1, k+(b>>2)&1)] = true
		}
	}
	for _, u := range used {
		if u {
			cl.nodes++
		}
	}
	return cl
}

// size finds the grid whose kept cells have about n nodes: starting from
// the cell size that would fill the bounding box with n nodes, it steps
// the cell size h along the secant of ln(nodes) against ln(h) (the count
// goes as h⁻³ for the bulk and h⁻² for the surface's layer), bisecting
// ln h between the nearest trials above and below n when the secant
// leaves that bracket or repeats a grid, until the count is within
// countTolerance or after maxSizing trials; it returns the trial nearest
// n, and whether maxCells kept the grid from reaching n.
func size(s *mesh.TriSurface, tree *windingTree, n, inside float64, maxCells int) (*classification, bool) {
	b := s.Bounds()
	ext := b.Size()
	l := math.Max(ext.X, math.Max(ext.Y, ext.Z))
	vol := math.Max(ext.X, l*1e-3) * math.Max(ext.Y, l*1e-3) * math.Max(ext.Z, l*1e-3)
	if l == 0 { // every point at one place
		vol, l = 1e-9, 1e-3
		b.Min = r3.Sub(b.Min, r3.Vec{X: l / 2, Y: l / 2, Z: l / 2})
		b.Max = r3.Add(b.Max, r3.Vec{X: l / 2, Y: l / 2, Z: l / 2})
	}
	h := math.Cbrt(vol / n)
	var best *classification
	var capped bool
	tried := make(map[[3]int]bool)
	var prevH, prevC float64
	// The bracket: the largest h with too many nodes, the smallest with
	// too few (0 while unknown).
	var hMany, hFew float64
	for range maxSizing {
		g := newGrid(b, h)
		for g.cells() > maxCells {
			h *= 1.01 * math.Cbrt(float64(g.cells())/float64(maxCells))
			g = newGrid(b, h)
			capped = true
		}
		if tried[g.n] {
			if hMany == 0 || hFew == 0 {
				break
			}
			h = math.Sqrt(hMany * hFew)
			if g = newGrid(b, h); tried[g.n] {
				break
			}
		}
		tried[g.n] = true
		cl := classify(s, tree, g, inside)
		if best == nil || math.Abs(math.Log(float64(cl.nodes)/n)) < math.Abs(math.Log(float64(best.nodes)/n)) {
			best = cl
		}
		c := float64(cl.nodes)
		if math.Abs(c/n-1) <= countTolerance {
			break
		}
		if c > n {
			hMany = math.Max(hMany, h)
		} else if hFew == 0 || h < hFew {
			hFew = h
		}
		slope := -3.0
		if prevH > 0 && prevH != h && prevC != c {
			slope = min(max((math.Log(c)-math.Log(prevC))/(math.Log(h)-math.Log(prevH)), -4), -1)
		}
		prevH, prevC = h, c
		next := math.Exp(math.Log(h) + (math.Log(n)-math.Log(c))/slope)
		if hMany > 0 && hFew > 0 && (next <= hMany || next >= hFew) {
			next = math.Sqrt(hMany * hFew)
		}
		if capped && next < h {
			break
		}
		h = next
	}
	if math.Abs(float64(best.nodes)/n-1) > refineTolerance && best.g.cells() <= refineCells {
		best = refine(s, tree, b, best, tried, n, inside, maxCells)
	}
	return best, capped && float64(best.nodes) < (1-refineTolerance)*n
}

// refine tries the grids of one cell more or fewer than best's along
// some of its axes of at least three cells: on a small budget, where whole layers of cells step the
// count by tens of percent, cells a little longer along one axis than
// another come closer to it. Count is priced against shape as in
// mesh.BoxForDOFs: cost = |ln(nodes/n)| + ln(longest/shortest side)/2.
func refine(s *mesh.TriSurface, tree *windingTree, b r3.Box, best *classification, tried map[[3]int]bool, n, inside float64, maxCells int) *classification {
	h := math.Cbrt(best.g.h[0] * best.g.h[1] * best.g.h[2])
	cost := func(cl *classification) float64 {
		return math.Abs(math.Log(float64(cl.nodes)/n)) + 0.5*cl.g.anisotropy()
	}
	pick := best
	for v := range 27 {
		d := [3]int{v%3 - 1, (v/3)%3 - 1, v/9 - 1}
		cells := best.g.n
		ok := d != [3]int{}
		for a := range 3 {
			if d[a] != 0 && cells[a] < 3 {
				ok = false
			}
			cells[a] += d[a]
		}
		if !ok || tried[cells] {
			continue
		}
		tried[cells] = true
		g := gridOf(b, h, cells)
		if g.cells() > maxCells {
			continue
		}
		if cl := classify(s, tree, g, inside); cost(cl) < cost(pick) {
			pick = cl
		}
	}
	return pick
}

// kuhnPaths are the six monotone lattice paths from corner 000 to corner
// 111 of the unit cube, path (a, b, c) visiting 0, e_a, e_a+e_b, 111: the
// six tetrahedra they span tile the cube around its main diagonal
// (Kuhn/Freudenthal), and the point of local coordinates u lies in path
// (a, b, c)'s tetrahedron when u_a ≥ u_b ≥ u_c. The orientation
// det[e_a, e_a+e_b, e_a+e_b+e_c] = det[e_a, e_b, e_c] is the sign of the
// permutation (a, b, c), which a positive scaling of the axes keeps.
var kuhnPaths = [6]struct {
	axes [3]int
	sign int
}{
	{[3]int{0, 1, 2}, +1}, {[3]int{1, 2, 0}, +1}, {[3]int{2, 0, 1}, +1},
	{[3]int{0, 2, 1}, -1}, {[3]int{2, 1, 0}, -1}, {[3]int{1, 0, 2}, -1},
}

// mesh returns the tetrahedral mesh of the kept cells and the embedding
// of s in it.
func (cl *classification) mesh(s *mesh.TriSurface) (*mesh.TetMesh, *mesh.Embedding) {
	g := cl.g
	id := make([]int, g.nodes())
	for i := range id {
		id[i] = -1
	}
	corner := func(c, bits int) int {
		i, j, k := g.cellIJK(c)
		return g.node(i+bits&1, j+(bits>>1)&1, k+(bits>>2)&1)
	}
	const used = -2
	var kept int
	for c, k := range cl.kept {
		if k {
			kept++
			for b := range 8 {
				id[corner(c, b)] = used
			}
		}
	}
	m := &mesh.TetMesh{Nodes: make([]r3.Vec, 0, cl.nodes), Tets: make([][4]int, 0, 6*kept)}
	for k := 0; k <= g.n[2]; k++ {
		for j := 0; j <= g.n[1]; j++ {
			for i := 0; i <= g.n[0]; i++ {
				if v := g.node(i, j, k); id[v] == used {
					id[v] = len(m.Nodes)
					m.Nodes = append(m.Nodes, g.nodePos(i, j, k))
				}
			}
		}
	}
	for c, k := range cl.kept {
		if !k {
			continue
		}
		for _, p := range kuhnPaths {
			c1 := 1 << p.axes[0]
			c2 := c1 | 1<<p.axes[1]
			t := [4]int{id[corner(c, 0)], id[corner(c, c1)], id[corner(c, c2)], id[corner(c, 7)]}
			if p.sign < 0 {
				t[2], t[3] = t[3], t[2]
			}
			m.Tets = append(m.Tets, t)
		}
	}
	e := &mesh.Embedding{Surface: *s, Points: make([]mesh.NodeWeights, len(s.Nodes))}
	for v, p := range s.Nodes {
		var ijk [3]int
		var u [3]float64
		for a, x := range vec(p) {
			ijk[a], u[a] = g.locate(a, x)
			u[a] = min(max(u[a], 0), 1)
		}
		c := g.cell(ijk[0], ijk[1], ijk[2])
		// The path of the tetrahedron holding u: axes by decreasing u.
		ax := [3]int{0, 1, 2}
		slices.SortStableFunc(ax[:], func(x, y int) int { return cmp.Compare(u[y], u[x]) })
		ua, ub, uc := u[ax[0]], u[ax[1]], u[ax[2]]
		c1 := 1 << ax[0]
		c2 := c1 | 1<<ax[1]
		e.Points[v] = mesh.NodeWeights{
			Count:   4,
			Nodes:   [4]int{id[corner(c, 0)], id[corner(c, c1)], id[corner(c, c2)], id[corner(c, 7)]},
			Weights: [4]float64{1 - ua, ua - ub, ub - uc, uc},
		}
	}
	return m, e
}

// fill returns the fraction of each tetrahedron of the mesh (six per kept
// cell, in the order of mesh) that lies inside the solid: 1 in a cell the
// surface does not cross, else the share of the cell's eight octant
// centres where |w| ≥ inside, at least one eighth (the cell is kept
// because the surface passes through it).
func (cl *classification) fill(tree *windingTree, inside float64) []float64 {
	g := cl.g
	var out []float64
	var stack []int
	for c, k := range cl.kept {
		if !k {
			continue
		}
		f := 1.0
		if cl.crossed[c] {
			i, j, kk := g.cellIJK(c)
			in := 0
			for b := range 8 {
				p := r3.Vec{
					X: g.coord(0, float64(i)+0.25+0.5*float64(b&1)),
					Y: g.coord(1, float64(j)+0.25+0.5*float64(b>>1&1)),
					Z: g.coord(2, float64(kk)+0.25+0.5*float64(b>>2&1)),
				}
				var w float64
				w, stack = tree.at(p, stack)
				if math.Abs(w) >= inside {
					in++
				}
			}
			f = float64(max(in, 1)) / 8
		}
		for range kuhnPaths {
			out = append(out, f)
		}
	}
	return out
}

// notes says what Build worked around.
func (cl *classification) notes(s *mesh.TriSurface, tree *windingTree, or orientation, m *mesh.TetMesh, inside float64) []string {
	var notes []string
	if n := or.edges.open; n > 0 {
		notes = append(notes, fmt.Sprintf("the surface has %d open edges (edges of a single triangle): the solid was found by its winding number", n))
	}
	if n := or.edges.crowded; n > 0 {
		notes = append(notes, fmt.Sprintf("the surface has %d edges shared by more than two triangles: the solid was found by its winding number", n))
	}
	switch {
	case or.insideOut:
		notes = append(notes, "the surface was inside out (its triangles faced inwards): they were turned to face outwards")
	default:
		if n := or.disagreeing; n > 0 {
			notes = append(notes, fmt.Sprintf("turned %d triangles that faced the other way from their neighbours", n))
		}
		if n := or.inward; n > 0 {
			notes = append(notes, fmt.Sprintf("turned %d of the surface's %d pieces, which faced inwards", n, or.patches))
		}
	}
	if n := or.nonOrientable; n > 0 {
		notes = append(notes, fmt.Sprintf("the surface cannot be oriented consistently (a Möbius-like piece) at %d edges", n))
	}
	if n := cl.strayCells(tree, inside); n > 0 {
		notes = append(notes, fmt.Sprintf("kept %d cells for surface points outside the solid (parts thinner than a cell, or stray triangles): every surface point is embedded", n))
	}
	if vs := enclosedVolume(s); vs > 0 {
		if r := m.Volume() / vs; r > thickRatio {
			notes = append(notes, fmt.Sprintf("the mesh's volume is %.1f times the surface's: parts thinner than a cell (%.3g m) are wrapped in whole cells",
				r, math.Cbrt(cl.g.h[0]*cl.g.h[1]*cl.g.h[2])))
		}
	}
	if p := m.Pieces(); len(p) > 1 {
		notes = append(notes, fmt.Sprintf("the mesh has %d separate pieces (of %v tetrahedra): each moves as a body of its own", len(p), p))
	}
	return notes
}

// enclosedVolume returns |Σ_t V(o, t)|, the volume the oriented
// triangles enclose, measured from their area centroid o (for an open
// surface, the volume of the cone they span from o).
func enclosedVolume(s *mesh.TriSurface) float64 {
	o := areaCentroid(s)
	var v float64
	for _, t := range s.Tris {
		v += mesh.SignedVolume(o, s.Nodes[t[0]], s.Nodes[t[1]], s.Nodes[t[2]])
	}
	return math.Abs(v)
}

// strayCells counts the kept cells that the surface crosses but whose
// centre is outside the solid, and none of whose 26 neighbours has its
// centre inside: surface away from the solid's bulk (a part thinner than
// a cell, or stray triangles), rather than the layer of cells that every
// surface crosses.
func (cl *classification) strayCells(tree *windingTree, inside float64) int {
	g := cl.g
	w := g.windings(tree, cl.crossed)
	for c, x := range cl.crossed {
		if !x {
			w[c] = cl.w[c]
		}
	}
	in := func(i, j, k int) bool {
		if i < 0 || j < 0 || k < 0 || i >= g.n[0] || j >= g.n[1] || k >= g.n[2] {
			return false
		}
		return math.Abs(w[g.cell(i, j, k)]) >= inside
	}
	n := 0
	for c, x := range cl.crossed {
		if !x {
			continue
		}
		i, j, k := g.cellIJK(c)
		if !nearInside(i, j, k, in) {
			n++
		}
	}
	return n
}

// nearInside reports whether cell (i, j, k) or one of its 26 neighbours
// is inside.
func nearInside(i, j, k int, in func(i, j, k int) bool) bool {
	for dk := -1; dk <= 1; dk++ {
		for dj := -1; dj <= 1; dj++ {
			for di := -1; di <= 1; di++ {
				if in(i+di, j+dj, k+dk) {
					return true
				}
			}
		}
	}
	return false
}
