package main

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
	"softgrasp/physics/rigid"
	"softgrasp/physics/scenario"
)

// A ctrl+click aims the gripper at the best grasp of the object near the
// click's line of sight (scenario.AimAlongRay, the rule the
// grasp-and-rotate script aims by too), with the jaws open to the aim's
// opening; an object the jaws cannot hold there is refused with the
// reason.

// graspAim is a click's aim, or why there is none.
type graspAim struct {
	scenario.Aim
	Warning string // "" when the jaws can grasp the object there
}

// aimGrasp aims the gripper along the ray origin + t·dir at the surface
// (positions, three float32 per vertex; tris, three indices per
// triangle) for the jaws of the scene sc with friction μ. right is the
// camera's right axis. ok is false when the ray misses the object.
func aimGrasp(origin, dir, right r3.Vec, positions []float32, tris []uint32, sc *frame.Scene, mu float64) (graspAim, bool) {
	jaws := scenario.Jaws{Width: sc.JawWidth, Height: sc.JawHeight, Reach: sc.Reach, MinOpening: sc.MinOpening, Friction: mu}
	a, ok, err := scenario.AimAlongRay(origin, dir, right, scenario.Surface[float32, uint32]{Positions: positions, Tris: tris}, jaws, scenario.GraspFloor(sc.JawHeight))
	if !ok {
		return graspAim{}, false
	}
	if err != nil {
		return graspAim{Warning: "Not here: " + err.Error() + "."}, true
	}
	return graspAim{Aim: a}, true
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
