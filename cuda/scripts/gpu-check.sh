#!/usr/bin/env bash
# gpu-check.sh BIN OUT — the GPU backend's checks and benchmarks on a real
# device (docs/gpu.md, "Measured on a GPU"), from the repository root.
# BIN holds softgrasp-cuda, cuda.test, kernels.test, physics.test and
# compare-runs, built with -tags cuda against link-stubs.sh's stubs (make
# gpu-check builds them); every output is written under OUT. The CPU-only
# reference benchmarks run beside the device ones, on other cores.
# Environment: GPU_CHECK_MESH, a surface mesh to compare on both backends
# (none: that check is left out); GPU_CHECK_SIZES, the Table-1 sizes
# (3000,18000); GPU_CHECK_BENCHTIME, each stage benchmark's time (1s);
# GPU_CHECK_NCU=0 leaves out Nsight Compute.
set -u
bin=$(cd "${1:?usage: gpu-check.sh BIN OUT}" && pwd)
out=${2:?usage: gpu-check.sh BIN OUT}
mkdir -p "$out" && out=$(cd "$out" && pwd)
t0=$(date +%s)
step() { echo; echo "=== [$(($(date +%s) - t0)) s] $*"; }
fail=0

step machine
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv || fail=1
nproc; grep -m1 'model name' /proc/cpuinfo

step "NVRTC compile checks"
(cd cuda/kernels && "$bin/kernels.test" -test.v -test.count=1 >"$out/kernels.txt" 2>&1) || fail=1
grep -a -E -e '--- ' "$out/kernels.txt"

step "the shared backend suite on the device"
(cd cuda && "$bin/cuda.test" -test.v -test.count=1 -test.run Conformance >"$out/conformance.txt" 2>&1) || fail=1
grep -a -E -e 'device:|--- ' "$out/conformance.txt"

# both NAME ARGS… runs softgrasp-cuda ARGS… on -backend cpu (beside, on
# other cores) and on -backend gpu, writing NAME-cpu.json and
# NAME-gpu.json, and compares the two (compare-runs -tol 1e-9).
both() {
	local name=$1 cpu
	shift
	"$bin/softgrasp-cuda" "$@" -backend cpu >"$out/$name-cpu.json" &
	cpu=$!
	"$bin/softgrasp-cuda" "$@" -backend gpu >"$out/$name-gpu.json" || fail=1
	wait $cpu || fail=1
	"$bin/compare-runs" -tol 1e-9 "$out/$name-cpu.json" "$out/$name-gpu.json" || fail=1
}

step "headless grasp-rotate, 150 steps, -backend cpu against -backend gpu"
both e2e headless -json -lambda -scenario grasp-rotate -steps 150

step "hanging.toml, 100 steps (attachments to a dynamic body: bilateral rows in the kernel), -backend cpu against -backend gpu"
both held headless -json -lambda -scene assets/scenes/hanging.toml -steps 100

step "the asynchronous solver (-async-lag 3: the same steps get the same factor), grasp-rotate, 150 steps, -backend cpu against -backend gpu"
# -pgs-single-from 0: the CPU backend keeps W in double too in the steps of
# 250 pairs or more (the device backend always does), so that both solve
# the same problem.
both async headless -json -lambda -scenario grasp-rotate -steps 150 -solver async -async-lag 3 -pgs-single-from 0

if [ -n "${GPU_CHECK_MESH:-}" ]; then
	step "a surface mesh mapped onto the coarse FE mesh ($GPU_CHECK_MESH: four nodes per pair in H), 150 steps, -backend cpu against -backend gpu"
	both mesh headless -json -lambda -mesh "$GPU_CHECK_MESH" -steps 150
fi

step "no visible device: the app falls back to the CPU"
CUDA_VISIBLE_DEVICES= "$bin/softgrasp-cuda" headless -backend gpu -steps 1 2>&1 >/dev/null |
	grep "falling back to the CPU" || fail=1

step "stage benchmarks on the same problems: CPU reference and device"
(cd physics && "$bin/physics.test" -test.run '^$' -test.bench CPUBackend -test.benchtime ${GPU_CHECK_BENCHTIME:-1s} >"$out/stages-cpu.txt" 2>&1) &
cpu=$!
(cd cuda && "$bin/cuda.test" -test.run '^$' -test.bench GPUBackend -test.benchtime ${GPU_CHECK_BENCHTIME:-1s} >"$out/stages-gpu.txt" 2>&1) || fail=1
wait $cpu || fail=1
grep -h '^Benchmark' "$out"/stages-*.txt | sort

step "Table-1 bench, both backends"
b="bench -threads 1 -sizes ${GPU_CHECK_SIZES:-3000,18000} -steps 3"
"$bin/softgrasp-cuda" $b -backend cpu -csv "$out/bench-cpu.csv" >"$out/bench-cpu.md" 2>/dev/null &
cpu=$!
"$bin/softgrasp-cuda" $b -backend gpu -csv "$out/bench-gpu.csv" >"$out/bench-gpu.md" 2>/dev/null || fail=1
wait $cpu || fail=1
cat "$out/bench-cpu.md" "$out/bench-gpu.md"

if [ "${GPU_CHECK_NCU:-1}" != 0 ] && command -v ncu >/dev/null; then
	step "Nsight Compute on pgs_solve"
	ncu --clock-control none -k pgs_solve -s 50 -c 3 "$bin/softgrasp-cuda" headless -backend gpu \
		-scenario grasp-rotate -steps 80 >"$out/ncu.txt" 2>&1 || fail=1
	grep -E 'Duration|Registers Per|Achieved Occupancy|Compute \(SM\) Th' "$out/ncu.txt"
fi
step "done (failures: $fail)"
exit $fail
