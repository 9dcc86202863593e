package scenario

import (
	"fmt"
	"testing"

	"softgrasp/physics"
)

// TestSqueezeReachesItsMeasuredState runs the benchmark scene through its
// warm-up at two resolutions and checks the state the benchmark measures
// from: the object held off the floor by both jaws, the gripper turning so
// that the Newton iterations re-linearise moved normals, exactly K = 5
// Newton iterations of 30 PGS sweeps per step, and more contacts on the
// finer mesh.
func TestSqueezeReachesItsMeasuredState(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the squeeze scene's warm-up twice")
	}
	contacts := map[int]int{}
	for _, dofs := range []int{800, 2000} {
		t.Run(fmt.Sprintf("dofs=%d", dofs), func(t *testing.T) {
			cfg := BenchConfig(dofs)
			sc, err := Build(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer sc.Close()
			var st *physics.StepStats
			for i, n := 0, BenchWarmupSteps(cfg); i < n; i++ {
				if st, err = sc.Step(); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
			}
			live := sc.Live()
			if live.Phase != PhaseSpin || !live.Held {
				t.Fatalf("after the warm-up: phase %s, held %v; want spin and held", live.Phase, live.Held)
			}
			for _, p := range sc.Sim.Pairs() {
				if p.Body == FloorBody {
					t.Fatal("a floor pair remains: the object was not lifted")
				}
			}
			if st.BodyNormalForce[LeftJawBody] <= 0 || st.BodyNormalForce[RightJawBody] <= 0 {
				t.Fatalf("jaw normal forces %.3g N and %.3g N: both jaws must squeeze",
					st.BodyNormalForce[LeftJawBody], st.BodyNormalForce[RightJawBody])
			}
			if len(st.Newton) != 5 {
				t.Fatalf("%d Newton iterations, want exactly 5", len(st.Newton))
			}
			for k, rec := range st.Newton {
				if rec.PGSIterations != 30 {
					t.Fatalf("Newton iteration %d ran %d PGS sweeps, want exactly 30", k, rec.PGSIterations)
				}
			}
			if st.Newton[1].DirectionChange <= 0 {
				t.Fatal("the re-linearisation found the normals unchanged: the gripper does not turn")
			}
			contacts[dofs] = st.Contacts
		})
	}
	if contacts[2000] <= contacts[800] {
		t.Fatalf("%d contacts at 2000 DOFs, %d at 800: the count must grow with the resolution", contacts[2000], contacts[800])
	}
}
