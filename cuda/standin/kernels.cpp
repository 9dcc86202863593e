// kernels.cpp — the device code of cuda/kernels, compiled for the host
// through shim.h, and the table of its entry points that the stand-in's
// cuModuleGetFunction looks up by name.
#include "shim.h"

#include "../kernels/pgs.cu"

extern "C" const sg_kernel sg_kernels[] = {
    SG_KERNEL(pgs_solve),
    {nullptr, nullptr},
};
