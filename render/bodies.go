package render

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/frame"
)

// bodyMesh is one rigid body on the GPU: its triangles unwelded into
// (position, face normal) vertices in the body frame, so that boxes keep
// sharp edges under flat shading. The Frame's model matrix places it.
type bodyMesh struct {
	name     string
	vao, vb  uint32
	vertices int32
	colour   [3]float32

	// The floor is drawn with the grid program: the grid runs along the
	// body-frame axes u, v of its plane, with minor lines every spacing
	// metres and fog reaching the background at fog metres from the patch
	// centre.
	floor        bool
	u, v         [3]float32
	spacing, fog float32
	// The floor's plane: its unit normal and the height of its top face
	// along it, in the body frame (the shadows fall there).
	normal [3]float32
	top    float32

	// points are a body's vertices in its frame (its shadow's footprint).
	points []float32
}

// bodyPalette colours the non-floor bodies in Scene order: steel blue
// jaws, then contrasting tones for further bodies.
var bodyPalette = [...][3]float32{
	{0.55, 0.62, 0.72}, {0.55, 0.62, 0.72}, {0.62, 0.58, 0.50}, {0.50, 0.65, 0.55},
}

// newBodyMesh validates a body's mesh and uploads it; index is its place
// in the Scene (for errors) and colour its palette slot.
func newBodyMesh(b frame.BodyMesh, index, colour int) (*bodyMesh, error) {
	if len(b.Vertices)%3 != 0 {
		return nil, fmt.Errorf("scene body %d (%q): %d vertex coordinates is not a multiple of 3", index, b.Name, len(b.Vertices))
	}
	if len(b.Indices)%3 != 0 {
		return nil, fmt.Errorf("scene body %d (%q): %d indices is not a multiple of 3", index, b.Name, len(b.Indices))
	}
	n := uint32(len(b.Vertices) / 3)
	for i, v := range b.Indices {
		if v >= n {
			return nil, fmt.Errorf("scene body %d (%q): triangle %d uses vertex %d, but there are %d vertices", index, b.Name, i/3, v, n)
		}
	}
	data := flatShaded(b.Vertices, b.Indices)
	m := &bodyMesh{name: b.Name, vertices: int32(len(b.Indices)), floor: b.Floor}
	m.colour = bodyPalette[colour%len(bodyPalette)]
	if b.Floor {
		m.setFloorGrid(b.Vertices, data)
	} else {
		m.points = b.Vertices
	}
	gl.GenVertexArrays(1, &m.vao)
	gl.GenBuffers(1, &m.vb)
	gl.BindVertexArray(m.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, m.vb)
	if len(data) > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, 4*len(data), unsafe.Pointer(&data[0]), gl.STATIC_DRAW)
	}
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, 24, 0)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 3, gl.FLOAT, false, 24, 12)
	gl.BindVertexArray(0)
	return m, glError(fmt.Sprintf("create buffers of body %q", b.Name))
}

// flatShaded expands indexed triangles into interleaved (position, unit
// face normal) vertices, six floats each.
func flatShaded(verts []float32, indices []uint32) []float32 {
	out := make([]float32, 0, 6*len(indices))
	for t := 0; t+2 < len(indices); t += 3 {
		p := [3]r3.Vec{}
		for k := 0; k < 3; k++ {
			i := 3 * indices[t+k]
			p[k] = r3.Vec{X: float64(verts[i]), Y: float64(verts[i+1]), Z: float64(verts[i+2])}
		}
		n := r3.Cross(r3.Sub(p[1], p[0]), r3.Sub(p[2], p[0]))
		if l := r3.Norm(n); l > 0 {
			n = r3.Scale(1/l, n)
		} else {
			n = r3.Vec{Z: 1}
		}
		for k := 0; k < 3; k++ {
			out = append(out, float32(p[k].X), float32(p[k].Y), float32(p[k].Z),
				float32(n.X), float32(n.Y), float32(n.Z))
		}
	}
	return out
}

