package scenario

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// The resting pose of a loaded mesh (settings.AutoUp). A file's up axis is
// a convention it does not state: CAD and slicers write +z up, most
// modelling tools and scanners +y, and a scan of an organ has no up at
// all. Put down the way the file says, an object rests on a face of its
// convex hull (mesh.Hull.RestOn); the rule prefers the file's own
// convention where the object stands level on it, and otherwise the side
// it rests on most stably:
//
//  1. put down with its z bottom and with its y bottom: of those that land
//     level (on a face within levelTilt of that bottom, at least minTip
//     from tipping over), the more level is the pose (z within
//     levelTie): a box, a vase, a statue on its plinth or an animal on
//     its four feet stand as modelled, while a figure put down on its
//     side lands level only by chance, and less so than on its feet;
//  2. otherwise the one of the two that comes to rest within nearTilt of
//     the bottom it was put down on with the larger tip angle (at least
//     minTip): a figure modelled lying stays lying, a bean on its curved
//     bottom rocks a few degrees and stays;
//  3. otherwise the hull's face with the largest tip angle: an organ
//     scan lies on its flattest side.
//
// The object is then turned by the least rotation that brings that face's
// normal to −z (a face within a micro-radian of it is left as it is), so
// its heading stays the file's.

// Thresholds of the resting pose.
const (
	// levelTilt is how far a face may lean from the bottom it was put down
	// on and still count as that bottom, rad: scans and exports are level
	// to well under a degree where they were modelled standing; levelTie
	// is the difference in lean under which z is kept over y.
	levelTilt = 2 * math.Pi / 180
	levelTie  = 0.1 * math.Pi / 180
	// minTip is the least tip angle of a pose taken from the file, rad: a
	// pose that tips over at a smaller tilt is not a stable rest.
	minTip = 5 * math.Pi / 180
	// nearTilt is how far an object put down on the file's bottom may roll
	// and still rest on that bottom, rad.
	nearTilt = 20 * math.Pi / 180
)

// restingTurn returns the rotation that makes the object of surface points
// (any points whose convex hull is the object's) and centre of mass c rest
// stably, and says which pose it chose ("stands on its z bottom", …). A
// flat point set (no hull) is left as it is.
func restingTurn(points []r3.Vec, c r3.Vec) (rot r3.Rotation, desc string) {
	identity := r3.Rotation{Real: 1}
	h, err := mesh.ConvexHull(points)
	if err != nil {
		return identity, "flat: left as it is"
	}
	type put struct {
		name string
		down r3.Vec
	}
	puts := []put{{"z", r3.Vec{Z: -1}}, {"y", r3.Vec{Y: -1}}}
	var rests [2]mesh.Rest
	var ok [2]bool
	var tilt [2]float64
	level := -1
	for i, p := range puts {
		rests[i], ok[i] = h.RestOn(c, p.down)
		tilt[i] = math.Acos(math.Max(-1, math.Min(1, r3.Dot(rests[i].Normal, p.down))))
		if ok[i] && rests[i].TipAngle() >= minTip && tilt[i] <= levelTilt && (level < 0 || tilt[i] < tilt[level]-levelTie) {
			level = i
		}
	}
	if level >= 0 {
		return turnOnto(rests[level].Normal), fmt.Sprintf("stands level on its %s bottom", puts[level].name)
	}
	best := -1
	for i := range puts {
		if ok[i] && tilt[i] <= nearTilt && rests[i].TipAngle() >= minTip && (best < 0 || rests[i].TipAngle() > rests[best].TipAngle()) {
			best = i
		}
	}
	if best >= 0 {
		return turnOnto(rests[best].Normal), fmt.Sprintf("rests on its %s bottom", puts[best].name)
	}
	var top mesh.Rest
	for _, r := range h.Rests(c) {
		if r.TipAngle() > top.TipAngle() || top.Normal == (r3.Vec{}) {
			top = r
		}
	}
	if top.Normal == (r3.Vec{}) {
		return identity, "rests on no face of its hull: left as it is"
	}
	turn := math.Acos(math.Max(-1, math.Min(1, -top.Normal.Z)))
	return turnOnto(top.Normal), fmt.Sprintf("turned %.0f° onto its most stable side", turn*180/math.Pi)
}

// turnOnto returns the least rotation that takes the unit vector n to −z:
// about n × (−z), by the angle between them; the identity within a
// micro-radian, and a half turn about x for n = +z.
func turnOnto(n r3.Vec) r3.Rotation {
	down := r3.Vec{Z: -1}
	axis := r3.Cross(n, down)
	s, c := r3.Norm(axis), r3.Dot(n, down)
	angle := math.Atan2(s, c)
	switch {
	case angle < 1e-6:
		return r3.Rotation{Real: 1}
	case s < 1e-12:
		return r3.NewRotation(math.Pi, r3.Vec{X: 1})
	}
	return r3.NewRotation(angle, axis)
}

// rotateAbout turns the points by rot about the origin.
func rotateAbout(points []r3.Vec, rot r3.Rotation) {
	for i, p := range points {
		points[i] = rot.Rotate(p)
	}
}
