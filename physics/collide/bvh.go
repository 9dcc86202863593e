package collide

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// leafSize is the largest number of triangles in a BVH leaf. Small leaves
// make the tree deeper but test fewer triangle boxes per query; four is
// the usual balance for point-sized queries.
const leafSize = 4

// maxDepth bounds the traversal stack. A median split halves the
// triangles at every level, so the depth is about log₂(n/leafSize) + 1:
// 64 levels cover any mesh that fits in memory.
const maxDepth = 64

// BVH is a bounding-volume hierarchy of axis-aligned boxes over the soft
// surface's triangles. The tree (which triangles share a leaf, which
// leaves share a parent) is built once per topology by median splits of
// the triangle centroids; every step Refit recomputes the boxes bottom-up
// for the current node positions in O(n) without allocating. A tree built
// on one configuration stays correct for any other (the boxes always
// bound their triangles); it only gets slower to query if the surface
// scrambles far from the build configuration, which a soft body under
// contact does not.
type BVH struct {
	tris   [][3]int
	nodes  []bvhNode
	order  []int    // triangle indices in leaf order
	boxes  []r3.Box // boxes[k] bounds triangle order[k]
	nNodes int      // mesh nodes referenced by the triangles: max index + 1
	// corners[k] are the offsets in q (3·node) of triangle order[k]'s
	// corners: Refit reads them in leaf order instead of going through
	// order and tris, two scattered reads per triangle.
	corners [][3]int32
}

// bvhNode is a node of the tree in pre-order: the left child of an inner
// node i is i+1, so that children always follow their parent and Refit can
// sweep the array backwards.
type bvhNode struct {
	box   r3.Box
	right int32 // inner node: index of the right child
	start int32 // leaf: first position in order
	count int32 // leaf: number of triangles (0 for inner nodes)
}

// NewBVH builds the hierarchy over tris (indices into the mesh nodes, as
// in mesh.Surface.Tris) for the node positions q (flat, 3 per node) and
// fits its boxes to q.
func NewBVH(tris [][3]int, q []float64) (*BVH, error) {
	b := &BVH{tris: tris}
	for t, tri := range tris {
		for k, v := range tri {
			if v < 0 {
				return nil, fmt.Errorf("surface triangle %d corner %d has negative node index %d", t, k, v)
			}
			b.nNodes = max(b.nNodes, v+1)
		}
	}
	if len(q) < 3*b.nNodes {
		return nil, fmt.Errorf("positions have %d entries, the surface triangles need %d (3 per node)", len(q), 3*b.nNodes)
	}
	b.order = make([]int, len(tris))
	for i := range b.order {
		b.order[i] = i
	}
	b.boxes = make([]r3.Box, len(tris))
	if len(tris) > 0 {
		centroids := make([]r3.Vec, len(tris))
		for t := range tris {
			centroids[t] = r3.Scale(1.0/3, r3.Add(node(q, tris[t][0]), r3.Add(node(q, tris[t][1]), node(q, tris[t][2]))))
		}
		b.nodes = make([]bvhNode, 0, 2*len(tris)/leafSize+1)
		b.build(centroids, 0, len(tris))
	}
	b.corners = make([][3]int32, len(tris))
	for k, t := range b.order {
		tri := tris[t]
		b.corners[k] = [3]int32{int32(3 * tri[0]), int32(3 * tri[1]), int32(3 * tri[2])}
	}
	return b, b.Refit(q)
}

