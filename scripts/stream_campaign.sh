#!/bin/sh
# `make fuzz-streams`: the mutated-stream campaign (tests/fuzz/stream_campaign.c,
# docs/robustness.md) under ASan+UBSan, in the fuzz build dir: N mutants (default 10000) of
# the default-config programs of traces/, both engines, every disagreement sorted into a race
# or a bug (written to BUILD/campaign-bugs). Exit 1 on a bug.
#
#   scripts/stream_campaign.sh [BUILD_DIR]     N=10000 SEED=1
set -eu
cd "$(dirname "$0")/.."
B=${1:-build-fuzz}
CC=clang CXX=clang++ cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVTASIM_FUZZ=ON \
	-DVTASIM_WERROR=OFF >/dev/null
cmake --build "$B" -j 2 --target stream_campaign
mkdir -p "$B/campaign-bugs"
# SystemC's kernel keeps its coroutine stacks to the end: no leak check
ASAN_OPTIONS=detect_leaks=0 "$B/tests/fuzz/stream_campaign" -n "${N:-10000}" -s "${SEED:-1}" \
	-o "$B/campaign-bugs" traces/*_default*
