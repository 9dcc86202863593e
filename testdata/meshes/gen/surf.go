package main

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"sort"
)

// surf is a triangle surface: points and triangles of point indices,
// counter-clockwise seen from outside.
type surf struct {
	P []vec
	T [][3]int
}

func (s *surf) bounds() (lo, hi vec) {
	lo = v3(math.Inf(1), math.Inf(1), math.Inf(1))
	hi = mul(-1, lo)
	for _, p := range s.P {
		lo = v3(math.Min(lo.X, p.X), math.Min(lo.Y, p.Y), math.Min(lo.Z, p.Z))
		hi = v3(math.Max(hi.X, p.X), math.Max(hi.Y, p.Y), math.Max(hi.Z, p.Z))
	}
	return lo, hi
}

func (s *surf) volume() float64 {
	v := 0.0
	for _, t := range s.T {
		v += dot(s.P[t[0]], cross(s.P[t[1]], s.P[t[2]])) / 6
	}
	return v
}

func (s *surf) normal(t [3]int) vec {
	a, b, c := s.P[t[0]], s.P[t[1]], s.P[t[2]]
	return cross(sub(b, a), sub(c, a))
}

// orientOutward flips every triangle when the enclosed volume is negative.
func (s *surf) orientOutward() {
	if s.volume() < 0 {
		for i, t := range s.T {
			s.T[i] = [3]int{t[0], t[2], t[1]}
		}
	}
}

func (s *surf) transform(f func(vec) vec) {
	for i, p := range s.P {
		s.P[i] = f(p)
	}
}

// compact drops the points no triangle uses.
func (s *surf) compact() {
	id := make([]int, len(s.P))
	for i := range id {
		id[i] = -1
	}
	var pts []vec
	for ti, t := range s.T {
		for k, v := range t {
			if id[v] < 0 {
				id[v] = len(pts)
				pts = append(pts, s.P[v])
			}
			s.T[ti][k] = id[v]
		}
	}
	s.P = pts
}

// quality of a triangle: 1 equilateral, 0 degenerate.
func quality(a, b, c vec) float64 {
	n := norm(cross(sub(b, a), sub(c, a)))
	l := dot(sub(b, a), sub(b, a)) + dot(sub(c, b), sub(c, b)) + dot(sub(a, c), sub(a, c))
	if l == 0 {
		return 0
	}
	return 2 * math.Sqrt(3) * n / l
}

// stats describes the surface: closedness, orientation, quality.
type surfStats struct {
	open, crowded, badOrient int
	minQ, meanEdge           float64
	euler                    int
}

func (s *surf) check() surfStats {
	type ek [2]int
	dir := map[ek]int{}
	und := map[ek]int{}
	var st surfStats
	st.minQ = 1
	el := 0.0
	for _, t := range s.T {
		st.minQ = math.Min(st.minQ, quality(s.P[t[0]], s.P[t[1]], s.P[t[2]]))
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			dir[ek{a, b}]++
			und[ek{min(a, b), max(a, b)}]++
			el += norm(sub(s.P[a], s.P[b]))
		}
	}
	for e, n := range und {
		switch {
		case n == 1:
			st.open++
		case n > 2:
			st.crowded++
		case dir[e] != 1:
			st.badOrient++
		}
	}
	st.meanEdge = el / float64(3*len(s.T))
	st.euler = len(s.P) - len(und) + len(s.T)
	return st
}

func (st surfStats) String() string {
	return fmt.Sprintf("open edges %d, non-manifold %d, misoriented %d, Euler %d, min quality %.3f, mean edge %.3g",
		st.open, st.crowded, st.badOrient, st.euler, st.minQ, st.meanEdge)
}

