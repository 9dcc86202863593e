package render_test

import (
	"math"

	"softgrasp/physics/frame"
)

// The synthetic scene of the GL tests: a soft box of 6 cm resting on a
// 1 m floor at z = 0, gripped along x by two jaws, with contacts on the
// two faces the jaws touch.

const (
	objectHalf = 0.03 // m
	jawGap     = 0.045
)

var objectCentre = [3]float32{0, 0, objectHalf}

// boxSurface returns the surface of an axis-aligned box, each face an n×n
// grid of quads (6·(n+1)² vertices, edges duplicated per face), with
// outward counter-clockwise triangles.
func boxSurface(centre, half [3]float32, n int) (verts []float32, tris []uint32) {
	for a := 0; a < 3; a++ {
		// b, c are the face's tangent axes with e_b × e_c = e_a.
		b, c := (a+1)%3, (a+2)%3
		for _, s := range []float32{1, -1} {
			base := uint32(len(verts) / 3)
			for i := 0; i <= n; i++ {
				for j := 0; j <= n; j++ {
					var p [3]float32
					p[a] = centre[a] + s*half[a]
					p[b] = centre[b] + half[b]*(2*float32(i)/float32(n)-1)
					p[c] = centre[c] + half[c]*(2*float32(j)/float32(n)-1)
					verts = append(verts, p[0], p[1], p[2])
				}
			}
			at := func(i, j int) uint32 { return base + uint32(i*(n+1)+j) }
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					q := [4]uint32{at(i, j), at(i+1, j), at(i+1, j+1), at(i, j+1)}
					if s > 0 {
						tris = append(tris, q[0], q[1], q[2], q[0], q[2], q[3])
					} else {
						tris = append(tris, q[0], q[2], q[1], q[0], q[3], q[2])
					}
				}
			}
		}
	}
	return verts, tris
}

// testScene builds the scene with an n×n grid per object face; the jaws
// are unit boxes scaled to 1×4×7 cm around their own origin, placed by
// the frame's poses.
func testScene(version uint64, n int) *frame.Scene {
	rest, tris := boxSurface(objectCentre, [3]float32{objectHalf, objectHalf, objectHalf}, n)
	jawV, jawI := boxSurface([3]float32{}, [3]float32{0.005, 0.02, 0.035}, 1)
	floor := []float32{-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0}
	return &frame.Scene{
		Version:     version,
		MeshName:    "test box",
		DOFs:        len(rest), // three per surface vertex; the test mesh has no interior
		SurfaceTris: tris,
		SurfaceRest: rest,
		Bodies: []frame.BodyMesh{
			{Name: "floor", Vertices: floor, Indices: []uint32{0, 1, 2, 0, 2, 3}, Floor: true},
			{Name: "jaw left", Vertices: jawV, Indices: jawI},
			{Name: "jaw right", Vertices: jawV, Indices: jawI},
		},
	}
}

// jawCentre is where the pose of jaw side (−1 left, +1 right) puts it.
func jawCentre(side float32) [3]float32 { return [3]float32{side * jawGap, 0, 0.04} }

// translation returns a column-major 4×4 translation matrix.
func translation(p [3]float32) [16]float32 {
	return [16]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, p[0], p[1], p[2], 1}
}

// testFrame is the scene at rest with the jaws in place, Displacement
// equal to each vertex's height and VonMises to its x coordinate, and one
// contact per jaw face corner region whose converged normal has turned by
// deviation (rad) from the start-of-step normal.
func testFrame(s *frame.Scene, deviation float32) *frame.Frame {
	n := len(s.SurfaceRest) / 3
	f := &frame.Frame{
		Seq:          1,
		SceneVersion: s.Version,
		Surface:      append([]float32(nil), s.SurfaceRest...),
		Displacement: make([]float32, n),
		VonMises:     make([]float32, n),
		BodyPoses:    [][16]float32{translation([3]float32{}), translation(jawCentre(-1)), translation(jawCentre(1))},
	}
	for i := 0; i < n; i++ {
		f.Displacement[i] = s.SurfaceRest[3*i+2]
		f.VonMises[i] = 1e4 * (s.SurfaceRest[3*i] + objectHalf)
	}
	sin, cos := float32(math.Sin(float64(deviation))), float32(math.Cos(float64(deviation)))
	for _, side := range []float32{-1, 1} {
		for _, z := range []float32{0.015, 0.045} {
			f.Contacts = append(f.Contacts, frame.ContactView{
				Point:     [3]float32{side * objectHalf, 0.01, z},
				Normal0:   [3]float32{-side, 0, 0},
				Normal:    [3]float32{-side * cos, 0, sin},
				Deviation: deviation,
				ForceN:    [3]float32{-side * 3, 0, 0},
				ForceT:    [3]float32{0, 0, 1.5},
				State:     1,
			})
		}
	}
	return f
}
