package collide

import (
	"sort"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
	"softgrasp/physics/rigid"
)

// gridBox returns the node positions (flat, 3 per node) of an
// n[0]×n[1]×n[2] grid spanning origin + [0, size] and the boundary surface
// of the box it meshes, built by hand: two outward triangles per boundary
// grid cell. Interior nodes belong to no triangle (Local = −1).
func gridBox(n [3]int, size, origin r3.Vec) ([]float64, *mesh.Surface) {
	id := func(i, j, k int) int { return i + n[0]*(j+n[1]*k) }
	q := make([]float64, 0, 3*n[0]*n[1]*n[2])
	for k := 0; k < n[2]; k++ {
		for j := 0; j < n[1]; j++ {
			for i := 0; i < n[0]; i++ {
				q = append(q,
					origin.X+size.X*float64(i)/float64(n[0]-1),
					origin.Y+size.Y*float64(j)/float64(n[1]-1),
					origin.Z+size.Z*float64(k)/float64(n[2]-1))
			}
		}
	}
	var tris [][3]int
	for a := 0; a < 3; a++ {
		u, v := (a+1)%3, (a+2)%3
		for _, side := range []int{0, n[a] - 1} {
			for cu := 0; cu+1 < n[u]; cu++ {
				for cv := 0; cv+1 < n[v]; cv++ {
					at := func(du, dv int) int {
						var c [3]int
						c[a], c[u], c[v] = side, cu+du, cv+dv
						return id(c[0], c[1], c[2])
					}
					c00, c10, c11, c01 := at(0, 0), at(1, 0), at(1, 1), at(0, 1)
					// Counter-clockwise in (u, v) faces +e_a (e_u×e_v = e_a);
					// the low side faces −e_a and is reversed.
					if side == 0 {
						tris = append(tris, [3]int{c00, c11, c10}, [3]int{c00, c01, c11})
					} else {
						tris = append(tris, [3]int{c00, c10, c11}, [3]int{c00, c11, c01})
					}
				}
			}
		}
	}
	return q, surfaceOf(tris, len(q)/3)
}

// surfaceOf fills a mesh.Surface from its triangles.
func surfaceOf(tris [][3]int, nNodes int) *mesh.Surface {
	s := &mesh.Surface{Tris: tris, Local: make([]int, nNodes)}
	used := map[int]bool{}
	for _, t := range tris {
		for _, v := range t {
			used[v] = true
		}
	}
	for v := range used {
		s.Vertices = append(s.Vertices, v)
	}
	sort.Ints(s.Vertices)
	for i := range s.Local {
		s.Local[i] = -1
	}
	for i, v := range s.Vertices {
		s.Local[v] = i
	}
	s.VertexTris = make([][]int, len(s.Vertices))
	for t, tri := range tris {
		for _, v := range tri {
			s.VertexTris[s.Local[v]] = append(s.VertexTris[s.Local[v]], t)
		}
	}
	return s
}

// squeezeScene is a soft box of side size with its bottom at z = lift on
// a floor, squeezed by the jaws of a gripper whose grasp centre is at
// height centreZ with the inner surfaces depth inside the box's ±x faces.
type squeezeScene struct {
	q       []float64
	surf    *mesh.Surface
	bodies  []rigid.Body // floor, left jaw, right jaw
	gripper rigid.Gripper
}

func newSqueezeScene(n [3]int, size, lift, centreZ, depth float64, style rigid.JawStyle) squeezeScene {
	q, surf := gridBox(n, r3.Vec{X: size, Y: size, Z: size}, r3.Vec{X: -size / 2, Y: -size / 2, Z: lift})
	g := rigid.DefaultGripper()
	g.Style = style
	g.Pose = rigid.Translation(r3.Vec{Z: centreZ})
	g.Opening = size - 2*depth
	shapes, poses := g.JawShapes(), g.JawPoses()
	bodies := []rigid.Body{
		{Name: "floor", Shape: rigid.Plane{}, Start: rigid.IdentityPose(), End: rigid.IdentityPose()},
		{Name: "left jaw", Shape: shapes[0], Start: poses[0], End: poses[0]},
		{Name: "right jaw", Shape: shapes[1], Start: poses[1], End: poses[1]},
	}
	return squeezeScene{q: q, surf: surf, bodies: bodies, gripper: g}
}

// softPoint returns Σ Weights[i]·q[Nodes[i]] for a pair.
func softPoint(q []float64, p *Pair) r3.Vec {
	var x r3.Vec
	for i := 0; i < p.Count; i++ {
		x = r3.Add(x, r3.Scale(p.Weights[i], node(q, p.Nodes[i])))
	}
	return x
}
