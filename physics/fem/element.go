package fem

import (
	"fmt"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/m3"
	"softgrasp/physics/sparse"
)

// The constant-strain tetrahedron in corotational form.
//
// Rest state. Node i of an element has rest position X_i and linear shape
// function N_i with constant gradient g_i = ∇N_i (Σ g_i = 0). For nodal
// displacements d_j the displacement gradient is G = Σ_j d_j ⊗ g_j, the
// small strain ε = sym G and the stress σ = λ·tr(ε)·I + 2μ·ε. The strain
// energy V·(μ ε:ε + λ/2 tr(ε)²) gives the force on node i
//
//	f_i = V·σ·g_i                                                   (1)
//
// and, differentiating twice, the 3×3 block of the element stiffness
//
//	K_ij = V·(λ·g_i g_jᵀ + μ·g_j g_iᵀ + μ·(g_i·g_j)·I).             (2)
//
// Corotation. At current positions x_j the deformation gradient is
// F = D_s·D_m⁻¹ = Σ_j x_j ⊗ g_j, and R is the rotation of its polar
// decomposition (m3.Polar, robust to inversion). The element's elastic
// force is the linear one computed in the rotated frame and rotated back,
// f = R·K_e·(Rᵀ·x − X). Its displacement gradient is
//
//	G = Σ_j (Rᵀx_j − X_j) ⊗ g_j = Rᵀ·F − I,
//
// so by (1) f_i = V·R·σ(sym(RᵀF) − I)·g_i. Rest positions never appear:
// the convention "subtract the rest positions" is the −I, and since K_e
// annihilates rigid translations (Σ g_j = 0) the force does not depend on
// where the rest mesh sits. F is computed from edge vectors x_j − x_0,
// which keeps it exact far from the origin.
//
// Tangent. The stiffness used by the implicit step is the usual
// corotational approximation K_e' = R·K_e·Rᵀ, which neglects ∂R/∂x. The
// neglected term is proportional to the element stress σ: it vanishes at
// rigidly rotated configurations and grows with the deformation. By (2),
// with r_i = R·g_i and R·I·Rᵀ = I,
//
//	R·K_ij·Rᵀ = V·(λ·r_i r_jᵀ + μ·r_j r_iᵀ + μ·(g_i·g_j)·I),         (3)
//
// so the 12×12 element matrices are never stored: four rotated gradients
// and two outer products per block rebuild them, cheaper than reading
// 144 stored numbers and independent of the material, which SetMaterial
// can then change in O(1).

// localPairs lists the six node pairs (i < j) of a tetrahedron, in the
// order of element.start.
var localPairs = [6][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}

// element is the precomputed rest state of one tetrahedron.
type element struct {
	nodes [4]int32
	g     [4]r3.Vec // ∇N_i at rest
	vol   float64   // rest volume V
	kvol  float64   // V times the element's stiffness factor (NewModelMaterials): what its stiffness and elastic force scale with
	// start[p][b] is the position in A.Val of entry (0, b) of the
	// lower-triangle block of node pair p; entries (1, b) and (2, b)
	// follow it, because a column of a block pattern stores the three rows
	// of a coupled node consecutively. The block couples the pair's
	// higher-numbered node (rows) to the lower one (columns): it is K_ij
	// for pair (i, j) = localPairs[p] when swap bit p is clear, and K_ji
	// when it is set.
	start [6][3]int32
	swap  uint8
}

// init validates the node indices of tet and computes the rest gradients
// and volume.
func (e *element) init(nodes []r3.Vec, tet [4]int) error {
	var X [4]r3.Vec
	for k, i := range tet {
		if i < 0 || i >= len(nodes) {
			return fmt.Errorf("node index %d out of range [0, %d)", i, len(nodes))
		}
		for l := 0; l < k; l++ {
			if tet[l] == i {
				return fmt.Errorf("node %d is repeated", i)
			}
		}
		e.nodes[k] = int32(i)
		X[k] = nodes[i]
	}
	var err error
	e.g, e.vol, err = restGradients(X)
	return err
}

// locateBlocks fills start and swap from the pattern of A, checking the
// column layout that start relies on.
func (e *element) locateBlocks(A *sparse.SymCSC) error {
	e.swap = 0
	for p, ij := range localPairs {
		row, col := int(e.nodes[ij[0]]), int(e.nodes[ij[1]])
		if row < col {
			row, col = col, row
			e.swap |= 1 << p
		}
		for b := 0; b < 3; b++ {
			k := A.Index(3*row, 3*col+b)
			if k < 0 || A.Index(3*row+1, 3*col+b) != k+1 || A.Index(3*row+2, 3*col+b) != k+2 {
				return fmt.Errorf("block (%d, %d) is not stored as three consecutive rows in the pattern", row, col)
			}
			e.start[p][b] = int32(k)
		}
	}
	return nil
}

// defGrad returns F = Σ_{j=1..3} (x_j − x_0) ⊗ g_j for the nodal vectors
// held in x (positions, velocities or displacements: the map is linear).
func (e *element) defGrad(x []float64) m3.Mat3 {
	i0 := 3 * int(e.nodes[0])
	x0, y0, z0 := x[i0], x[i0+1], x[i0+2]
	var F m3.Mat3
	for j := 1; j < 4; j++ {
		i := 3 * int(e.nodes[j])
		dx, dy, dz := x[i]-x0, x[i+1]-y0, x[i+2]-z0
		g := e.g[j]
		F[0] += dx * g.X
		F[1] += dx * g.Y
		F[2] += dx * g.Z
		F[3] += dy * g.X
		F[4] += dy * g.Y
		F[5] += dy * g.Z
		F[6] += dz * g.X
		F[7] += dz * g.Y
		F[8] += dz * g.Z
	}
	return F
}

// linearStress returns σ = λ·tr(ε)·I + 2μ·ε with ε = sym(G) − shift·I,
// for a displacement gradient G (shift = 1 when G is RᵀF, 0 when G is
// already a displacement gradient).
func linearStress(G m3.Mat3, shift, lambda, mu float64) m3.Mat3 {
	tr := G[0] + G[4] + G[8] - 3*shift
	d := lambda*tr - 2*mu*shift
	s01 := mu * (G[1] + G[3])
	s02 := mu * (G[2] + G[6])
	s12 := mu * (G[5] + G[7])
	return m3.Mat3{
		d + 2*mu*G[0], s01, s02,
		s01, d + 2*mu*G[4], s12,
		s02, s12, d + 2*mu*G[8],
	}
}
