package embed

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// BenchmarkBuild times Build on a closed bumpy sphere of 20480 triangles
// (about 5 cm across) at three budgets.
func BenchmarkBuild(b *testing.B) {
	s := icosphere(5, 0.025, r3.Vec{}, 0.15)
	for _, dofs := range []int{1000, 3000, 10000} {
		b.Run(fmt.Sprintf("tris=%d/dofs=%d", len(s.Tris), dofs), func(b *testing.B) {
			b.ReportAllocs()
			var nodes int
			for b.Loop() {
				m, _, _, err := Build(s, dofs, Options{})
				if err != nil {
					b.Fatal(err)
				}
				nodes = len(m.Nodes)
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/op")
			b.ReportMetric(float64(3*nodes), "dofs")
		})
	}
}
