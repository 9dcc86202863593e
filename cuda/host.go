package cuda

import (
	"fmt"
	"math"

	"softgrasp/physics/contact"
	"softgrasp/physics/m3"
)

// device is what the backend needs of a GPU: float64 arrays named by
// buffer, the int32 arrays of the PGS kernel (a state per contact and the
// status {code, contact, sweeps}), the two cuBLAS routines of the plans and
// the PGS kernel. gpuDevice (gpu.go, cuda build tag) makes these calls with
// the CUDA driver through gorgonia.org/cu, the cuBLAS binding of cublas.go
// and the kernel of cuda/kernels; the tests' emulatedDevice
// (emulated_test.go) runs them on the host.
type device interface {
	// reserve sizes every array for c contacts and a PGS of at most
	// maxIterations sweeps (bufferLen), keeping storage that is large enough.
	reserve(c, maxIterations int) error
	// upload copies src to the start of dst; download copies the start of
	// src to dst.
	upload(dst buffer, src []float64) error
	download(dst []float64, src buffer) error
	// downloadStates and downloadStatus copy the kernel's int32 outputs.
	downloadStates(dst []int32) error
	downloadStatus(dst []int32) error
	// gemm and symv run a plan's cuBLAS call.
	gemm(g *gemmBatch) error
	symv(m *symv) error
	// pgs runs pgs_solve on W, δ_free, λ and the work arrays, c ≥ 1.
	pgs(g *pgsArgs) error
	close()
}

// backend is the host side of the GPU backend, whatever the device: it
// validates the arguments, holds the cuBLAS plans of the current contact
// count, moves the O(c) vectors across (W_H is the only O(c²) upload, once
// per step), turns the kernel's status into errors, and copies W, the
// states and the PGS error record back when asked. It implements
// physics.Backend; it is not safe for concurrent use.
type backend struct {
	name string
	dev  device

	c             int
	maxIterations int
	tolerance     float64
	loaded, built bool // Load done; RebuildW done since

	rebuild [2]gemmBatch // W = C·W_H·Cᵀ
	force   gemmBatch    // f = Cᵀ·λ

	frames    []float64 // the frames packed for upload, 9c
	w         []float64 // host copy of W, valid when wFresh
	wFresh    bool
	errors    []float64 // ε per sweep of the last SolvePGS
	rawStates []int32
	states    []contact.State // valid when fresh
	fresh     bool            // states copied back since the last SolvePGS
	status    [3]int32
	bilateral []bool  // SetBilateral's flags (the caller's), nil for none
	flags     []int32 // the flags as the kernel reads them
}

// SetBilateral implements physics.BilateralBackend: the kernel solves the
// marked contacts as equalities (pgs.cu, pgs_held).
func (b *backend) SetBilateral(flags []bool) { b.bilateral = flags }

// newBackend returns the backend named name on dev.
func newBackend(name string, dev device) *backend {
	return &backend{name: name, dev: dev}
}

// Name implements physics.Backend.
func (b *backend) Name() string { return b.name }

// Load implements physics.Backend: it uploads W_H, the step's one O(c²)
// transfer, and sizes the device arrays.
func (b *backend) Load(WH []float64, c, pgsIterations int, pgsTolerance float64) error {
	b.loaded, b.built = false, false
	switch {
	case c < 0:
		return fmt.Errorf("%s backend: %d contacts: must be ≥ 0", b.name, c)
	case len(WH) < 9*c*c:
		return fmt.Errorf("%s backend: W_H has %d entries, need %d for %d contacts", b.name, len(WH), 9*c*c, c)
	case pgsIterations < 1:
		return fmt.Errorf("%s backend: %d PGS iterations: must be at least 1", b.name, pgsIterations)
	case math.IsNaN(pgsTolerance) || math.IsInf(pgsTolerance, 0) || pgsTolerance < 0:
		return fmt.Errorf("%s backend: PGS tolerance %g: must be finite and ≥ 0", b.name, pgsTolerance)
	}
	if err := b.dev.reserve(c, pgsIterations); err != nil {
		return fmt.Errorf("%s backend: reserving device memory for %d contacts: %w", b.name, c, err)
	}
	if err := b.dev.upload(bufWH, WH[:9*c*c]); err != nil {
		return fmt.Errorf("%s backend: uploading W_H: %w", b.name, err)
	}
	b.c, b.maxIterations, b.tolerance = c, pgsIterations, pgsTolerance
	b.rebuild, b.force = rebuildPlan(c), forcePlan(c)
	b.frames = growFloats(b.frames, 9*c)
	b.w = growFloats(b.w, 9*c*c)
	b.rawStates = growInts(b.rawStates, c)
	b.states = growStates(b.states, c)
	b.errors = growFloats(b.errors, pgsIterations)[:0]
	b.wFresh, b.fresh, b.loaded = false, false, true
	return nil
}