// build appends the subtree over order[start:end] and returns its index.
// Inner nodes split the triangles at the median centroid along the
// longest axis of the centroids' bounds (ties broken by triangle index, so
// the tree is deterministic).
func (b *BVH) build(centroids []r3.Vec, start, end int) int32 {
	idx := int32(len(b.nodes))
	b.nodes = append(b.nodes, bvhNode{})
	if end-start <= leafSize {
		b.nodes[idx].start, b.nodes[idx].count = int32(start), int32(end-start)
		return idx
	}
	lo := r3.Vec{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := r3.Scale(-1, lo)
	for _, t := range b.order[start:end] {
		c := centroids[t]
		lo = r3.Vec{X: min(lo.X, c.X), Y: min(lo.Y, c.Y), Z: min(lo.Z, c.Z)}
		hi = r3.Vec{X: max(hi.X, c.X), Y: max(hi.Y, c.Y), Z: max(hi.Z, c.Z)}
	}
	ext := r3.Sub(hi, lo)
	coord := func(c r3.Vec) float64 { return c.X }
	if ext.Y > ext.X && ext.Y >= ext.Z {
		coord = func(c r3.Vec) float64 { return c.Y }
	} else if ext.Z > ext.X && ext.Z > ext.Y {
		coord = func(c r3.Vec) float64 { return c.Z }
	}
	slices.SortFunc(b.order[start:end], func(s, t int) int {
		if c := cmp.Compare(coord(centroids[s]), coord(centroids[t])); c != 0 {
			return c
		}
		return cmp.Compare(s, t)
	})
	mid := (start + end) / 2
	b.build(centroids, start, mid)
	right := b.build(centroids, mid, end)
	b.nodes[idx].right = right
	return idx
}

// Refit recomputes every box for the node positions q (flat, 3 per node):
// first each triangle's box, then the nodes from the last to the first, so
// that both children of a node are done before it. O(n), no allocation.
//
// The boxes are updated field by field through pointers: passed by value,
// r3.Box (six floats) is too large for the compiler to keep in registers
// and every union would go through memory, four times slower.
func (b *BVH) Refit(q []float64) error {
	if len(q) < 3*b.nNodes {
		return fmt.Errorf("positions have %d entries, the surface triangles need %d (3 per node)", len(q), 3*b.nNodes)
	}
	for k, c := range b.corners {
		i, j, l := int(c[0]), int(c[1]), int(c[2])
		box := &b.boxes[k]
		box.Min.X, box.Max.X = lo3(q[i], q[j], q[l]), hi3(q[i], q[j], q[l])
		box.Min.Y, box.Max.Y = lo3(q[i+1], q[j+1], q[l+1]), hi3(q[i+1], q[j+1], q[l+1])
		box.Min.Z, box.Max.Z = lo3(q[i+2], q[j+2], q[l+2]), hi3(q[i+2], q[j+2], q[l+2])
	}
	for i := len(b.nodes) - 1; i >= 0; i-- {
		n := &b.nodes[i]
		if n.count > 0 {
			n.box = b.boxes[n.start]
			for k := n.start + 1; k < n.start+n.count; k++ {
				unionInto(&n.box, &b.boxes[k])
			}
			continue
		}
		n.box = b.nodes[i+1].box
		unionInto(&n.box, &b.nodes[n.right].box)
	}
	return nil
}

// Query calls visit for every triangle whose box overlaps box (closed
// intervals: touching counts), in a deterministic order (depth first,
// left before right). It allocates nothing.
func (b *BVH) Query(box r3.Box, visit func(tri int)) {
	if len(b.nodes) == 0 {
		return
	}
	var stack [maxDepth]int32
	top := 1
	for top > 0 {
		top--
		n := &b.nodes[stack[top]]
		if !rigid.BoxesMeet(&n.box, &box) {
			continue
		}
		if n.count > 0 {
			for k := n.start; k < n.start+n.count; k++ {
				if rigid.BoxesMeet(&b.boxes[k], &box) {
					visit(b.order[k])
				}
			}
			continue
		}
		stack[top], stack[top+1] = n.right, stack[top]+1
		top += 2
	}
}

// Nearest returns the triangle closest to r among those nearer than
// sqrt(maxD2), for the node positions q the boxes were fitted to: its
// index (−1 when none is that near), the squared distance, the closest
// point and its barycentric weights (ClosestOnTriangle). Ties go to the
// lowest triangle index, so the result does not depend on the traversal
// order: it is what testing every triangle would give. Subtrees and
// triangles whose box is farther than the best so far are skipped, with a
// relative margin of 1e-9 for the rounding of the closest point (which
// lies in its triangle's box).
func (b *BVH) Nearest(q []float64, r r3.Vec, maxD2 float64) (best int, bestD2 float64, p r3.Vec, w [3]float64) {
	return b.NearestExcept(q, r, maxD2, nil, 0)
}

// NearestExcept is Nearest over the triangles t whose part[t] is not
// skip (every triangle when part is nil): the closest triangle of the
// other parts of a soft body to one of its vertices.
func (b *BVH) NearestExcept(q []float64, r r3.Vec, maxD2 float64, part []int32, skip int32) (best int, bestD2 float64, p r3.Vec, w [3]float64) {
	best, bestD2 = -1, maxD2
	if len(b.nodes) == 0 {
		return best, bestD2, p, w
	}
	var stack [maxDepth]int32
	top := 1
	for top > 0 {
		top--
		n := &b.nodes[stack[top]]
		if boxDist2(r, &n.box) > bestD2*(1+1e-9) {
			continue
		}
		if n.count > 0 {
			for k := n.start; k < n.start+n.count; k++ {
				if boxDist2(r, &b.boxes[k]) > bestD2*(1+1e-9) {
					continue
				}
				t, tri := b.order[k], b.tris[b.order[k]]
				if part != nil && part[t] == skip {
					continue
				}
				pt, wt := ClosestOnTriangle(r, node(q, tri[0]), node(q, tri[1]), node(q, tri[2]))
				if d2 := r3.Norm2(r3.Sub(r, pt)); d2 < bestD2 || (d2 == bestD2 && t < best) {
					best, bestD2, p, w = t, d2, pt, wt
				}
			}
			continue
		}
		// The nearer child goes on top of the stack, so that the best
		// distance shrinks early.
		near, far := stack[top]+1, n.right
		if boxDist2(r, &b.nodes[near].box) > boxDist2(r, &b.nodes[far].box) {
			near, far = far, near
		}
		stack[top], stack[top+1] = far, near
		top += 2
	}
	return best, bestD2, p, w
}

// boxDist2 returns the squared distance from r to box (0 inside).
func boxDist2(r r3.Vec, box *r3.Box) float64 {
	dx, dy, dz := gap(r.X, box.Min.X, box.Max.X), gap(r.Y, box.Min.Y, box.Max.Y), gap(r.Z, box.Min.Z, box.Max.Z)
	return dx*dx + dy*dy + dz*dz
}

// gap returns how far x lies outside [lo, hi] (0 inside).
func gap(x, lo, hi float64) float64 {
	if x < lo {
		return lo - x
	}
	if x > hi {
		return x - hi
	}
	return 0
}

// AppendQuery appends to out the triangles whose box overlaps box, in
// Query's order, and returns the extended slice.
func (b *BVH) AppendQuery(box r3.Box, out []int) []int {
	b.Query(box, func(tri int) { out = append(out, tri) })
	return out
}

// Bounds returns the box of the whole surface at the last Refit; ok is
// false for an empty surface.
func (b *BVH) Bounds() (box r3.Box, ok bool) {
	if len(b.nodes) == 0 {
		return r3.Box{}, false
	}
	return b.nodes[0].box, true
}

// unionInto grows dst to contain box.
func unionInto(dst, box *r3.Box) {
	dst.Min.X, dst.Max.X = min2(dst.Min.X, box.Min.X), max2(dst.Max.X, box.Max.X)
	dst.Min.Y, dst.Max.Y = min2(dst.Min.Y, box.Min.Y), max2(dst.Max.Y, box.Max.Y)
	dst.Min.Z, dst.Max.Z = min2(dst.Min.Z, box.Min.Z), max2(dst.Max.Z, box.Max.Z)
}

// min2, max2, lo3 and hi3 are the min and max builtins, which compile to
// branch-free instructions: written as comparisons they branched, and on a
// surface whose points are not in grid order the branches mispredict
// (Refit of the 20k-triangle blob of the mesh table of docs/results.md: 645 →
// 211 µs; BenchmarkRefit's grid-ordered 972 triangles: 7.4 → 8.8 µs).
func min2(a, b float64) float64 { return min(a, b) }

func max2(a, b float64) float64 { return max(a, b) }

func lo3(a, b, c float64) float64 { return min2(min2(a, b), c) }

func hi3(a, b, c float64) float64 { return max2(max2(a, b), c) }
