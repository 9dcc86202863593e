package collide

import (
	"fmt"
	"testing"
	"time"

	"softgrasp/physics/rigid"
)

// benchSizes are the soft box grids of the benchmarks, 3 DOFs per node.
var benchSizes = []struct {
	dofs int
	grid [3]int
}{
	{3000, [3]int{10, 10, 10}},
	{18000, [3]int{20, 20, 15}},
}

// benchScene is a 4 cm soft box on the floor squeezed 0.5 mm per side by
// round jaws: the grasp scene's detection load.
func benchScene(grid [3]int) squeezeScene {
	return newSqueezeScene(grid, 0.04, 0.2e-3, 20e-3, 0.5e-3, rigid.RoundJaws)
}

func BenchmarkDetect(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("dofs=%d", size.dofs), func(b *testing.B) {
			s := benchScene(size.grid)
			det := NewDetector(s.surf)
			out := det.Detect(s.q, s.bodies, 1e-3, nil)
			pairs := len(out)
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				out = det.Detect(s.q, s.bodies, 1e-3, out[:0])
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/detect")
			b.ReportMetric(float64(pairs), "pairs")
		})
	}
}

func BenchmarkRefit(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("dofs=%d", size.dofs), func(b *testing.B) {
			s := benchScene(size.grid)
			bvh, err := NewBVH(s.surf.Tris, s.q)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if err := bvh.Refit(s.q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1e3/float64(b.N), "ms/refit")
			b.ReportMetric(float64(len(s.surf.Tris)), "tris")
		})
	}
}
