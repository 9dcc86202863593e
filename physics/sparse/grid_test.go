package sparse

import (
	"math"
	"math/rand"
	"testing"
)

// testGrid generates symmetric positive definite 3×3-block matrices that
// look like finite-element system matrices: nodes on an nx×ny×nz lattice,
// every node coupled with its 26 neighbours (the nodes sharing a hexahedral
// cell), values assembled cell by cell from random SPD element matrices plus
// a lumped mass on the diagonal. Node (i, j, k) has index i + nx·(j + ny·k)
// and DOFs 3·node + {0, 1, 2}.
type testGrid struct{ nx, ny, nz int }

func (g testGrid) nodes() int { return g.nx * g.ny * g.nz }

func (g testGrid) dofs() int { return 3 * g.nodes() }

func (g testGrid) node(i, j, k int) int { return i + g.nx*(j+g.ny*k) }

// cell returns the 8 nodes of the cell whose lowest corner is (i, j, k).
func (g testGrid) cell(i, j, k int) [8]int {
	var c [8]int
	for a := 0; a < 8; a++ {
		c[a] = g.node(i+a&1, j+(a>>1)&1, k+(a>>2)&1)
	}
	return c
}

// forCells calls fn for every cell of the lattice.
func (g testGrid) forCells(fn func(c [8]int)) {
	for k := 0; k+1 < g.nz; k++ {
		for j := 0; j+1 < g.ny; j++ {
			for i := 0; i+1 < g.nx; i++ {
				fn(g.cell(i, j, k))
			}
		}
	}
}

// pattern returns the block pattern with every pair of nodes sharing a cell.
func (g testGrid) pattern() *SymCSC {
	var pairs [][2]int
	g.forCells(func(c [8]int) {
		for a := 0; a < 8; a++ {
			for b := a + 1; b < 8; b++ {
				pairs = append(pairs, [2]int{c[a], c[b]})
			}
		}
	})
	return NewBlockPattern(g.nodes(), pairs)
}

// assemble overwrites A's values with Σ_cells Gᵀ·G/24 (G a random 24×24
// matrix per cell, so each element matrix is SPD) plus mass·I.
func (g testGrid) assemble(A *SymCSC, rng *rand.Rand, mass float64) {
	A.Zero()
	var G, Ke [24][24]float64
	g.forCells(func(c [8]int) {
		for r := range G {
			for s := range G[r] {
				G[r][s] = 2*rng.Float64() - 1
			}
		}
		for p := 0; p < 24; p++ {
			for q := 0; q <= p; q++ {
				sum := 0.0
				for r := 0; r < 24; r++ {
					sum += G[r][p] * G[r][q]
				}
				Ke[p][q], Ke[q][p] = sum/24, sum/24
			}
		}
		for p := 0; p < 24; p++ {
			for q := 0; q < 24; q++ {
				row, col := 3*c[p/3]+p%3, 3*c[q/3]+q%3
				if row >= col {
					A.Val[A.Index(row, col)] += Ke[p][q]
				}
			}
		}
	})
	for d := 0; d < A.N; d++ {
		A.Val[A.Index(d, d)] += mass
	}
}

// matrix returns an assembled matrix of the grid.
func (g testGrid) matrix(seed int64) *SymCSC {
	A := g.pattern()
	g.assemble(A, rand.New(rand.NewSource(seed)), 1)
	return A
}

// rowKind says how a contact-like row block of X is drawn.
type rowKind int

const (
	vertexRows   rowKind = iota // rows of H for a vertex pair: one non-zero per row
	triangleRows                // rows of H for a triangle pair: 3 non-zeros (barycentric weights) per row
	jacobianRows                // rows of J = C·H for a triangle pair: 9 non-zeros per row
)

