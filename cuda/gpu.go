//go:build cuda

package cuda

/*
#cgo LDFLAGS: -lcuda -ldl
#include <cuda.h>
#include <stdlib.h>

const char* sg_driver_error(void);

// gorgonia.org/cu v0.9.6 binds neither cuMemAllocHost nor cuMemFreeHost's
// allocation side: page-locked staging memory is allocated here.
static CUresult sg_alloc_host(void** p, size_t n) { return cuMemAllocHost(p, n); }
static CUresult sg_free_host(void* p) { return cuMemFreeHost(p); }
*/
import "C"

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"softgrasp/cuda/kernels"
)

// gpuDevice is the device of the backend on a CUDA GPU, through
// gorgonia.org/cu: a context on device 0 whose calls all run on the one OS
// thread that cu.Ctx locks for it (ctx.Do), one stream that orders every
// copy, cuBLAS call and launch, the PGS module compiled at start by NVRTC
// for the device's compute capability, and the device arrays of the
// backend's buffers.
//
// Transfers. The O(c) vectors of each Newton iteration (frames, δ_free,
// λ, p, the PGS outputs: 1–3 kB each at the paper's sizes) go through one
// page-locked staging area, asynchronously on the stream: an upload is
// queued behind the previous work and the host does not wait for it, and
// a download waits once for the stream. At these sizes a copy costs its
// latency (~5–10 µs), not its bandwidth, so what pinning buys is not
// speed per byte but that uploads and the kernel queue without a host
// synchronisation between them. The O(c²) arrays (W_H by Load, W by the
// inspection call W()) are copied synchronously from Go memory: once per
// step, and large enough that the driver's own staging runs at bandwidth.
//
// Timing. Every copy, cuBLAS call and launch is bracketed by two events
// on the stream; their elapsed times, read when the stream is next waited
// for, add up into kernel time (cuBLAS and PGS) and transfer time.
type gpuDevice struct {
	ctx     *cu.Ctx
	dev     cu.Device
	name    string
	arch    string
	stream  cu.Stream
	module  cu.Module
	pgsFn   cu.Function
	blas    *blasHandle
	threads int

	bufs   [numBuffers]cu.DevicePtr
	caps   bufferLens   // float64 each buffer holds
	states cu.DevicePtr // int32 per contact, then the bilateral flags, int32 per contact
	nState int
	status cu.DevicePtr // int32 {code, contact, sweeps}

	pinned    unsafe.Pointer // staging, pinnedCap bytes
	pinnedCap int
	cursor    int // bytes of staging in use by queued copies

	spans  [32]span
	nSpans int
	kernel time.Duration
	copies time.Duration
}

// span is one timed operation: events around it on the stream.
type span struct {
	start, end cu.Event
	transfer   bool
}

// largeCopy is the size in bytes from which a copy bypasses the staging
// area: the O(c²) arrays.
const largeCopy = 1 << 16

// openGPU creates the device's context, stream, events, cuBLAS handle and
// PGS module; the PGS block has threads threads.
func openGPU(threads int) (*gpuDevice, error) {
	if msg := C.GoString(C.sg_driver_error()); msg != "" {
		return nil, fmt.Errorf("no usable CUDA driver: %s", msg)
	}
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("cuDeviceGetCount: %w", err)
	}
	if n < 1 {
		return nil, fmt.Errorf("cuDeviceGetCount: no CUDA device")
	}
	d := &gpuDevice{threads: threads}
	if d.dev, err = cu.GetDevice(0); err != nil {
		return nil, fmt.Errorf("cuDeviceGet(0): %w", err)
	}
	if d.name, err = d.dev.Name(); err != nil {
		return nil, fmt.Errorf("cuDeviceGetName: %w", err)
	}
	major, err := d.dev.Attribute(cu.ComputeCapabilityMajor)
	if err != nil {
		return nil, fmt.Errorf("cuDeviceGetAttribute(compute capability): %w", err)
	}
	minor, err := d.dev.Attribute(cu.ComputeCapabilityMinor)
	if err != nil {
		return nil, fmt.Errorf("cuDeviceGetAttribute(compute capability): %w", err)
	}
	ptx, arch, err := kernels.CompilePGS(major, minor)
	if err != nil {
		return nil, err
	}
	d.arch = arch
	if err := d.startContext(); err != nil {
		return nil, err
	}
	if err := d.ctx.Do(func() error { return d.setup(ptx) }); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// startContext creates the context and the goroutine, locked to an OS
