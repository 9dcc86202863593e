package rigid

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"
)

// JawStyle selects the shape of the gripper's jaws.
type JawStyle int

const (
	// RoundJaws are box plates carrying a cylindrical fingertip pad whose
	// axis is parallel to the gripper's z axis: the normal at a contact on
	// the pad turns with the contact point's position across the jaw, so
	// it depends on where the object touches it and changes as the object
	// deforms and slips. This is the case the recursive re-linearisation
	// of the constraint directions is about. The default.
	RoundJaws JawStyle = iota
	// FlatJaws are plain boxes: the inner contact surface is a flat face,
	// so every contact on it has the same normal (the closing direction).
	FlatJaws
)

// String returns "flat" or "round".
func (s JawStyle) String() string {
	switch s {
	case FlatJaws:
		return "flat"
	case RoundJaws:
		return "round"
	}
	return fmt.Sprintf("JawStyle(%d)", int(s))
}

// MarshalText writes the style's name (a recording's configuration).
func (s JawStyle) MarshalText() ([]byte, error) {
	if s != FlatJaws && s != RoundJaws {
		return nil, fmt.Errorf("JawStyle(%d) has no name", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads the style's name.
func (s *JawStyle) UnmarshalText(b []byte) error {
	v, err := ParseJawStyle(string(b))
	if err == nil {
		*s = v
	}
	return err
}

// ParseJawStyle reads "flat" or "round" (case and surrounding spaces
// ignored).
func ParseJawStyle(name string) (JawStyle, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "flat":
		return FlatJaws, nil
	case "round":
		return RoundJaws, nil
	}
	return 0, fmt.Errorf("unknown jaw style %q: want flat or round", name)
}

// Gripper is a two-jaw parallel gripper. Its jaws are kinematic rigid
// bodies; scripts and user commands move the gripper's Pose and Opening,
// and JawPoses turns them into the jaws' poses.
//
// Gripper frame: the origin is the grasp centre, midway between the jaws'
// inner contact surfaces; local x is the closing direction (the left jaw
// sits at −x, the right one at +x); local z is the gripper's own axis,
// pointing up, away from the fingertips, so spinning the gripper is a
// rotation about local z.
//
// Jaw frames: each jaw frame is the gripper frame translated along x to
// the jaw's inner contact surface, which lies in the jaw frame's plane
// x = 0: the left jaw's material is at x ≤ 0 and its surface faces +x, the
// right jaw's is at x ≥ 0 facing −x. Each jaw spans z ∈ [−JawHeight/2,
// JawHeight/2] and y ∈ [−JawWidth/2, JawWidth/2] around the grasp centre.
type Gripper struct {
	Pose Pose
	// Opening is the distance between the jaws' inner contact surfaces,
	// metres.
	Opening float64
	Style   JawStyle
	// JawThickness is the plate thickness along x, JawWidth its extent
	// along y, JawHeight along z; TipRadius is the radius of the round
	// fingertip pad (RoundJaws only). Metres.
	JawThickness, JawWidth, JawHeight, TipRadius float64
	// EdgeSpacing is the spacing of the jaws' rigid vertex samples along
	// their edges, metres (0 selects DefaultEdgeSpacing).
	EdgeSpacing float64
}

// DefaultGripper returns a gripper sized for a 3–5 cm object, open to
// 6 cm, with flat jaws 6 mm thick, 2.5 cm wide and 3 cm high, an 8 mm
// fingertip radius for RoundJaws, 2 mm edge sampling, at the world origin
// with its axis along world z.
func DefaultGripper() Gripper {
	return Gripper{
		Pose:         IdentityPose(),
		Opening:      0.06,
		Style:        FlatJaws,
		JawThickness: 6e-3,
		JawWidth:     25e-3,
		JawHeight:    30e-3,
		TipRadius:    8e-3,
		EdgeSpacing:  DefaultEdgeSpacing,
	}
}

// Validate reports the first field out of range: a pose that is not a
// rigid transform, a negative opening, an unknown style, sizes that are
// not finite and positive, and a fingertip wider than its plate.
func (g Gripper) Validate() error {
	if err := g.Pose.Validate(); err != nil {
		return fmt.Errorf("gripper Pose: %w", err)
	}
	if math.IsNaN(g.Opening) || math.IsInf(g.Opening, 0) || g.Opening < 0 {
		return fmt.Errorf("gripper Opening = %g: must be a finite distance ≥ 0 in metres", g.Opening)
	}
	if g.Style != FlatJaws && g.Style != RoundJaws {
		return fmt.Errorf("gripper Style = %d: want FlatJaws (%d) or RoundJaws (%d)", int(g.Style), int(FlatJaws), int(RoundJaws))
	}
	type size struct {
		name string
		v    float64
	}
	sizes := []size{{"JawThickness", g.JawThickness}, {"JawWidth", g.JawWidth}, {"JawHeight", g.JawHeight}}
	if g.Style == RoundJaws {
		sizes = append(sizes, size{"TipRadius", g.TipRadius})
	}
	for _, s := range sizes {
		if err := checkPositive("gripper "+s.name, s.v); err != nil {
			return err
		}
	}
	if g.Style == RoundJaws && 2*g.TipRadius > g.JawWidth {
		return fmt.Errorf("gripper TipRadius = %g: the fingertip diameter must not exceed JawWidth = %g", g.TipRadius, g.JawWidth)
	}
	longest := max(g.JawWidth, g.JawHeight, g.JawThickness, 2*math.Pi*g.TipRadius)
	if err := checkSpacing(g.EdgeSpacing, longest); err != nil {
		return fmt.Errorf("gripper: %w", err)
	}
	return nil
}

// JawShapes returns the body-frame shapes of the left (−x) and right (+x)
// jaws. The right jaw is the mirror image of the left one in the plane
// x = 0 of its frame. Flat jaws are a Box plate [−T, 0] × [−W/2, W/2] ×
// [−H/2, H/2] (left); round jaws put the plate behind a Cylinder pad of
// radius R whose axis is the line x = −R, y = 0, so the pad's front line
// is the inner contact surface x = 0 and the plate spans [−R−T, −R].
// The shapes are valid when Validate returns nil.
func (g Gripper) JawShapes() [2]Shape {
	var out [2]Shape
	for i, side := range [2]float64{-1, 1} {
		// side is the jaw's position along the gripper's x: its material
		// extends from the inner surface away from the grasp centre.
		plate := Box{
			HalfExtents: r3.Vec{X: g.JawThickness / 2, Y: g.JawWidth / 2, Z: g.JawHeight / 2},
			EdgeSpacing: g.EdgeSpacing,
		}
		plate.samples = plate.sampleVertices()
		if g.Style == FlatJaws {
			out[i] = Compound{Parts: []Part{{
				Shape:  plate,
				Offset: Translation(r3.Vec{X: side * g.JawThickness / 2}),
			}}}.cache()
			continue
		}
		pad := Cylinder{Radius: g.TipRadius, HalfLength: g.JawHeight / 2, EdgeSpacing: g.EdgeSpacing}
		pad.samples = pad.sampleVertices()
		out[i] = Compound{Parts: []Part{
			{Shape: pad, Offset: Translation(r3.Vec{X: side * g.TipRadius})},
			{Shape: plate, Offset: Translation(r3.Vec{X: side * (g.TipRadius + g.JawThickness/2)})},
		}}.cache()
	}
	return out
}

// JawPoses returns the world poses of the left and right jaws: the
// gripper pose composed with translations to x = ∓Opening/2 along the
// gripper's own x.
func (g Gripper) JawPoses() [2]Pose {
	h := g.Opening / 2
	return [2]Pose{
		g.Pose.Compose(Translation(r3.Vec{X: -h})),
		g.Pose.Compose(Translation(r3.Vec{X: h})),
	}
}

// Closing returns the gripper's closing direction (its local x) in the
// world frame: the inward normal of the left jaw's contact surface.
func (g Gripper) Closing() r3.Vec { return g.Pose.Rotate(r3.Vec{X: 1}) }

// Axis returns the gripper's own axis (its local z) in the world frame.
func (g Gripper) Axis() r3.Vec { return g.Pose.Rotate(r3.Vec{Z: 1}) }
