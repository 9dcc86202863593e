package scenario

import (
	"os"
	"testing"

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
