package kernels

import "fmt"

// fallbackArchs are the virtual architectures tried after the device's
// own, newest first: an NVRTC older than the device rejects its
// architecture, and the driver compiles PTX of an older virtual
// architecture for any newer device (forward compatibility). 5.2 is the
// oldest that CUDA 11 and 12 both accept (CUDA 13's NVRTC refuses all
// below 7.5, which only shortens the list it can use); the kernels need
// nothing newer than __syncwarp (3.0).
var fallbackArchs = [][2]int{{8, 0}, {7, 5}, {7, 0}, {6, 0}, {5, 2}}

// ArchCandidates returns the NVRTC --gpu-architecture values to try for a
// device of compute capability major.minor, best first: its own virtual
// architecture, then the fallbacks that are not newer than it. It returns
// an error for a capability below the oldest fallback.
func ArchCandidates(major, minor int) ([]string, error) {
	oldest := fallbackArchs[len(fallbackArchs)-1]
	if major < 0 || minor < 0 || major*10+minor < oldest[0]*10+oldest[1] {
		return nil, fmt.Errorf("compute capability %d.%d: the kernels need %d.%d or newer", major, minor, oldest[0], oldest[1])
	}
	archs := []string{arch(major, minor)}
	for _, f := range fallbackArchs {
		if f[0]*10+f[1] < major*10+minor {
			archs = append(archs, arch(f[0], f[1]))
		}
	}
	return archs, nil
}

// arch is the virtual architecture name of compute capability major.minor.
func arch(major, minor int) string { return fmt.Sprintf("compute_%d%d", major, minor) }

// CompileOptions are the NVRTC options for the virtual architecture a.
// --fmad=false keeps every floating-point operation rounded on its own,
// as Go's are: the only fused multiply-adds are the kernels' explicit
// fma() calls, as the CPU stand-in compiles the same source (g++ -ffp-contract=off).
func CompileOptions(a string) []string {
	return []string{"--gpu-architecture=" + a, "--fmad=false"}
}
