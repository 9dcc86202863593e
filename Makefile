# softgrasp — build, run and test.
#
#   make run    install system packages, build, open the demo
#   make test   install system packages, vet, test (GL tests under Xvfb)
#   make bench  the Table-1 benchmark (softgrasp bench)
#   make grasp-set  grasp and rotate every mesh of testdata/meshes
#   make viewer-fuzz    five minutes of random input to the viewer (xdotool)
#   make run-cuda       build bin/softgrasp-cuda (the GPU backend) and open
#                       the demo on it (needs an NVIDIA driver and NVRTC)
#   make cuda-test      the GPU backend's tests on the CPU stand-in (part of
#                       make test)
#   make gpu-check      the same checks and the stage benchmarks on a real GPU

SHELL := /bin/bash
GO    ?= go
BIN   := bin/softgrasp

# System packages the build and the tests need (Debian/Ubuntu names):
# CHOLMOD and OpenBLAS for the sparse solver, the X11/GL headers for GLFW,
# Xvfb and xauth for the GL tests and headless screenshots, TetGen (a
# separate program, AGPL) to fill surface meshes with tetrahedra, ffmpeg
# (and ffprobe) for the viewer's video recording (F9, -video), xdotool to
# drive the viewer's window in the random-input test.
APT_PACKAGES := gcc g++ pkg-config libsuitesparse-dev libopenblas-dev \
	libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev \
	libxxf86vm-dev libgl1-mesa-dev libgl1-mesa-dri xvfb xauth tetgen ffmpeg \
	xdotool

# The packages but the GL ones run first (the two longest, physics/scenario
# and physics, first, so that go test keeps both cores busy to the end;
# the test target below says how often and how), then the GL packages
# under Xvfb (they open a context there and skip without one), alone and
# race-built: their viewer tests count rendered frames while the physics
# loop runs in real time, and beside the physics packages one of them ran
# out of frames (TestCtrlClickGraspHoldsAndLifts).
PLAIN_PKGS = ./physics/scenario ./physics ./physics/soak $$($(GO) list ./... | grep -v -E '/(render|ui|app)($$|/)')
GL_PKGS   := ./render/... ./ui/... ./app/...

.PHONY: deps build run test bench accuracy headless clean fuzz

deps:
	@missing=""; for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all system packages present"; exit 0; fi; \
	echo "deps: installing$$missing"; \
	SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO="sudo"; \
	for i in 1 2 3 4 5 6 7 8 9 10; do \
		if $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 update -qq && \
		   $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -qq --no-install-recommends $$missing; \
		then exit 0; fi; \
		echo "deps: apt-get failed (held lock?), retry $$i in 15 s"; sleep 15; \
	done; echo "deps: could not install$$missing"; exit 1

build: deps
	$(GO) build -o $(BIN) ./app

run: build
	./$(BIN)

headless: build
	./$(BIN) headless -scenario grasp-rotate

# The tests run OpenBLAS's Haswell kernels (TEST_ENV), with which the
# golden step logs were recorded, on any processor (physics/sparse/
# blascore.go), and on one thread: with its default of one per core, its
# idle threads spin between the factorisations and take CPU time from the
# package tests that go test runs beside each other
# (TestMappedSurfaceGrasp under the race detector: 17 s of system time
# with two threads, 0.4 s with one, in 22 s). Tests that need more threads
# set them (sparse.SetBLASThreads).
TEST_ENV := OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1

# The non-GL packages run twice: every test without the race detector,
# then under it the tests that -short keeps: all but the long accuracy,
# scene and allocation runs, which are one goroutine's arithmetic, five to
# ten times slower race-built; the two long runs whose goroutines share
# data, the asynchronous solver against the exact one and the soak, run
# there too (raceBuild in their packages). Race-built throughout, the
# non-GL packages took 5 of make test's 8 minutes (physics 210 s and
# physics/scenario 186 s side by side); this way about 3. The soak (20 s
# of wall time whatever the build) and the asynchronous solver's run go
# only into the race-built pass, the soak among the first packages so that
# it runs beside physics/scenario rather than after it.
RACE_ONLY := '^(TestSoakShort|TestAsyncSolverStaysCloseToExact)$$'

# The app package's long headless runs (the golden logs, the shipped
# scenes, the bench) are one simulation's arithmetic in the test's own
# goroutine, three to seven times slower race-built (53 s against 14 s):
# they run plainly, the GL packages' race-built pass skips them; so does
# the xdotool grasp of two meshes of the set at 3000 DOFs in real time,
# which race-built falls behind real time (it runs under Xvfb with them).
# The app's other tests (the viewers, the signals, record and replay)
# stay race-built.
APP_PLAIN := '^(TestHeadlessGolden|TestShippedScenes|TestBenchScale|TestHeadlessGraspsAYUpMesh|TestBenchQuickJSON|TestBenchStack|TestCtrlClickGraspsALoadedMesh|TestFlatStarSetDownInTheLoop)$$'

