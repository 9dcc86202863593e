package physics_test

import (
	"fmt"
	"sync"
	"testing"

	"softgrasp/physics"
	"softgrasp/physics/scenario"
	"softgrasp/physics/settings"
	"softgrasp/physics/stage"
)

// benchScenes caches one warmed-up squeeze scene per size, shared by the
// sub-benchmarks of both schemes: building and warming the 36k-DOF scene
// takes most of a minute.
var benchScenes sync.Map // int → *benchScene

type benchScene struct {
	sc   *scenario.Scene
	snap *physics.Snapshot
	err  error
}

// warmScene returns the squeeze scene of the Table-1 benchmark at dofs,
// held, lifted and turning, with the end poses of its next step set and a
// snapshot of that state.
func warmScene(b *testing.B, dofs int) *benchScene {
	b.Helper()
	v, _ := benchScenes.LoadOrStore(dofs, &benchScene{})
	bs := v.(*benchScene)
	if bs.sc == nil && bs.err == nil {
		bs.sc, bs.err = scenario.Build(scenario.BenchConfig(dofs))
		for i, n := 0, scenario.BenchWarmupSteps(scenario.BenchConfig(dofs)); bs.err == nil && i < n; i++ {
			_, bs.err = bs.sc.Step()
		}
		if bs.err == nil {
			bs.sc.DriveBodies()
			bs.snap = bs.sc.Sim.Snapshot(nil)
		}
	}
	if bs.err != nil {
		b.Fatalf("squeeze scene at %d DOFs: %v", dofs, bs.err)
	}
	return bs
}

// BenchmarkStep times one whole step of the squeeze scene (5 Newton × 30
// PGS iterations), replayed from the same snapshot every iteration, and
// reports the Table-1 stages: build_wh-ms and total-ms per step, the
// others per Newton iteration. With -benchmem it also shows that a warm
// step allocates nothing.
func BenchmarkStep(b *testing.B) {
	for _, scheme := range []settings.Scheme{settings.Fast, settings.Standard} {
		for _, dofs := range []int{3000, 18000, 36000} {
			b.Run(fmt.Sprintf("scheme=%s/dofs=%d", scheme, dofs), func(b *testing.B) {
				benchStep(b, warmScene(b, dofs), scheme)
			})
		}
	}
}

func benchStep(b *testing.B, bs *benchScene, scheme settings.Scheme) {
	sim := bs.sc.Sim
	set := sim.Settings()
	set.Scheme = scheme
	if err := sim.SetSettings(set); err != nil {
		b.Fatal(err)
	}
	replay := func() *physics.StepStats {
		if err := sim.Restore(bs.snap); err != nil {
			b.Fatal(err)
		}
		st, err := sim.Step()
		if err != nil {
			b.Fatal(err)
		}
		return st
	}
	replay() // grow every buffer to this scheme's needs
	var sum stage.Times
	iters := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := sim.Restore(bs.snap); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st, err := sim.Step()
		if err != nil {
			b.Fatal(err)
		}
		sum.Add(&st.Times)
		iters += len(st.Newton)
	}
	b.StopTimer()
	m := sum.Means(b.N, iters)
	b.ReportMetric(m.BuildWH, "build_wh-ms")
	b.ReportMetric(m.RebuildW, "rebuild_w-ms")
	b.ReportMetric(m.PGS, "pgs-ms")
	b.ReportMetric(m.Corr, "corr-ms")
	b.ReportMetric(m.NewtonIter, "newton-ms")
	b.ReportMetric(m.Total, "total-ms")
	b.ReportMetric(m.Step, "step-ms")
}