// thread with the context current, that runs every later call (cu.Ctx).
// cuCtxCreate makes the context current on the calling thread too; it is
// taken off again so that no other goroutine finds it there.
func (d *gpuDevice) startContext() error {
	runtime.LockOSThread()
	cctx, err := d.dev.MakeContext(cu.SchedAuto)
	if err == nil {
		err = cu.SetCurrentContext(cu.CUContext{})
	}
	runtime.UnlockOSThread()
	if err != nil {
		return fmt.Errorf("cuCtxCreate on device 0 (%s): %w", d.name, err)
	}
	d.ctx = cu.CtxFromCUContext(d.dev, cctx, cu.SchedAuto)
	ready := make(chan error)
	go d.ctx.Run(ready)
	if err := <-ready; err != nil {
		d.ctx.Close()
		return fmt.Errorf("cuCtxSetCurrent: %w", err)
	}
	return nil
}

// setup runs in the context: stream, events, cuBLAS on the stream, the
// status word, and the module.
func (d *gpuDevice) setup(ptx string) error {
	var err error
	if d.stream, err = cu.MakeStream(cu.DefaultStream); err != nil {
		return fmt.Errorf("cuStreamCreate: %w", err)
	}
	for i := range d.spans {
		if d.spans[i].start, err = cu.MakeEvent(cu.BlockingSyncEvent); err != nil {
			return fmt.Errorf("cuEventCreate: %w", err)
		}
		if d.spans[i].end, err = cu.MakeEvent(cu.BlockingSyncEvent); err != nil {
			return fmt.Errorf("cuEventCreate: %w", err)
		}
	}
	if d.blas, err = newBlasHandle(); err != nil {
		return err
	}
	if err := d.blas.setStream(d.stream); err != nil {
		return err
	}
	if d.status, err = cu.MemAlloc(3 * 4); err != nil {
		return fmt.Errorf("cuMemAlloc(status, 12 bytes): %w", err)
	}
	if d.module, err = cu.LoadData(ptx); err != nil {
		return fmt.Errorf("cuModuleLoadData(pgs.cu for %s): %w", d.arch, err)
	}
	if d.pgsFn, err = d.module.Function(kernels.PGSEntry); err != nil {
		return fmt.Errorf("cuModuleGetFunction(%s): %w", kernels.PGSEntry, err)
	}
	return nil
}

// reserve implements device: buffers and staging grow, never shrink.
func (d *gpuDevice) reserve(c, maxIterations int) error {
	return d.ctx.Do(func() error {
		if err := d.waitStream(); err != nil {
			return err
		}
		for b := range d.bufs {
			if err := d.grow(buffer(b), bufferLen(buffer(b), c, maxIterations)); err != nil {
				return err
			}
		}
		if c > d.nState {
			if d.states != 0 {
				if err := cu.MemFree(d.states); err != nil {
					return fmt.Errorf("cuMemFree(states): %w", err)
				}
				d.states = 0
			}
			p, err := cu.MemAlloc(int64(8 * c))
			if err != nil {
				return fmt.Errorf("cuMemAlloc(states and flags, %d bytes): %w", 8*c, err)
			}
			d.states, d.nState = p, c
		}
		// The staging holds every O(c) copy that one backend call queues
		// before it waits: the frames, three vectors, the error record;
		// and one copy below largeCopy, which an O(c²) array of a few
		// dozen contacts is (W_H of 28 contacts, 56 kB, once failed
		// against a staging area sized for the O(c) copies alone).
		return d.growPinned(8*(9*c+12*c+maxIterations+8) + largeCopy)
	})
}

