package scenario

import (
	"math"

	"gonum.org/v1/gonum/num/quat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// GripperCommand is what a driver asks of the gripper: a target pose of
// its frame (grasp centre, closing axis x, own axis z) and a target
// opening between the jaws' contact surfaces, or, with Grip, jaws that
// close until they grip with the driver's grip force (GripControl).
type GripperCommand struct {
	Target  rigid.Pose
	Opening float64
	Grip    bool
}

// GripperDriver moves the gripper towards its commanded target with
// bounded speeds, so that a kinematic body never travels further in one
// step than collision detection can see (the alarm distance), whatever
// the mouse or the script asks.
type GripperDriver struct {
	Gripper rigid.Gripper // state at the end of the last step
	Command GripperCommand

	MaxSpeed        float64 // m/s
	MaxAngularSpeed float64 // rad/s
	MaxOpeningSpeed float64 // m/s
	// Via are poses the gripper passes through, in order, before it heads
	// for the command's target (Scene.Approach): each is left once reached.
	Via []rigid.Pose

	// Grip closes the jaws by force while the command says Grip.
	Grip GripControl
}

// Advance moves the gripper one step of length h towards the command and
// returns the jaws' new poses. A gripping command's opening comes from the
// grip controller; any other forgets what the controller felt.
func (d *GripperDriver) Advance(h float64) [2]rigid.Pose {
	g := &d.Gripper
	target := d.Command.Target
	for len(d.Via) > 0 {
		if v := d.Via[0]; r3.Norm(r3.Sub(v.Position, g.Pose.Position)) > 1e-6 || !sameRotation(v.Rotation, g.Pose.Rotation) {
			target = v
			break
		}
		d.Via = d.Via[1:]
	}
	g.Pose.Position = stepTowards(g.Pose.Position, target.Position, d.MaxSpeed*h)
	g.Pose.Rotation = rotateTowards(g.Pose.Rotation, target.Rotation, d.MaxAngularSpeed*h)
	if d.Command.Grip {
		g.Opening = d.Grip.next(g.Opening, h)
	} else {
		d.Grip.Release()
		g.Opening = approach(g.Opening, d.Command.Opening, d.MaxOpeningSpeed*h)
	}
	return g.JawPoses()
}

// sameRotation reports whether a and b turn by the same to within a
// micro-radian.
func sameRotation(a, b r3.Rotation) bool {
	qa, qb := quat.Number(a), quat.Number(b)
	dot := qa.Real*qb.Real + qa.Imag*qb.Imag + qa.Jmag*qb.Jmag + qa.Kmag*qb.Kmag
	return math.Abs(dot) >= math.Cos(0.5e-6)
}

// stepTowards moves from a to b by at most maxStep.
func stepTowards(a, b r3.Vec, maxStep float64) r3.Vec {
	d := r3.Sub(b, a)
	l := r3.Norm(d)
	if l <= maxStep || l == 0 {
		return b
	}
	return r3.Add(a, r3.Scale(maxStep/l, d))
}

// approach moves the scalar a to b by at most maxStep.
func approach(a, b, maxStep float64) float64 {
	switch {
	case b > a+maxStep:
		return a + maxStep
	case b < a-maxStep:
		return a - maxStep
	}
	return b
}

// rotateTowards turns rotation a towards b by at most maxAngle (rad),
// along the shortest arc.
func rotateTowards(a, b r3.Rotation, maxAngle float64) r3.Rotation {
	qa, qb := quat.Number(a), quat.Number(b)
	rel := quat.Mul(qb, quat.Conj(qa))
	if rel.Real < 0 {
		rel = quat.Scale(-1, rel)
	}
	angle := 2 * math.Acos(math.Min(1, rel.Real))
	if angle <= maxAngle || angle == 0 {
		return b
	}
	axis := r3.Vec{X: rel.Imag, Y: rel.Jmag, Z: rel.Kmag}
	step := r3.NewRotation(maxAngle, axis)
	q := quat.Mul(quat.Number(step), qa)
	return r3.Rotation(quat.Scale(1/quat.Abs(q), q))
}

// spinAbout returns the rotation by angle about the world z axis.
func spinAbout(angle float64) r3.Rotation {
	return r3.NewRotation(angle, r3.Vec{Z: 1})
}