test: deps
	$(GO) vet ./...
	$(TEST_ENV) SOFTGRASP_REQUIRE_TETGEN=1 $(GO) test -count=1 -skip $(RACE_ONLY) $(PLAIN_PKGS)
	$(TEST_ENV) SOFTGRASP_REQUIRE_TETGEN=1 $(GO) test -count=1 -race -short $(PLAIN_PKGS)
	$(TEST_ENV) SOFTGRASP_REQUIRE_TETGEN=1 SOFTGRASP_REQUIRE_XDOTOOL=1 xvfb-run -a -s "-screen 0 1920x1080x24" $(GO) test -count=1 -run $(APP_PLAIN) ./app
	$(TEST_ENV) SOFTGRASP_REQUIRE_XDOTOOL=1 xvfb-run -a -s "-screen 0 1920x1080x24" $(GO) test -count=1 -race -skip $(APP_PLAIN) $(GL_PKGS)
	$(MAKE) --no-print-directory cuda-test

bench: build
	./$(BIN) bench

# flags: write docs/flags.md, the flag reference, from the commands' flags
# and the parameter table (make test fails when it is stale).
.PHONY: flags
flags:
	SOFTGRASP_WRITE_FLAGS=1 $(GO) test -count=1 -run '^TestFlagReferenceIsCurrent$$' ./app

# bench-scale: how the step grows with the DOFs (1k-36k, h = 10 and 20 ms,
# asynchronous solver, over the spin), a few minutes.
.PHONY: bench-scale
bench-scale: build
	./$(BIN) bench -scale -csv docs/scale.csv -plot docs/scale.png

# grasp-set: the grasp-and-rotate script on every mesh of testdata/meshes,
# three runs with each solver, a verdict a file (docs/grasp-set.md), about
# fifteen minutes on two cores.
.PHONY: grasp-set
grasp-set: build
	./$(BIN) grasp-set

# viewer-fuzz: the viewer under five minutes of random mouse, keyboard and
# window input (xdotool under Xvfb); make test runs 20 s of it.
# VIEWER_FUZZ_SEED=N repeats a sequence.
.PHONY: viewer-fuzz
viewer-fuzz: deps
	SOFTGRASP_REQUIRE_XDOTOOL=1 SOFTGRASP_VIEWER_FUZZ=5m SOFTGRASP_VIEWER_FUZZ_SEED=$(VIEWER_FUZZ_SEED) \
		xvfb-run -a -s "-screen 0 1920x1080x24" $(GO) test -count=1 -timeout 20m -run '^TestViewerUnderRandomInput$$' -v ./app

# accuracy: the grasp-and-spin grid against a fine-step reference (about
# half an hour on two cores; ACCURACY_FLAGS=-quick for a one-minute run).
accuracy: build
	./$(BIN) accuracy $(ACCURACY_FLAGS)

# The mesh readers' fuzzers, one at a time (-fuzz takes one target). The
# minimisation of each new input is capped so that it does not take the
# whole minute.
FUZZ_TARGETS := FuzzGmsh FuzzVTK FuzzVTKXML FuzzSTL FuzzOBJ FuzzTetGenOutput

fuzz:
	for f in $(FUZZ_TARGETS); do \
		$(GO) test ./physics/meshfile -run '^$$' -fuzz "^$$f\$$" -fuzztime 60s -fuzzminimizetime 10s || exit 1; \
	done
	$(GO) test ./physics/record -run '^$$' -fuzz '^FuzzRead$$' -fuzztime 60s -fuzzminimizetime 10s
	$(GO) test ./physics/scenefile -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 60s -fuzzminimizetime 10s
	$(GO) test ./app -run '^$$' -fuzz '^FuzzSceneFile$$' -fuzztime 60s -fuzzminimizetime 10s

# cuda-build: vet and build the GPU backend (-tags cuda) on a machine without
# a GPU or a CUDA install, then compile its kernels to PTX with NVRTC as a
# check. The CUDA headers, link stubs and NVRTC library come from Debian 12's
# non-free packages, downloaded once into $(CUDA_CACHE) with a private apt
# configuration (cuda/scripts/fetch-cuda-dev.sh; the system's apt sources are
# not changed). Binaries built with -tags cuda need an NVIDIA driver to start.
CUDA_CACHE ?= .cache/cuda

