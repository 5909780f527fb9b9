#!/bin/bash
# `make fuzz`: build the libFuzzer targets (tests/fuzz/targets) with clang in their own build
# dir, seed each from the project's configs, workloads, traces, examples and test data, and
# run each for FUZZ_SECONDS (default 60), FUZZ_JOBS at a time (default 1). Corpora grow in
# BUILD/corpus/TARGET (kept between runs, outside the tree), inputs that break a contract
# land in BUILD/artifacts/TARGET, logs in BUILD/logs. Ends with one line per target (execs,
# coverage, features, corpus) in BUILD/fuzz-summary.txt; exit 1 if any target failed.
#
#   scripts/fuzz.sh [BUILD_DIR]     FUZZ_SECONDS=600 FUZZ_TARGETS="asm stream" FUZZ_JOBS=2
set -eu
cd "$(dirname "$0")/.."
B=${1:-build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
JOBS=${FUZZ_JOBS:-1}
TARGETS=${FUZZ_TARGETS:-"config workload npy lut lut_spec asm stream tflite model sim sweep debug"}
SRC=$(pwd)

CC=clang CXX=clang++ cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVTASIM_FUZZ=ON \
	-DVTASIM_WERROR=OFF >/dev/null
build=fuzz_seeds
for t in $TARGETS; do build="$build fuzz_$t"; done
cmake --build "$B" -j 2 --target $build

# seeds: rebuilt every run from the tree (the corpus keeps what the fuzzer found)
S=$B/seeds
rm -rf "$S"
for t in $TARGETS; do mkdir -p "$S/$t" "$B/corpus/$t" "$B/artifacts/$t" "$B/logs"; done
seed() { # TARGET FILE...
	t=$1; shift
	[ -d "$S/$t" ] || return 0
	for f in "$@"; do
		[ -f "$f" ] && cp "$f" "$S/$t/$(echo "$f" | tr / _)"
	done
	return 0
}
asm_files=$(ls docs/examples/*.s traces/*/program.s tests/race/bases/*.s 2>/dev/null || true)
seed config configs/*.yaml traces/*/config.yaml tests/config/*.yaml
seed workload configs/workloads/*.yaml tests/cli/workloads/*.yaml traces/src/workloads/*.yaml
seed lut_spec tests/model/data/*.yaml
seed asm $asm_files
seed tflite tests/model/data/*.tflite
# the runner's seeds: the small models (a large one only exercises its memory limit)
seed model tests/model/data/simple_add_model.tflite tests/model/data/micro_speech_quantized.tflite \
	tests/model/data/keyword_scrambled_8bit.tflite
seed sweep tests/sweep/*.yaml tests/sweep/bad/*.yaml
seed debug tests/cli/debug/*.dbg tests/cli/debug/*.txt
[ -d "$S/npy" ] && "$B/tests/fuzz/fuzz_seeds" npy "$S/npy"
[ -d "$S/lut" ] && "$B/tests/fuzz/fuzz_seeds" lut "$S/lut"
[ -d "$S/tflite" ] && "$B/tests/fuzz/fuzz_seeds" tflite "$S/tflite"
[ -d "$S/model" ] && "$B/tests/fuzz/fuzz_seeds" tflite "$S/model"
for t in stream sim; do
	[ -d "$S/$t" ] && "$B/tests/fuzz/fuzz_seeds" stream "$S/$t" $asm_files
done
for t in $TARGETS; do # the inputs that once broke a contract
	[ -d "tests/fuzz/inputs/$t" ] && cp tests/fuzz/inputs/$t/* "$S/$t/" 2>/dev/null || true
done

run() { # TARGET
	t=$1
	# SystemC's kernel keeps its coroutine stacks to the end: no leak check for the model
	leaks=1
	[ "$t" = sim ] || [ "$t" = debug ] && leaks=0
	ASAN_OPTIONS=detect_leaks=$leaks UBSAN_OPTIONS=print_stacktrace=1 \
	"$B/tests/fuzz/fuzz_$t" -max_total_time="$SECONDS_EACH" -timeout=30 -rss_limit_mb=2560 \
		-print_final_stats=1 -artifact_prefix="$SRC/$B/artifacts/$t/" \
		"$B/corpus/$t" "$S/$t" >"$B/logs/$t.log" 2>&1
	echo $? >"$B/logs/$t.rc"
}

echo "fuzzing $TARGETS: ${SECONDS_EACH} s each, $JOBS at a time"
set +e
running=0
for t in $TARGETS; do
	run "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
set -e

fail=0
: >"$B/fuzz-summary.txt"
for t in $TARGETS; do
	log=$B/logs/$t.log
	rc=$(cat "$B/logs/$t.rc")
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p')
	status=ok
	[ "$rc" = 0 ] || { status="FAILED (see $log, $B/artifacts/$t)"; fail=1; }
	printf '%-9s %6ss execs %-10s cov %-6s ft %-7s corpus %-12s %s\n' "$t" "$SECONDS_EACH" \
		"${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$status" | tee -a "$B/fuzz-summary.txt"
done
exit $fail
