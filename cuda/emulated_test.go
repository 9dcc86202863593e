package cuda

import (
	"fmt"

	"softgrasp/physics/contact"
)

// emulatedDevice is a device on the host for the default build's tests:
// the plans run on the cuBLAS emulator (emulate_test.go) over arrays sized
// exactly as the GPU's, so that every bounds rule of the device code is
// exercised, and PGS on the reference solver contact.PGS. The backend on
// it is the GPU backend with the GPU taken out: its host logic, its
// cuBLAS plans and its transfers. The kernel itself is tested where its
// source runs: on a GPU, or on the CPU stand-in (make cuda-test).
type emulatedDevice struct {
	bufs   hostBuffers
	states []int32
	status [3]int32
	pgsRef contact.PGS
}

// newEmulatedBackend returns the GPU backend on an emulated device.
func newEmulatedBackend() *backend {
	return newBackend("cuda-emulator", &emulatedDevice{})
}

func (d *emulatedDevice) reserve(c, maxIterations int) error {
	for b := range d.bufs {
		d.bufs[b] = growFloats(d.bufs[b], bufferLen(buffer(b), c, maxIterations))
	}
	d.states = growInts(d.states, c)
	return nil
}

func (d *emulatedDevice) upload(dst buffer, src []float64) error {
	if dst >= numBuffers || len(src) > len(d.bufs[dst]) {
		return fmt.Errorf("upload of %d values into %v of %d", len(src), dst, d.len(dst))
	}
	copy(d.bufs[dst], src)
	return nil
}

func (d *emulatedDevice) download(dst []float64, src buffer) error {
	if src >= numBuffers || len(dst) > len(d.bufs[src]) {
		return fmt.Errorf("download of %d values from %v of %d", len(dst), src, d.len(src))
	}
	copy(dst, d.bufs[src])
	return nil
}

// len returns the length of buffer b, or −1 if there is no such buffer.
func (d *emulatedDevice) len(b buffer) int {
	if b >= numBuffers {
		return -1
	}
	return len(d.bufs[b])
}

func (d *emulatedDevice) downloadStates(dst []int32) error {
	if len(dst) > len(d.states) {
		return fmt.Errorf("download of %d states of %d", len(dst), len(d.states))
	}
	copy(dst, d.states)
	return nil
}

func (d *emulatedDevice) downloadStatus(dst []int32) error {
	if len(dst) > len(d.status) {
		return fmt.Errorf("download of %d status words of %d", len(dst), len(d.status))
	}
	copy(dst, d.status[:])
	return nil
}

func (d *emulatedDevice) gemm(g *gemmBatch) error { return emulateGemm(g, &d.bufs) }

func (d *emulatedDevice) symv(m *symv) error { return emulateSymv(m, &d.bufs) }

// pgs runs the reference solver on the device arrays and writes the
// kernel's outputs: λ, the states, the error record and the status.
func (d *emulatedDevice) pgs(g *pgsArgs) error {
	if g.c < 1 || bufferLen(bufW, g.c, 0) > len(d.bufs[bufW]) || g.maxIterations > len(d.bufs[bufErrors]) || g.c > len(d.states) {
		return fmt.Errorf("PGS launch for %d contacts, %d sweeps on arrays reserved for fewer", g.c, g.maxIterations)
	}
	n := 3 * g.c
	d.pgsRef.MaxIterations, d.pgsRef.Tolerance = g.maxIterations, g.tolerance
	d.pgsRef.Bilateral = d.pgsRef.Bilateral[:0]
	for _, f := range g.bilateral {
		d.pgsRef.Bilateral = append(d.pgsRef.Bilateral, f != 0)
	}
	res, err := d.pgsRef.Solve(d.bufs[bufW][:n*n], g.c, g.s, d.bufs[bufDeltaFree][:n], g.mu, d.bufs[bufLambda][:n])
	if err != nil {
		return err
	}
	copy(d.bufs[bufErrors], d.pgsRef.Errors)
	for a, st := range d.pgsRef.States {
		d.states[a] = int32(st)
	}
	d.status = [3]int32{statusOK, int32(g.c), int32(res.Iterations)}
	return nil
}

func (d *emulatedDevice) close() {}
