package main

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// A ctrl+click aims the gripper through the object rather than at its
// surface: a gripper sent to the clicked surface point closes its jaws on
// an edge (half of each jaw above the object) and holds nothing.
//
// The aim, from the click's ray and the newest frame's surface:
//
//   - centre: the midpoint of the ray's entry into the object and its
//     first exit, so it lies inside the object on the line of sight
//     (raised to clear the floor with the jaws' lower edge, as the grasp
//     script does), then moved along the closing axis to the middle of the
//     object's extent there. The closing axis is across the line of sight,
//     so the centre stays on it as seen from the camera up to that sideways
//     shift, and both jaws clear the object by the same gap: a click off
//     the middle (the user's ctrl+click 11.5 mm off it closed one jaw on an
//     edge) no longer lands a jaw on the object;
//   - closing axis: horizontal (the gripper's own axis stays vertical, as
//     the script and the view-plane drag assume), starting from the
//     camera's right axis and turned by at most aimSearch to where the
//     object is narrowest, so that a box is taken across two faces rather
//     than across its corners; of the two opposite directions the one
//     nearer the gripper's current yaw, so it turns least on the way;
//   - the object's width along that axis, over all its surface vertices
//     (conservative for an object that is wider away from the jaws'
//     reach), against the open jaws' opening: an object wider than the
//     opening less a clearance is a warning.

// Limits of the aim.
const (
	aimSearch    = 45 * math.Pi / 180 // largest turn from the camera's right
	aimSearchN   = 90                 // candidate axes over ±aimSearch
	floorMargin  = 3e-3               // jaws' lower edge above the floor, m (as the script)
	aimClearance = 1e-3               // least gap between an open jaw and the object, m
)

// graspAim is a gripper pose aimed through the object and what the jaws
// will meet there.
type graspAim struct {
	Pose    rigid.Pose
	Opening float64 // the open jaws' opening the gripper keeps, m
	// Width is the object's extent along the closing axis, which the
	// centre halves: the jaws meet the object at the opening Width.
	Width   float64
	Warning string // "" when the open jaws fit around the object
}

// aimGrasp aims the gripper along the ray origin + t·dir through the
// surface (positions, three float32 per vertex; tris, three indices per
// triangle). right is the camera's right axis, yaw the gripper's current
// rotation about the vertical, opening its open jaws' opening and minZ the
// lowest grasp centre. ok is false when the ray misses the object.
func aimGrasp(origin, dir, right r3.Vec, yaw float64, positions []float32, tris []uint32, opening, minZ float64) (graspAim, bool) {
	entry, exit, ok := surfaceCrossings(origin, dir, positions, tris)
	if !ok {
		return graspAim{}, false
	}
	centre := r3.Add(origin, r3.Scale((entry+exit)/2, dir))
	centre.Z = math.Max(centre.Z, minZ)
	axisYaw := narrowestYaw(positions, math.Atan2(right.Y, right.X))
	// The gripper is symmetric under a half turn about its axis: keep the
	// yaw within a quarter turn of the current one.
	axisYaw += math.Pi * math.Round((yaw-axisYaw)/math.Pi)
	axis := r3.Vec{X: math.Cos(axisYaw), Y: math.Sin(axisYaw)}
	lo, hi := extent(positions, centre, axis)
	centre = r3.Add(centre, r3.Scale((lo+hi)/2, axis))
	a := graspAim{Pose: rigid.Pose{Position: centre, Rotation: r3.NewRotation(axisYaw, r3.Vec{Z: 1})}, Opening: opening, Width: hi - lo}
	if a.Width+2*aimClearance > opening {
		a.Warning = fmt.Sprintf("The object is %.1f mm wide across the jaws, wider than their %.1f mm opening: open the jaws (G) or aim across a narrower side.",
			1e3*a.Width, 1e3*opening)
	}
	return a, true
}

// surfaceCrossings returns the ray parameters where the ray first enters
// the closed surface and where it next leaves it (exit = entry for a ray
// that only grazes it). Hits closer than a millionth of the ray's reach
// to the entry are the same crossing seen through two triangles that
// share an edge or a vertex. Triangles with an index out of range are
// skipped.
//
// A linear scan over the triangles is enough for a click: a few thousand
// triangles take well under a millisecond, and the surface moves every
// step, so an acceleration structure would have to be rebuilt per click.
func surfaceCrossings(origin, dir r3.Vec, positions []float32, tris []uint32) (entry, exit float64, ok bool) {
	nv := uint32(len(positions) / 3)
	var ts []float64
	for i := 0; i+2 < len(tris); i += 3 {
		a, b, c := tris[i], tris[i+1], tris[i+2]
		if a >= nv || b >= nv || c >= nv {
			continue
		}
		if t, hit := rayTriangle(origin, dir, vertex(positions, a), vertex(positions, b), vertex(positions, c)); hit {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		return 0, 0, false
	}
	sort.Float64s(ts)
	entry, exit = ts[0], ts[0]
	same := 1e-6 * ts[len(ts)-1]
	for _, t := range ts[1:] {
		if t > entry+same {
			exit = t
			break
		}
	}
	return entry, exit, true
}

// narrowestYaw returns the horizontal direction, as a yaw from +x within
// ±aimSearch of yaw0, along which the vertices' extent is smallest; the
// one nearest yaw0 among equally narrow ones (within a micrometre).
func narrowestYaw(positions []float32, yaw0 float64) float64 {
	best, bestWidth := yaw0, math.Inf(1)
	for k := 0; k <= aimSearchN; k++ {
		// Candidates from the middle outwards: 0, +δ, −δ, +2δ, …
		step := float64((k+1)/2) * 2 * aimSearch / aimSearchN
		if k%2 == 0 {
			step = -step
		}
		y := yaw0 + step
		lo, hi := extent(positions, r3.Vec{}, r3.Vec{X: math.Cos(y), Y: math.Sin(y)})
		if w := hi - lo; w < bestWidth-1e-6 {
			best, bestWidth = y, w
		}
	}
	return best
}

// extent returns the least and greatest (v − from)·axis over the vertices.
func extent(positions []float32, from, axis r3.Vec) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := uint32(0); i < uint32(len(positions)/3); i++ {
		d := r3.Dot(r3.Sub(vertex(positions, i), from), axis)
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	return lo, hi
}

// jawPoses returns the world poses of the left and right jaws of a
// gripper at pose with the given opening (as rigid.Gripper.JawPoses).
func jawPoses(pose rigid.Pose, opening float64) [2]rigid.Pose {
	g := rigid.Gripper{Pose: pose, Opening: opening}
	return g.JawPoses()
}

// gripperYaw returns the rotation of the closing axis about the vertical.
func gripperYaw(rot r3.Rotation) float64 {
	x := rot.Rotate(r3.Vec{X: 1})
	return math.Atan2(x.Y, x.X)
}
