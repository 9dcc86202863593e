package sparse

/*
#include "cholmod_glue.h"
*/
import "C"

// The dense blocks of the factorisation and of the compliance run in
// OpenBLAS, which chooses its kernels for the processor once, when the
// library is loaded, from OPENBLAS_CORETYPE or else from the processor's
// model number. Two things follow. Kernels for different cores sum in
// different orders, so the same run gives results that differ in the last
// digits from one machine to another (the golden step logs, the replay
// checksums and the exact checksums in the docs no longer match); and a
// processor newer than the installed OpenBLAS is run on its generic SSE3
// kernels (Debian 12's OpenBLAS 0.3.21 on an Intel Xeon of model 207, an
// Emerald Rapids: "Prescott", on which the exact solver ran the default
// grasp about 30 % slower: real-time factor 0.31–0.36 against 0.46–0.52,
// four alternating runs each).
//
// So every program that links this package runs OpenBLAS's Haswell
// kernels on any x86-64 processor with AVX2 and FMA, unless the
// environment already sets OPENBLAS_CORETYPE (which then rules): the
// package's init (blascore_linux_amd64.go) starts the program again, once,
// with the variable set, before main or any test runs. Haswell's kernels
// run on every such processor, Intel's and AMD's; on that Xeon the
// AVX-512 ones (SkylakeX) were no faster within the noise (0.46–0.57 in
// the same alternating runs).
const pinnedCore = "Haswell"

// BLASCore returns the name of the kernels OpenBLAS runs in this process
// ("Haswell", "SkylakeX", "Prescott", …).
func BLASCore() string {
	return C.GoString(C.sg_blas_core())
}
