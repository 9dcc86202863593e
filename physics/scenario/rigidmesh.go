package scenario

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/num/quat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/mesh"
	"softgrasp/physics/meshfile"
	"softgrasp/physics/rigid"
	"softgrasp/physics/settings"
)

// rigidMesh is a custom scene's rigid body from a mesh file (shape
// "mesh"): its closed surface fitted to the body's size, centred on its
// centre of mass and turned onto its principal axes of inertia, so that
// the body frame is the one physics.RigidDynamics asks for.
type rigidMesh struct {
	shape *rigid.TriangleMesh
	// axes turns the principal frame onto the file's axes: the body's
	// pose is the scene's rotation composed with it.
	axes r3.Rotation
	// volume (m³) and principal moments of inertia per unit density
	// (kg·m² per kg/m³) about the centre of mass.
	volume  float64
	moments r3.Vec
}

// loadRigidMesh reads the closed surface of path (a surface file, or a
// volume mesh's boundary), fits its largest extent to size, and centres
// and turns it as rigidMesh says. A surface that is not one closed,
// consistently oriented piece, or has more than
// settings.MaxRigidMeshTriangles triangles, is an error naming why.
func loadRigidMesh(path string, size float64) (*rigidMesh, error) {
	l, err := meshfile.Open(path, meshfile.Options{KeepSurface: true})
	if err != nil {
		return nil, err
	}
	surf := l.Surface
	if surf == nil {
		b, err := mesh.ExtractSurface(l.Mesh)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		surf = &mesh.TriSurface{Nodes: l.Mesh.Nodes, Tris: b.Tris}
	}
	if len(surf.Tris) > settings.MaxRigidMeshTriangles {
		return nil, fmt.Errorf("%s: %d triangles: a rigid mesh has at most %d (its closest points are found triangle by triangle); simplify it first",
			path, len(surf.Tris), settings.MaxRigidMeshTriangles)
	}
	surf.Compact()
	ext := surf.Bounds().Size()
	largest := math.Max(ext.X, math.Max(ext.Y, ext.Z))
	if !(largest > 0) {
		return nil, fmt.Errorf("%s: the surface has no extent", path)
	}
	for i := range surf.Nodes {
		surf.Nodes[i] = r3.Scale(size/largest, surf.Nodes[i])
	}
	// Closed and every shell turned outwards, or an error at the first
	// open or crowded edge.
	if _, err := surf.Close(); err != nil {
		return nil, fmt.Errorf("%s: a rigid mesh must be one closed surface: %w", path, err)
	}
	raw, err := rigid.NewTriangleMesh(surf.Nodes, surf.Tris)
	if err != nil {
		return nil, fmt.Errorf("%s: a rigid mesh must be one closed surface: %w", path, err)
	}
	volume, centre, I := raw.MassProperties()
	R, moments, err := principalAxes(I)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	verts := make([]r3.Vec, len(surf.Nodes))
	for i, v := range surf.Nodes {
		verts[i] = R.MulVecT(r3.Sub(v, centre)) // the principal frame's coordinates
	}
	shape, err := rigid.NewTriangleMesh(verts, surf.Tris)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &rigidMesh{shape: shape, axes: rotationOf(R), volume: volume, moments: moments}, nil
}

// principalAxes returns the rotation R (row-major, its columns the
// principal axes, det +1) and the principal moments of the symmetric
// inertia tensor I = R·diag(moments)·Rᵀ.
func principalAxes(I [9]float64) (m3.Mat3, r3.Vec, error) {
	var e mat.EigenSym
	if !e.Factorize(mat.NewSymDense(3, I[:]), true) {
		return m3.Mat3{}, r3.Vec{}, fmt.Errorf("the inertia tensor has no eigen decomposition")
	}
	var V mat.Dense
	e.VectorsTo(&V)
	d := e.Values(nil)
	if !(d[0] > 0) {
		return m3.Mat3{}, r3.Vec{}, fmt.Errorf("principal moments %v: the surface encloses no solid", d)
	}
	var R m3.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			R[3*i+j] = V.At(i, j)
		}
	}
	if mat.Det(&V) < 0 { // a reflection: turn the last axis round
		R[2], R[5], R[8] = -R[2], -R[5], -R[8]
	}
	return R, r3.Vec{X: d[0], Y: d[1], Z: d[2]}, nil
}

// rotationOf returns the unit quaternion of the rotation matrix R
// (row-major, det +1), by the largest of its four squared components.
func rotationOf(R m3.Mat3) r3.Rotation {
	tr := R[0] + R[4] + R[8]
	var q quat.Number
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(1+tr)
		q = quat.Number{Real: s / 4, Imag: (R[7] - R[5]) / s, Jmag: (R[2] - R[6]) / s, Kmag: (R[3] - R[1]) / s}
	case R[0] > R[4] && R[0] > R[8]:
		s := 2 * math.Sqrt(1+R[0]-R[4]-R[8])
		q = quat.Number{Real: (R[7] - R[5]) / s, Imag: s / 4, Jmag: (R[1] + R[3]) / s, Kmag: (R[2] + R[6]) / s}
	case R[4] > R[8]:
		s := 2 * math.Sqrt(1+R[4]-R[0]-R[8])
		q = quat.Number{Real: (R[2] - R[6]) / s, Imag: (R[1] + R[3]) / s, Jmag: s / 4, Kmag: (R[5] + R[7]) / s}
	default:
		s := 2 * math.Sqrt(1+R[8]-R[0]-R[4])
		q = quat.Number{Real: (R[3] - R[1]) / s, Imag: (R[2] + R[6]) / s, Jmag: (R[5] + R[7]) / s, Kmag: s / 4}
	}
	return r3.Rotation(quat.Scale(1/quat.Abs(q), q))
}
