#!/usr/bin/env bash
# build.sh CUDA_CACHE OUT — build the CPU stand-in for the CUDA driver and
# cuBLAS into OUT: libcuda.so.1 and libcublas.so.NN, named and versioned as
# the link stubs in CUDA_CACHE/stubs are (fetch-cuda-dev.sh), so that a
# binary built with -tags cuda against those stubs runs on them when
# LD_LIBRARY_PATH puts OUT first. The kernels' .cu sources are compiled
# for the host through shim.h into libcuda.so.1.
#
# Each library exports every function of its stub: the ones written here
# (driver.cpp, cublas.cpp), and, generated below, all others, which return
# CUDA_ERROR_NOT_SUPPORTED (801) or CUBLAS_STATUS_NOT_SUPPORTED (15).
set -euo pipefail

cache=${1:?usage: build.sh CUDA_CACHE OUT}
out=${2:?usage: build.sh CUDA_CACHE OUT}
src=$(cd "$(dirname "$0")" && pwd)
cache=$(cd "$cache" && pwd)
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)
obj=$out/obj
CXX=${CXX:-g++}
CC=${CC:-gcc}
cxxflags=(-std=c++17 -O2 -g -fPIC -ftls-model=initial-exec -ffp-contract=off -Wall -Wno-unused-function -I"$cache/include" -I"$src")

soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }

# unimplemented LIB CODE IMPL.o... writes the C file of LIB's functions
# that none of the objects defines, each returning CODE.
unimplemented() {
	local lib=$1 code=$2
	shift 2
	nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sed 's/@.*//' | sort -u >"$obj/all.txt"
	nm --defined-only "$@" | awk '$2 == "T" { print $3 }' | sort -u >"$obj/impl.txt"
	comm -23 "$obj/all.txt" "$obj/impl.txt" | awk -v code="$code" '{ printf "int %s(void) { return %s; }\n", $1, code }'
}

for f in block kernels driver cublas; do
	"$CXX" "${cxxflags[@]}" -c "$src/$f.cpp" -o "$obj/$f.o"
done

# The driver, with the kernels.
cuda_so=$(soname "$cache/stubs/libcuda.so")
unimplemented "$cache/stubs/libcuda.so" 801 "$obj/driver.o" >"$obj/cuda_unimplemented.c"
"$CC" -O1 -fPIC -w -c "$obj/cuda_unimplemented.c" -o "$obj/cuda_unimplemented.o"
"$CXX" -shared -Wl,-soname,"$cuda_so" -o "$out/$cuda_so" \
	"$obj/driver.o" "$obj/block.o" "$obj/kernels.o" "$obj/cuda_unimplemented.o" -lm
ln -sf "$cuda_so" "$out/libcuda.so"

# cuBLAS, on OpenBLAS and the driver's memory; its symbols carry the stub's
# version (e.g. libcublas.so.11), which the binaries' references name.
blas_so=$(soname "$cache/stubs/libcublas.so")
unimplemented "$cache/stubs/libcublas.so" 15 "$obj/cublas.o" >"$obj/cublas_unimplemented.c"
"$CC" -O1 -fPIC -w -c "$obj/cublas_unimplemented.c" -o "$obj/cublas_unimplemented.o"
version=()
if readelf -V "$cache/stubs/libcublas.so" | grep -q "Version definition"; then
	printf '%s { global: *; };\n' "$blas_so" >"$obj/cublas.map"
	version=(-Wl,--version-script="$obj/cublas.map")
fi
"$CXX" -shared -Wl,-soname,"$blas_so" "${version[@]}" -o "$out/$blas_so" \
	"$obj/cublas.o" "$obj/cublas_unimplemented.o" -L"$out" -l:"$cuda_so" -lopenblas
ln -sf "$blas_so" "$out/libcublas.so"
echo "cuda stand-in: $out/$cuda_so, $out/$blas_so"
