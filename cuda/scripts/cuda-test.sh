#!/usr/bin/env bash
# cuda-test.sh CUDA_CACHE STANDIN BIN — the GPU backend end to end on a
# machine without a GPU (make cuda-test; the Makefile says what each check
# is and why). Run from the repository root; BIN is the CPU build's path,
# BIN-cuda the one built here.
set -euo pipefail
cache=${1:?usage: cuda-test.sh CUDA_CACHE STANDIN BIN}
standin=${2:?usage: cuda-test.sh CUDA_CACHE STANDIN BIN}
bin=${3:?usage: cuda-test.sh CUDA_CACHE STANDIN BIN}-cuda
go=${GO:-go}
start=$(date +%s)

bash cuda/scripts/fetch-cuda-dev.sh "$cache"
bash cuda/standin/build.sh "$cache" "$standin"
cache=$(cd "$cache" && pwd)
standin=$(cd "$standin" && pwd)
export C_INCLUDE_PATH="$cache/include" LIBRARY_PATH="$cache/stubs"
$go vet -tags cuda ./cuda/... ./app/
$go build -tags cuda -o "$bin" ./app
export LD_LIBRARY_PATH="$standin:$cache/lib"
$go test -tags cuda -count=1 ./cuda/...

# The backend suite again with every CUDA thread an OS thread. It waits on
# the barriers' futexes most of its ~20 s (about 4 s of CPU time), so it
# runs beside the end-to-end runs below, on the other core; its output is
# shown when they are done.
oslog=$standin/os-threads.log
SOFTGRASP_STANDIN_THREADS=os $go test -tags cuda -count=1 -run Conformance ./cuda/ >"$oslog" 2>&1 &
os_pid=$!
trap 'kill "$os_pid" 2>/dev/null || true' EXIT

# compare NAME ARGS...: a headless run on each backend, which must agree to
# 1e-9 relative.
compare() {
	local name=$1
	shift
	"$bin" "$@" -backend cpu >"$standin/$name-cpu.json"
	"$bin" "$@" -backend gpu >"$standin/$name-gpu.json"
	$go run cuda/scripts/compare-runs.go -tol 1e-9 "$standin/$name-cpu.json" "$standin/$name-gpu.json"
}
compare e2e headless -json -lambda -scenario grasp-rotate -steps 150
compare held headless -json -lambda -scene assets/scenes/hanging.toml -steps 100

# Without a device, -backend gpu falls back to the CPU instead of exiting.
SOFTGRASP_STANDIN_NO_DEVICE=1 "$bin" headless -backend gpu -steps 1 2>&1 >/dev/null |
	grep "falling back to the CPU"

# The viewer on the GPU backend: its summary reports the device's kernel
# and transfer times (the stand-in's CPU emulation, not GPU timings).
xvfb-run -a -s "-screen 0 1280x800x24" "$bin" -backend gpu -frames 30 >"$standin/viewer.log" 2>&1
grep "backend gpu; last step on the device: kernels" "$standin/viewer.log"

status=0
wait "$os_pid" || status=$?
trap - EXIT
cat "$oslog"
if [ "$status" -ne 0 ]; then
	echo "cuda-test: the backend suite on OS threads failed (exit $status)"
	exit 1
fi
echo "cuda-test: passed in $(($(date +%s) - start)) s"
