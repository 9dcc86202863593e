package scenario

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// Where the gripper grasps the soft object. Both the grasp-and-rotate
// script (AimAtObject) and the viewer's ctrl+click (AimAlongRay) aim the
// upright gripper through the object rather than at its surface: a
// gripper sent to a surface point closes its jaws on an edge (half of
// each jaw above the object) and holds nothing. The aim is
//
//   - a closing axis that is horizontal (the gripper's own axis stays
//     vertical, as the script and the view-plane drag assume) and crosses
//     the object where it is narrowest: among the headings within a
//     search range around a preferred one (the gripper's own heading for
//     the script, the camera's right for a click), the one of least
//     extent, so that a box is taken across two faces rather than across
//     its corners and an elongated object across its narrow side. The
//     preferred heading is kept unless another is narrower by more than
//     headingTolerance: a faceted round section (a procedural cylinder, a
//     scanned organ) then keeps it instead of turning to whichever facet
//     happens to be narrowest. Of the two opposite directions the one
//     nearer the gripper's current heading, so that it turns least;
//   - a centre midway across the object's extent along that axis, so that
//     both open jaws clear the object by the same gap; across the other
//     horizontal axis, the script takes the middle of the object's extent
//     and a click the line of sight;
//   - a height where the jaws can carry it: the script grasps at the
//     middle of the object's height as it rests on the floor, a click at
//     the middle of the line of sight's chord through the object; both no
//     lower than the jaws' lower edge FloorMargin above the floor
//     (GraspFloor);
//   - the object's width along the closing axis, over all its vertices
//     (conservative for an object that is wider away from the jaws'
//     reach): the opening at which the jaws meet it.

// Limits of the aim.
const (
	// FloorMargin is the height of the jaws' lower edge above the floor at
	// the lowest grasp, m.
	FloorMargin = 3e-3
	// ClickSearch is the largest turn of a click's closing axis from the
	// camera's right (the closing axis stays across the line of sight),
	// and scriptSearch the script's from the gripper's heading (any
	// heading: the gripper is symmetric under a half turn).
	ClickSearch  = math.Pi / 4
	scriptSearch = math.Pi / 2
	// aimStep is the spacing of the candidate headings, rad.
	aimStep = math.Pi / 180
	// headingTolerance is how much wider than the narrowest (relative)
	// the preferred heading may be and still be kept. The procedural
	// cylinder's polygon is up to 8.3 % wider across its corners than
	// across its flats (at its coarsest, 8 sides); a box turned by 6°
	// from its faces is 10 % wider.
	headingTolerance = 0.10
	// aimClearance is the least gap between an open jaw and the object, m.
	aimClearance = 1e-3
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
	// Width is the object's extent along the closing axis, which the
	// centre halves: the jaws meet the object at the opening Width.
	Width float64
	// Top is the highest point of the object, m.
	Top float64
}

// Warning says why open jaws of the given opening would not fit around
// the object at the aim, "" when they fit with aimClearance on each side.
func (a Aim) Warning(opening float64) string {
	if a.Width+2*aimClearance <= opening {
		return ""
	}
	return fmt.Sprintf("The object is %.1f mm wide across the jaws, wider than their %.1f mm opening: open the jaws (G) or aim across a narrower side.",
		1e3*a.Width, 1e3*opening)
}

// GraspFloor returns the lowest grasp centre of jaws of height jawHeight
// (along the gripper's axis): their lower edge FloorMargin above the
// floor.
func GraspFloor(jawHeight float64) float64 { return jawHeight/2 + FloorMargin }

// AimAtObject aims the gripper, heading yaw now, at the object whose
// vertices are positions (three coordinates each): through its middle,
// across its narrowest side (any heading), at the middle of its height
// as it rests on the floor and no lower than minZ (GraspFloor). ok is
// false without a vertex.
//
// For an object of height H resting on z = 0, symmetric about the
// vertical planes through the origin along x and y and no more than
// headingTolerance narrower across any other heading (the procedural box
// and cylinder as the scene places them), seen from heading 0, the aim is
// exactly the centre (0, 0, max(H/2, minZ)) with heading 0, and the width
// the object's x extent.
func AimAtObject[F Coord](positions []F, yaw, minZ float64) (a Aim, ok bool) {
	if len(positions) < 3 {
		return Aim{}, false
	}
	axisYaw := closingYaw(positions, yaw, scriptSearch, yaw)
	across := r3.Vec{X: -math.Sin(axisYaw), Y: math.Cos(axisYaw)}
	lo, hi := extent(positions, r3.Vec{}, across)
	zlo, ztop := extent(positions, r3.Vec{}, r3.Vec{Z: 1})
	centre := r3.Scale((lo+hi)/2, across)
	centre.Z = math.Max((ztop-zlo)/2, minZ)
	a = centredAcross(positions, centre, axisYaw)
	a.Top = ztop
	return a, true
}

