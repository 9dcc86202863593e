package embed

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// SolidAngle returns the signed solid angle Ω that triangle (a, b, c)
// subtends at q, by the formula of Van Oosterom and Strackee:
//
//	tan(Ω/2) = a'·(b'×c') / (|a'||b'||c'| + (a'·b')|c'| + (a'·c')|b'| + (b'·c')|a'|)
//
// with a' = a−q, b' = b−q, c' = c−q. Ω is positive when q lies behind the
// triangle (on the side its normal (b−a)×(c−a) points away from), in
// (−2π, 2π), and 0 for a point in the triangle's plane.
//
// References: A. Van Oosterom and J. Strackee, "The solid angle of a plane
// triangle", IEEE Trans. Biomed. Eng. 30(2), 1983.
func SolidAngle(q, a, b, c r3.Vec) float64 {
	a, b, c = r3.Sub(a, q), r3.Sub(b, q), r3.Sub(c, q)
	la, lb, lc := math.Sqrt(r3.Dot(a, a)), math.Sqrt(r3.Dot(b, b)), math.Sqrt(r3.Dot(c, c))
	num := r3.Dot(a, r3.Cross(b, c))
	den := la*lb*lc + r3.Dot(a, b)*lc + r3.Dot(a, c)*lb + r3.Dot(b, c)*la
	return 2 * math.Atan2(num, den)
}

// leafSize is the most triangles a leaf of the winding tree holds.
const leafSize = 8

// farRatio is β of the fast winding number: a node's expansion is used
// for points farther than β times its radius from its centre.
const farRatio = 2.0

// windingNode is a node of the winding tree: a box of triangles with the
// moments of its far-field expansion.
type windingNode struct {
	// centre p̃ is the area-weighted centroid of the triangles; radius the
	// largest distance from it to one of their corners.
	centre r3.Vec
	radius float64
	// n is Σ a_t·n̂_t, the area-weighted normal (dipole moment); m is
	// Σ a_t·n̂_t⊗(c_t−p̃), the first moment (row i, column j = n_i·d_j).
	n r3.Vec
	m [3][3]float64
	// Children (left, right) or, for a leaf (left < 0), the triangles
	// order[first:first+count].
	left, right int
	first       int
	count       int
}

// windingTree evaluates the generalised winding number of a triangle
// soup, w(q) = Σ_t Ω_t(q)/4π: 1 inside a closed outward surface, 0
// outside, and a smooth harmonic value in between where the surface has
// holes, overlaps or disagrees with itself. Far triangles are summed by
// the expansion of a bounding-volume hierarchy (the fast winding number):
// a node whose centre p̃ is more than β·radius from q contributes, to
// second order,
//
//	w ≈ [N·r/|r|³ + tr(M)/|r|³ − 3·rᵀM r/|r|⁵] / 4π,   r = p̃ − q,
//
// the Taylor expansion of ∫ n̂·(x−q)/|x−q|³ dA about p̃, with N and M
// the node's moments; nearer nodes are opened and leaf triangles summed
// exactly by SolidAngle.
//
// References: G. Barill, N. Dickson, R. Schmidt, D. I. W. Levin and A.
// Jacobson, "Fast winding numbers for soups and clouds", ACM Trans. Graph.
// 37(4), 2018; A. Jacobson, L. Kavan and O. Sorkine-Hornung, "Robust
// inside-outside segmentation using generalized winding numbers", ACM
// Trans. Graph. 32(4), 2013.
type windingTree struct {
	nodes []r3.Vec
	tris  [][3]int
	order []int
	tree  []windingNode
}

// newWindingTree builds the tree over the triangles of s, splitting each
// box at the median of its triangles' centroids along its longest side.
func newWindingTree(s *mesh.TriSurface) *windingTree {
	w := &windingTree{nodes: s.Nodes, tris: s.Tris, order: make([]int, len(s.Tris))}
	cent := make([]r3.Vec, len(s.Tris))
	for i, t := range s.Tris {
		w.order[i] = i
		cent[i] = r3.Scale(1.0/3, r3.Add(s.Nodes[t[0]], r3.Add(s.Nodes[t[1]], s.Nodes[t[2]])))
	}
	if len(s.Tris) > 0 {
		w.build(cent, 0, len(s.Tris))
	}
	return w
}

