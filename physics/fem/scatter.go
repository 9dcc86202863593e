package fem

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/sparse"
)

// The scatter of the element pass's results (forces into b or f, the
// stiffness blocks into A) in parallel without changing a single bit: the
// nodes are cut into parts of contiguous indices, and each part adds, in
// element order, the contributions of the elements that touch it to the
// entries it owns: the force rows of its nodes and the columns of A of
// its nodes (a block couples a pair's higher-numbered node, its rows, to
// the lower one, its column). Every entry then receives its terms in the
// order the serial loop adds them, whoever runs the part.

// scatterPartsPerWorker is the number of parts per goroutine of the pool:
// enough that a goroutine the scheduler delays leaves its parts to the
// others.
const scatterPartsPerWorker = 4

// scatterPart is a range of nodes [lo, hi) and the elements, in order,
// with a node in it.
type scatterPart struct {
	lo, hi int32
	elems  []int32
}

// scatterParts cuts m's nodes into at most n parts of about equal element
// incidence.
func scatterParts(m *Model, n int) []scatterPart {
	nodes := len(m.mass)
	if n < 1 || nodes == 0 {
		return nil
	}
	incid := make([]int, nodes)
	for k := range m.elems {
		for _, i := range m.elems[k].nodes {
			incid[i]++
		}
	}
	total := 4 * len(m.elems)
	var parts []scatterPart
	lo, sum := 0, 0
	for i := range nodes {
		sum += incid[i]
		if sum*n >= (len(parts)+1)*total || i == nodes-1 {
			parts = append(parts, scatterPart{lo: int32(lo), hi: int32(i + 1)})
			lo = i + 1
		}
	}
	for k := range m.elems {
		last := -1
		for _, i := range m.elems[k].nodes {
			p := partOf(parts, i)
			if p != last && !hasElem(parts[p].elems, int32(k)) {
				parts[p].elems = append(parts[p].elems, int32(k))
			}
			last = p
		}
	}
	return parts
}

// partOf returns the part holding node i.
func partOf(parts []scatterPart, i int32) int {
	lo, hi := 0, len(parts)
	for lo < hi {
		mid := (lo + hi) / 2
		if parts[mid].hi <= i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// hasElem reports whether k ends the part's element list (elements are
// added in order, so a repeat can only be the last one).
func hasElem(elems []int32, k int32) bool {
	return len(elems) > 0 && elems[len(elems)-1] == k
}

// scatterJob adds the element stresses (P_e·g_i into f) and, with A set,
// the stiffness blocks scaled by cK·kvol at the rotations rot.
type scatterJob struct {
	m      *Model
	stress []m3.Mat3
	f      []float64
	rot    []m3.Mat3
	A      *sparse.SymCSC
	cK     float64
}

// scatterPass adds the stresses of w's last element pass into f and, with
// A set, the stiffness blocks at the rotations rot scaled by cK·kvol,
// on the pool where it is shared. The result does not depend on how.
func (m *Model) scatterPass(w *Workspace, f []float64, rot []m3.Mat3, A *sparse.SymCSC, cK float64) {
	w.scatter = scatterJob{m: m, stress: w.stress, f: f, rot: rot, A: A, cK: cK}
	m.pool.scatter(&w.scatter, len(m.elems))
	w.scatter = scatterJob{}
}

// all scatters every element into every entry: the serial pass.
func (j *scatterJob) all() {
	for k := range j.m.elems {
		j.element(k, 0, math.MaxInt32)
	}
}

// do scatters the elements of part p into the entries it owns.
func (j *scatterJob) do(p int) {
	part := &j.m.pool.parts[p]
	for _, k := range part.elems {
		j.element(int(k), part.lo, part.hi)
	}
}

// element scatters element k into the entries of the nodes in [lo, hi).
func (j *scatterJob) element(k int, lo, hi int32) {
	m := j.m
	e := &m.elems[k]
	e.scatterForceOwned(&j.stress[k], j.f, lo, hi)
	if j.A != nil {
		cV := j.cK * e.kvol
		e.addBlocksOwned(&j.rot[k], cV*m.lambda, cV*m.mu, j.A.ColPtr, j.A.Val, lo, hi)
	}
}

// scatterForce adds P·g_i to the force slot of each node i, i.e. the
// nodal forces (1) of an element whose V·R·σ is P.
func (e *element) scatterForce(P *m3.Mat3, f []float64) {
	e.scatterForceOwned(P, f, 0, math.MaxInt32)
}

// scatterForceOwned is scatterForce for the nodes in [lo, hi) only.
func (e *element) scatterForceOwned(P *m3.Mat3, f []float64, lo, hi int32) {
	for k := 0; k < 4; k++ {
		if n := e.nodes[k]; n >= lo && n < hi {
			i := 3 * int(n)
			g := e.g[k]
			f[i] += P[0]*g.X + P[1]*g.Y + P[2]*g.Z
			f[i+1] += P[3]*g.X + P[4]*g.Y + P[5]*g.Z
			f[i+2] += P[6]*g.X + P[7]*g.Y + P[8]*g.Z
		}
	}
}

// addBlocksOwned adds the element's corotational stiffness, scaled, into
// the lower triangle of A, in the columns of the nodes in [lo, hi) only:
// the diagonal blocks of those nodes and the pair blocks whose
// lower-numbered node is one of them. By Eq. (3) of element.go the block
// of nodes (i, j) is cl·r_i r_jᵀ + cm·r_j r_iᵀ + cm·(g_i·g_j)·I with
// r_i = R·g_i, where cl and cm are the scaled λ·V and μ·V.
func (e *element) addBlocksOwned(R *m3.Mat3, cl, cm float64, colPtr []int, val []float64, lo, hi int32) {
	var r [4]r3.Vec
	for i := range r {
		r[i] = R.MulVec(e.g[i])
	}
	// Diagonal blocks (lower 6 entries): column 3n+b stores rows
	// 3n+b … 3n+2 first, so entry (a, b) sits at colPtr[3n+b] + a − b.
	cd := cl + cm
	for i, ri := range r {
		if e.nodes[i] < lo || e.nodes[i] >= hi {
			continue
		}
		n := 3 * int(e.nodes[i])
		d := cm * r3.Norm2(e.g[i])
		k0, k1, k2 := colPtr[n], colPtr[n+1], colPtr[n+2]
		val[k0] += cd*ri.X*ri.X + d
		val[k0+1] += cd * ri.Y * ri.X
		val[k0+2] += cd * ri.Z * ri.X
		val[k1] += cd*ri.Y*ri.Y + d
		val[k1+1] += cd * ri.Z * ri.Y
		val[k2] += cd*ri.Z*ri.Z + d
	}
	for p, ij := range localPairs {
		i, j := ij[0], ij[1]
		if c := min(e.nodes[i], e.nodes[j]); c < lo || c >= hi {
			continue
		}
		if e.swap&(1<<p) != 0 {
			i, j = j, i
		}
		ri, rj := r[i], r[j]
		d := cm * r3.Dot(e.g[i], e.g[j])
		// Column b of the block: cl·r_i·(r_j)_b + cm·r_j·(r_i)_b + d·e_b.
		s := &e.start[p]
		addCol(val[s[0]:s[0]+3], ri, rj, cl*rj.X, cm*ri.X, d, 0)
		addCol(val[s[1]:s[1]+3], ri, rj, cl*rj.Y, cm*ri.Y, d, 1)
		addCol(val[s[2]:s[2]+3], ri, rj, cl*rj.Z, cm*ri.Z, d, 2)
	}
}
