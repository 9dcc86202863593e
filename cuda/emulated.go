package cuda

import "fmt"

// emulatedDevice is a device on the host: the plans run on the cuBLAS
// emulator (emulate.go) and the PGS kernel on its Go mirror (pgs.go), over
// arrays sized exactly as the GPU's, so that every bounds rule of the
// device code is exercised. The backend on it is the GPU backend with
// the GPU taken out: what the default build tests in full.
type emulatedDevice struct {
	threads int
	bufs    hostBuffers
	states  []int32
	status  [3]int32
}

// newEmulatedBackend returns the GPU backend on an emulated device whose
// PGS block has the given number of threads (checkThreads).
func newEmulatedBackend(threads int) (*backend, error) {
	if err := checkThreads(threads); err != nil {
		return nil, fmt.Errorf("cuda-emulator backend: %w", err)
	}
	return newBackend("cuda-emulator", &emulatedDevice{threads: threads}), nil
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

func (d *emulatedDevice) pgs(g *pgsArgs) error {
	if g.c < 1 || bufferLen(bufW, g.c, 0) > len(d.bufs[bufW]) || g.maxIterations > len(d.bufs[bufErrors]) || g.c > len(d.states) {
		return fmt.Errorf("PGS launch for %d contacts, %d sweeps on arrays reserved for fewer", g.c, g.maxIterations)
	}
	mirrorPGS(d.threads, g, &pgsArrays{
		W: d.bufs[bufW], deltaFree: d.bufs[bufDeltaFree], lambda: d.bufs[bufLambda],
		v: d.bufs[bufV], records: d.bufs[bufRecords],
		states: d.states, errors: d.bufs[bufErrors], status: d.status[:],
	})
	return nil
}

func (d *emulatedDevice) close() {}