// grow makes buffer b hold at least n float64 (at least one: the driver
// allocates no empty arrays).
func (d *gpuDevice) grow(b buffer, n int) error {
	if n <= d.caps[b] && d.bufs[b] != 0 {
		return nil
	}
	if d.bufs[b] != 0 {
		if err := cu.MemFree(d.bufs[b]); err != nil {
			return fmt.Errorf("cuMemFree(%v): %w", b, err)
		}
		d.bufs[b], d.caps[b] = 0, 0
	}
	n = max(n, 1)
	p, err := cu.MemAlloc(int64(8 * n))
	if err != nil {
		return fmt.Errorf("cuMemAlloc(%v, %d bytes): %w", b, 8*n, err)
	}
	d.bufs[b], d.caps[b] = p, n
	return nil
}

// growPinned makes the staging area at least n bytes.
func (d *gpuDevice) growPinned(n int) error {
	if n <= d.pinnedCap {
		return nil
	}
	if d.pinned != nil {
		if st := C.sg_free_host(d.pinned); st != C.CUDA_SUCCESS {
			return fmt.Errorf("cuMemFreeHost: CUresult %d", int(st))
		}
		d.pinned, d.pinnedCap = nil, 0
	}
	var p unsafe.Pointer
	if st := C.sg_alloc_host(&p, C.size_t(n)); st != C.CUDA_SUCCESS {
		return fmt.Errorf("cuMemAllocHost(%d bytes): CUresult %d", n, int(st))
	}
	d.pinned, d.pinnedCap = p, n
	return nil
}

// stage returns the next n bytes of the staging area, waiting for the
// stream first when the queued copies fill it.
func (d *gpuDevice) stage(n int) (unsafe.Pointer, error) {
	if n > d.pinnedCap {
		return nil, fmt.Errorf("copy of %d bytes exceeds the %d-byte staging area", n, d.pinnedCap)
	}
	if d.cursor+n > d.pinnedCap {
		if err := d.waitStream(); err != nil {
			return nil, err
		}
	}
	p := unsafe.Add(d.pinned, d.cursor)
	d.cursor += n
	return p, nil
}

// waitStream waits for everything queued, frees the staging area and adds
// up the timed spans.
func (d *gpuDevice) waitStream() error {
	if err := d.stream.Synchronize(); err != nil {
		return fmt.Errorf("cuStreamSynchronize: %w", err)
	}
	d.cursor = 0
	for i := range d.spans[:d.nSpans] {
		s := &d.spans[i]
		ms, err := s.start.Elapsed(s.end)
		if err != nil {
			return fmt.Errorf("cuEventElapsedTime: %w", err)
		}
		t := time.Duration(ms * float64(time.Millisecond))
		if s.transfer {
			d.copies += t
		} else {
			d.kernel += t
		}
	}
	d.nSpans = 0
	return nil
}

// timed runs op between two events on the stream.
func (d *gpuDevice) timed(transfer bool, op func() error) error {
	if d.nSpans == len(d.spans) {
		if err := d.waitStream(); err != nil {
			return err
		}
	}
	s := &d.spans[d.nSpans]
	if err := s.start.Record(d.stream); err != nil {
		return fmt.Errorf("cuEventRecord: %w", err)
	}
	if err := op(); err != nil {
		return err
	}
	if err := s.end.Record(d.stream); err != nil {
		return fmt.Errorf("cuEventRecord: %w", err)
	}
	s.transfer = transfer
	d.nSpans++
	return nil
}

