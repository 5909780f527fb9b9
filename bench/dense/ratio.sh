#!/bin/sh
# ratio.sh - a whole `vtasim run` of a workload, and the simulation inside it, against the
# host's dense int8 convolution of the same layers (bench_dense_conv), measured in the same
# run and interleaved: ROUNDS rounds of dense (best of 3 passes), then whole run and
# simulation (bench_run_split). The best of each figure over the rounds counts, in wall
# seconds and in CPU seconds (steadier on a shared machine). Targets: whole <= 3x dense,
# simulation <= 1x dense, against each of the two dense products; a miss is reported, not
# fatal.
# Usage: bench/dense/ratio.sh [BUILD_DIR [ROUNDS [CONFIG [WORKLOAD [THREADS]]]]]
set -eu
build=${1:-build}
rounds=${2:-3}
cfg=${3:-configs/default.yaml}
wl=${4:-configs/workloads/resnet18.yaml}
threads=${5:-2}
dense="$build/bench/dense/bench_dense_conv"
split="$build/bench/dense/bench_run_split"
for b in "$dense" "$split" "$build/vtasim"; do
	[ -x "$b" ] || { echo "ratio.sh: $b not built" >&2; exit 2; }
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
r=1
while [ "$r" -le "$rounds" ]; do
	"$dense" "$wl" 3 >>"$out"
	"$split" "$build/vtasim" "$cfg" "$wl" "$threads" >>"$out"
	r=$((r + 1))
done
grep -m1 '^dense int8' "$out"
awk -v threads="$threads" '
	function keep(k, w, c) {
		if (!(k in bw) || w < bw[k]) bw[k] = w
		if (!(k in bc) || c < bc[k]) bc[k] = c
	}
	$1 == "dense_u8s8_seconds" { keep("dense_u8s8", $2, $4) }
	$1 == "dense_s8s8_seconds" { keep("dense_s8s8", $2, $4) }
	$1 == "whole_seconds" { keep("whole", $2, $4) }
	$1 == "sim_seconds" { keep("sim", $2, $4) }
	END {
		printf "%-34s %9s %9s\n", "best of the rounds", "wall_s", "cpu_s"
		printf "%-34s %9.4f %9.4f\n", "dense, u8 x s8 product", bw["dense_u8s8"], bc["dense_u8s8"]
		printf "%-34s %9.4f %9.4f\n", "dense, s8 x s8 product", bw["dense_s8s8"], bc["dense_s8s8"]
		printf "%-34s %9.4f %9.4f\n", "whole vtasim run, " threads " threads", bw["whole"], bc["whole"]
		printf "%-34s %9.4f %9.4f\n", "simulation alone", bw["sim"], bc["sim"]
		# the targets against the signed product, the form of the dense convolution they
		# were set against (docs/performance.md); the VNNI product is the stricter figure
		split("s8s8 u8s8", forms)
		names["s8s8"] = "s8 x s8 (the yardstick of the targets)"
		names["u8s8"] = "u8 x s8 (VNNI, stricter)"
		for (f = 1; f <= 2; f++) {
			d = "dense_" forms[f]
			wr = bw["whole"] / bw[d]; wc = bc["whole"] / bc[d]
			sr = bw["sim"] / bw[d]; sc = bc["sim"] / bc[d]
			printf "against the dense %s:\n", names[forms[f]]
			printf "  whole run:  %.1fx wall, %.1fx cpu (target <= 3x: %s)\n", wr, wc,
			       wc <= 3 ? "met" : "MISSED"
			printf "  simulation: %.2fx wall, %.2fx cpu (target <= 1.0x: %s)\n", sr, sc,
			       sc <= 1 ? "met" : "MISSED"
		}
	}' "$out"
