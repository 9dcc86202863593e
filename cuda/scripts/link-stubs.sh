#!/usr/bin/env bash
# link-stubs.sh CACHE OUT — link stubs for building the GPU backend against
# the cuBLAS and NVRTC that this machine has, whatever their version.
#
# CACHE/stubs (fetch-cuda-dev.sh) holds CUDA 11.8's link stubs: a binary
# linked against them asks for libcublas.so.11 and libnvrtc.so.11.2 by name
# and does not start where only CUDA 12's or 13's libraries are installed.
# For each of libcublas and libnvrtc found on this machine (ldconfig's
# cache, $CUDA_HOME or /usr/local/cuda), OUT gets a stub of the same
# SONAME whose symbols are the 11.8 stub's, unversioned: the binary then
# names the installed library, and each unversioned reference binds to the
# library's default version of the symbol. The calls the backend makes
# (cublasCreate_v2, cublasSetStream_v2, cublasDgemmStridedBatched,
# cublasDsymv_v2, nvrtcCreateProgram, nvrtcCompileProgram, nvrtcGetPTX, …)
# have kept their signatures from CUDA 11 to 13; the driver API (libcuda.so.1)
# is backward compatible by NVIDIA's rule and keeps the 11.8 stub. Without
# an installed library, the 11.8 stub is copied as it is. Prints OUT.
set -euo pipefail
cache=${1:?usage: link-stubs.sh CACHE OUT}
out=${2:?usage: link-stubs.sh CACHE OUT}
mkdir -p "$out"
cp -f "$cache/stubs/libcuda.so" "$out/"
roots=("${CUDA_HOME:-/usr/local/cuda}/lib64" "${CUDA_HOME:-/usr/local/cuda}/targets/x86_64-linux/lib")
for lib in libcublas libnvrtc; do
	found=$( { ldconfig -p 2>/dev/null | awk '{print $NF}'; for r in "${roots[@]}"; do ls "$r"/$lib.so.* 2>/dev/null || true; done; } |
		grep -E "/$lib\.so\.[0-9]+(\.[0-9]+)?$" | sort -V | tail -1 || true)
	if [ -z "$found" ]; then
		cp -f "$cache/stubs/$lib.so" "$out/"
		echo "link-stubs: no $lib installed; linking CUDA 11.8's stub" >&2
		continue
	fi
	soname=$(basename "$found")
	nm -D --defined-only "$cache/stubs/$lib.so" | awk '$2 ~ /^[TW]$/ {sub(/@.*/, "", $3); print "void " $3 "(void) {}"}' |
		sort -u >"$out/$lib.c"
	gcc -shared -fPIC -Wl,-soname,"$soname" -o "$out/$lib.so" "$out/$lib.c"
	rm -f "$out/$lib.c"
	echo "link-stubs: $lib linked as $soname ($found)" >&2
done
cd "$out" && pwd
