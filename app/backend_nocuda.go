//go:build !cuda

package main

import (
	"errors"

	"softgrasp/physics"
)

// gpuAvailable reports that this binary has the CUDA backend.
const gpuAvailable = false

// newGPUBackend reports that this build has no CUDA backend.
func newGPUBackend() (physics.Backend, error) {
	return nil, errors.New("this binary is built without CUDA; make run-cuda builds bin/softgrasp-cuda")
}
