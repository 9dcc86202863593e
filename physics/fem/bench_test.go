package fem

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"softgrasp/physics/mesh"
)

// benchMeshes are boxes with 3000, 18000 and 36000 degrees of freedom
// (the paper's range), as cells per axis (nodes = cells + 1).
var benchMeshes = []struct {
	dofs       int
	nx, ny, nz int
}{
	{3000, 9, 9, 9},
	{18000, 19, 19, 14},
	{36000, 29, 19, 19},
}

func benchMesh(b *testing.B, dofs, nx, ny, nz int) *mesh.TetMesh {
	msh := gridBox(nx, ny, nz, 0.01*float64(nx), 0.01*float64(ny), 0.01*float64(nz))
	if got := 3 * len(msh.Nodes); got != dofs {
		b.Fatalf("mesh has %d DOFs, want %d", got, dofs)
	}
	return msh
}

// forEachSize runs body for every benchmark mesh, with the element pass
// on one goroutine and on the default pool, so the benefit of the
// parallel pass stays measured.
func forEachSize(b *testing.B, body func(b *testing.B, m *Model, q, v []float64)) {
	for _, s := range benchMeshes {
		msh := benchMesh(b, s.dofs, s.nx, s.ny, s.nz)
		q, v := deformedState(msh, rand.New(rand.NewPCG(61, 62)), 1e-4)
		for _, procs := range []int{1, 2} {
			name := fmt.Sprintf("dofs=%d/tets=%d/procs=%d", s.dofs, len(msh.Tets), procs)
			b.Run(name, func(b *testing.B) {
				m := newTestModel(b, msh, testMaterial())
				m.pool = newWorkerPool(m, procs)
				body(b, m, q, v)
			})
		}
	}
}

func BenchmarkAssemble(b *testing.B) {
	forEachSize(b, func(b *testing.B, m *Model, q, v []float64) {
		A, rhs, st, w := m.Pattern(), make([]float64, len(q)), m.NewState(), m.NewWorkspace()
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			m.Assemble(st, w, q, v, 0.01, r3.Vec{Z: -9.81}, A, rhs)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/op")
	})
}

func BenchmarkElasticForces(b *testing.B) {
	forEachSize(b, func(b *testing.B, m *Model, q, _ []float64) {
		f, st, w := make([]float64, len(q)), m.NewState(), m.NewWorkspace()
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			_ = m.ElasticForces(st, w, q, f)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/op")
	})
}

// BenchmarkForces and BenchmarkForcesOverStep: the residual's element
// pass with the stiffness damping on the velocity and on the stretch rate
// (F and its stretch at q − h·v too), each after the step's assembly at
// q_t = q − h·v, whose rotations warm-start the pass, as in a step.
func BenchmarkForces(b *testing.B) {
	benchForces(b, func(m *Model, st *State, w *Workspace, q, v []float64, h float64, f []float64) error {
		return m.Forces(st, w, q, v, f)
	})
}

func BenchmarkForcesOverStep(b *testing.B) {
	benchForces(b, (*Model).ForcesOverStep)
}

func benchForces(b *testing.B, forces func(m *Model, st *State, w *Workspace, q, v []float64, h float64, f []float64) error) {
	forEachSize(b, func(b *testing.B, m *Model, q, v []float64) {
		const h = 0.02
		f, st, w := make([]float64, len(q)), m.NewState(), m.NewWorkspace()
		assembleBefore(m, st, w, q, v, h)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			_ = forces(m, st, w, q, v, h, f)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/op")
	})
}

// assembleBefore assembles at q_t = q − h·v into st, as a step does before
// it evaluates its residual at q.
func assembleBefore(m *Model, st *State, w *Workspace, q, v []float64, h float64) {
	qt := make([]float64, len(q))
	for i := range q {
		qt[i] = q[i] - h*v[i]
	}
	m.Assemble(st, w, qt, v, h, r3.Vec{}, m.Pattern(), make([]float64, len(q)))
}
