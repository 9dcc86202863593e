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
// on a dynamic rigid cube, which is released to gravity once they have
// closed; the gripper then lifts it and spins it. The cube is held by the
// pads' friction alone. Contact between two rigid bodies is not simulated:
// the cube cannot rest on the floor before the grasp (it is held in place
// instead), and a cube that slips out is stopped where it reaches the
// floor (FingersResult.DroppedAt).

// FingersCubeBody is the soft-fingers scene's dynamic cube (after the
// floor and the two jaws).
const FingersCubeBody = 3

const (
	padThickness   = 8e-3   // a pad across the closing axis, m
	padJawGap      = 0.5e-3 // between a pad's attached face and its jaw, so that they never touch, m
	padCubeGap     = 0.1e-3 // between a pad and the cube before the close, m
	fingersSqueeze = 0.2e-3 // each pad pressed into the cube past touching, m
	fingersCentreZ = 0.04   // the cube's centre above the floor, m
	fingersClose   = 0.3    // length of the close, after which the cube is released, s
)

// fingersState is the scene's cube: when it was released and, if it
// fell, stopped on the floor. Its edge is the cube-drop scene's, cubeSide.
type fingersState struct {
	released, dropped     bool
	releasedAt, droppedAt float64
}

// fingersPads builds the two pads around the cube's place, each about
// half of the DOF budget: padThickness across the closing axis (x), the
// cube's face in y and z, padCubeGap off the cube.
func fingersPads(cfg settings.Scenario) (object, meshInfo, error) {
	a := cubeSide(cfg)
	size := r3.Vec{X: padThickness, Y: a, Z: a}
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
			Z: fingersCentreZ - (b.Min.Z+b.Max.Z)/2,
		}
		if side < 0 {
			shift.X = inner - b.Max.X
		} else {
			shift.X = inner - b.Min.X
		}
		n := len(pads.Nodes)
		for _, x := range m.Nodes {
			pads.Nodes = append(pads.Nodes, r3.Add(x, shift))
		}
		for _, t := range m.Tets {
			pads.Tets = append(pads.Tets, [4]int{t[0] + n, t[1] + n, t[2] + n, t[3] + n})
		}
	}
	name := fmt.Sprintf("two soft pads %.0f × %.0f × %.0f mm", padThickness*1e3, a*1e3, a*1e3)
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
// cube, held in place (kinematic) until its release.
func (sc *Scene) fingersBodies(obj object) []rigid.Body {
	cube := rigid.Translation(r3.Vec{Z: fingersCentreZ})
	return append(sc.graspBodies(obj), cubeShaped(cubeSide(sc.cfg), cube))
}

// newFingersScript is the soft-fingers timeline: the jaws close on the
// cube where they start (no settle, no approach), hold while the cube is
// released, lift 30 mm and spin.
func newFingersScript(cfg settings.Scenario, open, closed float64) *graspScript {
	base := r3.Vec{Z: fingersCentreZ}
	s := graspScript{base: base, zHigh: base.Z, zGrasp: base.Z, lift: 0.03, openWide: open, openGrip: closed}
	return scheduled(cfg, s, phaseDurations{close: fingersClose, hold: 0.3, lift: 0.5})
}

// fingersAttachments holds each pad's outer face to its jaw.
func fingersAttachments(m *mesh.TetMesh, side float64) []physics.Attachment {
	outer := side/2 + padCubeGap + padThickness - 1e-9
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

// fingersEvents runs after each soft-fingers step: the cube is released
// to gravity once the close is over (at fingersClose, scripted or not),
// and a released cube whose bottom reaches the floor is stopped there, at
// rest, since it would pass through it.
func (sc *Scene) fingersEvents() error {
	f := &sc.fingers
	t := sc.Sim.Time()
	if !f.released && t >= sc.fingersReleaseTime()-1e-9 {
		d := fingersDynamics(sc.cfg)
		if err := sc.Sim.SetDynamic(FingersCubeBody, &d); err != nil {
			return err
		}
		f.released, f.releasedAt = true, t
		return nil
	}
	if f.released && !f.dropped {
		pose, a := sc.Sim.Bodies()[FingersCubeBody].End, cubeSide(sc.cfg)
		if pose.Position.Z-a/2 < 0 {
			if err := sc.Sim.SetDynamic(FingersCubeBody, nil); err != nil {
				return err
			}
			pose.Position.Z = a/2 + sc.Sim.Settings().ContactDistance
			sc.Sim.SetBodyPose(FingersCubeBody, pose)
			f.dropped, f.droppedAt = true, t
		}
	}
	return nil
}

// fingersReleaseTime is when the cube is let go: the end of the scripted
// close (delayed with the script when it restarts), else fingersClose.
func (sc *Scene) fingersReleaseTime() float64 {
	if sc.script != nil {
		return sc.script.closedAt()
	}
	return fingersClose
}

// cubeCentre is the soft-fingers cube's centre.
func (sc *Scene) cubeCentre() r3.Vec { return sc.Sim.Bodies()[FingersCubeBody].Start.Position }

// fingersHeld reports whether the pads hold the released cube: they push
// on it, it has not fallen, and its centre lies between the jaws.
func (sc *Scene) fingersHeld() bool {
	f := &sc.fingers
	if !f.released || f.dropped || sc.metrics.gripLast <= 0 {
		return false
	}
	g := sc.Driver.Gripper
	c := g.Pose.ApplyInverse(sc.cubeCentre())
	return math.Abs(c.X) <= g.Opening/2 && math.Abs(c.Y) <= g.JawWidth/2+heldMargin &&
		math.Abs(c.Z) <= g.JawHeight/2+heldMargin
}

// FingersResult is the soft-fingers scene's end.
type FingersResult struct {
	ReleasedAt float64 `json:"released_at"`          // s: the cube is held in place until then
	Held       bool    `json:"held"`                 // the pads hold the cube at the end
	DroppedAt  float64 `json:"dropped_at,omitempty"` // s: the cube fell to the floor then (0: it did not)
	Weight     float64 `json:"weight"`               // the cube's m·g, N
	Height     float64 `json:"height"`               // the cube's centre above the floor at the end, m
	Turned     float64 `json:"turned"`               // the cube's turn about z since its release, rad (unwrapped per step)
}

// fingersResult measures the cube at the end.
func (sc *Scene) fingersResult() *FingersResult {
	f := &sc.fingers
	d := fingersDynamics(sc.cfg)
	r := &FingersResult{
		ReleasedAt: f.releasedAt, Held: sc.fingersHeld(),
		Weight: d.Mass * r3.Norm(sc.Sim.Settings().Gravity), Height: sc.cubeCentre().Z,
		Turned: sc.metrics.cubeTurn,
	}
	if f.dropped {
		r.DroppedAt = f.droppedAt
	}
	return r
}
