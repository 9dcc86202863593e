package scenario

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
)

// The grasp search: where on the object's own surface two parallel jaws
// hold it. The gripper stays upright (its axis vertical, the closing axis
// horizontal), so a grasp is a heading θ of the closing axis d, a strip
// across it (the jaws' width, centred at s_c along e = ẑ × d) and a
// height z_c of the jaws' centre. Closing, each jaw first meets the
// object's surface where it is extreme along d within the jaws' face
// (the band: the strip, at heights within half a jaw of z_c), and the
// jaws squeeze the surface within contactDepth of those extremes: the two
// contact patches. A grasp holds when the patches are antipodal, each
// patch's area-weighted normal n within the friction cone about the
// closing axis (the normal force then holds the object without slipping,
// n·(∓d) ≥ cos(atan μ)), and when the patches are large and level with
// each other and the centre of mass lies between them (no torque about
// the closing axis to twist the object out). It is reachable when the
// open jaws come down around the object's whole width in the strip above
// their lower edge (its column) with a clearance, within the jaws' reach,
// and the lower edge keeps FloorMargin above the floor.
//
// The search takes the headings graspHeadings apart over a half turn (the
// gripper is symmetric under a half turn) and the preferred one, strips a
// quarter of the jaws' width apart across the object and the centre of
// mass's, and a few heights, and scores each reachable antipodal grasp by
//
//	score = overlap·cos²(worst normal) − 0.3·com − 0.3·align − 0.3·height
//	        − 0.05·turn − 0.1·centring − 1·near − 0.3·wide − 1·gap,
//
// overlap the smaller patch's area over fullPatch of what a flat side
// would give there (at most 1); com the centre of mass's distance across
// from the patches' middle over half the jaw width (its torque about the
// closing axis); align the patches' offset from each other across and
// along the axis over the jaw's width and height; height the jaws' centre
// from the centre of mass's height over the jaw height; turn the turn
// from the preferred heading over a quarter turn; centring the strip's
// offset from the patches' middle over half the jaw width; near, for a
// click, the centre's offset from the clicked point across the line of
// sight beyond a third of the jaw width, over the jaw width; wide the width over the narrowest candidate's,
// less one (at most one: squeezed the long way, a slender object buckles);
// gap the share of the line between the patches that is air, beyond the
// few millimetres a squeeze closes (two branches pressed together).
//
// It is coarse to fine: every heading is scored on coarseSamples samples
// of the surface, the best refineHeadings are refined to a half and a
// quarter of the spacing, and the best rescored headings with their
// neighbours (and the preferred one) are scored again on maxSamples
// samples; gap, which casts a ray through the surface, is scored for the
// best solidChecks only. The preferred heading is kept unless another is
// better by headingKeep.

// Limits of the grasp search.
const (
	// graspHeadings is the spacing of the candidate headings, rad; the
	// best refineHeadings of them are refined by half that spacing each
	// way, and by a quarter.
	graspHeadings  = 10 * math.Pi / 180
	refineHeadings = 3
	// contactDepth is how deep into the surface, from each jaw's first
	// touch, the contact patch reaches, m: about the squeeze of the
	// default grip on the default box (3 mm a side).
	contactDepth = 2.5e-3
	// approachGap is the gap each open jaw keeps from the object's column
	// as it comes down, m, where the reach allows; aimClearance the least.
	approachGap  = 8e-3
	aimClearance = 1e-3
	// maxSamples bounds the surface samples the search scores patches on,
	// coarseSamples those it ranks the headings on first; the best
	// rescored headings are searched again on the finer samples.
	maxSamples    = 4000
	coarseSamples = 1000
	rescored      = 3
	// minPatchShare is the least patch area, as a share of the jaw face,
	// that counts as a contact.
	minPatchShare = 0.02
	// thinnest is how much wider than the jaws' least opening the object
	// must be where they meet it, so that they can squeeze it, m.
	thinnest = 1e-3
	// fullPatch is the share of the jaw face at which a patch counts as
	// covering it: the samples that fall inside a fully covered face add
	// up to its area only to within their size.
	fullPatch = 0.8
)

