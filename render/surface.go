package render

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// surfaceMesh is the soft body's boundary on the GPU: one vertex buffer
// per attribute, so that a frame streams positions, normals and the
// colour-mapped scalar separately (the scalar only when a map is shown),
// and a static index buffer of the Scene's triangles. The wireframe pass
// reuses the position and index buffers through a second vertex array.
type surfaceMesh struct {
	vao, wireVAO                       uint32
	position, normal, scalar, rest, ib uint32

	vertices int
	tris     []uint32  // the Scene's triangle indices (read only)
	normals  []float32 // per-vertex unit normals, 3 per vertex, reused
}

// newSurfaceMesh creates the buffers for a surface of len(rest)/3
// vertices and uploads the triangles; it checks the indices first.
func newSurfaceMesh(rest []float32, tris []uint32) (*surfaceMesh, error) {
	if len(rest)%3 != 0 {
		return nil, fmt.Errorf("scene surface: %d rest coordinates is not a multiple of 3", len(rest))
	}
	if len(tris)%3 != 0 {
		return nil, fmt.Errorf("scene surface: %d triangle indices is not a multiple of 3", len(tris))
	}
	n := len(rest) / 3
	for i, v := range tris {
		if int(v) >= n {
			return nil, fmt.Errorf("scene surface: triangle %d uses vertex %d, but there are %d vertices", i/3, v, n)
		}
	}
	s := &surfaceMesh{vertices: n, tris: tris, normals: make([]float32, 3*n)}
	gl.GenVertexArrays(1, &s.vao)
	gl.GenVertexArrays(1, &s.wireVAO)
	var bufs [5]uint32
	gl.GenBuffers(5, &bufs[0])
	s.position, s.normal, s.scalar, s.rest, s.ib = bufs[0], bufs[1], bufs[2], bufs[3], bufs[4]

	gl.BindVertexArray(s.vao)
	allocAttribute(s.position, 0, 3, n, rest)
	allocAttribute(s.normal, 1, 3, n, nil)
	allocAttribute(s.scalar, 2, 1, n, make([]float32, max(n, 1)))
	allocAttribute(s.rest, 3, 3, n, rest) // the pattern's coordinates, never streamed
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, s.ib)
	if len(tris) > 0 {
		gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, 4*len(tris), unsafe.Pointer(&tris[0]), gl.STATIC_DRAW)
	}

	// The wireframe draws the same triangles as lines with the line
	// program, whose colour attribute (1) stays disabled and takes the
	// constant set by VertexAttrib4f before the draw.
	gl.BindVertexArray(s.wireVAO)
	gl.BindBuffer(gl.ARRAY_BUFFER, s.position)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, 12, 0)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, s.ib)
	gl.BindVertexArray(0)

	s.update(rest, nil)
	return s, glError("create surface buffers")
}

// allocAttribute sizes buffer for n vertices of size floats, fills it with
// data when given, and binds it to attribute loc of the bound vertex array.
func allocAttribute(buffer, loc uint32, size, n int, data []float32) {
	gl.BindBuffer(gl.ARRAY_BUFFER, buffer)
	var ptr unsafe.Pointer
	if len(data) > 0 {
		ptr = unsafe.Pointer(&data[0])
	}
	gl.BufferData(gl.ARRAY_BUFFER, max(4*size*n, 4), ptr, gl.DYNAMIC_DRAW)
	gl.EnableVertexAttribArray(loc)
	gl.VertexAttribPointerWithOffset(loc, int32(size), gl.FLOAT, false, int32(4*size), 0)
}

// update streams one frame: the positions, the normals recomputed from
// them, and the scalar field when scalar is non-nil. The caller has
// checked the lengths. No allocation.
func (s *surfaceMesh) update(positions, scalar []float32) {
	if s.vertices == 0 {
		return
	}
	vertexNormals(s.normals, positions, s.tris)
	streamFloats(s.position, positions)
	streamFloats(s.normal, s.normals)
	if scalar != nil {
		streamFloats(s.scalar, scalar)
	}
}

// streamFloats replaces the whole content of buffer. Orphaning the old
// storage first (BufferData with nil) lets the driver hand out fresh
// memory instead of stalling until the previous frame's draw has read it.
func streamFloats(buffer uint32, data []float32) {
	gl.BindBuffer(gl.ARRAY_BUFFER, buffer)
	gl.BufferData(gl.ARRAY_BUFFER, 4*len(data), nil, gl.DYNAMIC_DRAW)
	gl.BufferSubData(gl.ARRAY_BUFFER, 0, 4*len(data), unsafe.Pointer(&data[0]))
}

// draw issues the filled triangles with the bound program.
func (s *surfaceMesh) draw() {
	gl.BindVertexArray(s.vao)
	gl.DrawElementsWithOffset(gl.TRIANGLES, int32(len(s.tris)), gl.UNSIGNED_INT, 0)
}

// drawWire issues the triangle edges with the bound (line) program.
func (s *surfaceMesh) drawWire() {
	gl.BindVertexArray(s.wireVAO)
	gl.PolygonMode(gl.FRONT_AND_BACK, gl.LINE)
	gl.DrawElementsWithOffset(gl.TRIANGLES, int32(len(s.tris)), gl.UNSIGNED_INT, 0)
	gl.PolygonMode(gl.FRONT_AND_BACK, gl.FILL)
}

func (s *surfaceMesh) delete() {
	bufs := [5]uint32{s.position, s.normal, s.scalar, s.rest, s.ib}
	gl.DeleteBuffers(5, &bufs[0])
	gl.DeleteVertexArrays(1, &s.vao)
	gl.DeleteVertexArrays(1, &s.wireVAO)
}

// vertexNormals writes area-weighted unit vertex normals of the triangle
// mesh (positions: 3 floats per vertex; tris: 3 indices per triangle).
//
// For a triangle (a, b, c) the cross product (b − a) × (c − a) has the
// direction of the face normal and a length of twice its area, so summing
// the raw cross products at each corner weights every face by its area:
// small sliver triangles, common where the tetrahedral mesh is graded,
// cannot tilt a vertex normal. The sums are then normalised; a vertex no
// triangle touches gets +Z instead of NaN.
func vertexNormals(normals, positions []float32, tris []uint32) {
	clear(normals)
	for t := 0; t+2 < len(tris); t += 3 {
		a, b, c := 3*tris[t], 3*tris[t+1], 3*tris[t+2]
		e1x, e1y, e1z := positions[b]-positions[a], positions[b+1]-positions[a+1], positions[b+2]-positions[a+2]
		e2x, e2y, e2z := positions[c]-positions[a], positions[c+1]-positions[a+1], positions[c+2]-positions[a+2]
		nx, ny, nz := e1y*e2z-e1z*e2y, e1z*e2x-e1x*e2z, e1x*e2y-e1y*e2x
		for _, v := range [3]uint32{a, b, c} {
			normals[v] += nx
			normals[v+1] += ny
			normals[v+2] += nz
		}
	}
	for i := 0; i+2 < len(normals); i += 3 {
		x, y, z := normals[i], normals[i+1], normals[i+2]
		l := float32(math.Sqrt(float64(x*x + y*y + z*z)))
		if !(l > 0) || math.IsInf(float64(l), 0) {
			normals[i], normals[i+1], normals[i+2] = 0, 0, 1
			continue
		}
		normals[i], normals[i+1], normals[i+2] = x/l, y/l, z/l
	}
}
