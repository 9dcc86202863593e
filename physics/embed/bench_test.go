package embed

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// BenchmarkBuild times Build on closed bumpy spheres (about 5 cm across)
// of 20480 triangles at three budgets, and of 81920 at the default one.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []struct{ level, dofs int }{{5, 1000}, {5, 3000}, {5, 10000}, {6, 3000}} {
		s := icosphere(c.level, 0.025, r3.Vec{}, 0.15)
		b.Run(fmt.Sprintf("tris=%d/dofs=%d", len(s.Tris), c.dofs), func(b *testing.B) {
			b.ReportAllocs()
			var nodes int
			for b.Loop() {
				m, _, _, err := Build(s, c.dofs, Options{})
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

// BenchmarkWindingNumber times one evaluation of the winding number on
// the same 20480-triangle surface, by the tree and by the exact sum over
// all triangles (what a naive grid pays per cell), at points spread over
// the bounding box.
func BenchmarkWindingNumber(b *testing.B) {
	s := icosphere(5, 0.025, r3.Vec{}, 0.15)
	tree := newWindingTree(s)
	var pts []r3.Vec
	for i := range 10 {
		for j := range 10 {
			for k := range 10 {
				pts = append(pts, r3.Vec{X: 0.06 * (float64(i)/9 - 0.5), Y: 0.06 * (float64(j)/9 - 0.5), Z: 0.06 * (float64(k)/9 - 0.5)})
			}
		}
	}
	b.Run(fmt.Sprintf("tris=%d/tree", len(s.Tris)), func(b *testing.B) {
		var stack []int
		i := 0
		for b.Loop() {
			_, stack = tree.at(pts[i%len(pts)], stack)
			i++
		}
		b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(b.N), "µs/op")
	})
	b.Run(fmt.Sprintf("tris=%d/exact", len(s.Tris)), func(b *testing.B) {
		i := 0
		for b.Loop() {
			tree.exact(pts[i%len(pts)])
			i++
		}
		b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(b.N), "µs/op")
	})
}