// RebuildW implements physics.Backend: W = C·W_H·Cᵀ by the two batched
// GEMMs of rebuildPlan on the device; W stays there for SolvePGS.
func (b *backend) RebuildW(C []m3.Mat3) error {
	if err := b.checkFrames("RebuildW", C); err != nil {
		return err
	}
	if err := b.uploadFrames(C); err != nil {
		return err
	}
	for i := range b.rebuild {
		if err := b.dev.gemm(&b.rebuild[i]); err != nil {
			return fmt.Errorf("%s backend: RebuildW, product %d of 2: %w", b.name, i+1, err)
		}
	}
	b.built, b.wFresh = true, false
	return nil
}

// checkFrames reports a call before Load or with the wrong number of frames.
func (b *backend) checkFrames(op string, C []m3.Mat3) error {
	if !b.loaded {
		return fmt.Errorf("%s backend: %s before Load", b.name, op)
	}
	if len(C) != b.c {
		return fmt.Errorf("%s backend: %s: %d direction frames for %d contacts", b.name, op, len(C), b.c)
	}
	return nil
}

// uploadFrames packs the frames row-major, C_a at 9a, and uploads them.
func (b *backend) uploadFrames(C []m3.Mat3) error {
	for a := range C {
		copy(b.frames[9*a:9*a+9], C[a][:])
	}
	if err := b.dev.upload(bufFrames, b.frames); err != nil {
		return fmt.Errorf("%s backend: uploading the frames: %w", b.name, err)
	}
	return nil
}

// SetPGSTolerance implements physics.Backend: the tolerance of the
// kernel's next launches.
func (b *backend) SetPGSTolerance(tol float64) { b.tolerance = tol }

// SolvePGS implements physics.Backend: the PGS kernel on the W of the last
// RebuildW, λ warm-started from lambda and copied back into it.
func (b *backend) SolvePGS(deltaFree []float64, s, mu float64, lambda []float64) (contact.Result, error) {
	if !b.built {
		return contact.Result{}, fmt.Errorf("%s backend: SolvePGS before RebuildW", b.name)
	}
	if err := checkSolve(b.c, s, mu, deltaFree, lambda); err != nil {
		return contact.Result{}, fmt.Errorf("%s backend: %w", b.name, err)
	}
	b.fresh = false
	if b.c == 0 {
		return b.solveEmpty(), nil
	}
	if err := b.dev.upload(bufDeltaFree, deltaFree); err != nil {
		return contact.Result{}, fmt.Errorf("%s backend: uploading δ_free: %w", b.name, err)
	}
	if err := b.dev.upload(bufLambda, lambda); err != nil {
		return contact.Result{}, fmt.Errorf("%s backend: uploading λ: %w", b.name, err)
	}
	args := pgsArgs{c: b.c, s: s, mu: mu, maxIterations: b.maxIterations, tolerance: b.tolerance}
	if b.bilateral != nil {
		b.flags = b.flags[:0]
		held := false
		for a := 0; a < b.c; a++ {
			f := int32(0)
			if a < len(b.bilateral) && b.bilateral[a] {
				f, held = 1, true
			}
			b.flags = append(b.flags, f)
		}
		if held {
			args.bilateral = b.flags
		}
	}
	if err := b.dev.pgs(&args); err != nil {
		return contact.Result{}, fmt.Errorf("%s backend: PGS kernel: %w", b.name, err)
	}
	return b.collect(lambda)
}

// collect copies back the kernel's status, λ and error record.
func (b *backend) collect(lambda []float64) (contact.Result, error) {
	if err := b.dev.downloadStatus(b.status[:]); err != nil {
		return contact.Result{}, fmt.Errorf("%s backend: PGS status: %w", b.name, err)
	}
	if err := statusError(b.status[0], b.status[1]); err != nil {
		return contact.Result{}, fmt.Errorf("%s backend: %w", b.name, err)
	}
	sweeps := int(b.status[2])
	if sweeps < 1 || sweeps > b.maxIterations {
		return contact.Result{}, fmt.Errorf("%s backend: PGS kernel reports %d sweeps of at most %d", b.name, sweeps, b.maxIterations)
	}
	if err := b.dev.download(lambda, bufLambda); err != nil {
		return contact.Result{}, fmt.Errorf("%s backend: downloading λ: %w", b.name, err)
	}
	b.errors = b.errors[:sweeps]
	if err := b.dev.download(b.errors, bufErrors); err != nil {
		return contact.Result{}, fmt.Errorf("%s backend: downloading the PGS errors: %w", b.name, err)
	}
	eps := b.errors[sweeps-1]
	return contact.Result{Iterations: sweeps, Error: eps, Converged: eps <= b.tolerance}, nil
}

// solveEmpty is SolvePGS without contacts, as contact.PGS does it: every
// sweep changes nothing (ε = 0), so one sweep converges when there is a
// tolerance, and all of them run otherwise.
func (b *backend) solveEmpty() contact.Result {
	sweeps := b.maxIterations
	if b.tolerance > 0 {
		sweeps = 1
	}
	b.errors = b.errors[:sweeps]
	clear(b.errors)
	b.fresh = true
	return contact.Result{Iterations: sweeps, Converged: true}
}