// setFloorGrid derives the grid frame from the floor patch: the plane's
// normal is the first triangle's (data is the flat-shaded expansion), u is
// the body-frame axis least aligned with it projected into the plane, and
// v = n × u. The minor spacing is a 1-2-5 step near a fortieth of the
// patch size, and the fog reaches the background at half of it from the
// patch centre (the grid coordinates are measured from there): the
// patch's edge is hidden, the floor under the object is not.
func (m *bodyMesh) setFloorGrid(verts, data []float32) {
	n := r3.Vec{Z: 1}
	if len(data) >= 6 {
		n = r3.Vec{X: float64(data[3]), Y: float64(data[4]), Z: float64(data[5])}
	}
	axis := r3.Vec{X: 1}
	if math.Abs(n.Y) < math.Abs(n.X) && math.Abs(n.Y) <= math.Abs(n.Z) {
		axis = r3.Vec{Y: 1}
	} else if math.Abs(n.Z) < math.Abs(n.X) {
		axis = r3.Vec{Z: 1}
	}
	u := r3.Unit(r3.Sub(axis, r3.Scale(r3.Dot(axis, n), n)))
	v := r3.Cross(n, u)
	m.u = [3]float32{float32(u.X), float32(u.Y), float32(u.Z)}
	m.v = [3]float32{float32(v.X), float32(v.Y), float32(v.Z)}
	m.normal = [3]float32{float32(n.X), float32(n.Y), float32(n.Z)}
	m.top = float32(math.Inf(-1))
	for i := 0; i+2 < len(verts); i += 3 {
		m.top = max(m.top, dot3(m.normal, [3]float32{verts[i], verts[i+1], verts[i+2]}))
	}
	if len(verts) < 3 {
		m.top = 0
	}

	size := patchSize(verts)
	m.spacing = niceStep(size / 40)
	m.fog = float32(0.5 * size)
}

// vertexBounds returns the bounding box of xyz triples; ok is false for
// none.
func vertexBounds(verts []float32) (lo, hi [3]float32, ok bool) {
	if len(verts) < 3 {
		return lo, hi, false
	}
	lo = [3]float32{verts[0], verts[1], verts[2]}
	hi = lo
	for i := 0; i+2 < len(verts); i += 3 {
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], verts[i+k])
			hi[k] = max(hi[k], verts[i+k])
		}
	}
	return lo, hi, true
}

// patchSize is the largest extent of the vertices' bounding box (1 m for
// an empty or degenerate patch).
func patchSize(verts []float32) float64 {
	lo, hi, ok := vertexBounds(verts)
	size := float64(max(hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2]))
	if !ok || !(size > 0) || math.IsInf(size, 0) {
		return 1
	}
	return size
}

// boxCentre is the middle of the vertices' bounding box (the origin for
// none).
func boxCentre(verts []float32) [3]float32 {
	lo, hi, _ := vertexBounds(verts)
	return [3]float32{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
}

// niceStep rounds x > 0 to the nearest step of the 1-2-5 series
// (…, 0.1, 0.2, 0.5, 1, 2, 5, …) in log scale, so grid lines fall on round
// numbers.
func niceStep(x float64) float32 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	decade := math.Pow(10, math.Floor(math.Log10(x)))
	best := decade
	for _, f := range [...]float64{1, 2, 5, 10} {
		if math.Abs(math.Log(f*decade/x)) < math.Abs(math.Log(best/x)) {
			best = f * decade
		}
	}
	return float32(best)
}

// draw issues the body's triangles with the bound program.
func (m *bodyMesh) draw() {
	gl.BindVertexArray(m.vao)
	gl.DrawArrays(gl.TRIANGLES, 0, m.vertices)
}

func (m *bodyMesh) delete() {
	gl.DeleteBuffers(1, &m.vb)
	gl.DeleteVertexArrays(1, &m.vao)
}
