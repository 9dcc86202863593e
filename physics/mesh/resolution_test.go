package mesh

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// resolutionTargets returns DOF targets spanning 300 to 40 000: a
// geometric ladder plus seeded random draws, so the test does not only
// probe round numbers.
func resolutionTargets() []int {
	var targets []int
	for d := 300.0; d <= 40000; d *= 1.37 {
		targets = append(targets, int(d))
	}
	targets = append(targets, 40000)
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 20; i++ {
		targets = append(targets, 300+rng.IntN(40000-300))
	}
	return targets
}

func TestBoxForDOFs(t *testing.T) {
	shapes := []struct {
		name     string
		size     r3.Vec
		maxAniso float64 // bound on ln(longest/shortest cell edge); 0: not checked
	}{
		{"cube", r3.Vec{X: 0.05, Y: 0.05, Z: 0.05}, math.Log(1.6)},
		{"slab", r3.Vec{X: 0.10, Y: 0.06, Z: 0.02}, math.Log(2)},
		{"rod", r3.Vec{X: 0.20, Y: 0.02, Z: 0.02}, 0},
		{"plate", r3.Vec{X: 0.10, Y: 0.10, Z: 0.005}, 0},
	}
	for _, sh := range shapes {
		for _, dofs := range resolutionTargets() {
			t.Run(fmt.Sprintf("%s/dofs=%d", sh.name, dofs), func(t *testing.T) {
				m, err := BoxForDOFs(sh.size, dofs)
				if err != nil {
					t.Fatal(err)
				}
				if rel := float64(m.DOFs())/float64(dofs) - 1; math.Abs(rel) > 0.15 {
					t.Errorf("%d DOFs for a target of %d (%+.1f %%)", m.DOFs(), dofs, 100*rel)
				}
				if b := m.Bounds().Size(); !sameFloat(b.X, sh.size.X, 1e-12) || !sameFloat(b.Y, sh.size.Y, 1e-12) || !sameFloat(b.Z, sh.size.Z, 1e-12) {
					t.Errorf("box of size %v, want %v", b, sh.size)
				}
				if sh.maxAniso > 0 {
					if a := boxAnisotropy(m, sh.size); a > sh.maxAniso {
						t.Errorf("cells have edge ratio %.2f, want at most %.2f", math.Exp(a), math.Exp(sh.maxAniso))
					}
				}
			})
		}
	}
}

// boxAnisotropy recovers the grid of a Box from its node coordinates
// (distinct x, y and z values) and returns ln(longest/shortest cell edge).
func boxAnisotropy(m *TetMesh, size r3.Vec) float64 {
	xs, ys, zs := map[float64]bool{}, map[float64]bool{}, map[float64]bool{}
	for _, p := range m.Nodes {
		xs[p.X], ys[p.Y], zs[p.Z] = true, true, true
	}
	return anisotropy(size.X/float64(len(xs)-1), size.Y/float64(len(ys)-1), size.Z/float64(len(zs)-1))
}

func TestCylinderForDOFs(t *testing.T) {
	shapes := []struct {
		name           string
		radius, height float64
		maxAniso       float64
	}{
		{"stubby", 0.02, 0.05, math.Log(2)},
		{"puck", 0.05, 0.01, 0},
		{"pencil", 0.005, 0.1, 0},
	}
	for _, sh := range shapes {
		for _, dofs := range resolutionTargets() {
			t.Run(fmt.Sprintf("%s/dofs=%d", sh.name, dofs), func(t *testing.T) {
				m, err := CylinderForDOFs(sh.radius, sh.height, dofs)
				if err != nil {
					t.Fatal(err)
				}
				if rel := float64(m.DOFs())/float64(dofs) - 1; math.Abs(rel) > 0.15 {
					t.Errorf("%d DOFs for a target of %d (%+.1f %%)", m.DOFs(), dofs, 100*rel)
				}
				if sh.maxAniso > 0 {
					if a := cylinderAnisotropy(m, sh.radius, sh.height); a > sh.maxAniso {
						t.Errorf("cells have edge ratio %.2f, want at most %.2f", math.Exp(a), math.Exp(sh.maxAniso))
					}
				}
			})
		}
	}
}

// cylinderAnisotropy recovers nr and nz from the node count of a layer and
// the distinct heights and compares 2·radius/nr with height/nz.
func cylinderAnisotropy(m *TetMesh, radius, height float64) float64 {
	zs := map[float64]bool{}
	for _, p := range m.Nodes {
		zs[p.Z] = true
	}
	nz := len(zs) - 1
	nr := int(math.Round(math.Sqrt(float64(len(m.Nodes)/len(zs))))) - 1
	return anisotropy(2*radius/float64(nr), height/float64(nz))
}
