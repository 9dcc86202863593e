// Package mesh holds the tetrahedral meshes of the soft bodies: procedural
// boxes and cylinders and their resolution, units and placement,
// validation, the extraction of the boundary surface that collision
// detection and rendering use, and closed triangle surfaces (TriSurface).
// Reading and writing mesh files, and filling a surface with tetrahedra,
// is the meshfile package's work.
package mesh

import (
	"gonum.org/v1/gonum/spatial/r3"
)

// TetMesh is a linear tetrahedral mesh in its rest configuration.
//
// Positions are in metres. Every tetrahedron lists four node indices in
// positive orientation: (x1−x0)·((x2−x0)×(x3−x0)) > 0. File readers and
// generators fix the orientation of negatively oriented elements;
// Validate rejects degenerate ones.
type TetMesh struct {
	Nodes []r3.Vec
	Tets  [][4]int
}

// DOFs returns the number of mechanical degrees of freedom, 3 per node.
func (m *TetMesh) DOFs() int { return 3 * len(m.Nodes) }

// Surface is the boundary of a tetrahedral mesh: the triangles that belong
// to exactly one tetrahedron, oriented with outward normals (counter-
// clockwise seen from outside), and the mesh nodes they use.
type Surface struct {
	// Tris are the boundary triangles as indices into the mesh nodes.
	Tris [][3]int
	// Vertices lists each mesh node used by a boundary triangle once, in
	// increasing order.
	Vertices []int
	// VertexTris[i] lists the triangles around Vertices[i] (indices into
	// Tris), for vertex normals.
	VertexTris [][]int
	// Local maps a mesh node to its index in Vertices, or −1 for interior
	// nodes.
	Local []int
}
