package meshfile

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// benchSize is the box the benchmarks write and read back: a soft block a
// few centimetres across, as in the mesh package's benchmarks.
var benchSize = r3.Vec{X: 0.06, Y: 0.04, Z: 0.03}

// reportMs adds the mean wall time per operation in milliseconds.
func reportMs(b *testing.B) {
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/op")
}

func BenchmarkLoadGmsh(b *testing.B) {
	m, err := mesh.BoxForDOFs(benchSize, 36000)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkLoad(b, m, "4.1", WriteGmsh41, FormatGmsh)
	benchmarkLoad(b, m, "2.2", writeGmsh22, FormatGmsh)
}

func BenchmarkLoadVTK(b *testing.B) {
	m, err := mesh.BoxForDOFs(benchSize, 36000)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkLoad(b, m, "3.0", WriteVTK, FormatVTK)
}

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
		reportMs(b)
	})
}