// upload implements device.
func (d *gpuDevice) upload(dst buffer, src []float64) error {
	if dst >= numBuffers || len(src) > d.caps[dst] {
		return fmt.Errorf("upload of %d values into %v of %d", len(src), dst, d.capOf(dst))
	}
	if len(src) == 0 {
		return nil
	}
	n := 8 * len(src)
	return d.ctx.Do(func() error {
		return d.timed(true, func() error {
			if n >= largeCopy {
				if err := cu.MemcpyHtoD(d.bufs[dst], unsafe.Pointer(&src[0]), int64(n)); err != nil {
					return fmt.Errorf("cuMemcpyHtoD(%v, %d bytes): %w", dst, n, err)
				}
				return nil
			}
			p, err := d.stage(n)
			if err != nil {
				return err
			}
			copy(unsafe.Slice((*float64)(p), len(src)), src)
			if err := cu.MemcpyHtoDAsync(d.bufs[dst], p, int64(n), d.stream); err != nil {
				return fmt.Errorf("cuMemcpyHtoDAsync(%v, %d bytes): %w", dst, n, err)
			}
			return nil
		})
	})
}

// capOf is the capacity of buffer b, or −1 if there is no such buffer.
func (d *gpuDevice) capOf(b buffer) int {
	if b >= numBuffers {
		return -1
	}
	return d.caps[b]
}

