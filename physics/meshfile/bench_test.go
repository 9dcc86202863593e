package meshfile

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// benchBox is the mesh the benchmarks write and read back: a soft block a
// few centimetres across at 36k DOFs.
func benchBox(b *testing.B) *mesh.TetMesh {
	m, err := mesh.BoxForDOFs(r3.Vec{X: 0.06, Y: 0.04, Z: 0.03}, 36000)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

func BenchmarkLoadGmsh(b *testing.B) {
	m := benchBox(b)
	benchmarkLoad(b, m, "4.1", WriteGmsh41, FormatGmsh)
	benchmarkLoad(b, m, "2.2", writeGmsh22, FormatGmsh)
}

func BenchmarkLoadVTK(b *testing.B) {
	benchmarkLoad(b, benchBox(b), "3.0", WriteVTK, FormatVTK)
}

// benchmarkLoad times Parse on the mesh as write writes it, and reports
// the mean wall time per read in milliseconds beside the usual figures.
func benchmarkLoad(b *testing.B, m *mesh.TetMesh, version string, write func(io.Writer, *mesh.TetMesh) error, format Format) {
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
		b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/op")
	})
}
