package scenario

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics"
	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// The soft-fingers scene (settings.SoftFingers): two soft pads, one soft
// body of two parts, each attached by its outer face to a flat jaw, close
// on a dynamic rigid cube resting on the floor (rigid–rigid contact), lift
// it and spin it. The cube is held by the pads' friction alone; when they
// do not hold it, it falls back onto the floor.

// FingersCubeBody is the soft-fingers scene's dynamic cube (after the
// floor and the two jaws).
const FingersCubeBody = 3

const (
	padThickness   = 8e-3   // a pad across the closing axis, m
	padHeight      = 0.8    // a pad's height as a share of the cube's edge: clear of the floor
	padJawGap      = 0.5e-3 // between a pad's attached face and its jaw, so that they never touch, m
	padCubeGap     = 0.1e-3 // between a pad and the cube before the close, m
	fingersSqueeze = 0.2e-3 // each pad pressed into the cube past touching, m
	fingersClose   = 0.3    // length of the close, s
	fingersSettle  = 0.1    // the cube settles on the floor before the close, s
)

// fingersCentreZ is the height of the cube's centre resting on the floor
// (the contact law keeps the contact distance d under it), where the pads
// grip it.
func fingersCentreZ(cfg settings.Scenario) float64 {
	return cubeSide(cfg)/2 + cfg.Physics.ContactDistance
}

// fingersPads builds the two pads around the cube's place, each about
// half of the DOF budget: padThickness across the closing axis (x), the
// cube's width in y and padHeight of it in z, centred on the cube,
// padCubeGap off it.
func fingersPads(cfg settings.Scenario) (object, meshInfo, error) {
	a := cubeSide(cfg)
	size := r3.Vec{X: padThickness, Y: a, Z: padHeight * a}
	pads := &mesh.TetMesh{}
	for _, side := range []float64{-1, 1} {
		m, err := mesh.BoxForDOFs(size, max(cfg.TargetDOFs/2, 60))
		if err != nil {
			return object{}, meshInfo{}, err
		}
		b := m.Bounds()
		// the pad's inner face padCubeGap off the cube's, centred in y and
		// at the cube's height in z
		inner := side * (a/2 + padCubeGap)
		shift := r3.Vec{
			Y: -(b.Min.Y + b.Max.Y) / 2,
			Z: fingersCentreZ(cfg) - (b.Min.Z+b.Max.Z)/2,
		}
		if side < 0 {
			shift.X = inner - b.Max.X
		} else {
			shift.X = inner - b.Min.X
		}
		appendPart(pads, m, shift)
	}
	name := fmt.Sprintf("two soft pads %.0f × %.0f × %.0f mm", padThickness*1e3, a*1e3, padHeight*a*1e3)
	return object{mesh: pads}, meshInfo{name: name}, nil
}

// fingersOpenings are the jaws' openings: the pads padCubeGap off the
// cube, and pressed fingersSqueeze into it.
func fingersOpenings(side float64) (open, closed float64) {
	open = side + 2*(padCubeGap+padThickness+padJawGap)
	return open, open - 2*(padCubeGap+fingersSqueeze)
}

// fingersBodies creates the floor and the flat jaws around the pads (the
// gripper driver and, when scripted, its script: graspBodies) and the
// cube resting on the floor (made dynamic by build).
func (sc *Scene) fingersBodies(obj object) []rigid.Body {
	cube := rigid.Translation(r3.Vec{Z: fingersCentreZ(sc.cfg)})
	return append(sc.graspBodies(obj), cubeShaped(cubeSide(sc.cfg), cube))
}

// newFingersScript is the soft-fingers timeline: the cube settles on the
// floor, the jaws close on it where they start (no approach), hold, lift
// it 30 mm and spin.
func newFingersScript(cfg settings.Scenario, open, closed float64) *graspScript {
	base := r3.Vec{Z: fingersCentreZ(cfg)}
	s := graspScript{base: base, zHigh: base.Z, zGrasp: base.Z, lift: 0.03, openWide: open, openGrip: closed}
	return scheduled(cfg, s, phaseDurations{settle: fingersSettle, close: fingersClose, hold: 0.3, lift: 0.5})
}

// fingersAttachments holds each pad's outer face to its jaw.
func fingersAttachments(m *mesh.TetMesh, side float64) []physics.Attachment {
	outer := side/2 + padCubeGap + padThickness - 1e-9 // the pads' outer faces, |x|
	left, right := physics.Attachment{Body: LeftJawBody}, physics.Attachment{Body: RightJawBody}
	for n, x := range m.Nodes {
		switch {
		case x.X <= -outer:
			left.Nodes = append(left.Nodes, n)
		case x.X >= outer:
			right.Nodes = append(right.Nodes, n)
		}
	}
	return []physics.Attachment{left, right}
}

// fingersDensity is the cube's, kg/m³: steel, 62 g for the 20 mm cube
// (0.61 N), so that the pads' grip holds it at μ = 0.8 and not at μ = 0.1.
const fingersDensity = 7800

// fingersDynamics is the cube's mass and inertia.
func fingersDynamics(cfg settings.Scenario) physics.RigidDynamics {
	return solidCube(cubeSide(cfg), fingersDensity)
}

// cubeCentre is the soft-fingers cube's centre.
func (sc *Scene) cubeCentre() r3.Vec { return sc.Sim.Bodies()[FingersCubeBody].Start.Position }

// fingersHeld reports whether the pads hold the cube: they push on it, the
// floor does not carry it, and its centre lies between the jaws.
func (sc *Scene) fingersHeld() bool {
	if sc.metrics.gripLast <= 0 || sc.metrics.cubeFloorLast > 0 {
		return false
	}
	g := sc.Driver.Gripper
	c := g.Pose.ApplyInverse(sc.cubeCentre())
	return math.Abs(c.X) <= g.Opening/2 && math.Abs(c.Y) <= g.JawWidth/2+heldMargin &&
		math.Abs(c.Z) <= g.JawHeight/2+heldMargin
}

// FingersResult is the soft-fingers scene's end.
type FingersResult struct {
	Held   bool    `json:"held"`   // the pads hold the cube at the end
	Weight float64 `json:"weight"` // the cube's m·g, N
	Height float64 `json:"height"` // the cube's centre above the floor at the end, m
	Rest   float64 `json:"rest"`   // the cube's centre resting on the floor, m
	// FloorForce is the floor's push on the cube at the end (rigid–rigid
	// contact), N: its weight once it lies on the floor, 0 while held.
	FloorForce float64 `json:"floor_force"`
	Turned     float64 `json:"turned"` // the cube's turn about z, rad (unwrapped per step)
}

// fingersResult measures the cube at the end.
func (sc *Scene) fingersResult() *FingersResult {
	d := fingersDynamics(sc.cfg)
	return &FingersResult{
		Held: sc.fingersHeld(), Weight: d.Mass * r3.Norm(sc.Sim.Settings().Gravity),
		Height: sc.cubeCentre().Z, Rest: fingersCentreZ(sc.Config()),
		FloorForce: sc.metrics.cubeFloorLast, Turned: sc.metrics.cubeTurn,
	}
}
