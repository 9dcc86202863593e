//go:build cuda

package cuda

import (
	"fmt"
	"time"

	"softgrasp/physics"
)

// Options configure the GPU backend.
type Options struct {
	// Threads is the PGS kernel's block size: a multiple of 32 in
	// [32, 1024]; 0 means pgsThreads (256).
	Threads int
}

// New returns the GPU backend on CUDA device 0. Without a usable driver
// or device it returns an error (the process goes on: see
// driver_probe.c), and the caller can fall back to the CPU backend.
func New(o Options) (physics.Backend, error) {
	threads := o.Threads
	if threads == 0 {
		threads = pgsThreads
	}
	if err := checkThreads(threads); err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	dev, err := openGPU(threads)
	if err != nil {
		return nil, fmt.Errorf("cuda backend: %w", err)
	}
	return &GPU{backend: newBackend("cuda", dev), dev: dev}, nil
}

// GPU is the backend on a CUDA device: physics.Backend, and the device's
// description and timings for the viewer's statistics.
type GPU struct {
	*backend
	dev *gpuDevice
}

// Device names the GPU and the PTX architecture its kernel was compiled for.
func (g *GPU) Device() string { return g.dev.describe() }

// GPU measures its device's work for the Stats panel, and solves the
// attachments to a dynamic body (bilateral contacts) in its kernel.
var (
	_ physics.DeviceTimer      = (*GPU)(nil)
	_ physics.BilateralBackend = (*GPU)(nil)
)

// DeviceTimes returns the time the device has spent in kernels (cuBLAS and
// PGS) and in host↔device copies since it was opened, measured by events
// on its stream (physics.DeviceTimer).
func (g *GPU) DeviceTimes() (kernel, transfer time.Duration) { return g.dev.times() }