// fetch copies n bytes at src to dst on the host, waiting for the stream.
func (d *gpuDevice) fetch(dst unsafe.Pointer, src cu.DevicePtr, n int, what string) error {
	return d.ctx.Do(func() error {
		if n >= largeCopy {
			err := d.timed(true, func() error {
				if err := d.stream.Synchronize(); err != nil {
					return fmt.Errorf("cuStreamSynchronize: %w", err)
				}
				if err := cu.MemcpyDtoH(dst, src, int64(n)); err != nil {
					return fmt.Errorf("cuMemcpyDtoH(%s, %d bytes): %w", what, n, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
			return d.waitStream()
		}
		var p unsafe.Pointer
		err := d.timed(true, func() error {
			var err error
			if p, err = d.stage(n); err != nil {
				return err
			}
			if err := cu.MemcpyDtoHAsync(p, src, int64(n), d.stream); err != nil {
				return fmt.Errorf("cuMemcpyDtoHAsync(%s, %d bytes): %w", what, n, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := d.waitStream(); err != nil {
			return err
		}
		copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(p), n))
		return nil
	})
}

// download implements device.
func (d *gpuDevice) download(dst []float64, src buffer) error {
	if src >= numBuffers || len(dst) > d.caps[src] {
		return fmt.Errorf("download of %d values from %v of %d", len(dst), src, d.capOf(src))
	}
	if len(dst) == 0 {
		return nil
	}
	return d.fetch(unsafe.Pointer(&dst[0]), d.bufs[src], 8*len(dst), src.String())
}

// downloadStates implements device.
func (d *gpuDevice) downloadStates(dst []int32) error {
	if len(dst) > d.nState {
		return fmt.Errorf("download of %d states of %d", len(dst), d.nState)
	}
	if len(dst) == 0 {
		return nil
	}
	return d.fetch(unsafe.Pointer(&dst[0]), d.states, 4*len(dst), "states")
}

// downloadStatus implements device.
func (d *gpuDevice) downloadStatus(dst []int32) error {
	if len(dst) > 3 {
		return fmt.Errorf("download of %d status words of 3", len(dst))
	}
	if len(dst) == 0 {
		return nil
	}
	return d.fetch(unsafe.Pointer(&dst[0]), d.status, 4*len(dst), "status")
}

// gemm implements device.
func (d *gpuDevice) gemm(g *gemmBatch) error {
	return d.blasCall(g.check(&d.caps), func() error { return d.blas.gemm(g, &d.bufs) })
}

// symv implements device.
func (d *gpuDevice) symv(m *symv) error {
	return d.blasCall(m.check(&d.caps), func() error { return d.blas.symv(m, &d.bufs) })
}

// blasCall returns checkErr, the verdict of a plan's checks against the
// buffers' capacities, or else queues the plan's cuBLAS call on the
// stream, timed as computation rather than transfer.
func (d *gpuDevice) blasCall(checkErr error, call func() error) error {
	if checkErr != nil {
		return checkErr
	}
	return d.ctx.Do(func() error { return d.timed(false, call) })
}

// pgs implements device: one block of d.threads threads runs pgs_solve.
// Every parameter slot is 8 bytes (pointers, long long, double), which is
// how cu.Function.Launch copies them into the parameter array.
func (d *gpuDevice) pgs(g *pgsArgs) error {
	if g.c < 1 || bufferLen(bufW, g.c, 0) > d.caps[bufW] || g.maxIterations > d.caps[bufErrors] || g.c > d.nState {
		return fmt.Errorf("PGS launch for %d contacts, %d sweeps on arrays reserved for fewer", g.c, g.maxIterations)
	}
	W, deltaFree, lambda := d.bufs[bufW], d.bufs[bufDeltaFree], d.bufs[bufLambda]
	v, rec, errs := d.bufs[bufV], d.bufs[bufRecords], d.bufs[bufErrors]
	states, status := d.states, d.status
	c, maxIter := int64(g.c), int64(g.maxIterations)
	s, mu, tol := g.s, g.mu, g.tolerance
	// The bilateral flags after the states, or a null pointer for none.
	var flags cu.DevicePtr
	if len(g.bilateral) > 0 {
		if len(g.bilateral) != g.c {
			return fmt.Errorf("PGS launch for %d contacts with %d bilateral flags", g.c, len(g.bilateral))
		}
		flags = d.states + cu.DevicePtr(4*d.nState)
	}
	params := []unsafe.Pointer{
		unsafe.Pointer(&W), unsafe.Pointer(&c), unsafe.Pointer(&s), unsafe.Pointer(&mu),
		unsafe.Pointer(&deltaFree), unsafe.Pointer(&lambda), unsafe.Pointer(&maxIter), unsafe.Pointer(&tol),
		unsafe.Pointer(&v), unsafe.Pointer(&rec), unsafe.Pointer(&states), unsafe.Pointer(&errs),
		unsafe.Pointer(&status), unsafe.Pointer(&flags),
	}
	return d.ctx.Do(func() error {
		if flags != 0 {
			// No PGS launch is in flight (the last one's status was
			// read back), so the flags can be replaced synchronously.
			err := d.timed(true, func() error {
				if err := cu.MemcpyHtoD(flags, unsafe.Pointer(&g.bilateral[0]), int64(4*g.c)); err != nil {
					return fmt.Errorf("cuMemcpyHtoD(bilateral flags, %d bytes): %w", 4*g.c, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return d.timed(false, func() error {
			if err := d.pgsFn.Launch(1, 1, 1, d.threads, 1, 1, 0, d.stream, params); err != nil {
				return fmt.Errorf("cuLaunchKernel(%s, 1 block of %d threads): %w", kernels.PGSEntry, d.threads, err)
			}
			return nil
		})
	})
}

// times returns the kernel and transfer time measured so far.
func (d *gpuDevice) times() (kernel, transfer time.Duration) { return d.kernel, d.copies }

// describe names the device and the architecture of the loaded PTX.
func (d *gpuDevice) describe() string { return fmt.Sprintf("%s, PTX %s", d.name, d.arch) }

// close implements device: everything is freed in the context, then the
// context is destroyed.
func (d *gpuDevice) close() {
	if d.ctx == nil {
		return
	}
	d.ctx.Do(func() error {
		d.stream.Synchronize()
		for b := range d.bufs {
			if d.bufs[b] != 0 {
				cu.MemFree(d.bufs[b])
				d.bufs[b], d.caps[b] = 0, 0
			}
		}
		for _, p := range []*cu.DevicePtr{&d.states, &d.status} {
			if *p != 0 {
				cu.MemFree(*p)
				*p = 0
			}
		}
		if d.pinned != nil {
			C.sg_free_host(d.pinned)
			d.pinned, d.pinnedCap = nil, 0
		}
		d.blas.destroy()
		for i := range d.spans {
			cu.DestroyEvent(&d.spans[i].start)
			cu.DestroyEvent(&d.spans[i].end)
		}
		d.module.Unload()
		d.stream.Destroy()
		return nil
	})
	d.ctx.Close()
	d.ctx = nil
}
