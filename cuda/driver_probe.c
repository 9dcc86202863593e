//go:build cuda

// The CUDA driver's initialisation, taken over before gorgonia.org/cu's
// init() sees it: cu calls cuInit(0) in its package initialisation and
// exits the process when the call fails (no device, a driver older than
// the library, no kernel module). This definition of cuInit, in the
// executable, is the one cu's reference binds to: it calls the driver's
// own cuInit through dlopen/dlsym, records the result, and reports
// success to cu, so that the process goes on and the backend's
// constructor (gpu.go) returns the recorded failure as an error.
//
// A system without libcuda.so.1 at all is refused earlier, by the dynamic
// loader, because cu links the library: that is why the default build has
// no CUDA.
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>

static CUresult sg_init_result = CUDA_ERROR_NOT_INITIALIZED;
static char sg_init_error[256] = "cuInit was not called";

CUresult cuInit(unsigned int flags)
{
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) {
        lib = dlopen("libcuda.so.1", RTLD_NOW);
    }
    if (!lib) {
        snprintf(sg_init_error, sizeof sg_init_error, "dlopen libcuda.so.1: %s", dlerror());
        return CUDA_SUCCESS;
    }
    CUresult (*init)(unsigned int) = (CUresult(*)(unsigned int))dlsym(lib, "cuInit");
    if (!init) {
        snprintf(sg_init_error, sizeof sg_init_error, "libcuda.so.1 has no cuInit");
        return CUDA_SUCCESS;
    }
    sg_init_result = init(flags);
    if (sg_init_result == CUDA_SUCCESS) {
        sg_init_error[0] = 0;
        return CUDA_SUCCESS;
    }
    const char* name = "unknown";
    const char* text = "";
    CUresult (*errName)(CUresult, const char**) = (CUresult(*)(CUresult, const char**))dlsym(lib, "cuGetErrorName");
    CUresult (*errText)(CUresult, const char**) = (CUresult(*)(CUresult, const char**))dlsym(lib, "cuGetErrorString");
    if (errName) {
        errName(sg_init_result, &name);
    }
    if (errText) {
        errText(sg_init_result, &text);
    }
    snprintf(sg_init_error, sizeof sg_init_error, "cuInit: %s (%d) %s", name ? name : "", (int)sg_init_result, text ? text : "");
    return CUDA_SUCCESS;
}

// sg_driver_error is empty when the driver initialised, else why not.
const char* sg_driver_error(void) { return sg_init_error; }