// Jaws is what the grasp search knows of the gripper: each jaw's contact
// face, Width across (the gripper's y) by Height along its axis, the
// widest and narrowest openings, and the friction coefficient μ of the
// jaws on the object.
type Jaws struct {
	Width, Height     float64
	Reach, MinOpening float64
	Friction          float64
}

// JawsOf describes gripper g's jaws with reach and μ.
func JawsOf(g rigid.Gripper, reach, mu float64) Jaws {
	return Jaws{Width: g.JawWidth, Height: g.JawHeight, Reach: reach, MinOpening: MinOpening, Friction: mu}
}

// grasp surface: the object's vertices (its extent: the column) and its
// surface samples (position, unit normal and area: the patches), with its
// centre of mass.
type graspSurface struct {
	verts   []r3.Vec
	tris    [][3]int
	samples []graspSample
	com     r3.Vec
	top     float64
	// coarse is the same surface with fewer samples, on which the search
	// ranks its candidates before the best are scored on these.
	coarse *graspSurface
}

type graspSample struct {
	p, n r3.Vec
	a    float64
}

// newGraspSurface samples the triangles (tri(k) the corners of triangle
// k of n, indices into positions, three coordinates each; triangles with
// a corner out of range are skipped): each is cut into m² similar
// triangles, m the ceiling of its longest edge over the spacing, and each
// piece is a sample at its centroid. The spacing keeps the samples near
// maxSamples, and at least every triangle.
func newGraspSurface[F Coord](positions []F, tri func(k int) [3]int, n int, com r3.Vec) graspSurface {
	nv := len(positions) / 3
	g := graspSurface{com: com, top: math.Inf(-1)}
	for i := 0; i < nv; i++ {
		p := point(positions, i)
		g.verts = append(g.verts, p)
		g.top = math.Max(g.top, p.Z)
	}
	area := 0.0
	valid := func(t [3]int) bool {
		return t[0] >= 0 && t[1] >= 0 && t[2] >= 0 && t[0] < nv && t[1] < nv && t[2] < nv
	}
	for k := 0; k < n; k++ {
		if t := tri(k); valid(t) {
			area += r3.Norm(r3.Cross(r3.Sub(g.verts[t[1]], g.verts[t[0]]), r3.Sub(g.verts[t[2]], g.verts[t[0]]))) / 2
		}
	}
	spacing := math.Sqrt(2 * area / maxSamples)
	for k := 0; k < n; k++ {
		t := tri(k)
		if !valid(t) {
			continue
		}
		g.tris = append(g.tris, t)
		a, b, c := g.verts[t[0]], g.verts[t[1]], g.verts[t[2]]
		cr := r3.Cross(r3.Sub(b, a), r3.Sub(c, a))
		l := r3.Norm(cr)
		if !(l > 0) {
			continue
		}
		nrm := r3.Scale(1/l, cr)
		longest := math.Max(r3.Norm(r3.Sub(b, a)), math.Max(r3.Norm(r3.Sub(c, b)), r3.Norm(r3.Sub(a, c))))
		m := 1
		if spacing > 0 {
			m = max(1, int(math.Ceil(longest/spacing)))
		}
		g.samples = appendPieces(g.samples, a, b, c, nrm, l/2, m)
	}
	g.samples = thinned(g.samples, maxSamples)
	coarse := g
	coarse.samples = thinned(g.samples, coarseSamples)
	g.coarse = &coarse
	return g
}

// thinned returns at most about n of the samples: every k-th, carrying k
// times its area (a surface of more triangles than n has a sample per
// triangle).
func thinned(s []graspSample, n int) []graspSample {
	k := (len(s) + n - 1) / n
	if k <= 1 {
		return s
	}
	out := make([]graspSample, 0, len(s)/k+1)
	for i := 0; i < len(s); i += k {
		x := s[i]
		x.a *= float64(k)
		out = append(out, x)
	}
	return out
}

