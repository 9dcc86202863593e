package scenario

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// Where the gripper grasps the soft object: one rule (the grasp search,
// grasp.go) for the grasp-and-rotate script (AimAtObject: the best grasp
// anywhere on the object as it rests) and the viewer's ctrl+click
// (AimAlongRay: the best near the point the click's line of sight enters
// the object). Both aim an upright gripper through the object at two
// antipodal patches of its surface that the open jaws can reach, and
// refuse, with the reason, an object they cannot hold.

// Limits of the aim.
const (
	// FloorMargin is the height of the jaws' lower edge above the floor at
	// the lowest grasp, m.
	FloorMargin = 1e-3
	// ClickSearch is the largest turn of a click's closing axis from the
	// camera's right, and scriptSearch the script's from the gripper's
	// heading: any heading (the gripper is symmetric under a half turn).
	ClickSearch  = math.Pi / 2
	scriptSearch = math.Pi / 2
	// MinOpening is the narrowest the jaws close to, m.
	MinOpening = 2e-3
)

// Coord is the type of the coordinates of a list of points, three per
// point: the simulation's float64 positions or a frame's float32 surface.
type Coord interface{ ~float32 | ~float64 }

// Aim is a gripper pose aimed through the soft object and what the jaws
// meet there.
type Aim struct {
	// Pose is the grasp centre and the gripper's rotation: about the
	// vertical only, its closing axis (body x) along the aimed axis.
	Pose rigid.Pose
	// Yaw is the closing axis's heading: Pose's rotation about the
	// vertical from +x, rad.
	Yaw float64
	// Width is the object's width between the jaws where they first meet
	// it, which the centre halves: the jaws touch it at the opening Width.
	Width float64
	// Opening is the opening the jaws come down with: the object's width
	// above their lower edge plus a gap each side, within their reach.
	Opening float64
	// Contact is the centroid of the left (−x) and right jaw's contact
	// patch.
	Contact [2]r3.Vec
	// Top is the highest point of the object, m.
	Top float64
}

// Warning says why open jaws of the given opening would not fit around
// the object at the aim, "" when they fit.
func (a Aim) Warning(opening float64) string {
	if a.Opening <= opening+1e-9 {
		return ""
	}
	return fmt.Sprintf("The object is %.1f mm wide across the jaws here, wider than their %.1f mm opening: open the jaws (G) or aim across a narrower side.",
		1e3*(a.Opening-2*approachGap), 1e3*opening)
}

// GraspFloor returns the lowest grasp centre of jaws of height jawHeight
// (along the gripper's axis): their lower edge FloorMargin above the
// floor.
func GraspFloor(jawHeight float64) float64 { return jawHeight/2 + FloorMargin }

// Surface is a triangle surface to aim at: coordinates, three per point,
// and triangles, three point indices each.
type Surface[F Coord, I ~int | ~uint32 | ~int32] struct {
	Positions []F
	Tris      []I
}

func (s Surface[F, I]) tri(k int) [3]int {
	return [3]int{int(s.Tris[3*k]), int(s.Tris[3*k+1]), int(s.Tris[3*k+2])}
}

// AimAtObject aims the gripper, heading yaw now, at the object of surface
// s and centre of mass com: the best grasp of the search (grasp.go) at any
// heading, the jaws' centre no lower than minZ (GraspFloor). A Refusal
// says why there is none.
func AimAtObject[F Coord, I ~int | ~uint32 | ~int32](s Surface[F, I], com r3.Vec, jaws Jaws, yaw, minZ float64) (Aim, error) {
	g := newGraspSurface(s.Positions, s.tri, len(s.Tris)/3, com)
	return g.search(jaws, minZ, graspPrefs{yaw: yaw, search: scriptSearch})
}