// AimAlongRay aims the gripper, heading yaw now, along the ray origin +
// t·dir (a click's line of sight, dir of unit length) through the surface
// (positions, three coordinates per vertex; tris, three indices per
// triangle): centred on the midpoint of the ray's entry into the object
// and its first exit (raised to minZ), then moved along the closing axis
// to the middle of the object's extent there. The closing axis is across
// the line of sight, within ClickSearch of right (the camera's right
// axis), so the centre stays on the line of sight as seen from the camera
// up to that sideways shift, and a click off the middle does not land a
// jaw on the object. ok is false when the ray misses the object.
func AimAlongRay[F Coord](origin, dir, right r3.Vec, yaw float64, positions []F, tris []uint32, minZ float64) (Aim, bool) {
	entry, exit, ok := surfaceCrossings(origin, dir, positions, tris)
	if !ok {
		return Aim{}, false
	}
	centre := r3.Add(origin, r3.Scale((entry+exit)/2, dir))
	centre.Z = math.Max(centre.Z, minZ)
	a := centredAcross(positions, centre, closingYaw(positions, math.Atan2(right.Y, right.X), ClickSearch, yaw))
	_, a.Top = extent(positions, r3.Vec{}, r3.Vec{Z: 1})
	return a, true
}

// centredAcross completes the aim of closing axis axisYaw from centre: the
// centre moved along the axis to the middle of the object's extent, and
// that extent.
func centredAcross[F Coord](positions []F, centre r3.Vec, axisYaw float64) Aim {
	axis := r3.Vec{X: math.Cos(axisYaw), Y: math.Sin(axisYaw)}
	lo, hi := extent(positions, centre, axis)
	centre = r3.Add(centre, r3.Scale((lo+hi)/2, axis))
	return Aim{
		Pose:  rigid.Pose{Position: centre, Rotation: r3.NewRotation(axisYaw, r3.Vec{Z: 1})},
		Yaw:   axisYaw,
		Width: hi - lo,
	}
}

// closingYaw returns the heading of the closing axis: the narrowest
// within ±search of preferred (narrowestYaw), turned by half turns to
// within a quarter turn of the gripper's heading yaw (the gripper is
// symmetric under a half turn about its axis).
func closingYaw[F Coord](positions []F, preferred, search, yaw float64) float64 {
	axisYaw := narrowestYaw(positions, preferred, search)
	return axisYaw + math.Pi*math.Round((yaw-axisYaw)/math.Pi)
}

// narrowestYaw returns the horizontal direction, as a heading from +x
// within ±search of yaw0, along which the vertices' extent is smallest:
// the best of the headings aimStep apart (the one nearest yaw0 among
// equally narrow ones, within a micrometre), refined between its
// neighbours; or yaw0 itself when its extent is within headingTolerance
// of the smallest.
func narrowestYaw[F Coord](positions []F, yaw0, search float64) float64 {
	width := func(y float64) float64 {
		lo, hi := extent(positions, r3.Vec{}, r3.Vec{X: math.Cos(y), Y: math.Sin(y)})
		return hi - lo
	}
	w0 := width(yaw0)
	best, bestWidth := yaw0, w0
	n := int(math.Round(search / aimStep))
	for k := 1; k <= 2*n; k++ {
		// Candidates from the middle outwards: +δ, −δ, +2δ, −2δ, …
		step := float64((k+1)/2) * search / float64(n)
		if k%2 == 0 {
			step = -step
		}
		y := yaw0 + step
		if w := width(y); w < bestWidth-1e-6 {
			best, bestWidth = y, w
		}
	}
	if w0 <= (1+headingTolerance)*bestWidth {
		return yaw0
	}
	return refineYaw(width, best, search/float64(n), yaw0-search, yaw0+search)
}

// refineYaw narrows the heading of least width down from the candidate y
// of a grid of spacing step to within a thousandth of a degree, by a
// ternary search over the candidate's neighbourhood (within [lo, hi]),
// where the width has one minimum.
func refineYaw(width func(float64) float64, y, step, lo, hi float64) float64 {
	a, b := math.Max(y-step, lo), math.Min(y+step, hi)
	for b-a > 1e-5*aimStep {
		m1, m2 := a+(b-a)/3, b-(b-a)/3
		if width(m1) < width(m2) {
			b = m2
		} else {
			a = m1
		}
	}
	if m := (a + b) / 2; width(m) < width(y) {
		return m
	}
	return y
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
func surfaceCrossings[F Coord](origin, dir r3.Vec, positions []F, tris []uint32) (entry, exit float64, ok bool) {
	nv := uint32(len(positions) / 3)
	var ts []float64
	for i := 0; i+2 < len(tris); i += 3 {
		a, b, c := tris[i], tris[i+1], tris[i+2]
		if a >= nv || b >= nv || c >= nv {
			continue
		}
		if t, hit := rayTriangle(origin, dir, point(positions, int(a)), point(positions, int(b)), point(positions, int(c))); hit {
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
