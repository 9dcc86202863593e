package collide

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// RigidPairs appends to out the RigidRigid pairs between each dynamic
// body (dynamic[i]) and every other body, at their Start poses within the
// alarm distance, both ways:
//
//   - each vertex v of the dynamic body D against the other body S:
//     (pt, n, d) = S.Shape.Closest(x) for x the vertex in S's frame, a
//     pair when d < alarm, with RigidLocal = v, OtherLocal = pt,
//     Normal = −n in the world (from D towards S), Distance = d, Vertex
//     the vertex's index;
//   - each vertex w of S against D: (pt, n, d) = D.Shape.Closest(x), a
//     pair when d < alarm, with RigidLocal = pt, OtherLocal = w, Normal =
//     n in the world (D's outward normal), Distance = d, Point the
//     vertex's index.
//
// A positive normal force pushes S's point along Normal and D the other
// way (Eq. 14). A kinematic or static S does not yield, so the pair's
// compliance is D's alone; two dynamic bodies meet once, as D the lower
// index and S the higher, and the pair's compliance is the sum of both
// (Eq. 16). Bodies are skipped where the other's bounds, grown by the
// alarm distance, do not hold the vertex. The order is deterministic:
// dynamic body by dynamic body, other body by other body, D's vertices
// then S's.
func RigidPairs(bodies []rigid.Body, dynamic []bool, alarm float64, out []Pair) []Pair {
	for i := range bodies {
		if i >= len(dynamic) || !dynamic[i] || bodies[i].Shape == nil {
			continue
		}
		D := &bodies[i]
		fD := frame{R: D.Start.RotationMatrix(), t: D.Start.Position}
		zD := newAlarmZone(D.Shape, alarm)
		for j := range bodies {
			if j == i || (j < i && j < len(dynamic) && dynamic[j]) || bodies[j].Shape == nil {
				continue
			}
			S := &bodies[j]
			fS := frame{R: S.Start.RotationMatrix(), t: S.Start.Position}
			zS := newAlarmZone(S.Shape, alarm)
			from := len(out)
			for k, v := range D.Shape.Vertices() {
				pt, n, d, ok := zS.closest(fS.toLocal(fD.toWorld(v)))
				if !ok {
					continue
				}
				out = append(out, Pair{
					Kind: RigidRigid, Body: i, Other: j, Point: -1, Tri: -1, Vertex: k,
					RigidLocal: v, OtherLocal: pt, Normal: r3.Scale(-1, fS.R.MulVec(n)), Distance: d,
				})
			}
			for k, w := range S.Shape.Vertices() {
				pt, n, d, ok := zD.closest(fD.toLocal(fS.toWorld(w)))
				if !ok {
					continue
				}
				out = append(out, Pair{
					Kind: RigidRigid, Body: i, Other: j, Point: k, Tri: -1, Vertex: -1,
					RigidLocal: pt, OtherLocal: w, Normal: fD.R.MulVec(n), Distance: d,
				})
			}
			out = thinRigid(out, from, &fD, &fS)
		}
	}
	return out
}

// maxRigidPairs bounds the pairs between two rigid bodies. A face of a
// finely tessellated mesh resting on another body gives a pair per
// vertex sample, nearly all of them redundant between two rigid bodies
// (their relative motion has six degrees of freedom) and each one a row
// of every PGS sweep.
const maxRigidPairs = 64

// thinRigid keeps, when out[from:] (the pairs of two bodies, D's frame fD
// and S's fS at their start poses) holds more than maxRigidPairs, a subset
// spread over the pairs' sample points: a pair is dropped when a kept one
// lies within the spacing of it, the deeper of the two staying (the first
// on ties). The spacing starts at a sixth of the points' extent and grows
// by half until at most maxRigidPairs remain. The pairs kept keep their
// order. Fewer pairs are left as they are.
func thinRigid(out []Pair, from int, fD, fS *frame) []Pair {
	pairs := out[from:]
	if len(pairs) <= maxRigidPairs {
		return out
	}
	at := func(pr *Pair) r3.Vec {
		if pr.Vertex >= 0 {
			return fD.toWorld(pr.RigidLocal)
		}
		return fS.toWorld(pr.OtherLocal)
	}
	lo, hi := at(&pairs[0]), at(&pairs[0])
	for a := range pairs {
		x := at(&pairs[a])
		lo = r3.Vec{X: math.Min(lo.X, x.X), Y: math.Min(lo.Y, x.Y), Z: math.Min(lo.Z, x.Z)}
		hi = r3.Vec{X: math.Max(hi.X, x.X), Y: math.Max(hi.Y, x.Y), Z: math.Max(hi.Z, x.Z)}
	}
	spacing := math.Max(r3.Norm(r3.Sub(hi, lo))/6, 1e-9)
	var kept [maxRigidPairs]int
	for {
		nk, full := 0, false
		for a := range pairs {
			x := at(&pairs[a])
			near := -1
			for k := 0; k < nk; k++ {
				if r3.Norm(r3.Sub(at(&pairs[kept[k]]), x)) < spacing {
					near = k
					break
				}
			}
			if near >= 0 {
				if pairs[a].Distance < pairs[kept[near]].Distance {
					kept[near] = a
				}
				continue
			}
			if nk == maxRigidPairs {
				full = true
				break
			}
			kept[nk] = a
			nk++
		}
		if !full {
			slices.Sort(kept[:nk])
			for k, a := range kept[:nk] {
				pairs[k] = pairs[a]
			}
			return out[:from+nk]
		}
		spacing *= 1.5
	}
}