// CorrectP implements physics.Backend: p = p_free + s·W_H·Cᵀ·λ by the
// batched GEMV of forcePlan and the DSYMV of correctPlan.
func (b *backend) CorrectP(p, pFree []float64, C []m3.Mat3, lambda []float64, s float64) error {
	if err := b.checkFrames("CorrectP", C); err != nil {
		return err
	}
	n := 3 * b.c
	if len(p) < n || len(pFree) < n || len(lambda) < n {
		return fmt.Errorf("%s backend: correction sized for %d contacts got p %d, pFree %d, λ %d",
			b.name, b.c, len(p), len(pFree), len(lambda))
	}
	if b.c == 0 {
		return nil
	}
	if err := b.dev.upload(bufP, pFree[:n]); err != nil {
		return fmt.Errorf("%s backend: uploading p_free: %w", b.name, err)
	}
	if err := b.dev.upload(bufLambda, lambda[:n]); err != nil {
		return fmt.Errorf("%s backend: uploading λ: %w", b.name, err)
	}
	if err := b.uploadFrames(C); err != nil {
		return err
	}
	if err := b.dev.gemm(&b.force); err != nil {
		return fmt.Errorf("%s backend: CorrectP, Cᵀ·λ: %w", b.name, err)
	}
	plan := correctPlan(b.c, s)
	if err := b.dev.symv(&plan); err != nil {
		return fmt.Errorf("%s backend: CorrectP, W_H·f: %w", b.name, err)
	}
	if err := b.dev.download(p[:n], bufP); err != nil {
		return fmt.Errorf("%s backend: downloading p: %w", b.name, err)
	}
	return nil
}

// W implements physics.Backend: the device's W, copied back on the first
// call after each RebuildW (nil if the copy fails).
func (b *backend) W() []float64 {
	if b.built && !b.wFresh {
		if err := b.dev.download(b.w, bufW); err != nil {
			return nil
		}
		b.wFresh = true
	}
	return b.w
}

// PGSErrors implements physics.Backend: ε of each sweep of the last solve.
func (b *backend) PGSErrors() []float64 { return b.errors }

// States implements physics.Backend: the contact states of the last
// solve, copied back on the first call after it (nil if the copy fails).
func (b *backend) States() []contact.State {
	if !b.fresh {
		if err := b.dev.downloadStates(b.rawStates); err != nil {
			return nil
		}
		for a, st := range b.rawStates {
			b.states[a] = contact.State(st)
		}
		b.fresh = true
	}
	return b.states
}

// Close implements physics.Backend: it frees the device.
func (b *backend) Close() { b.dev.close() }

// checkSolve reports the first inconsistent argument of SolvePGS, as
// contact.PGS does: the O(c) vectors are checked on the host, W by the
// kernel.
func checkSolve(c int, s, mu float64, deltaFree, lambda []float64) error {
	n := 3 * c
	switch {
	case len(deltaFree) != n:
		return fmt.Errorf("len(deltaFree) = %d: want 3c = %d", len(deltaFree), n)
	case len(lambda) != n:
		return fmt.Errorf("len(lambda) = %d: want 3c = %d", len(lambda), n)
	case !(s > 0) || math.IsInf(s, 0):
		return fmt.Errorf("s = %g: must be finite and > 0 (s = h²)", s)
	case !(mu >= 0) || math.IsInf(mu, 0):
		return fmt.Errorf("friction coefficient μ = %g: must be finite and ≥ 0", mu)
	}
	for i, x := range deltaFree {
		if !finite(x) {
			return fmt.Errorf("deltaFree[%d] = %g (contact %d): must be finite", i, x, i/3)
		}
	}
	for i, x := range lambda {
		if !finite(x) {
			return fmt.Errorf("lambda[%d] = %g (contact %d): must be finite", i, x, i/3)
		}
	}
	return nil
}

// statusError turns the kernel's status into an error naming the contact.
func statusError(code, a int32) error {
	switch code {
	case statusOK:
		return nil
	case statusBlockNotFinite:
		return fmt.Errorf("contact %d: diagonal block W_aa has a NaN or infinite entry", a)
	case statusBlockNnNotPos:
		return fmt.Errorf("contact %d: diagonal block W_aa is not positive definite: W_nn ≤ 0", a)
	case statusBlockSchurNotPos:
		return fmt.Errorf("contact %d: diagonal block W_aa is not positive definite: its tangential Schur complement is singular", a)
	case statusRowNotFinite:
		return fmt.Errorf("contact %d: gap δ_free + s·W·λ is not finite: W has a NaN or infinite entry in row block %d or below, or W·λ overflows", a, a)
	}
	return fmt.Errorf("PGS kernel returned unknown status %d (contact %d)", code, a)
}

// growFloats, growInts and growStates return s resized to n, reusing its
// storage when large enough.
func growFloats(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func growInts(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func growStates(s []contact.State, n int) []contact.State {
	if cap(s) < n {
		return make([]contact.State, n)
	}
	return s[:n]
}