// AimAlongRay aims the gripper along the ray origin + t·dir (a click's
// line of sight, dir of unit length) at the object of surface s: the best
// grasp of the search near the line of sight (its candidates about the
// midpoint of the ray's entry into the object and its first exit, raised
// to minZ), preferring a closing axis along right (the camera's right
// axis), so that the jaws close across the line of sight. The centre of mass is the solid's the surface
// bounds. ok is false when the ray misses the object; a Refusal says why
// it cannot be grasped there.
func AimAlongRay[F Coord, I ~int | ~uint32 | ~int32](origin, dir, right r3.Vec, s Surface[F, I], jaws Jaws, minZ float64) (a Aim, ok bool, err error) {
	entry, exit, hit := surfaceCrossings(origin, dir, s.Positions, s.Tris)
	if !hit {
		return Aim{}, false, nil
	}
	near := r3.Add(origin, r3.Scale((entry+exit)/2, dir))
	near.Z = math.Max(near.Z, minZ)
	g := newGraspSurface(s.Positions, s.tri, len(s.Tris)/3, r3.Vec{})
	g.com = g.solidCentroid(s.tri, len(s.Tris)/3)
	a, err = g.search(jaws, minZ, graspPrefs{yaw: math.Atan2(right.Y, right.X), search: ClickSearch, near: &near, view: dir})
	return a, true, err
}

// extent returns the least and greatest (v − from)·axis over the vertices.
func extent[F Coord](positions []F, from, axis r3.Vec) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := 0; i+2 < len(positions); i += 3 {
		d := r3.Dot(r3.Sub(point(positions, i/3), from), axis)
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	return lo, hi
}

// point returns point i of positions, three coordinates per point.
func point[F Coord](positions []F, i int) r3.Vec {
	return r3.Vec{X: float64(positions[3*i]), Y: float64(positions[3*i+1]), Z: float64(positions[3*i+2])}
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
func surfaceCrossings[F Coord, I ~int | ~uint32 | ~int32](origin, dir r3.Vec, positions []F, tris []I) (entry, exit float64, ok bool) {
	nv := len(positions) / 3
	var ts []float64
	for i := 0; i+2 < len(tris); i += 3 {
		a, b, c := int(tris[i]), int(tris[i+1]), int(tris[i+2])
		if a < 0 || b < 0 || c < 0 || a >= nv || b >= nv || c >= nv {
			continue
		}
		if t, hit := rayTriangle(origin, dir, point(positions, a), point(positions, b), point(positions, c)); hit {
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

// rayTriangle intersects the ray o + t·d with the triangle (v0, v1, v2)
// by the Möller–Trumbore algorithm and returns t for a hit in front of
// the origin, from either side of the triangle.
//
// A point of the triangle is v0 + u·e1 + v·e2 with e1 = v1 − v0,
// e2 = v2 − v0, u, v ≥ 0 and u + v ≤ 1. Equating it with the ray gives
// the 3×3 system [−d e1 e2]·(t, u, v)ᵀ = s with s = o − v0, which
// Cramer's rule solves with scalar triple products:
//
//	p = d × e2,  det = e1·p,  u = s·p/det,
//	q = s × e1,  v = d·q/det,  t = e2·q/det.
//
// det ≈ 0 means the ray is parallel to the triangle's plane.
//
// References:
//
//	T. Möller and B. Trumbore, "Fast, minimum storage ray-triangle
//	intersection", Journal of Graphics Tools 2(1), 1997.
func rayTriangle(o, d, v0, v1, v2 r3.Vec) (t float64, ok bool) {
	e1, e2 := r3.Sub(v1, v0), r3.Sub(v2, v0)
	p := r3.Cross(d, e2)
	det := r3.Dot(e1, p)
	// Relative to the triangle's size and the direction's length, so that
	// millimetre-sized triangles are not all "parallel".
	if math.Abs(det) <= 1e-12*r3.Norm(e1)*r3.Norm(e2)*r3.Norm(d) {
		return 0, false
	}
	inv := 1 / det
	s := r3.Sub(o, v0)
	u := r3.Dot(s, p) * inv
	if u < 0 || u > 1 {
		return 0, false
	}
	q := r3.Cross(s, e1)
	v := r3.Dot(d, q) * inv
	if v < 0 || u+v > 1 {
		return 0, false
	}
	t = r3.Dot(e2, q) * inv
	return t, t > 0
}
