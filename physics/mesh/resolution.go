package mesh

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// MinDOFs is the smallest resolution the *ForDOFs constructors accept: one
// hexahedral cell, 8 nodes.
const MinDOFs = 24

// countTolerance is the largest relative distance to the requested node
// count that the resolution knob accepts when a grid with better shaped
// cells is available; anisotropyWeight prices cell shape against count:
// cost = |ln(nodes/target)| + anisotropyWeight·ln(longest/shortest cell
// edge), so a grid 10 % off the count ties with one whose cells are 1.22
// times longer than wide.
const (
	countTolerance   = 0.12
	anisotropyWeight = 0.5
)

// gridChoice is one candidate resolution: cells per axis, the node count it
// yields and the anisotropy of its cells, ln(longest/shortest cell edge).
type gridChoice struct {
	cells [3]int
	nodes int
	aniso float64
}

// better reports whether a is a better choice than b for a target of n
// nodes: among the grids within countTolerance of n, the one of least
// cost; otherwise the one closest to n.
func (a gridChoice) better(b gridChoice, n float64) bool {
	la, lb := math.Abs(math.Log(float64(a.nodes)/n)), math.Abs(math.Log(float64(b.nodes)/n))
	inA := math.Abs(float64(a.nodes)/n-1) <= countTolerance
	inB := math.Abs(float64(b.nodes)/n-1) <= countTolerance
	switch {
	case inA && inB:
		return la+anisotropyWeight*a.aniso < lb+anisotropyWeight*b.aniso
	case inA != inB:
		return inA
	default:
		return la < lb
	}
}

// anisotropy returns ln(max h / min h) over the given cell edge lengths.
func anisotropy(h ...float64) float64 {
	lo, hi := h[0], h[0]
	for _, x := range h[1:] {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return math.Log(hi / lo)
}

// checkDOFs validates a requested number of degrees of freedom.
func checkDOFs(dofs int) error {
	if dofs < MinDOFs || dofs > 3*MaxProceduralNodes {
		return fmt.Errorf("mesh: requested %d degrees of freedom, want between %d and %d", dofs, MinDOFs, 3*MaxProceduralNodes)
	}
	return nil
}

// BoxForDOFs returns the Box of the given size whose node count, times 3,
// is close to dofs, with cells as close to cubes as the count allows:
// cells per axis are roughly proportional to the side lengths. It weighs
// count against cell shape as gridChoice.better describes, within 12 % of
// the requested count whenever some grid is.
func BoxForDOFs(size r3.Vec, dofs int) (*TetMesh, error) {
	if err := checkLengths("box size", size.X, size.Y, size.Z); err != nil {
		return nil, err
	}
	if err := checkDOFs(dofs); err != nil {
		return nil, err
	}
	n := float64(dofs) / 3
	s := [3]float64{size.X, size.Y, size.Z}
	tau := boxCells(s, n)
	var best gridChoice
	for cx := window(tau[0]); cx[0] <= cx[1]; cx[0]++ {
		for cy := window(tau[1]); cy[0] <= cy[1]; cy[0]++ {
			for cz := window(tau[2]); cz[0] <= cz[1]; cz[0]++ {
				c := gridChoice{
					cells: [3]int{cx[0], cy[0], cz[0]},
					nodes: (cx[0] + 1) * (cy[0] + 1) * (cz[0] + 1),
					aniso: anisotropy(s[0]/float64(cx[0]), s[1]/float64(cy[0]), s[2]/float64(cz[0])),
				}
				if best.nodes == 0 || c.better(best, n) {
					best = c
				}
			}
		}
	}
	return Box(size, best.cells[0]+1, best.cells[1]+1, best.cells[2]+1)
}

// boxCells returns the real cell counts τ_i = max(1, t·s_i/max s) that
// give Π(τ_i + 1) = n nodes, solving for the cells t along the longest
// side by bisection (the product grows with t; at t = 0 it is 8 ≤ n and at
// t = n it exceeds n).
func boxCells(s [3]float64, n float64) [3]float64 {
	smax := math.Max(s[0], math.Max(s[1], s[2]))
	cells := func(t float64) (tau [3]float64, nodes float64) {
		nodes = 1
		for i := range tau {
			tau[i] = math.Max(1, t*s[i]/smax)
			nodes *= tau[i] + 1
		}
		return tau, nodes
	}
	lo, hi := 0.0, n
	for it := 0; it < 100 && hi-lo > 1e-9*hi; it++ {
		mid := (lo + hi) / 2
		if _, nodes := cells(mid); nodes < n {
			lo = mid
		} else {
			hi = mid
		}
	}
	tau, _ := cells(hi)
	return tau
}

// window returns the integer cell counts worth trying around the real
// count tau: [max(1, ⌊tau⌋−2), ⌈tau⌉+2].
func window(tau float64) [2]int {
	return [2]int{max(1, int(math.Floor(tau))-2), int(math.Ceil(tau)) + 2}
}

// CylinderForDOFs returns the Cylinder whose node count, times 3, is
// close to dofs, with cells as close to cubes as the count allows (see
// BoxForDOFs for the rule). Cylinder(radius, height, nr, nz) has
// (nr+1)²·(nz+1) nodes with nr even; its cells are about 2·radius/nr wide
// and height/nz tall.
func CylinderForDOFs(radius, height float64, dofs int) (*TetMesh, error) {
	if err := checkLengths("cylinder radius and height", radius, height); err != nil {
		return nil, err
	}
	if err := checkDOFs(dofs); err != nil {
		return nil, err
	}
	n := float64(dofs) / 3
	var best gridChoice
	// A section of (nr+1)² nodes needs at least two layers; stop once even
	// that overshoots the target by more than the tolerance could accept.
	for nr := 2; 2*(nr+1)*(nr+1) <= int(2*n)+8; nr += 2 {
		layer := (nr + 1) * (nr + 1)
		for nz := window(n/float64(layer) - 1); nz[0] <= nz[1]; nz[0]++ {
			c := gridChoice{
				cells: [3]int{nr, nr, nz[0]},
				nodes: layer * (nz[0] + 1),
				aniso: anisotropy(2*radius/float64(nr), height/float64(nz[0])),
			}
			if best.nodes == 0 || c.better(best, n) {
				best = c
			}
		}
	}
	return Cylinder(radius, height, best.cells[0], best.cells[2])
}
