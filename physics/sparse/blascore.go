package sparse

/*
#include "cholmod_glue.h"
*/
import "C"

// The dense blocks of the factorisation and of the compliance run in
// OpenBLAS, which chooses its kernels for the processor once, when the
// library is loaded, from OPENBLAS_CORETYPE or else from the processor's
// model number. A processor newer than the installed OpenBLAS gets its
// generic SSE3 kernels: Debian 12's OpenBLAS 0.3.21 on an Intel Xeon of
// model 207 (an Emerald Rapids, with AVX-512) chose "Prescott", on which
// the exact solver ran the default grasp about 30 % slower (real-time
// factor 0.31–0.36 against 0.46–0.52 with the Haswell kernels, four
// alternating runs each) and the compliance kernel at 18k DOFs took 1.45×
// as long as with the AVX-512 kernels ("SkylakeX": Build W_H 65 against
// 94 ms on one thread, 49 against 60 on two).
//
// So every program that links this package checks OpenBLAS's choice at
// start (blascore_linux_amd64.go): on an x86-64 processor with AVX2 and
// FMA whose chosen kernels use neither, it starts the program again, once,
// with OPENBLAS_CORETYPE set to avxCore (AVX2) or avx512Core (AVX-512 F,
// BW, VL and DQ as well), before main or any test runs. A variable set by
// the caller always rules.
//
// Kernels for different cores sum in different orders, so results differ
// in the last digits between machines that run different kernels: the
// golden step logs were recorded with the Haswell kernels, which make
// test asks for on every machine (OPENBLAS_CORETYPE=Haswell); the
// checksums in the docs come from them too.
const (
	avxCore    = "Haswell"
	avx512Core = "SkylakeX"
)

// vectorCores are the OpenBLAS kernels that use AVX2 or AVX-512: a
// processor with AVX2 and FMA that gets none of them gets generic ones.
var vectorCores = []string{"Haswell", "Zen", "SkylakeX", "Cooperlake", "SapphireRapids"}

// BLASCore returns the name of the kernels OpenBLAS runs in this process
// ("Haswell", "SkylakeX", "Prescott", …).
func BLASCore() string {
	return C.GoString(C.sg_blas_core())
}