// appendContact appends the 3 rows of one contact on the x = 0 face at
// lattice point (j, k) (the triangle uses (j+1, k) and (j, k+1) too).
func (g testGrid) appendContact(X *CSR, kind rowKind, j, k int, rng *rand.Rand) {
	if kind == vertexRows {
		n := g.node(0, j, k)
		for a := 0; a < 3; a++ {
			X.Append([]int{3*n + a}, []float64{1})
		}
		return
	}
	tri := [3]int{g.node(0, j, k), g.node(0, j+1, k), g.node(0, j, k+1)}
	w := barycentric(rng)
	if kind == triangleRows {
		for a := 0; a < 3; a++ {
			X.Append([]int{3*tri[0] + a, 3*tri[1] + a, 3*tri[2] + a}, w[:])
		}
		return
	}
	C := randomFrame(rng)
	cols, vals := make([]int, 0, 9), make([]float64, 0, 9)
	for d := 0; d < 3; d++ {
		cols, vals = cols[:0], vals[:0]
		for v := 0; v < 3; v++ {
			for a := 0; a < 3; a++ {
				cols = append(cols, 3*tri[v]+a)
				vals = append(vals, w[v]*C[d][a])
			}
		}
		X.Append(cols, vals)
	}
}

// contactRows returns X with `rows` rows drawn from `contacts`-like blocks
// clustered in the central patch (70% per side) of the x = 0 face, like the
// jaws of a gripper pressing on one side. Kinds alternate between the given
// ones; the last block is truncated to reach exactly `rows` rows.
func (g testGrid) contactRows(rows int, kinds []rowKind, rng *rand.Rand) *CSR {
	pj, pk := max(2, int(math.Ceil(0.7*float64(g.ny)))), max(2, int(math.Ceil(0.7*float64(g.nz))))
	j0, k0 := (g.ny-pj)/2, (g.nz-pk)/2
	X := &CSR{}
	X.Reset(0, g.dofs())
	for c := 0; X.Rows < rows; c++ {
		j, k := j0+rng.Intn(pj-1), k0+rng.Intn(pk-1)
		g.appendContact(X, kinds[c%len(kinds)], j, k, rng)
	}
	truncateRows(X, rows)
	return X
}

func truncateRows(X *CSR, rows int) {
	X.Rows = rows
	X.RowPtr = X.RowPtr[:rows+1]
	X.ColIdx = X.ColIdx[:X.RowPtr[rows]]
	X.Val = X.Val[:X.RowPtr[rows]]
}

func barycentric(rng *rand.Rand) [3]float64 {
	a, b := rng.Float64(), rng.Float64()
	if a+b > 1 {
		a, b = 1-a, 1-b
	}
	return [3]float64{1 - a - b, a, b}
}

// randomFrame returns a random rotation [n; t1; t2] (rows orthonormal).
func randomFrame(rng *rand.Rand) [3][3]float64 {
	var F [3][3]float64
	for r := 0; r < 3; r++ {
		for {
			v := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			for p := 0; p < r; p++ { // Gram-Schmidt against the previous rows
				d := v[0]*F[p][0] + v[1]*F[p][1] + v[2]*F[p][2]
				for a := range v {
					v[a] -= d * F[p][a]
				}
			}
			if n := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]); n > 1e-3 {
				F[r] = [3]float64{v[0] / n, v[1] / n, v[2] / n}
				break
			}
		}
	}
	return F
}

// TestGridGenerator checks the generator itself: the 26-neighbourhood
// pattern has the expected number of coupled node pairs and the assembled
// matrix is SPD (dense Cholesky succeeds) and symmetric by construction.
func TestGridGenerator(t *testing.T) {
	for _, g := range []testGrid{{2, 2, 2}, {3, 4, 2}, {4, 3, 3}} {
		A := g.pattern()
		// Pairs of distinct nodes at lattice distance ≤ 1 in every axis,
		// counted directly: each node has as many such neighbours as its
		// 3×3×3 neighbourhood clipped to the grid, minus itself.
		pairs := 0
		for k := 0; k < g.nz; k++ {
			for j := 0; j < g.ny; j++ {
				for i := 0; i < g.nx; i++ {
					span := func(x, n int) int { return min(x+1, n-1) - max(x-1, 0) + 1 }
					pairs += span(i, g.nx)*span(j, g.ny)*span(k, g.nz) - 1
				}
			}
		}
		pairs /= 2
		wantNNZ := 6*g.nodes() + 9*pairs
		if got := A.ColPtr[A.N]; got != wantNNZ {
			t.Errorf("grid %v: %d stored entries, want %d", g, got, wantNNZ)
		}
		g.assemble(A, rand.New(rand.NewSource(1)), 1)
		if _, err := denseCholesky(A); err != nil {
			t.Errorf("grid %v: assembled matrix not SPD: %v", g, err)
		}
	}
}