// solidCentroid is the centroid of the solid the surface's triangles
// bound (mesh.TriSurface.Centroid).
func (g *graspSurface) solidCentroid(tri func(k int) [3]int, n int) r3.Vec {
	ts := &mesh.TriSurface{Nodes: g.verts}
	for k := 0; k < n; k++ {
		if t := tri(k); t[0] >= 0 && t[1] >= 0 && t[2] >= 0 && t[0] < len(g.verts) && t[1] < len(g.verts) && t[2] < len(g.verts) {
			ts.Tris = append(ts.Tris, t)
		}
	}
	return ts.Centroid()
}

// appendPieces appends the centroids of the m² triangles that cut
// (a, b, c) into similar ones (m up and m−1 down per row of the
// barycentric grid), each with the triangle's normal and a share of its
// area.
func appendPieces(out []graspSample, a, b, c, n r3.Vec, area float64, m int) []graspSample {
	at := func(i, j float64) r3.Vec { // the grid point i/m along a→b, j/m along a→c
		fm := float64(m)
		return r3.Add(a, r3.Add(r3.Scale(i/fm, r3.Sub(b, a)), r3.Scale(j/fm, r3.Sub(c, a))))
	}
	share := area / float64(m*m)
	for i := 0; i < m; i++ {
		for j := 0; i+j < m; j++ {
			fi, fj := float64(i), float64(j)
			up := r3.Scale(1.0/3, r3.Add(at(fi, fj), r3.Add(at(fi+1, fj), at(fi, fj+1))))
			out = append(out, graspSample{p: up, n: n, a: share})
			if i+j+1 < m {
				down := r3.Scale(1.0/3, r3.Add(at(fi+1, fj), r3.Add(at(fi, fj+1), at(fi+1, fj+1))))
				out = append(out, graspSample{p: down, n: n, a: share})
			}
		}
	}
	return out
}

// graspPrefs are what a search prefers besides a firm grasp: a heading
// (the gripper's own, or the camera's right for a click), the range of
// headings searched about it, and for a click the point the grasp should
// be near (nil: anywhere), seen along the line of sight view (unit).
type graspPrefs struct {
	yaw, search float64
	near        *r3.Vec
	view        r3.Vec
}

// candidate is one scored grasp.
type candidate struct {
	Aim
	score float64
}

