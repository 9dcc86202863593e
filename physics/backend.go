package physics

import (
	"fmt"
	"time"

	"softgrasp/physics/contact"
	"softgrasp/physics/m3"
)

// Backend runs the per-Newton-iteration work of the fast scheme
// (Algorithm 3, lines 2–4): rebuild W = C·W_H·Cᵀ, solve the contact problem
// on it by projected Gauss–Seidel, and move the proximity points
// p = p_free + h²·W_H·Cᵀ·λ. Everything it touches is O(c²) dense, which is
// what a GPU runs well; the schemes call it and never see where it runs.
//
// A step calls Load once (after W_H is built), then RebuildW, SolvePGS and
// CorrectP once per Newton iteration. Slices passed in belong to the
// caller and are valid only during the call, except WH, which stays valid
// and unchanged until the next Load.
type Backend interface {
	// Name identifies the backend ("cpu", "cuda").
	Name() string
	// Load takes the step's mapping compliance W_H (3c×3c, row-major) for c
	// contacts, and the PGS limits. Only W_H's lower block triangle (the
	// blocks (a, b) with b ≤ a) is defined: W_H is symmetric, and the
	// simulation fills no more of it.
	Load(WH []float64, c int, pgsIterations int, pgsTolerance float64) error
	// RebuildW computes W = C·W_H·Cᵀ for the directions C (one frame per
	// contact, rows n, t1, t2).
	RebuildW(C []m3.Mat3) error
	// SetPGSTolerance changes the PGS tolerance that Load set, for the
	// solves that follow (inexact Newton: one per Newton iteration).
	SetPGSTolerance(tol float64)
	// SolvePGS solves δ = δfree + s·W·λ with Signorini and Coulomb (μ) on
	// the W of the last RebuildW; lambda is the warm start and the result.
	SolvePGS(deltaFree []float64, s, mu float64, lambda []float64) (contact.Result, error)
	// CorrectP computes p = pFree + s·W_H·Cᵀ·λ.
	CorrectP(p, pFree []float64, C []m3.Mat3, lambda []float64, s float64) error
	// W returns the compliance of the last RebuildW (for inspection and
	// tests; a device backend copies it back). Only its lower block
	// triangle, the blocks W_ab with b ≤ a, is guaranteed: that is all
	// that PGS reads, and a backend may leave the strict upper block
	// triangle stale.
	W() []float64
	// PGSErrors returns the per-sweep error record of the last SolvePGS,
	// and States the contact states it ended with.
	PGSErrors() []float64
	States() []contact.State
	// Close releases the backend's resources.
	Close()
}

// BilateralBackend is a Backend whose PGS solves bilateral contacts (the
// attachments to a dynamic body, collide.Attached) as equalities
// (contact.PGS.Bilateral). The simulation gives it the flags before each
// SolvePGS: flags[a] marks contact a, nil none; the slice stays valid
// until the next call. The CPU backend is one; a simulation whose
// backend is not steps such scenes on a CPU backend (Simulation.stepper).
type BilateralBackend interface {
	Backend
	SetBilateral(flags []bool)
}

// SingleBackend is a Backend that can keep W in single precision for PGS
// (contact.PGS.SolveSingle). The simulation tells it before each Load
// whether the step's W is to be kept so (Settings.PGSSingleFrom).
type SingleBackend interface {
	Backend
	SetSingle(on bool)
}

// DeviceTimer is implemented by a Backend that runs on a device and
// measures its work there by events on its stream: the time spent in
// kernels and the time spent in host↔device copies, each summed since the
// backend was opened. A caller that wants per-step times takes the
// difference across the step. The CPU backend has none: its stage times
// are the step's own (StepStats.Times).
type DeviceTimer interface {
	DeviceTimes() (kernel, transfer time.Duration)
}

