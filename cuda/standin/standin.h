// standin.h — what the parts of the stand-in driver share.
#pragma once

#include "shim.h"

#include <stddef.h>

// sg_kernels is the table of kernels.cpp, ended by a null name.
extern "C" const sg_kernel sg_kernels[];

// sg_run_grid runs call(params) as a grid of blocks on this host thread;
// −1 for a block size CUDA rejects or no memory for the stacks.
int sg_run_grid(void (*call)(void**), void** params, sg_dim3 grid, sg_dim3 block);

// sg_device_span reports that [p, p+bytes) lies in one live allocation of
// the stand-in's device memory. Exported for the cuBLAS stand-in.
extern "C" int sg_device_span(const void* p, size_t bytes);