// search returns the best grasp of the surface for the jaws above minZ
// (the lowest jaw centre, GraspFloor), or a refusal that says why there is
// none.
func (g *graspSurface) search(jaws Jaws, minZ float64, pref graspPrefs) (Aim, error) {
	if len(g.verts) == 0 || len(g.samples) == 0 {
		return Aim{}, &Refusal{Reason: "the object has no surface to grasp"}
	}
	var all []candidate
	var why refusals
	cg := g.coarse
	if cg == nil {
		cg = g
	}
	for _, theta := range headings(pref) {
		all = cg.searchHeading(all, theta, jaws, minZ, pref, &why)
	}
	for _, step := range []float64{graspHeadings / 2, graspHeadings / 4} {
		for _, theta := range bestHeadings(widthScored(all), refineHeadings) {
			all = cg.searchHeading(all, theta-step, jaws, minZ, pref, &why)
			all = cg.searchHeading(all, theta+step, jaws, minZ, pref, &why)
		}
	}
	if len(all) == 0 {
		return Aim{}, why.refusal(jaws, g)
	}
	if cg != g {
		// The headings the coarse samples rank best, with their
		// neighbours (the coarse ranking is good to a few degrees), and the
		// preferred one are searched again on the fine ones.
		picks := []float64{pref.yaw}
		for _, theta := range bestHeadings(widthScored(all), rescored) {
			for _, d := range []float64{0, -graspHeadings / 2, graspHeadings / 2, -graspHeadings / 4, graspHeadings / 4} {
				if x := theta + d; !slices.ContainsFunc(picks, func(p float64) bool { return math.Abs(p-x) < 1e-9 }) {
					picks = append(picks, x)
				}
			}
		}
		all = all[:0]
		var fine refusals
		for _, theta := range picks {
			all = g.searchHeading(all, theta, jaws, minZ, pref, &fine)
		}
		if len(all) == 0 {
			return Aim{}, why.refusal(jaws, g)
		}
	}
	all = widthScored(all)
	// The best candidates are checked for what lies between their
	// patches: the jaws of a grasp across two branches with air between
	// press the branches together.
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	best, kept := candidate{score: math.Inf(-1)}, candidate{score: math.Inf(-1)}
	for i, c := range all {
		if i >= solidChecks && kept.score > math.Inf(-1) {
			break
		}
		preferred := c.Yaw == pref.yaw
		if i >= solidChecks && !preferred {
			continue // past the checked ones, only the preferred heading's best is looked for
		}
		c.score -= gapWeight * g.gap(c.Contact[0], c.Contact[1])
		if c.score > best.score {
			best = c
		}
		if preferred && c.score > kept.score {
			kept = c
		}
	}
	// The preferred heading is kept unless another is better by more than
	// headingKeep: a faceted round section (a procedural cylinder, a
	// scanned organ) would otherwise turn to whichever facet happens to
	// score best.
	if kept.score >= best.score-headingKeep {
		best = kept
	}
	best.Aim.Top = g.top
	return best.Aim, nil
}

// widthWeight scores a grasp down by its width over the narrowest
// candidate's, less one (at most one); nearWeight by how much further a
// click's grasp centre is from the clicked point than nearFree of the jaw
// width (within it the jaws' faces still take the clicked point), over
// the jaw width;
// headingKeep is how much better than the preferred heading's best
// another heading's must be to be taken.
const (
	widthWeight = 0.3
	nearWeight  = 1.0
	nearFree    = 1.0 / 3
	headingKeep = 0.03
)

// Checks of what lies between the patches: the best solidChecks
// candidates are scored down by gapWeight times the share of the line
// between their patches that is outside the object, less gapAllowance.
const (
	solidChecks  = 40
	gapWeight    = 1.0
	gapAllowance = 3e-3 // m
)

// gap returns the share of the segment between the patch centroids a
// (left) and b that lies outside the object, less gapAllowance (the gaps
// a squeeze closes: an arm lying along a body): the segment, lengthened by
// contactDepth at each end so that it starts and ends outside, crosses the
// surface at t₁ < t₂ < …, and the object is inside between t₁ and t₂, t₃
// and t₄, and so on.
func (g *graspSurface) gap(a, b r3.Vec) float64 {
	d := r3.Sub(b, a)
	l := r3.Norm(d)
	if !(l > 0) {
		return 0
	}
	u := r3.Scale(1/l, d)
	from := r3.Sub(a, r3.Scale(contactDepth, u))
	reach := l + 2*contactDepth
	var ts []float64
	for _, t := range g.tris {
		if x, hit := rayTriangle(from, u, g.verts[t[0]], g.verts[t[1]], g.verts[t[2]]); hit && x < reach {
			ts = append(ts, x)
		}
	}
	sort.Float64s(ts)
	// A ray through an edge or a corner hits each triangle there: one
	// crossing.
	k := 0
	for i, x := range ts {
		if i == 0 || x > ts[k-1]+1e-9 {
			ts[k] = x
			k++
		}
	}
	ts = ts[:k]
	inside := 0.0
	for i := 0; i+1 < len(ts); i += 2 {
		lo, hi := math.Max(ts[i], contactDepth), math.Min(ts[i+1], contactDepth+l)
		inside += math.Max(0, hi-lo)
	}
	return math.Max(0, l-inside-gapAllowance) / l
}

