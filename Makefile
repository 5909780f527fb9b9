# Convenience wrapper around the CMake build. Every target does its own set-up, so on a fresh
# Debian 12 machine `make demo` or `make test` alone is enough.
BUILD_DIR ?= build
ASAN_DIR  ?= build-asan
FUZZ_DIR  ?= build-fuzz
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_ARGS ?=

# No "Entering/Leaving directory" lines from the makes CMake runs underneath.
MAKEFLAGS += --no-print-directory

.PHONY: all setup setup-fuzz build demo test test-asan test-slurm fuzz fuzz-streams bench clean

all: build

setup:
	@./scripts/setup-debian.sh

setup-fuzz:
	@./scripts/setup-debian.sh fuzz

build: setup
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# The demo's build shows one line of progress (its output goes to $(BUILD_DIR)/build.log), so
# the report is on the first screen.
demo: setup
	@./scripts/quiet-build.sh $(BUILD_DIR) $(JOBS)
	@./scripts/demo.sh $(BUILD_DIR)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer, in its own build dir.
test-asan: setup
	@cmake -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=Debug -DVTASIM_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN_DIR) -j $(JOBS)
	@cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# `vtasim sweep` through a real one-node Slurm the test starts itself (root; it installs
# Slurm and munge first): --emit slurm, sbatch, --merge, the rows against a local run.
test-slurm: build
	@./scripts/setup-slurm.sh
	@cd $(BUILD_DIR) && VTASIM_REQUIRE_SLURM=1 ctest --output-on-failure -L slurm --no-tests=error

# The libFuzzer targets, FUZZ_SECONDS each (default 60), in their own clang build dir
# (docs/robustness.md): FUZZ_TARGETS picks some, FUZZ_JOBS runs that many at a time.
fuzz: setup-fuzz
	@./scripts/fuzz.sh $(FUZZ_DIR)

# N mutated streams (default 10000) on both engines under ASan+UBSan, disagreements sorted
# into races and bugs (docs/robustness.md).
fuzz-streams: setup-fuzz
	@./scripts/stream_campaign.sh $(FUZZ_DIR)

bench: build
	@./scripts/bench.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(FUZZ_DIR)