.PHONY: cuda-build
cuda-build:
	bash cuda/scripts/fetch-cuda-dev.sh "$(CUDA_CACHE)"
	cache=$$(cd "$(CUDA_CACHE)" && pwd); \
	export CGO_CFLAGS="-I$$cache/include" CGO_LDFLAGS="-L$$cache/stubs"; \
	$(GO) vet -tags cuda ./cuda/... ./app/ && \
	$(GO) build -tags cuda ./... && \
	$(GO) build -tags cuda -o $(BIN)-cuda ./app && \
	LD_LIBRARY_PATH="$$cache/lib" $(GO) test -tags cuda -count=1 ./cuda/kernels/

# cuda-test: the GPU backend end to end on a machine without a GPU. The
# stand-in (cuda/standin/build.sh) is a libcuda.so.1 and a libcublas.so.11
# that run the driver calls and cuBLAS routines the backend makes on the
# host, and the kernels' own pgs.cu compiled for the host; the kernel is
# still compiled to PTX by the real NVRTC and loaded as a module. It runs
# the cuda-tagged tests (the shared backend suite against the GPU backend,
# the NVRTC compile checks; the backend suite again with every CUDA thread
# an OS thread), then a headless run of bin/softgrasp-cuda on
# -backend gpu against the same run on -backend cpu, and fails on any
# difference above 1e-9 relative, and the same for the hanging scene (its
# attachments to a dynamic body solved as bilateral rows in the kernel);
# then that without a device -backend gpu
# falls back to the CPU instead of exiting; last, the viewer under Xvfb on
# -backend gpu, whose summary must report the device's kernel and transfer
# times (CPU emulation on the stand-in, not GPU timings). The OS-thread
# suite, which mostly waits on its barriers, runs beside the end-to-end
# runs (cuda/scripts/cuda-test.sh). The headers and stubs are found through
# C_INCLUDE_PATH and LIBRARY_PATH rather than CGO_CFLAGS and CGO_LDFLAGS,
# which would be part of every cgo package's build-cache key and rebuild
# GLFW and ImGui for nothing.
STANDIN    ?= .cache/standin

.PHONY: cuda-test run-cuda
cuda-test:
	GO=$(GO) bash cuda/scripts/cuda-test.sh "$(CUDA_CACHE)" "$(STANDIN)" "$(BIN)"

# run-cuda: the demo on the GPU backend. The build takes CUDA 11.8's headers
# from $(CUDA_CACHE) and links against stubs named after the cuBLAS and
# NVRTC installed here, of any version (cuda/scripts/link-stubs.sh); at run
# time the system's NVIDIA driver (libcuda.so.1), cuBLAS and NVRTC are used.
# Measured this way on an H200 with CUDA 13.0 (docs/gpu.md).
# SYSTEM_CUDA_ENV begins a recipe line of run-cuda and gpu-check: CUDA
# 11.8's headers from $(CUDA_CACHE) and the link stubs named after this
# machine's cuBLAS and NVRTC, exported for the cgo builds that follow.
SYSTEM_CUDA_ENV = bash cuda/scripts/fetch-cuda-dev.sh "$(CUDA_CACHE)" && \
	cache=$$(cd "$(CUDA_CACHE)" && pwd) && \
	stubs=$$(bash cuda/scripts/link-stubs.sh "$$cache" "$$cache/system-stubs") && \
	export C_INCLUDE_PATH="$$cache/include" LIBRARY_PATH="$$stubs"

run-cuda: deps
	$(SYSTEM_CUDA_ENV) && $(GO) build -tags cuda -o $(BIN)-cuda ./app
	./$(BIN)-cuda -backend gpu

# gpu-check: on a machine with an NVIDIA GPU, the backend's checks and
# benchmarks on the device (cuda/scripts/gpu-check.sh; results under
# .cache/gpu-check). make cuda-test runs on the CPU stand-in instead.
GPU_CHECK := .cache/gpu-check
.PHONY: gpu-check
gpu-check: deps
	$(SYSTEM_CUDA_ENV) && \
	mkdir -p $(GPU_CHECK)/bin && \
	$(GO) build -tags cuda -o $(GPU_CHECK)/bin/softgrasp-cuda ./app && \
	$(GO) test -c -tags cuda -o $(GPU_CHECK)/bin/cuda.test ./cuda && \
	$(GO) test -c -tags cuda -o $(GPU_CHECK)/bin/kernels.test ./cuda/kernels && \
	$(GO) test -c -o $(GPU_CHECK)/bin/physics.test ./physics && \
	$(GO) build -o $(GPU_CHECK)/bin/compare-runs cuda/scripts/compare-runs.go && \
	bash cuda/scripts/gpu-check.sh $(GPU_CHECK)/bin $(GPU_CHECK)/out

clean:
	rm -rf bin