// headings lists the headings searched: the preferred one, then the
// multiples of graspHeadings within pref.search of it, nearest first (so
// that equal scores keep the least turn; the multiples meet the faces of
// an object modelled along the axes squarely).
func headings(pref graspPrefs) []float64 {
	out := []float64{pref.yaw}
	lo := math.Ceil((pref.yaw-pref.search)/graspHeadings-1e-9) * graspHeadings
	for theta := lo; theta < pref.yaw+pref.search-1e-9; theta += graspHeadings {
		if math.Abs(theta-pref.yaw) > 1e-9 {
			out = append(out, theta)
		}
	}
	sort.SliceStable(out[1:], func(i, j int) bool {
		return math.Abs(out[1+i]-pref.yaw) < math.Abs(out[1+j]-pref.yaw)
	})
	return out
}

// widthScored returns a copy of the candidates with those wider than the
// narrowest scored down: squeezed the long way, a slender object buckles
// and slips out.
func widthScored(all []candidate) []candidate {
	narrowest := math.Inf(1)
	for _, c := range all {
		narrowest = math.Min(narrowest, c.Width)
	}
	out := slices.Clone(all)
	for i := range out {
		out[i].score -= widthWeight * math.Min(1, out[i].Width/narrowest-1)
	}
	return out
}

// bestHeadings returns the headings of the n best-scored candidates,
// each once, best first.
func bestHeadings(all []candidate, n int) []float64 {
	type scored struct{ theta, score float64 }
	var best []scored
	for _, c := range all {
		i := slices.IndexFunc(best, func(b scored) bool { return b.theta == c.Yaw })
		if i < 0 {
			best = append(best, scored{c.Yaw, c.score})
		} else if c.score > best[i].score {
			best[i].score = c.score
		}
	}
	sort.SliceStable(best, func(i, j int) bool { return best[i].score > best[j].score })
	out := make([]float64, 0, n)
	for _, b := range best[:min(n, len(best))] {
		out = append(out, b.theta)
	}
	return out
}

// refusals counts why candidates failed, for the message of a refusal.
type refusals struct {
	above, reachable               int     // candidates with some object above the jaws' lower edge, whose column fits the reach
	banded, thick, facing, patched int     // reached the band, were thick enough, had facing patches, in the cone
	widest                         float64 // the widest band width seen, m
}

// Refusal says why an object cannot be grasped.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

// refusal names the first test that no candidate passed.
func (w *refusals) refusal(jaws Jaws, g *graspSurface) error {
	mm := func(x float64) float64 { return 1e3 * x }
	switch narrowest := g.narrowest(); {
	case w.above == 0:
		return &Refusal{Reason: fmt.Sprintf("the object is %.1f mm tall, below the jaws' lower edge %.0f mm above the floor", mm(g.top), mm(FloorMargin))}
	case narrowest+2*aimClearance > jaws.Reach || w.reachable == 0:
		return &Refusal{Reason: fmt.Sprintf("the object is %.0f mm wide at its narrowest; the jaws open to %.0f mm", mm(narrowest), mm(jaws.Reach))}
	case w.thick == 0:
		return &Refusal{Reason: fmt.Sprintf("the object is %.1f mm thick at most where the jaws meet it; they close to %.0f mm", mm(w.widest), mm(jaws.MinOpening))}
	case w.facing == 0:
		return &Refusal{Reason: "the jaws' faces meet no two sides of the object large enough to squeeze"}
	}
	return &Refusal{Reason: fmt.Sprintf("no two sides of the object face each other within the friction cone (μ = %.2g, %.0f°)", jaws.Friction, math.Atan(jaws.Friction)*180/math.Pi)}
}