// CPUBackend is the reference Backend: the kernels of package contact on
// the host.
type CPUBackend struct {
	wh    []float64
	c     int
	w     []float64
	work  []float64
	lanes []float64 // the frames laid out for the vector rebuild (9c), and a row block (9c more) with single
	pgs   contact.PGS
	// single keeps W in single precision from the next Load on (SetSingle):
	// w32 holds it, and w its widening only when W() asks for it.
	single, wide bool
	w32          []float32
}

// NewCPUBackend returns the reference backend.
func NewCPUBackend() *CPUBackend { return &CPUBackend{} }

// Name implements Backend.
func (b *CPUBackend) Name() string { return "cpu" }

// Load implements Backend.
func (b *CPUBackend) Load(WH []float64, c, pgsIterations int, pgsTolerance float64) error {
	if len(WH) < 9*c*c {
		return fmt.Errorf("cpu backend: W_H has %d entries, need %d for %d contacts", len(WH), 9*c*c, c)
	}
	b.wh, b.c = WH, c
	if b.single {
		b.w32 = grow(b.w32, 9*c*c)
		b.lanes = grow(b.lanes, 18*c)
	} else {
		b.w = grow(b.w, 9*c*c)
		b.lanes = grow(b.lanes, 9*c)
	}
	b.work = grow(b.work, 3*c)
	b.pgs.MaxIterations = pgsIterations
	b.pgs.Tolerance = pgsTolerance
	return nil
}

// RebuildW implements Backend.
func (b *CPUBackend) RebuildW(C []m3.Mat3) error {
	if len(C) != b.c {
		return fmt.Errorf("cpu backend: %d direction frames for %d contacts", len(C), b.c)
	}
	// The lower block triangle only (PGS reads nothing else): half the
	// products, and no transposed writes across the rows above; four
	// blocks at a time with AVX2.
	if b.single {
		b.wide = false
		return contact.RebuildWLowerSingle(b.w32, b.wh, C, b.lanes)
	}
	return contact.RebuildWLowerWork(b.w, b.wh, C, b.lanes)
}

// SetSingle implements SingleBackend: from the next Load on, W is kept in
// single precision and PGS reads it so.
func (b *CPUBackend) SetSingle(on bool) { b.single = on }

// SetPGSTolerance implements Backend.
func (b *CPUBackend) SetPGSTolerance(tol float64) { b.pgs.Tolerance = tol }

// SetBilateral implements BilateralBackend.
func (b *CPUBackend) SetBilateral(flags []bool) { b.pgs.Bilateral = flags }

// SolvePGS implements Backend.
func (b *CPUBackend) SolvePGS(deltaFree []float64, s, mu float64, lambda []float64) (contact.Result, error) {
	if b.single {
		return b.pgs.SolveSingle(b.w32, b.c, s, deltaFree, mu, lambda)
	}
	return b.pgs.Solve(b.w, b.c, s, deltaFree, mu, lambda)
}

// CorrectP implements Backend.
func (b *CPUBackend) CorrectP(p, pFree []float64, C []m3.Mat3, lambda []float64, s float64) error {
	if len(C) != b.c || len(p) < 3*b.c || len(pFree) < 3*b.c || len(lambda) < 3*b.c {
		return fmt.Errorf("cpu backend: correction sized for %d contacts got p %d, pFree %d, λ %d, C %d",
			b.c, len(p), len(pFree), len(lambda), len(C))
	}
	contact.CorrectP(p, pFree, b.wh, C, lambda, s, b.work)
	return nil
}

// W implements Backend. A W kept in single precision is widened here
// (for inspection: it allocates the first time).
func (b *CPUBackend) W() []float64 {
	if b.single && !b.wide {
		b.w = grow(b.w, len(b.w32))
		for i, v := range b.w32 {
			b.w[i] = float64(v)
		}
		b.wide = true
	}
	return b.w
}

// PGSErrors implements Backend.
func (b *CPUBackend) PGSErrors() []float64 { return b.pgs.Errors }

// States implements Backend.
func (b *CPUBackend) States() []contact.State { return b.pgs.States }

// Close implements Backend.
func (b *CPUBackend) Close() {}

// grow returns s resized to n, reusing its storage when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
