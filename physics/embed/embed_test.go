package embed

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

func TestSphereQuick(t *testing.T) {
	s := icosphere(4, 0.02, r3.Vec{}, 0)
	for _, dofs := range []int{300, 1000, 3000, 10000, 30000} {
		m, e, notes, err := Build(s, dofs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkBuilt(t, s, m, e)
		v := 4.0 / 3 * math.Pi * 0.02 * 0.02 * 0.02
		t.Logf("dofs %d: nodes %d (%.3f) vol %.4f sphere(poly) %.4f notes %s", dofs, len(m.Nodes), float64(3*len(m.Nodes))/float64(dofs), m.Volume()/v, s.Volume()/v, strings.Join(notes, "; "))
	}
}
