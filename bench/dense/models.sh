#!/bin/sh
# models.sh - whole models against the host's dense int8 convolution of the same MACs, and
# ResNet-18 C2-C11 against the fastest int8 convolution the project ships (the golden CONV2D's
# best path), measured in one run: ROUNDS rounds, each the dense convolutions of ResNet-18
# C2-C11 (bench_dense_conv: signed-by-signed products and the golden kernel, best of 3
# passes), then ResNet-18 and every model through bench_run_split (the whole `vtasim run`
# process, then the simulation alone in process). The best of each figure over the rounds
# counts, in CPU seconds (steadier on a shared machine) and wall seconds. Each round also
# times `vtasim --version` five times: the process floor every run stands on (libraries
# loaded and bound, SystemC started, nothing run), printed beside the targets it bounds.
# A model's yardstick is its accelerated operators' MACs at the s8 x s8 rate measured here.
# Targets (a miss is reported, not fatal): MobileNet v2 <= 5x, person_detect <= 10x,
# micro_speech's whole process <= 4 ms wall (on an idle machine); ResNet-18 C2-C11 whole run
# <= 3x the golden kernel, its simulation alone <= 1x.
# Usage: bench/dense/models.sh [BUILD_DIR [ROUNDS [CONFIG [THREADS]]]]
set -eu
build=${1:-build}
rounds=${2:-3}
cfg=${3:-configs/default.yaml}
threads=${4:-2}
dense="$build/bench/dense/bench_dense_conv"
split="$build/bench/dense/bench_run_split"
for b in "$dense" "$split" "$build/vtasim"; do
	[ -x "$b" ] || { echo "models.sh: $b not built" >&2; exit 2; }
done
resnet=configs/workloads/resnet18.yaml
data=tests/model/data
models="mobilenet_v2:$data/mobilenet_v2_quantized_1x3x224x224.tflite
person_detect:$data/person_detect.tflite
micro_speech:$data/micro_speech_quantized.tflite"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
r=1
while [ "$r" -le "$rounds" ]; do
	"$dense" "$resnet" 3 | sed 's/^/dense /' >>"$out"
	for f in 1 2 3 4 5; do
		"$split" --floor "$build/vtasim" | sed 's/^/floor /' >>"$out"
	done
	"$split" "$build/vtasim" "$cfg" "$resnet" "$threads" | sed 's/^/resnet18 /' >>"$out"
	for m in $models; do
		"$split" "$build/vtasim" "$cfg" "${m#*:}" "$threads" | sed "s/^/${m%%:*} /" >>"$out"
	done
	r=$((r + 1))
done
awk -v threads="$threads" '
	function keep(k, w, c) {
		if (!(k in bw) || w < bw[k]) bw[k] = w
		if (!(k in bc) || c < bc[k]) bc[k] = c
	}
	$1 == "dense" && $4 == "CONV2D" { for (i = 1; i <= NF; i++) if ($i == "M") dmacs = $(i - 1) * 1e6 }
	$1 == "dense" && $2 == "dense_s8s8_seconds" { keep("s8s8", $3, $5) }
	$1 == "dense" && $2 == "dense_golden_seconds" { keep("golden", $3, $5) }
	$1 == "floor" && $2 == "floor_seconds" { keep("floor", $3, $5) }
	$2 == "whole_seconds" { keep($1 " whole", $3, $5); names[$1] = 1 }
	$2 == "sim_seconds" { keep($1 " sim", $3, $5) }
	$2 == "macs" { macs[$1] = $3 }
	END {
		rate = dmacs / bc["s8s8"]
		printf "baselines (ResNet-18 C2-C11, %.1f M MAC, best cpu s): dense s8 x s8 %.5f (%.1f GMAC/s), golden CONV2D %.5f (%.1f GMAC/s)\n",
		       dmacs / 1e6, bc["s8s8"], rate / 1e9, bc["golden"], dmacs / bc["golden"] / 1e9
		printf "process floor (vtasim --version: libraries loaded and bound, SystemC started, nothing run): %.1f ms wall, %.1f ms cpu\n",
		       1e3 * bw["floor"], 1e3 * bc["floor"]
		printf "%-14s %10s %10s %10s %10s %11s %9s %9s\n", "model", "M MAC", "dense_s",
		       "whole_cpu", "whole_wall", "whole/dense", "sim_cpu", "sim/dense"
		split("mobilenet_v2 person_detect micro_speech resnet18", order)
		target["mobilenet_v2"] = 5; target["person_detect"] = 10
		for (i = 1; i <= 4; i++) {
			m = order[i]
			if (!(m in names)) continue
			d = macs[m] / rate
			printf "%-14s %10.1f %10.5f %10.5f %10.5f %10.1fx %9.5f %8.2fx\n", m,
			       macs[m] / 1e6, d, bc[m " whole"], bw[m " whole"], bc[m " whole"] / d,
			       bc[m " sim"], bc[m " sim"] / d
		}
		printf "targets (%s threads):\n", threads
		split("mobilenet_v2 person_detect", tm)
		for (i = 1; i <= 2; i++)
			if ((m = tm[i]) in names) {
				x = bc[m " whole"] / (macs[m] / rate)
				printf "  %s whole run: %.1fx the dense s8 x s8 convolution of its MACs (target <= %dx: %s; the process floor alone is %.1fx)\n",
				       m, x, target[m], x <= target[m] ? "met" : "MISSED",
				       bc["floor"] / (macs[m] / rate)
			}
		if ("micro_speech" in names)
			printf "  micro_speech whole process: %.1f ms wall, %.1f ms cpu (target <= 4 ms wall on an idle machine: %s; the process floor alone is %.1f ms wall)\n",
			       1e3 * bw["micro_speech whole"], 1e3 * bc["micro_speech whole"],
			       bw["micro_speech whole"] <= 0.004 ? "met" : "MISSED", 1e3 * bw["floor"]
		if ("resnet18" in names) {
			x = bc["resnet18 whole"] / bc["golden"]; y = bc["resnet18 sim"] / bc["golden"]
			printf "  resnet18 whole run: %.1fx the golden CONV2D (target <= 3x: %s)\n", x,
			       x <= 3 ? "met" : "MISSED"
			printf "  resnet18 simulation alone: %.2fx the golden CONV2D (target <= 1x: %s)\n", y,
			       y <= 1 ? "met" : "MISSED"
		}
	}' "$out"
