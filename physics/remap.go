package physics

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/collide"
	"softgrasp/physics/m3"
	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
)

// Re-mapping in the fast scheme (settings.MappingRemapped; docs/method.md,
// "Re-mapping in the fast scheme"). The fast scheme holds H over the
// step, so a rigid-vertex pair keeps its point on its soft triangle while
// the rigid vertex slides over it. To re-find that point at each iterate
// without q_k, the step builds the compliance of an expanded set of rows
// instead of W_H: each pair's own row of H, except that a rigid-vertex
// pair gives the three rows of its triangle's corners (each a surface
// point, mapped onto its nodes). With E the weights that combine the rows
// into the pairs (1, or the pair's barycentric weights on its corners),
//
//	W_X = X·A⁻¹·Xᵀ,   W_H = E·W_X·Eᵀ,
//
// and at iterate k the corners lie at x_free + h²·W_X·Eᵀ·Cᵀλ_k, the
// positions the standard scheme reads from q_k. Each rigid-vertex pair
// then takes the point of its triangle at the iterate closest to its
// rigid vertex (the standard scheme's refindMapping), and its row and
// column of W_H are formed again from W_X with the new weights, an O(c)
// gather per changed pair. With A held (the exact solver) the two schemes
// then agree to round-off, as they do with the mapping held.
//
// Not re-mapped: pairs on dynamic bodies (their compliance K would have to
// follow) and steps with attachments (their fixed parts), which keep the
// held mapping; a pair stays on its triangle (it does not move to a
// neighbouring one, in either scheme).

// fastRemap is the expanded rows' data of one step.
type fastRemap struct {
	on    bool
	rows  []collide.Pair // the expanded rows, as one-row pseudo-pairs
	first []int          // pair a's rows are rows[first[a]:first[a+1]]
	wt    []float64      // each row's weight in its pair
	X     sparse.CSR
	WX    []float64 // W_X, (3m)², both triangles
	// the rows' positions at q_free and q_t, and the corners' at the
	// iterate (3m each); y and g are scratch forces (3c, 3m).
	xFree, xT, x, y, g []float64
	strip              []float64 // 3×3m: Σ_{i∈a} wt_i·(rows of W_X of row i)
	changed            []int
}

// remapOn reports whether this step re-maps: asked for, and neither
// attachments nor dynamic bodies in its pairs.
func (c *step) remapOn() bool {
	return c.set.FastMapping == settings.MappingRemapped && c.attach == nil && !c.hasDynamic()
}

// prepare builds the expanded rows, W_X and W_H = E·W_X·Eᵀ (its
// lower block triangle) into ct.WH, in place of the plain W_H.
func (r *fastRemap) prepare(c *step) error {
	ct := &c.ws.ct
	r.rows, r.first, r.wt = r.rows[:0], r.first[:0], r.wt[:0]
	for a := range ct.pairs {
		pr := &ct.pairs[a]
		r.first = append(r.first, len(r.rows))
		if !pr.Kind.Info().OnTriangle {
			r.rows, r.wt = append(r.rows, *pr), append(r.wt, 1)
			continue
		}
		for j, v := range c.model.surf.Tris[pr.Tri] {
			row := collide.Pair{Kind: collide.SoftVertex, Body: pr.Body, Count: 1, Point: v, Tri: -1, Vertex: -1}
			row.Nodes[0], row.Weights[0] = v, 1
			c.model.mapPair(&row)
			r.rows, r.wt = append(r.rows, row), append(r.wt, pr.Bary[j])
		}
	}
	r.first = append(r.first, len(r.rows))
	m, n := len(r.rows), len(ct.pairs)
	mappingRows(&r.X, r.rows, c.model.DOFs())
	r.WX = grow(r.WX, 9*m*m)
	if err := c.solver.PairCompliance(r.WX, r.rows, &r.X); err != nil {
		return err
	}
	mirrorLower(r.WX, 3*m)
	r.strip = grow(r.strip, 9*m)
	for a := 0; a < n; a++ {
		r.setRow(ct.WH, n, a, a+1)
	}
	r.xFree, r.xT, r.x = grow(r.xFree, 3*m), grow(r.xT, 3*m), grow(r.x, 3*m)
	r.y, r.g = grow(r.y, 3*n), grow(r.g, 3*m)
	r.X.MulVec(r.xFree, c.ws.qFree)
	r.X.MulVec(r.xT, c.state.q)
	r.on = true
	return nil
}

