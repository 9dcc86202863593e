package frame

import (
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/rigid"
)

// ModelMatrix returns the column-major 4×4 model matrix of a pose, as a
// frame's BodyPoses hold it.
func ModelMatrix(p rigid.Pose) [16]float32 {
	ex, ey, ez := p.Rotate(r3.Vec{X: 1}), p.Rotate(r3.Vec{Y: 1}), p.Rotate(r3.Vec{Z: 1})
	t := p.Position
	return [16]float32{
		float32(ex.X), float32(ex.Y), float32(ex.Z), 0,
		float32(ey.X), float32(ey.Y), float32(ey.Z), 0,
		float32(ez.X), float32(ez.Y), float32(ez.Z), 0,
		float32(t.X), float32(t.Y), float32(t.Z), 1,
	}
}