// narrowest is the least extent of the object's vertices over the
// horizontal headings graspHeadings apart, m.
func (g *graspSurface) narrowest() float64 {
	best := math.Inf(1)
	for theta := 0.0; theta < math.Pi; theta += graspHeadings {
		d := r3.Vec{X: math.Cos(theta), Y: math.Sin(theta)}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range g.verts {
			lo, hi = math.Min(lo, r3.Dot(v, d)), math.Max(hi, r3.Dot(v, d))
		}
		best = math.Min(best, hi-lo)
	}
	return best
}

// headingFrame is the object seen along a heading: per vertex and
// sample, sorted by s (across, along e), its s, u (along the closing axis
// d) and z; per sample also the normal's u and the sample's index.
type headingFrame struct {
	d, e       r3.Vec
	vs, vu, vz []float64
	ss, su, sz []float64
	snu        []float64
	si         []int
}

func (g *graspSurface) headingFrame(theta float64) headingFrame {
	f := headingFrame{d: r3.Vec{X: math.Cos(theta), Y: math.Sin(theta)}, e: r3.Vec{X: -math.Sin(theta), Y: math.Cos(theta)}}
	var vi []int
	vi, f.vs = sortedAcross(len(g.verts), func(i int) float64 { return r3.Dot(g.verts[i], f.e) })
	f.vu, f.vz = make([]float64, len(vi)), make([]float64, len(vi))
	for k, i := range vi {
		f.vu[k], f.vz[k] = r3.Dot(g.verts[i], f.d), g.verts[i].Z
	}
	f.si, f.ss = sortedAcross(len(g.samples), func(i int) float64 { return r3.Dot(g.samples[i].p, f.e) })
	n := len(f.si)
	f.su, f.sz, f.snu = make([]float64, n), make([]float64, n), make([]float64, n)
	for k, i := range f.si {
		sm := &g.samples[i]
		f.su[k], f.sz[k], f.snu[k] = r3.Dot(sm.p, f.d), sm.p.Z, r3.Dot(sm.n, f.d)
	}
	return f
}

// sortedAcross sorts the indices 0…n−1 by s(i) and returns them with
// their s.
func sortedAcross(n int, s func(i int) float64) ([]int, []float64) {
	idx := make([]int, n)
	val := make([]float64, n)
	for i := range idx {
		idx[i], val[i] = i, s(i)
	}
	sort.Slice(idx, func(a, b int) bool { return val[idx[a]] < val[idx[b]] })
	sorted := make([]float64, n)
	for k, i := range idx {
		sorted[k] = val[i]
	}
	return idx, sorted
}

// span returns the range [lo, hi) of the sorted values within [a, b].
func span(sorted []float64, a, b float64) (lo, hi int) {
	return sort.SearchFloat64s(sorted, a), sort.Search(len(sorted), func(i int) bool { return sorted[i] > b })
}

// searchHeading scores the strips and heights of heading theta and
// appends those that are reachable and antipodal to out.
func (g *graspSurface) searchHeading(out []candidate, theta float64, jaws Jaws, minZ float64, pref graspPrefs, why *refusals) []candidate {
	f := g.headingFrame(theta)
	for _, sc := range distinct(g.strips(f, jaws, pref)) {
		for _, zc := range distinct(g.heights(jaws, minZ, pref)) {
			if c, good := g.evaluate(f, theta, sc, zc, jaws, pref, why); good {
				out = append(out, c)
			}
		}
	}
	return out
}

// distinct drops the values within 0.1 mm of an earlier one (clamped
// candidates of a small object coincide), keeping the order.
func distinct(x []float64) []float64 {
	out := x[:0]
	for _, v := range x {
		if !slices.ContainsFunc(out, func(w float64) bool { return math.Abs(w-v) < 1e-4 }) {
			out = append(out, v)
		}
	}
	return out
}

