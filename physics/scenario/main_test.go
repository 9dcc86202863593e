package scenario

import (
	"os"
	"testing"

	"softgrasp/physics/settings"
	"softgrasp/physics/sparse"
)

// TestMain applies the application's thread policy for the asynchronous
// solver (app/threads.go) to every test of the package: OpenBLAS gets one
// thread, since its threads spin while they wait for work and would take
// the core of the background factorisation on a two-core machine.
func TestMain(m *testing.M) {
	sparse.SetBLASThreads(1)
	os.Exit(m.Run())
}

// smallGrasp builds the default grasp-and-rotate scene at about 300 DOFs;
// the caller closes it.
func smallGrasp(t *testing.T) *Scene {
	t.Helper()
	cfg := settings.DefaultScenario(settings.GraspRotate)
	cfg.TargetDOFs = 300
	sc, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}
