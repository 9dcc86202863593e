//go:build cuda

package main

import (
	"softgrasp/cuda"
	"softgrasp/physics"
)

// gpuAvailable reports that this binary has the CUDA backend.
const gpuAvailable = true

// newGPUBackend opens the CUDA backend on device 0.
func newGPUBackend() (physics.Backend, error) { return cuda.New(cuda.Options{}) }