// marchingTets extracts the zero set of f on a grid of cubes of side h
// covering [lo, hi] (padded by two cells), each cube cut into the six
// tetrahedra of Kuhn's decomposition so that neighbours agree. Grid values
// too close to zero are pushed outside by eps·h, which keeps every
// extracted point apart from the others.
func marchingTets(f sdf, lo, hi vec, h, eps float64) *surf {
	lo = sub(lo, v3(2*h, 2*h, 2*h))
	hi = add(hi, v3(2*h, 2*h, 2*h))
	n := [3]int{int(math.Ceil((hi.X - lo.X) / h)), int(math.Ceil((hi.Y - lo.Y) / h)), int(math.Ceil((hi.Z - lo.Z) / h))}
	idx := func(i, j, k int) int { return (i*(n[1]+1)+j)*(n[2]+1) + k }
	pos := func(i, j, k int) vec { return v3(lo.X+h*float64(i), lo.Y+h*float64(j), lo.Z+h*float64(k)) }
	val := make([]float64, (n[0]+1)*(n[1]+1)*(n[2]+1))
	for i := 0; i <= n[0]; i++ {
		for j := 0; j <= n[1]; j++ {
			for k := 0; k <= n[2]; k++ {
				v := f(pos(i, j, k))
				if i == 0 || j == 0 || k == 0 || i == n[0] || j == n[1] || k == n[2] {
					v = math.Max(v, h) // closed: outside at the border
				}
				if math.Abs(v) < eps*h {
					v = eps * h
				}
				val[idx(i, j, k)] = v
			}
		}
	}
	s := &surf{}
	edgeAt := map[[2]int]int{}
	vertex := func(a, b int, pa, pb vec) int {
		key := [2]int{min(a, b), max(a, b)}
		if v, ok := edgeAt[key]; ok {
			return v
		}
		t := val[a] / (val[a] - val[b])
		s.P = append(s.P, lerp(pa, pb, t))
		edgeAt[key] = len(s.P) - 1
		return len(s.P) - 1
	}
	perms := [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for i := 0; i < n[0]; i++ {
		for j := 0; j < n[1]; j++ {
			for k := 0; k < n[2]; k++ {
				// skip cubes entirely on one side
				sgn, mixed := val[idx(i, j, k)] < 0, false
				for c := 1; c < 8 && !mixed; c++ {
					if (val[idx(i+c&1, j+(c>>1)&1, k+(c>>2)&1)] < 0) != sgn {
						mixed = true
					}
				}
				if !mixed {
					continue
				}
				for _, pm := range perms {
					c := [3]int{i, j, k}
					var id [4]int
					var p [4]vec
					for q := 0; q < 4; q++ {
						if q > 0 {
							c[pm[q-1]]++
						}
						id[q] = idx(c[0], c[1], c[2])
						p[q] = pos(c[0], c[1], c[2])
					}
					var in, out []int
					for q := 0; q < 4; q++ {
						if val[id[q]] < 0 {
							in = append(in, q)
						} else {
							out = append(out, q)
						}
					}
					if len(in) == 0 || len(out) == 0 {
						continue
					}
					var ci, co vec
					for _, q := range in {
						ci = add(ci, mul(1/float64(len(in)), p[q]))
					}
					for _, q := range out {
						co = add(co, mul(1/float64(len(out)), p[q]))
					}
					emit := func(a, b, c int) {
						nn := cross(sub(s.P[b], s.P[a]), sub(s.P[c], s.P[a]))
						if dot(nn, sub(co, ci)) < 0 {
							b, c = c, b
						}
						s.T = append(s.T, [3]int{a, b, c})
					}
					v := func(a, b int) int { return vertex(id[a], id[b], p[a], p[b]) }
					switch {
					case len(in) == 1:
						emit(v(in[0], out[0]), v(in[0], out[1]), v(in[0], out[2]))
					case len(out) == 1:
						emit(v(out[0], in[0]), v(out[0], in[1]), v(out[0], in[2]))
					default:
						a, b := v(in[0], out[0]), v(in[0], out[1])
						c, d := v(in[1], out[1]), v(in[1], out[0])
						emit(a, b, c)
						emit(a, c, d)
					}
				}
			}
		}
	}
	return s
}

// remesher improves a surface that lies on the zero set of f: shortest
// edge collapses down to a triangle count, edge flips towards Delaunay
// and tangential smoothing, every move projected back onto the zero set
// and refused if a triangle would turn against the gradient of f.
type remesher struct {
	s     *surf
	f     sdf
	e     float64 // finite-difference step
	vt    [][]int // triangles of each point
	alive []bool  // triangles
}

func newRemesher(s *surf, f sdf, e float64) *remesher {
	r := &remesher{s: s, f: f, e: e}
	r.rebuild()
	return r
}

func (r *remesher) rebuild() {
	r.vt = make([][]int, len(r.s.P))
	r.alive = make([]bool, len(r.s.T))
	for i, t := range r.s.T {
		r.alive[i] = true
		for _, v := range t {
			r.vt[v] = append(r.vt[v], i)
		}
	}
}

// finish drops the collapsed triangles and unused points.
func (r *remesher) finish() {
	var tris [][3]int
	for i, t := range r.s.T {
		if r.alive[i] {
			tris = append(tris, t)
		}
	}
	r.s.T = tris
	r.s.compact()
	r.rebuild()
}

func (r *remesher) count() int {
	n := 0
	for _, a := range r.alive {
		if a {
			n++
		}
	}
	return n
}

// okTri says whether triangle (a,b,c) with the given positions is
// acceptable: not too flat, facing along the gradient of f.
func (r *remesher) okTri(a, b, c vec, minQ float64) bool {
	nn := cross(sub(b, a), sub(c, a))
	l := norm(nn)
	if l == 0 || quality(a, b, c) < minQ {
		return false
	}
	g := gradient(r.f, mul(1.0/3, add(a, add(b, c))), r.e)
	gl := norm(g)
	if gl == 0 {
		return true
	}
	return dot(nn, g)/(l*gl) > 0.2
}

// neighbours returns the points joined to v by an edge, in increasing
// order (so that sums over them, and the output, are deterministic).
func (r *remesher) neighbours(v int) []int {
	var out []int
	for _, t := range r.vt[v] {
		for _, w := range r.s.T[t] {
			if w != v && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	slices.Sort(out)
	return out
}

// collapse merges b into a at the projected midpoint when the link
// condition holds and no triangle around turns or becomes too flat.
func (r *remesher) collapse(a, b int) bool {
	var shared []int
	for _, t := range r.vt[a] {
		tt := r.s.T[t]
		if tt[0] == b || tt[1] == b || tt[2] == b {
			shared = append(shared, t)
		}
	}
	if len(shared) != 2 {
		return false
	}
	opp := map[int]bool{}
	for _, t := range shared {
		for _, w := range r.s.T[t] {
			if w != a && w != b {
				opp[w] = true
			}
		}
	}
	na, nb := r.neighbours(a), r.neighbours(b)
	common := 0
	for _, w := range na {
		if slices.Contains(nb, w) {
			common++
			if !opp[w] {
				return false
			}
		}
	}
	if common != 2 || len(opp) != 2 {
		return false
	}
	for w := range opp {
		if len(r.vt[w]) <= 3 {
			return false
		}
	}
	p := project(r.f, lerp(r.s.P[a], r.s.P[b], 0.5), r.e)
	at := func(v int) vec {
		if v == a || v == b {
			return p
		}
		return r.s.P[v]
	}
	for _, v := range []int{a, b} {
		for _, t := range r.vt[v] {
			if t == shared[0] || t == shared[1] {
				continue
			}
			tt := r.s.T[t]
			q0 := quality(r.s.P[tt[0]], r.s.P[tt[1]], r.s.P[tt[2]])
			if !r.okTri(at(tt[0]), at(tt[1]), at(tt[2]), math.Min(0.05, 0.5*q0)) {
				return false
			}
		}
	}
	// apply
	r.s.P[a] = p
	for _, t := range shared {
		r.alive[t] = false
		for _, w := range r.s.T[t] {
			r.vt[w] = remove(r.vt[w], t)
		}
	}
	for _, t := range r.vt[b] {
		for k := range r.s.T[t] {
			if r.s.T[t][k] == b {
				r.s.T[t][k] = a
			}
		}
		r.vt[a] = append(r.vt[a], t)
	}
	r.vt[b] = nil
	return true
}

func remove(xs []int, x int) []int {
	for i, y := range xs {
		if y == x {
			return append(xs[:i], xs[i+1:]...)
		}
	}
	return xs
}

// decimate collapses the shortest edges until at most target triangles
// are left (or nothing more can go), then every edge shorter than a
// fifth of the mean that can go.
func (r *remesher) decimate(target int) {
	r.collapseShort(target, math.Inf(1))
	mean := 0.0
	n := 0
	for i, t := range r.s.T {
		if r.alive[i] {
			for k := 0; k < 3; k++ {
				mean += norm(sub(r.s.P[t[k]], r.s.P[t[(k+1)%3]]))
				n++
			}
		}
	}
	r.collapseShort(0, 0.2*mean/float64(n))
	r.finish()
}

// collapseShort collapses edges, shortest first, down to target
// triangles, only edges shorter than maxLen.
func (r *remesher) collapseShort(target int, maxLen float64) {
	for pass := 0; pass < 60; pass++ {
		n := r.count()
		if n <= target {
			break
		}
		type edge struct {
			a, b int
			l    float64
		}
		var edges []edge
		for i, t := range r.s.T {
			if !r.alive[i] {
				continue
			}
			for k := 0; k < 3; k++ {
				a, b := t[k], t[(k+1)%3]
				if a < b {
					edges = append(edges, edge{a, b, norm(sub(r.s.P[a], r.s.P[b]))})
				}
			}
		}
		sort.Slice(edges, func(i, j int) bool { return edges[i].l < edges[j].l })
		touched := make([]bool, len(r.s.P))
		done := 0
		for _, e := range edges {
			if n <= target || e.l > maxLen {
				break
			}
			if touched[e.a] || touched[e.b] {
				continue
			}
			if r.collapse(e.a, e.b) {
				n -= 2
				done++
				touched[e.a], touched[e.b] = true, true
				for _, w := range r.neighbours(e.a) {
					touched[w] = true
				}
			}
		}
		if done == 0 {
			break
		}
	}
}

// flips turns edges towards the Delaunay criterion where the two
// triangles are nearly coplanar.
func (r *remesher) flips(passes int) {
	for pass := 0; pass < passes; pass++ {
		type ek [2]int
		et := map[ek][]int{}
		for i, t := range r.s.T {
			if !r.alive[i] {
				continue
			}
			for k := 0; k < 3; k++ {
				a, b := t[k], t[(k+1)%3]
				key := ek{min(a, b), max(a, b)}
				et[key] = append(et[key], i)
			}
		}
		keys := make([]ek, 0, len(et))
		for k := range et {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
		})
		used := make([]bool, len(r.s.T))
		flipped := 0
		for _, key := range keys {
			ts := et[key]
			if len(ts) != 2 || used[ts[0]] || used[ts[1]] {
				continue
			}
			a, b := key[0], key[1]
			t0, t1 := r.s.T[ts[0]], r.s.T[ts[1]]
			// orient: t0 holds a→b
			if !runs(t0, a, b) {
				t0, t1 = t1, t0
				ts[0], ts[1] = ts[1], ts[0]
			}
			c, d := third(t0, a, b), third(t1, a, b)
			if c == d || slices.Contains(r.neighbours(c), d) {
				continue
			}
			P := r.s.P
			angle := func(o, x, y vec) float64 {
				return math.Acos(clamp(dot(unit(sub(x, o)), unit(sub(y, o))), -1, 1))
			}
			if angle(P[c], P[a], P[b])+angle(P[d], P[a], P[b]) <= math.Pi+1e-9 {
				continue
			}
			n0, n1 := unit(r.s.normal(t0)), unit(r.s.normal(t1))
			if dot(n0, n1) < 0.95 {
				continue
			}
			// t0 = (a,b,c), t1 = (b,a,d) → (c,d,b)?  new: (a,d,c) and (d,b,c)
			nt0, nt1 := [3]int{a, d, c}, [3]int{d, b, c}
			q0 := math.Min(quality(P[a], P[b], P[c]), quality(P[b], P[a], P[d]))
			q1 := math.Min(quality(P[a], P[d], P[c]), quality(P[d], P[b], P[c]))
			if q1 <= q0 || !r.okTri(P[a], P[d], P[c], 0) || !r.okTri(P[d], P[b], P[c], 0) {
				continue
			}
			r.vt[a] = remove(r.vt[a], ts[1])
			r.vt[b] = remove(r.vt[b], ts[0])
			r.vt[c] = append(r.vt[c], ts[1])
			r.vt[d] = append(r.vt[d], ts[0])
			r.s.T[ts[0]], r.s.T[ts[1]] = nt0, nt1
			used[ts[0]], used[ts[1]] = true, true
			flipped++
		}
		if flipped == 0 {
			break
		}
	}
}

func runs(t [3]int, a, b int) bool {
	for k := 0; k < 3; k++ {
		if t[k] == a && t[(k+1)%3] == b {
			return true
		}
	}
	return false
}

func third(t [3]int, a, b int) int {
	for _, v := range t {
		if v != a && v != b {
			return v
		}
	}
	return -1
}

// smooth moves each point part of the way to the centroid of its
// neighbours, tangentially, then back onto the zero set; a move that
// would turn or flatten a triangle is refused.
func (r *remesher) smooth(iters int, lambda float64) {
	for it := 0; it < iters; it++ {
		for v := range r.s.P {
			if len(r.vt[v]) == 0 {
				continue
			}
			nb := r.neighbours(v)
			var c vec
			for _, w := range nb {
				c = add(c, r.s.P[w])
			}
			c = mul(1/float64(len(nb)), c)
			p := r.s.P[v]
			n := unit(gradient(r.f, p, r.e))
			d := sub(c, p)
			d = sub(d, mul(dot(d, n), n))
			q := project(r.f, add(p, mul(lambda, d)), r.e)
			ok := true
			minBefore, minAfter := 1.0, 1.0
			for _, t := range r.vt[v] {
				tt := r.s.T[t]
				at := func(w int) vec {
					if w == v {
						return q
					}
					return r.s.P[w]
				}
				minBefore = math.Min(minBefore, quality(r.s.P[tt[0]], r.s.P[tt[1]], r.s.P[tt[2]]))
				a, b, cc := at(tt[0]), at(tt[1]), at(tt[2])
				minAfter = math.Min(minAfter, quality(a, b, cc))
				if !r.okTri(a, b, cc, 0.02) {
					ok = false
					break
				}
			}
			if ok && minAfter >= 0.5*minBefore {
				r.s.P[v] = q
			}
		}
	}
}

// remesh is the whole clean-up: collapse to the target, flip, smooth.
func remesh(s *surf, f sdf, e float64, target int) *surf {
	r := newRemesher(s, f, e)
	r.decimate(target)
	for round := 0; round < 3; round++ {
		r.flips(10)
		r.smooth(3, 0.5)
	}
	r.flips(10)
	return r.s
}

// extract is marching tetrahedra at the cell size that gives about raw
// triangles, then the remesh down to target.
func extract(f sdf, lo, hi vec, h float64, target int) *surf {
	s := marchingTets(f, lo, hi, h, 1e-3)
	raw := len(s.T)
	s = remesh(s, f, h*1e-3, target)
	fmt.Printf("    extracted %d triangles at cell %.3g, remeshed to %d: %v\n", raw, h, len(s.T), s.check())
	return s
}

// addNoise moves every point along its normal by a Gaussian of standard
// deviation sigma (cut at 2.5σ), leaving out the moves that would turn
// a triangle by more than 60°: the "scan noise" of a scanned object.
func addNoise(s *surf, sigma float64, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	vn := make([]vec, len(s.P))
	for _, t := range s.T {
		n := s.normal(t)
		for _, v := range t {
			vn[v] = add(vn[v], n)
		}
	}
	orig := append([]vec(nil), s.P...)
	before := make([]vec, len(s.T))
	for i, t := range s.T {
		before[i] = unit(s.normal(t))
	}
	for i := range s.P {
		g := clamp(rng.NormFloat64(), -2.5, 2.5)
		// a little tangential jitter too, a tenth of the normal noise
		j := v3(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		s.P[i] = add(s.P[i], add(mul(sigma*g, unit(vn[i])), mul(0.1*sigma, j)))
	}
	for round := 0; round < 5; round++ {
		bad := 0
		for i, t := range s.T {
			if dot(unit(s.normal(t)), before[i]) < 0.5 {
				bad++
				for _, v := range t {
					s.P[v] = orig[v]
				}
			}
		}
		if bad == 0 {
			break
		}
	}
}

// grid builds the triangles of rows of closed loops of m points each
// (rows[i][j]), with an optional pole point before the first row and
// after the last; periodic joins the last row to the first instead (a
// torus). The winding is fixed by orientOutward.
func grid(rows [][]vec, start, end *vec, periodic bool) *surf {
	s := &surf{}
	m := len(rows[0])
	for _, r := range rows {
		s.P = append(s.P, r...)
	}
	id := func(i, j int) int { return (i%len(rows))*m + (j % m) }
	nr := len(rows) - 1
	if periodic {
		nr = len(rows)
	}
	for i := 0; i < nr; i++ {
		for j := 0; j < m; j++ {
			a, b, c, d := id(i, j), id(i, j+1), id(i+1, j+1), id(i+1, j)
			// split along the shorter diagonal
			if norm(sub(s.P[a], s.P[c])) <= norm(sub(s.P[b], s.P[d])) {
				s.T = append(s.T, [3]int{a, b, c}, [3]int{a, c, d})
			} else {
				s.T = append(s.T, [3]int{a, b, d}, [3]int{b, c, d})
			}
		}
	}
	if start != nil {
		s.P = append(s.P, *start)
		p := len(s.P) - 1
		for j := 0; j < m; j++ {
			s.T = append(s.T, [3]int{p, id(0, j+1), id(0, j)})
		}
	}
	if end != nil {
		s.P = append(s.P, *end)
		p := len(s.P) - 1
		l := len(rows) - 1
		for j := 0; j < m; j++ {
			s.T = append(s.T, [3]int{p, id(l, j), id(l, j+1)})
		}
	}
	s.orientOutward()
	return s
}

// revolve turns a profile of (radius, height) points about the z axis
// with m segments; the first and last profile points lie on the axis
// (radius 0) and become poles.
func revolve(profile [][2]float64, m int) *surf {
	var rows [][]vec
	for _, pr := range profile[1 : len(profile)-1] {
		row := make([]vec, m)
		for j := range row {
			a := 2 * math.Pi * float64(j) / float64(m)
			row[j] = v3(pr[0]*math.Cos(a), pr[0]*math.Sin(a), pr[1])
		}
		rows = append(rows, row)
	}
	s0, s1 := v3(0, 0, profile[0][1]), v3(0, 0, profile[len(profile)-1][1])
	return grid(rows, &s0, &s1, false)
}
