// shim.h — the CUDA C dialect of cuda/kernels, compiled for the host.
//
// The stand-in driver (driver.cpp) runs the kernels' own .cu sources,
// compiled by g++ with this header first: the qualifiers become plain C++,
// __shared__ variables become per-launch statics, and the built-ins
// (threadIdx, blockIdx, blockDim, gridDim, __syncthreads, __syncwarp,
// atomicMin, atomicAdd) are served by block.cpp, which runs every CUDA
// thread of a block as a host thread of its own: a user-level thread (its
// own stack and registers) switched at barriers, or an OS thread
// (SOFTGRASP_STANDIN_THREADS=os). A block therefore executes with the
// semantics of CUDA's independent thread scheduling: any interleaving
// between two barriers is allowed, and each mode runs some of them.
//
// Rounding: compiled with -ffp-contract=off, as NVRTC compiles with
// --fmad=false, so the only fused multiply-adds are the explicit fma().
#pragma once

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
// The stand-in runs one launch at a time in the process, block after
// block, so a static is the block's shared memory (in both of block.cpp's
// modes: user-level threads on the launching thread, or OS threads).
#define __shared__ static

struct sg_dim3 {
    unsigned x, y, z;
};

// The block being run on this host thread, and the CUDA thread in it.
struct sg_block;
extern thread_local sg_block* sg_current_block;
extern thread_local int sg_current_thread;

extern "C++" {
const sg_dim3& sg_thread_idx();
const sg_dim3& sg_block_idx();
const sg_dim3& sg_block_dim();
const sg_dim3& sg_grid_dim();
void __syncthreads();
void __syncwarp(unsigned mask);
int atomicMin(int* address, int val);
int atomicAdd(int* address, int val);
}

#define threadIdx (sg_thread_idx())
#define blockIdx (sg_block_idx())
#define blockDim (sg_block_dim())
#define gridDim (sg_grid_dim())

// The kernels' entry points, by name, with a thunk that unpacks the
// parameter array of cuLaunchKernel (kernelParams[i] points at parameter
// i) into a call, as the driver does.
struct sg_kernel {
    const char* name;
    void (*call)(void** params);
};

#include <utility>

template <typename... A, size_t... I>
void sg_unpack(void (*k)(A...), void** p, std::index_sequence<I...>)
{
    k(*static_cast<A*>(p[I])...);
}

template <typename... A>
void sg_call(void (*k)(A...), void** p)
{
    sg_unpack(k, p, std::index_sequence_for<A...>{});
}

#define SG_KERNEL(k) \
    sg_kernel { #k, [](void** p) { sg_call(k, p); } }