// strips lists the strip centres across heading f: the centre of mass's
// and a quarter of the jaw width apart over the object's extent (the
// middle of it when it is narrower than half a jaw), or for a click the
// clicked point's, a quarter jaw either side of it, and the one as near
// the centre of mass's as the jaws' faces still take the clicked point.
func (g *graspSurface) strips(f headingFrame, jaws Jaws, pref graspPrefs) []float64 {
	lo, hi := f.vs[0], f.vs[len(f.vs)-1]
	clamp := func(s float64) float64 { return math.Max(lo, math.Min(hi, s)) }
	out := []float64{clamp(r3.Dot(g.com, f.e))}
	if pref.near != nil {
		// A click's grasp is near the clicked point: its strip, and a
		// quarter jaw either side.
		n, c := r3.Dot(*pref.near, f.e), r3.Dot(g.com, f.e)
		towards := n + math.Max(-nearFree*jaws.Width, math.Min(nearFree*jaws.Width, c-n))
		return append(out, clamp(n), clamp(towards), clamp(n-jaws.Width/4), clamp(n+jaws.Width/4))
	}
	a, b := lo+jaws.Width/4, hi-jaws.Width/4
	if b <= a {
		return append(out, (lo+hi)/2)
	}
	n := min(12, int(math.Ceil((b-a)/(jaws.Width/4))))
	for i := 0; i <= n; i++ {
		out = append(out, a+(b-a)*float64(i)/float64(n))
	}
	return out
}

// heights lists the jaw centre heights: the lowest (minZ), the centre of
// mass's, and four evenly up to a quarter jaw below the top (for a click,
// the clicked point's instead of the four), all within
// [minZ, max(minZ, top − H/4)].
func (g *graspSurface) heights(jaws Jaws, minZ float64, pref graspPrefs) []float64 {
	hi := math.Max(minZ, g.top-jaws.Height/4)
	clamp := func(z float64) float64 { return math.Max(minZ, math.Min(hi, z)) }
	out := []float64{clamp(g.com.Z), minZ}
	if pref.near != nil {
		return append(out, clamp(pref.near.Z))
	}
	for i := 1; i <= 4; i++ {
		out = append(out, minZ+(hi-minZ)*float64(i)/4)
	}
	return out
}

// patch is one jaw's contact: its area, area-weighted normal and
// centroid.
type patch struct {
	area float64
	n, c r3.Vec
}

