package embed

import (
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// minThickness is the thinnest a grid gets along an axis, as a fraction
// of its nominal cell size: a surface flatter than that (a plate) is
// wrapped in one layer of cells this thick rather than in flat cells.
const minThickness = 0.25

// grid is a regular lattice of n[0]×n[1]×n[2] cells of size h over the
// box from origin; cell (i, j, k) has index i + n0·(j + n1·k), node
// (i, j, k) index i + (n0+1)·(j + (n1+1)·k).
type grid struct {
	origin r3.Vec
	h      [3]float64
	n      [3]int
}

// newGrid returns the grid of cells about size h (cubes, stretched or
// squeezed per axis so that a whole number of them spans the box) over
// box b, at least minThickness·h thick along every axis.
func newGrid(b r3.Box, h float64) grid {
	var n [3]int
	for a, l := range spans(b, h) {
		n[a] = max(1, int(math.Round(l/h)))
	}
	return gridOf(b, h, n)
}

// gridOf returns the grid of n cells per axis over box b, at least
// minThickness·h thick along every axis.
func gridOf(b r3.Box, h float64, n [3]int) grid {
	lo, hi := vec(b.Min), vec(b.Max)
	l := spans(b, h)
	g := grid{n: n}
	var o [3]float64
	for a := range 3 {
		g.h[a] = l[a] / float64(n[a])
		o[a] = (hi[a]+lo[a])/2 - l[a]/2
	}
	g.origin = r3.Vec{X: o[0], Y: o[1], Z: o[2]}
	return g
}

// spans returns the sides of box b, each at least minThickness·h.
func spans(b r3.Box, h float64) [3]float64 {
	lo, hi := vec(b.Min), vec(b.Max)
	var l [3]float64
	for a := range 3 {
		l[a] = math.Max(hi[a]-lo[a], minThickness*h)
	}
	return l
}

// anisotropy returns ln(longest/shortest cell side) over the axes of at
// least three cells (an axis of one or two cells follows a thin part's
// thickness, not the choice of resolution).
func (g grid) anisotropy() float64 {
	lo, hi := math.Inf(1), 0.0
	for a := range 3 {
		if g.n[a] >= 3 {
			lo, hi = math.Min(lo, g.h[a]), math.Max(hi, g.h[a])
		}
	}
	if hi == 0 {
		return 0
	}
	return math.Log(hi / lo)
}

func vec(p r3.Vec) [3]float64 { return [3]float64{p.X, p.Y, p.Z} }

func (g grid) cells() int { return g.n[0] * g.n[1] * g.n[2] }

func (g grid) cell(i, j, k int) int { return i + g.n[0]*(j+g.n[1]*k) }

func (g grid) node(i, j, k int) int { return i + (g.n[0]+1)*(j+(g.n[1]+1)*k) }

func (g grid) nodes() int { return (g.n[0] + 1) * (g.n[1] + 1) * (g.n[2] + 1) }

// cellIJK inverts cell.
func (g grid) cellIJK(c int) (i, j, k int) {
	return c % g.n[0], (c / g.n[0]) % g.n[1], c / (g.n[0] * g.n[1])
}

// coord returns the position of lattice coordinate t (a node at whole t,
// a cell centre at half) along axis a.
func (g grid) coord(a int, t float64) float64 {
	return vec(g.origin)[a] + t*g.h[a]
}

// nodePos returns the position of node (i, j, k).
func (g grid) nodePos(i, j, k int) r3.Vec {
	return r3.Vec{X: g.coord(0, float64(i)), Y: g.coord(1, float64(j)), Z: g.coord(2, float64(k))}
}

// centre returns the centre of cell c.
func (g grid) centre(c int) r3.Vec {
	i, j, k := g.cellIJK(c)
	return r3.Vec{X: g.coord(0, float64(i)+0.5), Y: g.coord(1, float64(j)+0.5), Z: g.coord(2, float64(k)+0.5)}
}

// locate returns the cell holding p along axis a (clamped into the grid)
// and p's local coordinate in it, in [0, 1] up to round-off.
func (g grid) locate(a int, x float64) (int, float64) {
	t := (x - vec(g.origin)[a]) / g.h[a]
	i := min(max(int(math.Floor(t)), 0), g.n[a]-1)
	return i, (x - g.coord(a, float64(i))) / g.h[a]
}

// cellOf returns the cell holding p.
func (g grid) cellOf(p r3.Vec) int {
	i, _ := g.locate(0, p.X)
	j, _ := g.locate(1, p.Y)
	k, _ := g.locate(2, p.Z)
	return g.cell(i, j, k)
}

// crossedCells marks the cells that the surface passes through: every
// cell holding a surface point, and every cell that a triangle overlaps
// (triBoxOverlap, touching included).
func (g grid) crossedCells(s *mesh.TriSurface) []bool {
	crossed := make([]bool, g.cells())
	at := make([][3]int, len(s.Nodes)) // each point's cell, per axis
	for v, p := range s.Nodes {
		for a, x := range vec(p) {
			at[v][a], _ = g.locate(a, x)
		}
		crossed[g.cell(at[v][0], at[v][1], at[v][2])] = true
	}
	half := [3]float64{g.h[0] / 2, g.h[1] / 2, g.h[2] / 2}
	for _, t := range s.Tris {
		c0, c1, c2 := at[t[0]], at[t[1]], at[t[2]]
		var lo, hi [3]int
		for a := range 3 {
			lo[a], hi[a] = min(c0[a], c1[a], c2[a]), max(c0[a], c1[a], c2[a])
		}
		if lo == hi {
			continue // one cell, marked by its corners
		}
		v := [3][3]float64{vec(s.Nodes[t[0]]), vec(s.Nodes[t[1]]), vec(s.Nodes[t[2]])}
		for k := lo[2]; k <= hi[2]; k++ {
			for j := lo[1]; j <= hi[1]; j++ {
				for i := lo[0]; i <= hi[0]; i++ {
					c := g.cell(i, j, k)
					if crossed[c] {
						continue
					}
					ctr := [3]float64{g.coord(0, float64(i)+0.5), g.coord(1, float64(j)+0.5), g.coord(2, float64(k)+0.5)}
					if triBoxOverlap(ctr, half, v) {
						crossed[c] = true
					}
				}
			}
		}
	}
	return crossed
}

// triBoxOverlap reports whether triangle v meets the closed box of centre
// c and half sizes e, by the separating axis theorem: the box's three
// axes, the triangle's normal and the nine cross products of a box axis
// with a triangle edge (Akenine-Möller). The box is widened by a relative
// 10⁻⁹ so that touching counts despite round-off.
//
// References: T. Akenine-Möller, "Fast 3D triangle-box overlap testing",
// Journal of Graphics Tools 6(1), 2001.
func triBoxOverlap(c, e [3]float64, v [3][3]float64) bool {
	var p [3][3]float64
	for i := range 3 {
		for a := range 3 {
			p[i][a] = v[i][a] - c[a]
		}
	}
	for a := range 3 {
		e[a] *= 1 + 1e-9
	}
	separated := func(ax [3]float64) bool {
		d0 := ax[0]*p[0][0] + ax[1]*p[0][1] + ax[2]*p[0][2]
		d1 := ax[0]*p[1][0] + ax[1]*p[1][1] + ax[2]*p[1][2]
		d2 := ax[0]*p[2][0] + ax[1]*p[2][1] + ax[2]*p[2][2]
		r := e[0]*math.Abs(ax[0]) + e[1]*math.Abs(ax[1]) + e[2]*math.Abs(ax[2])
		return min(d0, d1, d2) > r || max(d0, d1, d2) < -r
	}
	var edge [3][3]float64
	for i := range 3 {
		for a := range 3 {
			edge[i][a] = p[(i+1)%3][a] - p[i][a]
		}
	}
	for a := range 3 {
		var ax [3]float64
		ax[a] = 1
		if separated(ax) {
			return false
		}
	}
	n := cross(edge[0], edge[1])
	if separated(n) {
		return false
	}
	for a := range 3 {
		var u [3]float64
		u[a] = 1
		for i := range 3 {
			if separated(cross(u, edge[i])) {
				return false
			}
		}
	}
	return true
}

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// blockSize is the side, in cells, of the blocks that windingsAway
// shares out among the processors.
const blockSize = 8

// blockMargin is how far from the inside threshold, and how close to one
// another, the winding numbers at a block's corners and centre must be for
// the block to take its centre's value whole.
const blockMargin = 0.25

// windingsAway returns w at the centre of every cell that the surface
// does not cross (NaN at the others), evaluating it block by block: a
// block of cells that no triangle crosses, whose eight corners and centre
// all have |w| beyond the threshold by blockMargin on the same side and
// within blockMargin of one another, takes its centre's value in every
// cell; other blocks are split in eight, down to single cells. w is
// harmonic where no triangle is, so it varies little over such a block:
// inside or outside a closed surface it is constant (1 or 0), and only
// the blocks near holes or near the surface are split. The cost follows
// the cells the surface crosses rather than the whole grid.
func (g grid) windingsAway(tree *windingTree, crossed []bool, inside float64) []float64 {
	w := make([]float64, g.cells())
	// sum[i,j,k] counts the crossed cells below (i, j, k) on every axis.
	sn := [3]int{g.n[0] + 1, g.n[1] + 1, g.n[2] + 1}
	sum := make([]int32, sn[0]*sn[1]*sn[2])
	at := func(i, j, k int) int { return i + sn[0]*(j+sn[1]*k) }
	for k := 1; k < sn[2]; k++ {
		for j := 1; j < sn[1]; j++ {
			for i := 1; i < sn[0]; i++ {
				var x int32
				if crossed[g.cell(i-1, j-1, k-1)] {
					x = 1
				}
				sum[at(i, j, k)] = x + sum[at(i-1, j, k)] + sum[at(i, j-1, k)] + sum[at(i, j, k-1)] -
					sum[at(i-1, j-1, k)] - sum[at(i-1, j, k-1)] - sum[at(i, j-1, k-1)] + sum[at(i-1, j-1, k-1)]
			}
		}
	}
	countCrossed := func(lo, hi [3]int) int {
		return int(sum[at(hi[0], hi[1], hi[2])] - sum[at(lo[0], hi[1], hi[2])] - sum[at(hi[0], lo[1], hi[2])] - sum[at(hi[0], hi[1], lo[2])] +
			sum[at(lo[0], lo[1], hi[2])] + sum[at(lo[0], hi[1], lo[2])] + sum[at(hi[0], lo[1], lo[2])] - sum[at(lo[0], lo[1], lo[2])])
	}
	var blocks [][3]int
	for k := 0; k < g.n[2]; k += blockSize {
		for j := 0; j < g.n[1]; j += blockSize {
			for i := 0; i < g.n[0]; i += blockSize {
				blocks = append(blocks, [3]int{i, j, k})
			}
		}
	}
	pos := func(t [3]float64) r3.Vec {
		return r3.Vec{X: g.coord(0, t[0]), Y: g.coord(1, t[1]), Z: g.coord(2, t[2])}
	}
	workers := min(runtime.GOMAXPROCS(0), 8, len(blocks))
	inParallel(workers, func(p int) {
		var stack []int
		eval := func(t [3]float64) float64 {
			var v float64
			v, stack = tree.at(pos(t), stack)
			return v
		}
		var block func(lo, hi [3]int)
		block = func(lo, hi [3]int) {
			n := (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])
			if n == 0 {
				return
			}
			nc := countCrossed(lo, hi)
			if nc == n {
				g.fill(w, lo, hi, math.NaN())
				return
			}
			mid := [3]float64{float64(lo[0]+hi[0]) / 2, float64(lo[1]+hi[1]) / 2, float64(lo[2]+hi[2]) / 2}
			if n == 1 {
				w[g.cell(lo[0], lo[1], lo[2])] = eval(mid)
				return
			}
			if nc == 0 {
				wc := eval(mid)
				lo2, hi2 := wc, wc
				for b := range 8 {
					var t [3]float64
					for a := range 3 {
						t[a] = float64(lo[a])
						if b>>a&1 == 1 {
							t[a] = float64(hi[a])
						}
					}
					v := eval(t)
					lo2, hi2 = math.Min(lo2, v), math.Max(hi2, v)
					if hi2-lo2 > blockMargin {
						break
					}
				}
				in := math.Abs(lo2) >= inside+blockMargin && math.Abs(hi2) >= inside+blockMargin && lo2*hi2 > 0
				out := math.Abs(lo2) <= inside-blockMargin && math.Abs(hi2) <= inside-blockMargin
				if hi2-lo2 <= blockMargin && (in || out) {
					g.fill(w, lo, hi, wc)
					return
				}
			}
			// Split in eight (halves of zero cells are skipped).
			for b := range 8 {
				var l, h [3]int
				for a := range 3 {
					m := (lo[a] + hi[a] + 1) / 2
					l[a], h[a] = lo[a], m
					if b>>a&1 == 1 {
						l[a], h[a] = m, hi[a]
					}
				}
				if l != lo || h != hi {
					block(l, h)
				}
			}
		}
		for bi := p; bi < len(blocks); bi += workers {
			lo := blocks[bi]
			hi := [3]int{min(lo[0]+blockSize, g.n[0]), min(lo[1]+blockSize, g.n[1]), min(lo[2]+blockSize, g.n[2])}
			block(lo, hi)
		}
	})
	for c, x := range crossed {
		if x {
			w[c] = math.NaN()
		}
	}
	return w
}