// build adds the node of order[lo:hi] and its subtree; it returns its
// index.
func (w *windingTree) build(cent []r3.Vec, lo, hi int) int {
	id := len(w.tree)
	w.tree = append(w.tree, windingNode{left: -1, right: -1, first: lo, count: hi - lo})
	ids := w.order[lo:hi]
	// Moments: area-weighted centroid and normal.
	var area float64
	var centre, n r3.Vec
	box := r3.Box{Min: cent[ids[0]], Max: cent[ids[0]]}
	for _, t := range ids {
		a, b, c := w.corners(t)
		an := r3.Scale(0.5, r3.Cross(r3.Sub(b, a), r3.Sub(c, a)))
		at := math.Sqrt(r3.Dot(an, an))
		area += at
		centre = r3.Add(centre, r3.Scale(at, cent[t]))
		n = r3.Add(n, an)
		box.Min = r3.Vec{X: min(box.Min.X, cent[t].X), Y: min(box.Min.Y, cent[t].Y), Z: min(box.Min.Z, cent[t].Z)}
		box.Max = r3.Vec{X: max(box.Max.X, cent[t].X), Y: max(box.Max.Y, cent[t].Y), Z: max(box.Max.Z, cent[t].Z)}
	}
	if area > 0 {
		centre = r3.Scale(1/area, centre)
	} else {
		centre = r3.Scale(0.5, r3.Add(box.Min, box.Max))
	}
	var m [3][3]float64
	var radius float64
	for _, t := range ids {
		a, b, c := w.corners(t)
		an := r3.Scale(0.5, r3.Cross(r3.Sub(b, a), r3.Sub(c, a)))
		d := r3.Sub(cent[t], centre)
		nv, dv := [3]float64{an.X, an.Y, an.Z}, [3]float64{d.X, d.Y, d.Z}
		for i := range 3 {
			for j := range 3 {
				m[i][j] += nv[i] * dv[j]
			}
		}
		for _, p := range [3]r3.Vec{a, b, c} {
			d := r3.Sub(p, centre)
			radius = max(radius, r3.Dot(d, d))
		}
	}
	nd := &w.tree[id]
	nd.centre, nd.radius, nd.n, nd.m = centre, math.Sqrt(radius), n, m
	if hi-lo <= leafSize {
		return id
	}
	// Split at the median along the longest side of the centroids' box.
	ext := r3.Sub(box.Max, box.Min)
	axis := 0
	switch {
	case ext.Y >= ext.X && ext.Y >= ext.Z:
		axis = 1
	case ext.Z >= ext.X && ext.Z >= ext.Y:
		axis = 2
	}
	selectMedian(ids, func(t int) float64 { return vec(cent[t])[axis] })
	mid := (lo + hi) / 2
	left := w.build(cent, lo, mid)
	right := w.build(cent, mid, hi)
	w.tree[id].left, w.tree[id].right = left, right
	return id
}

// selectMedian reorders ids so that the first half holds the smallest
// keys and the second half the largest (Hoare's selection of the element
// at len/2), ties broken by index so that the tree does not depend on the
// input's order beyond the keys.
func selectMedian(ids []int, key func(int) float64) {
	less := func(x, y int) bool {
		kx, ky := key(x), key(y)
		return kx < ky || kx == ky && x < y
	}
	k := len(ids) / 2
	lo, hi := 0, len(ids)-1
	for lo < hi {
		// Median of three as the pivot, moved to hi.
		mid := (lo + hi) / 2
		if less(ids[mid], ids[lo]) {
			ids[mid], ids[lo] = ids[lo], ids[mid]
		}
		if less(ids[hi], ids[lo]) {
			ids[hi], ids[lo] = ids[lo], ids[hi]
		}
		if less(ids[mid], ids[hi]) {
			ids[mid], ids[hi] = ids[hi], ids[mid]
		}
		pivot := ids[hi]
		i := lo
		for j := lo; j < hi; j++ {
			if less(ids[j], pivot) {
				ids[i], ids[j] = ids[j], ids[i]
				i++
			}
		}
		ids[i], ids[hi] = ids[hi], ids[i]
		switch {
		case i == k:
			return
		case i < k:
			lo = i + 1
		default:
			hi = i - 1
		}
	}
}

func (w *windingTree) corners(t int) (a, b, c r3.Vec) {
	tri := w.tris[t]
	return w.nodes[tri[0]], w.nodes[tri[1]], w.nodes[tri[2]]
}

// exact returns w(q) summed over every triangle: the reference that the
// tree approximates.
func (w *windingTree) exact(q r3.Vec) float64 {
	var omega float64
	for t := range w.tris {
		a, b, c := w.corners(t)
		omega += SolidAngle(q, a, b, c)
	}
	return omega / (4 * math.Pi)
}

// at returns w(q) by the tree. stack is scratch space (it may be nil) and
// is returned for reuse.
func (w *windingTree) at(q r3.Vec, stack []int) (float64, []int) {
	if len(w.tree) == 0 {
		return 0, stack
	}
	var omega float64
	stack = append(stack[:0], 0)
	for len(stack) > 0 {
		nd := &w.tree[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		r := r3.Sub(nd.centre, q)
		d2 := r3.Dot(r, r)
		if d2 > farRatio*farRatio*nd.radius*nd.radius {
			omega += nd.far(r, d2)
			continue
		}
		if nd.left < 0 {
			for _, t := range w.order[nd.first : nd.first+nd.count] {
				a, b, c := w.corners(t)
				omega += SolidAngle(q, a, b, c)
			}
			continue
		}
		stack = append(stack, nd.left, nd.right)
	}
	return omega / (4 * math.Pi), stack
}

// far returns the node's expansion of the solid angle (4π·w, see
// windingTree) at r = p̃ − q with d2 = |r|².
func (nd *windingNode) far(r r3.Vec, d2 float64) float64 {
	d := math.Sqrt(d2)
	inv3 := 1 / (d2 * d)
	inv5 := inv3 / d2
	rv := [3]float64{r.X, r.Y, r.Z}
	var tr, rmr float64
	for i := range 3 {
		tr += nd.m[i][i]
		for j := range 3 {
			rmr += rv[i] * nd.m[i][j] * rv[j]
		}
	}
	return r3.Dot(nd.n, r)*inv3 + tr*inv3 - 3*rmr*inv5
}