// setRow writes the blocks (a, b), b < to, of W_H = E·W_X·Eᵀ (3n×3n,
// row-major): the pair's rows of W_X are first combined by its weights
// into a 3×3m strip, whose blocks are then combined by b's weights. A
// block beyond the diagonal (b > a) goes in as its transpose at (b, a):
// the lower block triangle's part of column a.
func (r *fastRemap) setRow(WH []float64, n, a, to int) {
	w3 := 3 * (r.first[len(r.first)-1])
	s0, s1, s2 := r.strip[:w3], r.strip[w3:2*w3], r.strip[2*w3:3*w3]
	clear(r.strip[:3*w3])
	for i := r.first[a]; i < r.first[a+1]; i++ {
		w := r.wt[i]
		if w == 0 {
			continue
		}
		floats.AddScaled(s0, w, r.WX[3*i*w3:(3*i+1)*w3])
		floats.AddScaled(s1, w, r.WX[(3*i+1)*w3:(3*i+2)*w3])
		floats.AddScaled(s2, w, r.WX[(3*i+2)*w3:(3*i+3)*w3])
	}
	n3 := 3 * n
	for b := 0; b < to; b++ {
		var B m3.Mat3
		for j := r.first[b]; j < r.first[b+1]; j++ {
			w, o := r.wt[j], 3*j
			if w == 0 {
				continue
			}
			B[0], B[1], B[2] = B[0]+w*s0[o], B[1]+w*s0[o+1], B[2]+w*s0[o+2]
			B[3], B[4], B[5] = B[3]+w*s1[o], B[4]+w*s1[o+1], B[5]+w*s1[o+2]
			B[6], B[7], B[8] = B[6]+w*s2[o], B[7]+w*s2[o+1], B[8]+w*s2[o+2]
		}
		if b <= a {
			copy(WH[(3*a)*n3+3*b:], B[0:3])
			copy(WH[(3*a+1)*n3+3*b:], B[3:6])
			copy(WH[(3*a+2)*n3+3*b:], B[6:9])
		} else {
			for s := 0; s < 3; s++ {
				WH[(3*b+s)*n3+3*a], WH[(3*b+s)*n3+3*a+1], WH[(3*b+s)*n3+3*a+2] = B[s], B[3+s], B[6+s]
			}
		}
	}
}

// mirrorLower copies the lower triangle of the n×n row-major M onto its
// upper triangle.
func mirrorLower(M []float64, n int) {
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			M[j*n+i] = M[i*n+j]
		}
	}
}

// remap re-finds every rigid-vertex pair's point on its triangle at the
// iterate of λ (the fast scheme's directions C in the factor's frame of
// warp R, when warped),
// and updates its weights, H, p_t, p_free, p and its row and column of
// W_H; the backend is given the new W_H. It returns how many pairs moved.
func (r *fastRemap) remap(c *step, C []m3.Mat3, R m3.Mat3, warped bool) (int, error) {
	ct := &c.ws.ct
	n, m := len(ct.pairs), len(r.rows)
	h := c.set.TimeStep
	for b := 0; b < n; b++ {
		f := C[b].MulVecT(point(ct.lambda, b))
		r.y[3*b], r.y[3*b+1], r.y[3*b+2] = f.X, f.Y, f.Z
	}
	for b := 0; b < n; b++ {
		for j := r.first[b]; j < r.first[b+1]; j++ {
			for s := 0; s < 3; s++ {
				r.g[3*j+s] = r.wt[j] * r.y[3*b+s]
			}
		}
	}
	// The corners at the iterate: the free corners moved by
	// h²·W_X·Eᵀ·Cᵀλ, formed in the factor's frame that the directions C
	// were expressed in and turned back to world axes by that frame's warp
	// R (fastScheme.rebuildW); Newton on the whole residual may have warped
	// the factor anew since, and the last correction moved p with R.
	clear(r.x)
	for a := 0; a < n; a++ {
		if !ct.pairs[a].Kind.Info().OnTriangle {
			continue
		}
		for i := r.first[a]; i < r.first[a+1]; i++ {
			var d r3.Vec
			d.X = h * h * floats.Dot(r.WX[(3*i)*3*m:(3*i+1)*3*m], r.g)
			d.Y = h * h * floats.Dot(r.WX[(3*i+1)*3*m:(3*i+2)*3*m], r.g)
			d.Z = h * h * floats.Dot(r.WX[(3*i+2)*3*m:(3*i+3)*3*m], r.g)
			if warped {
				d = R.MulVec(d)
			}
			setPoint(r.x, i, r3.Add(point(r.xFree, i), d))
		}
	}
	r.changed = r.changed[:0]
	for a := 0; a < n; a++ {
		pr := &ct.pairs[a]
		if !pr.Kind.Info().OnTriangle {
			continue
		}
		i := r.first[a]
		pt, w := collide.ClosestOnTriangle(ct.rEnd[a], point(r.x, i), point(r.x, i+1), point(r.x, i+2))
		if w == pr.Bary {
			continue
		}
		tri := c.model.surf.Tris[pr.Tri]
		pr.Count, pr.Bary = 3, w
		copy(pr.Nodes[:3], tri[:])
		copy(pr.Weights[:3], w[:])
		c.model.mapPair(pr)
		var pf, p0 r3.Vec
		for j := 0; j < 3; j++ {
			r.wt[i+j] = w[j]
			pf = r3.Add(pf, r3.Scale(w[j], point(r.xFree, i+j)))
			p0 = r3.Add(p0, r3.Scale(w[j], point(r.xT, i+j)))
		}
		setPoint(ct.p, a, pt)
		setPoint(ct.pFree, a, pf)
		setPoint(ct.pT, a, p0)
		r.changed = append(r.changed, a)
	}
	if len(r.changed) == 0 {
		return 0, nil
	}
	for _, a := range r.changed {
		r.setRow(ct.WH, n, a, n)
	}
	ct.buildH(c.model.DOFs())
	if err := c.loadBackend(); err != nil {
		return 0, err
	}
	return len(r.changed), nil
}

// setPoint writes the a-th 3-vector of a flat slice.
func setPoint(x []float64, a int, v r3.Vec) {
	x[3*a], x[3*a+1], x[3*a+2] = v.X, v.Y, v.Z
}

// moveFree moves the rows' free positions by −h·X·δ, as the correction δ
// of Newton on the whole residual moves the free motion (correctElastic):
// the corners at an iterate are found from them.
func (r *fastRemap) moveFree(delta []float64, h float64) {
	r.X.MulVec(r.g, delta)
	for i, d := range r.g {
		r.xFree[i] -= h * d
	}
}