// evaluate scores the grasp of strip sc and height zc at heading theta.
func (g *graspSurface) evaluate(f headingFrame, theta, sc, zc float64, jaws Jaws, pref graspPrefs, why *refusals) (candidate, bool) {
	W, H := jaws.Width, jaws.Height
	// The column: every vertex and sample in the strip at or above the
	// jaws' lower edge (the samples for a coarse surface, whose vertices
	// may all lie outside the strip).
	colLo, colHi := math.Inf(1), math.Inf(-1)
	floor := zc - H/2
	a, b := span(f.vs, sc-W/2, sc+W/2)
	for k := a; k < b; k++ {
		if u := f.vu[k]; f.vz[k] >= floor {
			colLo, colHi = min(colLo, u), max(colHi, u)
		}
	}
	// The band: the samples within the jaws' face (found in the same
	// pass).
	bandLo, bandHi := math.Inf(1), math.Inf(-1)
	a, b = span(f.ss, sc-W/2, sc+W/2)
	for k := a; k < b; k++ {
		if u, z := f.su[k], f.sz[k]; z >= floor {
			colLo, colHi = min(colLo, u), max(colHi, u)
			if z <= zc+H/2 {
				bandLo, bandHi = min(bandLo, u), max(bandHi, u)
			}
		}
	}
	if colHi < colLo {
		return candidate{}, false
	}
	why.above++
	if colHi-colLo+2*aimClearance > jaws.Reach {
		return candidate{}, false
	}
	why.reachable++
	if bandHi < bandLo {
		return candidate{}, false
	}
	why.banded++
	width := bandHi - bandLo
	why.widest = math.Max(why.widest, width)
	if width < jaws.MinOpening+thinnest {
		return candidate{}, false
	}
	why.thick++
	var left, right patch
	for k := a; k < b; k++ {
		if dz := f.sz[k] - zc; dz > H/2 || dz < -H/2 {
			continue
		}
		u, nu := f.su[k], f.snu[k]
		switch {
		case u <= bandLo+contactDepth && nu < 0:
			left.add(g.samples[f.si[k]])
		case u >= bandHi-contactDepth && nu > 0:
			right.add(g.samples[f.si[k]])
		}
	}
	jawArea := W * H
	if left.area < minPatchShare*jawArea || right.area < minPatchShare*jawArea {
		return candidate{}, false
	}
	why.facing++
	left.finish()
	right.finish()
	cone := math.Cos(math.Atan(math.Max(jaws.Friction, 0)))
	cosL, cosR := -r3.Dot(left.n, f.d), r3.Dot(right.n, f.d)
	if cosL < cone || cosR < cone {
		return candidate{}, false
	}
	why.patched++
	uc := (bandLo + bandHi) / 2
	half := math.Max(uc-colLo, colHi-uc)
	open := math.Min(jaws.Reach, 2*(half+approachGap))
	if 2*(half+aimClearance) > jaws.Reach {
		return candidate{}, false
	}
	centre := r3.Add(r3.Scale(uc, f.d), r3.Scale(sc, f.e))
	centre.Z = zc
	cosMin := math.Min(cosL, cosR)
	mid := r3.Scale(0.5, r3.Add(left.c, right.c))
	off := r3.Sub(right.c, left.c)
	// The patch area a flat side would give here: the jaws' width (or the
	// object's extent across the strip, if less) by the height the band
	// and the object share.
	acrossLo, acrossHi := f.ss[a], f.ss[max(a, b-1)]
	flat := math.Min(W, acrossHi-acrossLo) * (math.Min(zc+H/2, g.top) - math.Max(zc-H/2, 0))
	overlap := 0.0
	if flat > 0 {
		overlap = math.Min(1, math.Min(left.area, right.area)/(fullPatch*flat))
	}
	score := overlap*cosMin*cosMin -
		0.3*math.Abs(r3.Dot(r3.Sub(g.com, mid), f.e))/(W/2) - // com
		0.3*(math.Abs(r3.Dot(off, f.e))/W+math.Abs(off.Z)/H) - // align
		0.3*math.Abs(zc-math.Max(g.com.Z, 0))/H - // height
		0.05*math.Abs(math.Remainder(theta-pref.yaw, math.Pi))/(math.Pi/2) - // turn
		0.1*math.Abs(r3.Dot(mid, f.e)-sc)/(W/2) // centring
	if pref.near != nil {
		// What counts is the offset as the camera sees it, across the line
		// of sight: the depth of a click is a guess (the middle of the
		// line of sight's chord through the object), and along the closing
		// axis the centre is the object's middle wherever the click.
		off := r3.Sub(centre, *pref.near)
		off = r3.Sub(off, r3.Scale(r3.Dot(off, pref.view), pref.view))
		off = r3.Sub(off, r3.Scale(r3.Dot(off, f.d), f.d))
		score -= nearWeight * math.Max(0, r3.Norm(off)-nearFree*W) / W
	}
	return candidate{Aim: Aim{
		Pose:    rigid.Pose{Position: centre, Rotation: r3.NewRotation(theta, r3.Vec{Z: 1})},
		Yaw:     theta,
		Width:   width,
		Opening: open,
		Contact: [2]r3.Vec{left.c, right.c},
	}, score: score}, true
}

func (p *patch) add(s graspSample) {
	p.area += s.a
	p.n = r3.Add(p.n, r3.Scale(s.a, s.n))
	p.c = r3.Add(p.c, r3.Scale(s.a, s.p))
}

func (p *patch) finish() {
	p.n = r3.Unit(p.n)
	p.c = r3.Scale(1/p.area, p.c)
}
