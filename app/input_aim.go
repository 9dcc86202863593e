package main

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
	"softgrasp/physics/scenario"
)

// A ctrl+click aims the gripper through the object along the click's line
// of sight (scenario.AimAlongRay, the rule the grasp-and-rotate script
// aims by too) and keeps the open jaws' opening; an object wider than
// that opening less a clearance is a warning.

// graspAim is a click's aim and the opening the gripper keeps there.
type graspAim struct {
	scenario.Aim
	Opening float64 // the open jaws' opening, m
	Warning string  // "" when the open jaws fit around the object
}

// aimGrasp aims the gripper along the ray origin + t·dir through the
// surface (positions, three float32 per vertex; tris, three indices per
// triangle). right is the camera's right axis, yaw the gripper's current
// rotation about the vertical, opening its open jaws' opening and minZ the
// lowest grasp centre. ok is false when the ray misses the object.
func aimGrasp(origin, dir, right r3.Vec, yaw float64, positions []float32, tris []uint32, opening, minZ float64) (graspAim, bool) {
	a, ok := scenario.AimAlongRay(origin, dir, right, yaw, positions, tris, minZ)
	if !ok {
		return graspAim{}, false
	}
	return graspAim{Aim: a, Opening: opening, Warning: a.Warning(opening)}, true
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