// windings returns w at the centre of every cell with want[c] (NaN
// elsewhere), spread over the available processors.
func (g grid) windings(tree *windingTree, want []bool) []float64 {
	w := make([]float64, g.cells())
	var todo []int
	for c := range w {
		if want[c] {
			todo = append(todo, c)
		} else {
			w[c] = math.NaN()
		}
	}
	workers := min(runtime.GOMAXPROCS(0), 8, max(1, len(todo)/64))
	inParallel(workers, func(p int) {
		var stack []int
		for i := p; i < len(todo); i += workers {
			c := todo[i]
			w[c], stack = tree.at(g.centre(c), stack)
		}
	})
	return w
}

// fill sets w to v in the cells of the block [lo, hi).
func (g grid) fill(w []float64, lo, hi [3]int, v float64) {
	for k := lo[2]; k < hi[2]; k++ {
		for j := lo[1]; j < hi[1]; j++ {
			for i := lo[0]; i < hi[0]; i++ {
				w[g.cell(i, j, k)] = v
			}
		}
	}
}

// inParallel runs job(0) … job(workers−1) on as many goroutines and waits
// for them all.
func inParallel(workers int, job func(p int)) {
	var wg sync.WaitGroup
	for p := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			job(p)
		}()
	}
	wg.Wait()
}
