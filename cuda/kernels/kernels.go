// Package kernels holds the CUDA C source of the GPU backend's device code,
// embedded in the binary so that the backend compiles it at run time with
// NVRTC for the device it finds (no nvcc at build time, no prebuilt
// binaries).
//
// The source is plain data in every build; only compile.go, built with the
// cuda tag, calls NVRTC. This package never imports gorgonia.org/cu, whose
// init() needs a driver, so its cuda-tagged test compiles the kernels on
// any machine that has the NVRTC library, GPU or not.
package kernels

import _ "embed"

// PGS is the CUDA C source of the projected Gauss–Seidel kernel, pgs.cu.
//
//go:embed pgs.cu
var PGS string

// PGSEntry is the name of the PGS kernel's entry point (extern "C", so
// not mangled).
const PGSEntry = "pgs_solve"

// PGSName is the file name NVRTC reports in its diagnostics.
const PGSName = "pgs.cu"
