package mesh

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

// benchSize is the box the benchmarks mesh: a soft block a few centimetres
// across.
var benchSize = r3.Vec{X: 0.06, Y: 0.04, Z: 0.03}

// reportMs adds the mean wall time per operation in milliseconds.
func reportMs(b *testing.B) {
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/op")
}

func BenchmarkBoxForDOFs(b *testing.B) {
	for _, dofs := range []int{3000, 36000} {
		b.Run(fmt.Sprintf("dofs=%d", dofs), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := BoxForDOFs(benchSize, dofs); err != nil {
					b.Fatal(err)
				}
			}
			reportMs(b)
		})
	}
}

func BenchmarkCylinderForDOFs(b *testing.B) {
	b.Run("dofs=36000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := CylinderForDOFs(0.02, 0.05, 36000); err != nil {
				b.Fatal(err)
			}
		}
		reportMs(b)
	})
}

func BenchmarkExtractSurface(b *testing.B) {
	for _, dofs := range []int{3000, 36000} {
		m, err := BoxForDOFs(benchSize, dofs)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("dofs=%d", dofs), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ExtractSurface(m); err != nil {
					b.Fatal(err)
				}
			}
			reportMs(b)
		})
	}
}

// BenchmarkVertexNormals runs once per rendered frame; it must not
// allocate.
func BenchmarkVertexNormals(b *testing.B) {
	m, err := BoxForDOFs(benchSize, 36000)
	if err != nil {
		b.Fatal(err)
	}
	s, err := ExtractSurface(m)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]r3.Vec, len(s.Vertices))
	pos := nodePos(m)
	b.Run("dofs=36000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := s.VertexNormals(pos, out); err != nil {
				b.Fatal(err)
			}
		}
		reportMs(b)
	})
}
