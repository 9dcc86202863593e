package mesh

import (
	"bytes"
	"fmt"
	"io"
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

func BenchmarkLoadGmsh(b *testing.B) {
	m, err := BoxForDOFs(benchSize, 36000)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkLoad(b, m, "4.1", WriteGmsh41, FormatGmsh)
	benchmarkLoad(b, m, "2.2", writeGmsh22, FormatGmsh)
}

func BenchmarkLoadVTK(b *testing.B) {
	m, err := BoxForDOFs(benchSize, 36000)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkLoad(b, m, "3.0", WriteVTK, FormatVTK)
}

func benchmarkLoad(b *testing.B, m *TetMesh, version string, write func(io.Writer, *TetMesh) error, format Format) {
	var buf bytes.Buffer
	if err := write(&buf, m); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.Run(fmt.Sprintf("nodes=%d/version=%s", len(m.Nodes), version), func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := Parse(bytes.NewReader(data), format); err != nil {
				b.Fatal(err)
			}
		}
		reportMs(b)
	})
}
