package embed

import (
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// alignRatio is how much smaller than the axis-aligned bounding box the
// box along the surface's principal axes must be for the grid to follow
// those axes: a long part lying diagonally (a rod along (1, 1, 1) fills a
// few per cent of its axis-aligned box) gets a grid along its length,
// while a part already along the axes keeps them, its flat faces on grid
// planes.
const alignRatio = 0.5

// frame is the grid's frame: x_world = origin + Σ_a x_a·axis[a], with
// orthonormal, right-handed axes.
type frame struct {
	origin r3.Vec
	axis   [3]r3.Vec
}

// identity is the world frame.
var identity = frame{axis: [3]r3.Vec{{X: 1}, {Y: 1}, {Z: 1}}}

func (f frame) toLocal(p r3.Vec) r3.Vec {
	d := r3.Sub(p, f.origin)
	return r3.Vec{X: r3.Dot(d, f.axis[0]), Y: r3.Dot(d, f.axis[1]), Z: r3.Dot(d, f.axis[2])}
}

func (f frame) toWorld(x r3.Vec) r3.Vec {
	return r3.Add(f.origin, r3.Add(r3.Scale(x.X, f.axis[0]), r3.Add(r3.Scale(x.Y, f.axis[1]), r3.Scale(x.Z, f.axis[2]))))
}

// gridFrame returns the frame of the grid for s: its principal axes (the
// eigenvectors of the area-weighted covariance of its triangles' corners)
// when the box along them is less than alignRatio times the axis-aligned
// box's volume, the world frame otherwise.
func gridFrame(s *mesh.TriSurface) frame {
	c := areaCentroid(s)
	cov := mat.NewSymDense(3, nil)
	var total float64
	for _, t := range s.Tris {
		a, b, d := s.Nodes[t[0]], s.Nodes[t[1]], s.Nodes[t[2]]
		w := r3.Norm(r3.Cross(r3.Sub(b, a), r3.Sub(d, a)))
		for _, p := range [3]r3.Vec{a, b, d} {
			v := vec(r3.Sub(p, c))
			for i := range 3 {
				for j := i; j < 3; j++ {
					cov.SetSym(i, j, cov.At(i, j)+w*v[i]*v[j])
				}
			}
		}
		total += w
	}
	if total == 0 {
		return identity
	}
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return identity
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	f := frame{origin: c}
	for a := range 3 {
		f.axis[a] = r3.Unit(r3.Vec{X: vecs.At(0, a), Y: vecs.At(1, a), Z: vecs.At(2, a)})
	}
	f.axis[2] = r3.Cross(f.axis[0], f.axis[1]) // right-handed
	stride := max(1, len(s.Nodes)/1024)
	boxVolume := func(g frame) float64 {
		lo, hi := r3.Vec{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}, r3.Vec{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)}
		for i := 0; i < len(s.Nodes); i += stride {
			p := s.Nodes[i]
			x := g.toLocal(p)
			lo = r3.Vec{X: math.Min(lo.X, x.X), Y: math.Min(lo.Y, x.Y), Z: math.Min(lo.Z, x.Z)}
			hi = r3.Vec{X: math.Max(hi.X, x.X), Y: math.Max(hi.Y, x.Y), Z: math.Max(hi.Z, x.Z)}
		}
		e := r3.Sub(hi, lo)
		l := math.Max(e.X, math.Max(e.Y, e.Z)) * 1e-3
		return math.Max(e.X, l) * math.Max(e.Y, l) * math.Max(e.Z, l)
	}
	// Principal axes of equal spread (a square plate's, a cylinder's) are
	// any pair in their plane: turn each pair about the third axis to the
	// angle of the smallest box, in steps of 1°.
	best, whole := boxVolume(f), boxVolume(identity)
	if best >= whole {
		return identity // no better than the world's axes (a cube, a ball)
	}
	for a := range 3 {
		u, v := f.axis[(a+1)%3], f.axis[(a+2)%3]
		for deg := 1; deg < 90; deg++ {
			th := float64(deg) * math.Pi / 180
			g := f
			g.axis[(a+1)%3] = r3.Add(r3.Scale(math.Cos(th), u), r3.Scale(math.Sin(th), v))
			g.axis[(a+2)%3] = r3.Sub(r3.Scale(math.Cos(th), v), r3.Scale(math.Sin(th), u))
			if bv := boxVolume(g); bv < best*(1-1e-9) {
				best, f = bv, g
			}
		}
	}
	if best < alignRatio*whole {
		return f
	}
	return identity
}

// local returns s in frame f's coordinates (the same triangles).
func (f frame) local(s *mesh.TriSurface) *mesh.TriSurface {
	out := &mesh.TriSurface{Nodes: make([]r3.Vec, len(s.Nodes)), Tris: s.Tris}
	for i, p := range s.Nodes {
		out.Nodes[i] = f.toLocal(p)
	}
	return out
}
